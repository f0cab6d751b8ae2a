//! The message header and dispatch by template id (FORMAT.md §8).

use wiremsg::{ErrorKind, FixedStr, MessageHeader, Template, WireDispatch, WireMsg};

#[path = "common/add_order.rs"]
mod add_order;
use add_order::{AddOrder, add, v1};

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2, schema_id = 7)]
struct DeleteOrder {
    order: u64,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 3, schema_id = 7)]
struct Text {
    body: String,
}

#[derive(WireDispatch, Debug, Clone, PartialEq)]
enum Feed {
    Add(AddOrder),
    Delete(DeleteOrder),
    Text(Text),
}

#[test]
fn header_bytes_are_block_length_template_schema_version() {
    let mut bytes = Vec::new();
    assert_eq!(add().encode_with_header(&mut bytes).unwrap(), 8 + 28);
    assert_eq!(&bytes[..8], &[28, 0, 1, 0, 7, 0, 2, 0]);
    let header = MessageHeader::read(&bytes).unwrap();
    assert_eq!(
        header,
        MessageHeader {
            block_length: 28,
            template_id: 1,
            schema_id: 7,
            version: 2
        }
    );
    assert_eq!(header.to_bytes(), bytes[..8]);
    let mut fixed = [0u8; 36];
    assert_eq!(add().encode_with_header_into(&mut fixed).unwrap(), 36);
    assert_eq!(fixed[..], bytes[..]);
    assert_eq!(
        add()
            .encode_with_header_into(&mut [0; 35])
            .unwrap_err()
            .kind(),
        &ErrorKind::BufferTooSmall {
            needed: 36,
            available: 35
        }
    );
}

#[test]
fn the_header_block_length_lets_fixed_messages_evolve_in_a_stream() {
    // Two messages back to back: a v1 AddOrder (24-byte block) then a delete.
    let mut stream = Vec::new();
    v1::AddOrder {
        order: 5,
        symbol: FixedStr::new("MSFT").unwrap(),
        price: 4_200_000,
    }
    .encode_with_header(&mut stream)
    .unwrap();
    let first_len = stream.len();
    DeleteOrder { order: 5 }
        .encode_with_header(&mut stream)
        .unwrap();

    // The v2 reader takes the block length from the header, not from the buffer.
    let (header, view) = AddOrder::view_with_header(&stream).unwrap();
    assert_eq!((header.version, header.block_length), (1, 24));
    assert_eq!(view.price(), 4_200_000);
    assert!(!view.has_shares());
    assert_eq!(8 + view.as_bytes().unwrap().len(), first_len);
    let (_, next) = Feed::view(&stream[first_len..]).unwrap();
    assert!(matches!(next, FeedView::Delete(d) if d.order() == 5));

    // And the v1 reader of v2 bytes skips the 4 bytes it does not know.
    let mut new = Vec::new();
    add().encode_with_header(&mut new).unwrap();
    let (_, old) = v1::AddOrder::view_with_header(&new).unwrap();
    assert_eq!(old.symbol(), "MSFT");
}

#[test]
fn dispatch_views_decodes_and_encodes_every_variant() {
    let messages = [
        Feed::Add(add()),
        Feed::Delete(DeleteOrder { order: 6 }),
        Feed::Text(Text {
            body: "halt".into(),
        }),
    ];
    let mut stream = Vec::new();
    let mut ends = Vec::new();
    for m in &messages {
        m.encode_with_header(&mut stream).unwrap();
        ends.push(stream.len());
    }
    let mut start = 0;
    for (m, end) in messages.iter().zip(ends) {
        let frame = &stream[start..end];
        assert_eq!(&Feed::decode(frame).unwrap(), m);
        let (header, view) = Feed::view(frame).unwrap();
        assert_eq!(header, m.header());
        match (view, m) {
            (FeedView::Add(v), Feed::Add(a)) => assert_eq!(v.shares(), a.shares),
            (FeedView::Delete(v), Feed::Delete(d)) => assert_eq!(v.order(), d.order),
            (FeedView::Text(v), Feed::Text(t)) => assert_eq!(v.body(), t.body),
            (v, m) => panic!("{v:?} for {m:?}"),
        }
        start = end;
    }
}

