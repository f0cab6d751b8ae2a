//! The trusted path for framed messages: `view_unchecked_with_header` and
//! `view_mut_unchecked_with_header` check the header as `view_with_header` does
//! (FORMAT.md §8) and trust the message after it. Every frame reads as the checked
//! path reads it, across versions; a header the checked path refuses is refused
//! alike. Also under Miri in `.ci/run`, which reports an out-of-bounds read if the
//! trusted message were taken from the wrong bytes.

use wiremsg::{
    ErrorKind, FixedStr, FrameReader, FrameWriter, MessageHeader, Template, WireDispatch, WireMsg,
    view_mut_unchecked_with_header, view_unchecked_with_header,
};

#[path = "common/add_order.rs"]
mod add_order;
use add_order::{AddOrder, add, v1};

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2, schema_id = 7)]
struct Report {
    order: u64,
    venue: String,
    fills: Vec<u32>,
}

/// Frames of `add()` whose headers the checked path refuses, each with what is wrong.
fn refused_headers() -> Vec<(&'static str, Vec<u8>)> {
    let good = framed(&add());
    let with = |at: usize, byte: u8| {
        let mut b = good.clone();
        b[at] = byte;
        b
    };
    vec![
        ("cut inside the header", good[..5].to_vec()),
        ("cut inside the block", good[..20].to_vec()),
        ("an unknown template id", with(2, 9)),
        ("another schema id", with(4, 8)),
        ("version 0", with(6, 0)),
        ("a block shorter than its version's", with(0, 20)),
    ]
}

fn framed(message: &impl Template) -> Vec<u8> {
    let mut bytes = Vec::new();
    message.encode_with_header(&mut bytes).unwrap();
    bytes
}

#[test]
fn a_trusted_stream_reads_as_the_checked_path_reads_it() {
    let report = Report {
        order: 5,
        venue: "XNAS".into(),
        fills: vec![100, 200],
    };
    let mut writer = FrameWriter::new(Vec::new());
    writer.write(&add()).unwrap();
    writer.write(&report).unwrap();
    writer
        .write(&v1::AddOrder {
            order: 6,
            symbol: FixedStr::new("AAPL").unwrap(),
            price: 1,
        })
        .unwrap();
    let stream = writer.into_inner();
    let mut reader = FrameReader::new(&stream[..]);
    let mut seen = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        match MessageHeader::read(frame).unwrap().template_id {
            AddOrder::TEMPLATE_ID => {
                // SAFETY: this test wrote every frame.
                let (header, add) =
                    unsafe { view_unchecked_with_header::<AddOrder>(frame) }.unwrap();
                let (checked_header, checked) = AddOrder::view_with_header(frame).unwrap();
                assert_eq!(header, checked_header);
                assert_eq!(add, checked);
                assert_eq!(
                    (add.has_shares(), add.version()),
                    (checked.has_shares(), checked.version())
                );
                seen.push(add.decode().order);
                // The other type's reader refuses the frame by its header.
                // SAFETY: every frame naming Report is one this test wrote.
                let err = unsafe { view_unchecked_with_header::<Report>(frame) }.unwrap_err();
                let checked = Report::view_with_header(frame).unwrap_err();
                assert_eq!(
                    (err.kind(), err.offset()),
                    (checked.kind(), checked.offset())
                );
                assert!(matches!(
                    err.kind(),
                    ErrorKind::UnexpectedTemplate { expected: 2, .. }
                ));
            }
            Report::TEMPLATE_ID => {
                // SAFETY: this test wrote every frame.
                let (_, view) = unsafe { view_unchecked_with_header::<Report>(frame) }.unwrap();
                assert_eq!(view.decode(), report);
                seen.push(view.order());
            }
            other => panic!("template id {other}"),
        }
    }
    assert_eq!(seen, [5, 5, 6]);
}