#[test]
fn bad_headers_are_clear_errors() {
    let mut bytes = Vec::new();
    add().encode_with_header(&mut bytes).unwrap();

    let mut unknown = bytes.clone();
    unknown[2] = 99;
    let err = Feed::view(&unknown).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnexpectedTemplate {
            template_id: 99,
            schema_id: 7,
            expected: u16::MAX
        }
    );
    assert_eq!(
        err.to_string(),
        "unknown template id 99 (schema 7) at byte 2"
    );
    assert_eq!(
        DeleteOrder::view_with_header(&bytes).unwrap_err().kind(),
        &ErrorKind::UnexpectedTemplate {
            template_id: 1,
            schema_id: 7,
            expected: 2
        }
    );

    let mut other_schema = bytes.clone();
    other_schema[4] = 8;
    let err = Feed::view(&other_schema).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::SchemaMismatch {
            schema_id: 8,
            expected: 7
        }
    );
    assert_eq!(err.offset(), 4);

    // A newer writer's block length that claims more than is there.
    let mut lying = bytes.clone();
    lying[0] = 200;
    lying[6] = 9;
    assert_eq!(
        AddOrder::view_with_header(&lying).unwrap_err().kind(),
        &ErrorKind::Truncated {
            needed: 208,
            available: 36
        }
    );
    // A block length under the block of the version the header names (or, for a
    // newer version, under this reader's block) is too small, not truncated; one over
    // the block of a version this reader knows, or a version 0, disagrees.
    let too_small = |declared, required, version| ErrorKind::BlockLengthTooSmall {
        declared,
        required,
        version,
    };
    let mismatch = |block_length, version, expected| ErrorKind::HeaderMismatch {
        block_length,
        version,
        expected,
    };
    for (block_length, version, kind) in [
        (200, 2, mismatch(200, 2, 28)),
        (10, 2, too_small(10, 28, 2)),
        (24, 2, too_small(24, 28, 2)),
        (0, 1, too_small(0, 24, 1)),
        (20, 1, too_small(20, 24, 1)),
        (28, 1, mismatch(28, 1, 24)),
        (10, 9, too_small(10, 28, 2)),
        (27, 9, too_small(27, 28, 2)),
        (28, 0, mismatch(28, 0, 0)),
    ] {
        let mut bad = bytes.clone();
        bad[0] = block_length;
        bad[6] = version;
        for err in [
            AddOrder::view_with_header(&bad).unwrap_err(),
            Feed::view(&bad).unwrap_err(),
        ] {
            assert_eq!(
                err.kind(),
                &kind,
                "block length {block_length}, version {version}"
            );
            assert_eq!(err.offset(), 0);
        }
    }
    let mut short = bytes.clone();
    short[0] = 20;
    short[6] = 1;
    assert_eq!(
        AddOrder::view_with_header(&short).unwrap_err().to_string(),
        "block length 20 is too small: a writer of version 1 or later writes at least 24 bytes at byte 0"
    );
    // A message with a tail states its block length twice: both must agree.
    let mut text = Vec::new();
    Text { body: "ok".into() }
        .encode_with_header(&mut text)
        .unwrap();
    for (block_length, version) in [(0xFFFFu16, 9u16), (7, 9), (7, 1)] {
        let mut bad = text.clone();
        bad[..2].copy_from_slice(&block_length.to_le_bytes());
        bad[6..8].copy_from_slice(&version.to_le_bytes());
        let err = Feed::view(&bad).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::HeaderMismatch { .. }),
            "{block_length} {version}: {err}"
        );
    }
    let err = Text::view_with_header(&[7, 0, 3, 0, 7, 0, 9, 0, 6, 0, 6, 0, 0, 0]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "header block length 7 (version 9) disagrees with the message's 6 at byte 0"
    );
    // Under the message's block, the header's block length is too small.
    let err = Text::view_with_header(&[0, 0, 3, 0, 7, 0, 1, 0, 6, 0, 6, 0, 0, 0]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BlockLengthTooSmall {
            declared: 0,
            required: 6,
            version: 1
        }
    );
    for len in 0..8 {
        assert_eq!(
            Feed::view(&bytes[..len]).unwrap_err().kind(),
            &ErrorKind::Truncated {
                needed: 8,
                available: len
            }
        );
    }
    // Errors inside the message count offsets from the start of the header.
    let mut text = Vec::new();
    Text { body: "ok".into() }
        .encode_with_header(&mut text)
        .unwrap();
    let last = text.len() - 1;
    text[last] = 0xFF;
    let err = Feed::view(&text).unwrap_err();
    assert_eq!((err.path().as_str(), err.offset()), ("body", last));
}

/// The mutable twins of the header paths (`view_mut_with_header`, a dispatch enum's
/// `view_mut`) accept and refuse exactly what the views do, with the same errors, and
/// write into the message after the header.
#[test]
fn mutable_views_after_a_header() {
    let mut bytes = Vec::new();
    add().encode_with_header(&mut bytes).unwrap();
    let (header, mut edit) = AddOrder::view_mut_with_header(&mut bytes).unwrap();
    assert_eq!(header, add().header());
    edit.set_price(4_300_000);
    assert!(edit.set_shares(250));
    assert_eq!(
        AddOrder::view_with_header(&bytes).unwrap().1.decode(),
        AddOrder {
            price: 4_300_000,
            shares: 250,
            ..add()
        }
    );
    // Only the message's bytes changed, at the offsets of its fields.
    let mut expected = Vec::new();
    AddOrder {
        price: 4_300_000,
        shares: 250,
        ..add()
    }
    .encode_with_header(&mut expected)
    .unwrap();
    assert_eq!(bytes, expected);

    // Through the dispatch enum, for each variant.
    let mut text = Vec::new();
    Text { body: "hi".into() }
        .encode_with_header(&mut text)
        .unwrap();
    match Feed::view_mut(&mut bytes).unwrap() {
        (h, FeedMut::Add(mut a)) => {
            assert_eq!(h.template_id, 1);
            a.set_order(77);
        }
        (_, other) => panic!("{other:?}"),
    }
    assert_eq!(AddOrder::view_with_header(&bytes).unwrap().1.order(), 77);
    match Feed::view_mut(&mut text).unwrap() {
        (_, FeedMut::Text(t)) => assert_eq!(t.body(), "hi"),
        (_, other) => panic!("{other:?}"),
    }

    // A version-1 writer's frame: the later field is not there to set.
    let mut old = Vec::new();
    v1::AddOrder {
        order: 5,
        symbol: FixedStr::new("MSFT").unwrap(),
        price: 1,
    }
    .encode_with_header(&mut old)
    .unwrap();
    let (header, mut edit) = AddOrder::view_mut_with_header(&mut old).unwrap();
    assert_eq!((header.version, header.block_length), (1, 24));
    assert!(!edit.set_shares(9), "nothing written");
    assert_eq!(old.len(), 8 + 24);

    // Every corruption of every byte of the two frames fails (or passes) alike in
    // the views and the mutable views, with the same kind and offset.
    for frame in [bytes.clone(), text.clone(), old.clone()] {
        for at in 0..frame.len() {
            for value in [0u8, 1, 7, 24, 28, 0xFF] {
                let mut bad = frame.clone();
                bad[at] = value;
                let expect =
                    |r: Result<(), wiremsg::Error>| r.map_err(|e| (e.kind().clone(), e.offset()));
                let view = expect(AddOrder::view_with_header(&bad).map(drop));
                let mut copy = bad.clone();
                let view_mut = expect(AddOrder::view_mut_with_header(&mut copy).map(drop));
                assert_eq!(view, view_mut, "byte {at} = {value}");
                let view = expect(Feed::view(&bad).map(drop));
                let view_mut = expect(Feed::view_mut(&mut copy).map(drop));
                assert_eq!(view, view_mut, "byte {at} = {value}");
            }
        }
    }
    assert_eq!(
        Feed::view_mut(&mut [9, 0, 9, 0, 7, 0, 1, 0])
            .unwrap_err()
            .kind(),
        &ErrorKind::UnexpectedTemplate {
            template_id: 9,
            schema_id: 7,
            expected: u16::MAX
        }
    );
    assert_eq!(
        Feed::view_mut(&mut [8, 0, 2, 0, 8, 0, 1, 0])
            .unwrap_err()
            .kind(),
        &ErrorKind::SchemaMismatch {
            schema_id: 8,
            expected: 7
        }
    );
}