/// The header's block length bounds the block, as on the checked path: a newer
/// reader of an older frame reads no field the writer did not have, and an older
/// reader of a newer frame reads its own block of it, even with bytes after the frame.
#[test]
fn versions_read_through_the_header_block_length() {
    let old = framed(&v1::AddOrder {
        order: 7,
        symbol: FixedStr::new("IBM").unwrap(),
        price: 3,
    });
    let mut old_and_more = old.clone();
    old_and_more.extend_from_slice(&[0xEE; 4]);
    // SAFETY: the frames above were written by this test (the 4 bytes after the first
    // are outside the block its header announces).
    let (header, view) = unsafe { view_unchecked_with_header::<AddOrder>(&old_and_more) }.unwrap();
    assert_eq!((header.version, header.block_length), (1, 24));
    assert_eq!((view.order(), view.try_shares()), (7, None));
    assert_eq!(view, AddOrder::view_with_header(&old_and_more).unwrap().1);

    let new = framed(&add());
    // SAFETY: written just above.
    let (header, view) = unsafe { view_unchecked_with_header::<v1::AddOrder>(&new) }.unwrap();
    assert_eq!((header.version, header.block_length), (2, 28));
    assert_eq!(
        view.decode(),
        v1::AddOrder::view_with_header(&new).unwrap().1.decode()
    );
}

/// What the checked path refuses in a header, the unchecked one refuses alike (kind
/// and offset): the checks are the same function.
#[test]
fn a_header_the_checked_path_refuses_is_refused() {
    for (name, bytes) in refused_headers() {
        let checked = AddOrder::view_with_header(&bytes).unwrap_err();
        // SAFETY: nothing is read past a header that fails.
        let err = unsafe { view_unchecked_with_header::<AddOrder>(&bytes) }.unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (checked.kind(), checked.offset()),
            "{name}"
        );
        let mut copy = bytes.clone();
        // SAFETY: as above.
        let err = unsafe { view_mut_unchecked_with_header::<AddOrder>(&mut copy) }.unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (checked.kind(), checked.offset()),
            "{name}"
        );
        assert_eq!(copy, bytes, "{name}: nothing written");
    }
}

#[test]
fn a_trusted_frame_is_updated_in_place_within_its_block() {
    let mut frame = framed(&add());
    // SAFETY: written just above.
    let (_, mut view) = unsafe { view_mut_unchecked_with_header::<AddOrder>(&mut frame) }.unwrap();
    view.set_price(4_210_000);
    assert!(view.set_shares(300));
    let read = AddOrder::view_with_header(&frame).unwrap().1;
    assert_eq!((read.price(), read.shares()), (4_210_000, 300));

    // An older writer's frame: the newer field is not there to set, and the bytes
    // after the announced block are not touched.
    let mut old = framed(&v1::AddOrder {
        order: 7,
        symbol: FixedStr::new("IBM").unwrap(),
        price: 3,
    });
    old.extend_from_slice(&[0xEE; 4]);
    // SAFETY: written just above (the 4 bytes are outside the announced block).
    let (_, mut view) = unsafe { view_mut_unchecked_with_header::<AddOrder>(&mut old) }.unwrap();
    assert!(!view.set_shares(300));
    view.update_price(|p| p * 2);
    assert_eq!(&old[old.len() - 4..], [0xEE; 4]);
    assert_eq!(AddOrder::view_with_header(&old).unwrap().1.price(), 6);
}

/// The safety contract is about `T::view` of the message after the header, not about
/// `view_with_header`, which a hand-written `Template` may override (a hostile review
/// showed an override that returns `Ok` over other bytes): the unchecked path never
/// calls it.
#[test]
fn the_unchecked_path_does_not_call_a_hand_written_view_with_header() {
    #[derive(WireMsg, Debug)]
    struct Ping {
        seq: u32,
    }
    impl Template for Ping {
        const TEMPLATE_ID: u16 = 9;
        const SCHEMA_ID: u16 = 0;

        fn view_with_header(bytes: &[u8]) -> Result<(MessageHeader, PingView<'_>), wiremsg::Error> {
            Err(wiremsg::Error::new(
                ErrorKind::TooLarge { len: bytes.len() },
                0,
            ))
        }
    }
    let frame = framed(&Ping { seq: 3 });
    assert!(Ping::view_with_header(&frame).is_err());
    assert!(Ping::view(&frame[MessageHeader::LEN..]).is_ok());
    // SAFETY: `Ping::view` of the message after the header is `Ok` (just above).
    let (header, ping) = unsafe { view_unchecked_with_header::<Ping>(&frame) }.unwrap();
    assert_eq!((header.template_id, ping.seq()), (9, 3));
}