/// The dispatch enum's check of distinct ids (one constant check per variant, against
/// the earlier ones): the first earlier variant with both ids, skipping variants
/// without a template id (their guard reports them), and the message it composes.
#[test]
fn a_dispatch_enums_duplicate_ids_are_found_against_every_earlier_variant() {
    use wiremsg::__private::{ConstMessage, same_template_before};
    let ids = [
        (true, 1, 6),
        (false, 0, 0),
        (true, 2, 6),
        (true, 1, 7),
        (true, 1, 6),
    ];
    assert_eq!(same_template_before(&ids, 0), None);
    assert_eq!(same_template_before(&ids, 1), None);
    assert_eq!(same_template_before(&ids, 2), None);
    // Same template id, another schema: distinct.
    assert_eq!(same_template_before(&ids, 3), None);
    assert_eq!(same_template_before(&ids, 4), Some(0));
    // Not a template: never a duplicate, of an earlier variant's zeros either.
    assert_eq!(
        same_template_before(&[(true, 0, 0), (false, 0, 0)], 1),
        None
    );
    let m = ConstMessage::of(&["`", "Add", "` and `", "Delete", "`"]);
    assert_eq!(m.as_str(), "`Add` and `Delete`");
    // A part that does not fit is left out whole.
    let long = "x".repeat(1020);
    assert_eq!(ConstMessage::of(&["abc", &long, "de"]).as_str().len(), 1023);
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Untemplated {
    body: String,
}

/// `view` of a message with a template id, written with its header: the header is
/// read as the message's block (its first `u16`, the block length, is where the
/// message's own is), and the error names the likely cause.
#[test]
fn a_message_viewed_with_its_header_in_front_is_hinted_at() {
    let text = Text {
        body: "hello".into(),
    };
    let mut framed = Vec::new();
    text.encode_with_header(&mut framed).unwrap();

    let err = Text::view(&framed).unwrap_err();
    if !cfg!(debug_assertions) {
        // A diagnostic of builds with debug assertions only (`WireMsg::view`).
        assert_eq!(err.hint(), None);
        return;
    }
    let hint = err.hint().expect("a hint");
    assert!(hint.contains("`Template::view_with_header`"), "{hint}");
    // The error itself is the validation's, unchanged; the hint ends the message.
    assert_eq!(err.offset(), 2);
    assert_eq!(err.path(), "body");
    assert!(err.to_string().ends_with(hint), "{err}");
    assert!(
        err.to_string()
            .starts_with("truncated: needs 458755 bytes, has 19 at byte 2 in `body`; "),
        "{err}"
    );
    let mut copy = framed.clone();
    assert_eq!(Text::view_mut(&mut copy).unwrap_err().hint(), Some(hint));
    assert_eq!(Text::view_with_header(&framed).unwrap().1.body(), "hello");

    // No hint where the header is not this message's, the rest is not a valid
    // message, or the type has no template id.
    let other_template = [&[4, 0, 9, 0, 7, 0, 1, 0][..], &framed[8..]].concat();
    assert_eq!(Text::view(&other_template).unwrap_err().hint(), None);
    let other_schema = [&[4, 0, 3, 0, 8, 0, 1, 0][..], &framed[8..]].concat();
    assert_eq!(Text::view(&other_schema).unwrap_err().hint(), None);
    let mut corrupt = framed.clone();
    *corrupt.last_mut().unwrap() = 0xFF; // not UTF-8
    assert_eq!(Text::view(&corrupt).unwrap_err().hint(), None);
    let plain = Untemplated {
        body: "hello".into(),
    }
    .to_bytes()
    .unwrap();
    let headed = [&[4, 0, 3, 0, 7, 0, 1, 0][..], &plain].concat();
    assert_eq!(Untemplated::view(&headed).unwrap_err().hint(), None);
    // Bytes without a header fail without a hint.
    assert_eq!(Text::view(&framed[..5]).unwrap_err().hint(), None);
    // Nor where `view_with_header` would refuse the header: version 0, a block
    // length other than the version's.
    for (at, byte) in [(6, 0), (0, 99)] {
        let mut bad = framed.clone();
        bad[at] = byte;
        assert!(Text::view_with_header(&bad).is_err());
        assert_eq!(
            Text::view(&bad).unwrap_err().hint(),
            None,
            "byte {at} = {byte}"
        );
    }
    // A frame whose message is itself a frame (framed twice): the readers of frames
    // report the inner header's misreading without the hint, which would tell them to
    // do what they do.
    let twice = [&framed[..8], &framed[..]].concat();
    for err in [
        Text::view_with_header(&twice).unwrap_err(),
        Feed::view(&twice).unwrap_err(),
        Feed::decode(&twice).unwrap_err(),
    ] {
        assert_eq!((err.offset(), err.path().as_str()), (10, "body"), "{err}");
        assert_eq!(err.hint(), None, "{err}");
    }
}