#[derive(WireDispatch, Debug, Clone, PartialEq)]
enum Feed {
    Add(AddOrder),
    Report(Report),
}

/// A dispatch enum's trusted path: the header checked as `view` checks it (the same errors, kind and offset), the message of the
/// variant it names read as the checked path reads it, across versions.
#[test]
fn a_dispatch_enum_reads_a_trusted_stream_as_the_checked_path_reads_it() {
    let report = Report {
        order: 5,
        venue: "XNAS".into(),
        fills: vec![100, 200],
    };
    let frames = [
        framed(&add()),
        framed(&report),
        framed(&v1::AddOrder {
            order: 6,
            symbol: FixedStr::new("AAPL").unwrap(),
            price: 1,
        }),
    ];
    assert_eq!(Feed::decode(&frames[0]).unwrap(), Feed::Add(add()));
    assert_eq!(
        Feed::decode(&frames[1]).unwrap(),
        Feed::Report(report.clone())
    );
    for frame in &frames {
        // SAFETY: this test wrote every frame.
        let (header, view) = unsafe { Feed::view_unchecked(frame) }.unwrap();
        let (checked_header, checked) = Feed::view(frame).unwrap();
        assert_eq!((header, view), (checked_header, checked));
        match view {
            FeedView::Add(add) => assert_eq!(add.try_shares(), checked_add(frame).try_shares()),
            FeedView::Report(view) => assert_eq!(view.decode(), report),
        }
    }

    // A header the checked path refuses is refused alike, and nothing is read after it.
    for (name, bytes) in refused_headers() {
        let checked = Feed::view(&bytes).unwrap_err();
        // SAFETY: nothing is read past a header that fails.
        let err = unsafe { Feed::view_unchecked(&bytes) }.unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (checked.kind(), checked.offset()),
            "{name}"
        );
        let mut copy = bytes.clone();
        // SAFETY: as above.
        let err = unsafe { Feed::view_mut_unchecked(&mut copy) }.unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (checked.kind(), checked.offset()),
            "{name}"
        );
        assert_eq!(copy, bytes, "{name}: nothing written");
    }
    assert!(matches!(
        Feed::view(&refused_headers()[2].1).unwrap_err().kind(),
        ErrorKind::UnexpectedTemplate { template_id: 9, .. }
    ));
}

fn checked_add(frame: &[u8]) -> <AddOrder as WireMsg>::View<'_> {
    AddOrder::view_with_header(frame).unwrap().1
}

/// `view_mut_unchecked` updates the frame of the variant its header names in place.
#[test]
fn a_dispatch_enum_updates_a_trusted_frame_in_place() {
    let mut frame = framed(&add());
    // SAFETY: written just above.
    let (header, view) = unsafe { Feed::view_mut_unchecked(&mut frame) }.unwrap();
    assert_eq!(header.template_id, AddOrder::TEMPLATE_ID);
    let FeedMut::Add(mut add) = view else {
        panic!("the frame is an AddOrder");
    };
    add.set_price(4_210_000);
    assert!(add.set_shares(300));
    let read = checked_add(&frame);
    assert_eq!((read.price(), read.shares()), (4_210_000, 300));
    // The checked twin (validated through the hint-free `view_mut_of_message`; here
    // so that Miri runs it too).
    let FeedMut::Add(mut add) = Feed::view_mut(&mut frame).unwrap().1 else {
        panic!("the frame is an AddOrder");
    };
    add.update_price(|p| p + 1);
    assert_eq!(checked_add(&frame).price(), 4_210_001);
    let mut text = framed(&Report {
        order: 1,
        venue: "XNAS".into(),
        fills: vec![],
    });
    let (_, mut report) = Report::view_mut_with_header(&mut text).unwrap();
    report.set_order(2);
    assert_eq!(Report::view_with_header(&text).unwrap().1.order(), 2);
}
