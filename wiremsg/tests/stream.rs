//! Self-describing streams (FORMAT.md §12): the golden vector F2, writers that put a
//! schema frame before each type's first message (FrameWriter, WireCodec, put_frame),
//! readers with the types that skip them or check them (mismatches named with both
//! fingerprints, other versions not compared), the schema-driven reader of a stream
//! (`dynamic::SchemaRegistry`: latest wins, a given schema first, undescribed types),
//! and hostile schema frames: cut, corrupted, invalid, claiming the reserved pair.

#[path = "common/golden.rs"]
mod format_golden;
use bytes::BytesMut;
use format_golden::golden;
use tokio_util::codec::{Decoder, Encoder};
use wiremsg::dynamic::{SchemaRegistry, StreamFrame, Value};
use wiremsg::frame::{WireCodec, is_schema_frame, put_frame, put_schema_frame, read_schema_frame};
use wiremsg::{
    ErrorKind, Fingerprint, FixedStr, FrameReader, FrameWriter, SchemaSet, Template, WireDispatch,
    WireMsg,
};

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1)]
struct Ping {
    seq: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    qty: u32,
    px: i64,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2, schema_id = 5)]
struct Order {
    id: u64,
    symbol: FixedStr<8>,
    legs: Vec<Leg>,
    note: String,
}

#[derive(WireDispatch, Debug, Clone, PartialEq)]
enum Feed {
    Ping(Ping),
    Order(Order),
}

fn order(id: u64) -> Order {
    Order {
        id,
        symbol: FixedStr::new("MSFT").unwrap(),
        legs: vec![Leg { qty: 10, px: -5 }, Leg { qty: 20, px: 7 }],
        note: "rush".into(),
    }
}

/// Every frame of `stream`, schema frames included, as (is schema frame, bytes).
fn frames(stream: &[u8]) -> Vec<(bool, Vec<u8>)> {
    let mut reader = FrameReader::new(stream);
    let mut out = Vec::new();
    while let Some(frame) = reader.next_any_frame().unwrap() {
        out.push((is_schema_frame(frame), frame.to_vec()));
    }
    out
}

/// A frame of `body` (header and message): its length prefix, then the bytes.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = (body.len() as u32).to_le_bytes().to_vec();
    out.extend_from_slice(body);
    out
}

#[test]
fn f2_golden_schema_frame_then_message() {
    let bytes = golden("F2");
    assert_eq!(bytes.len(), 133);
    assert_eq!(bytes[4..117], golden("S1")[..]);

    // Each writer writes exactly F2.
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    assert_eq!(writer.write(&Ping { seq: 9 }).unwrap(), 133);
    assert_eq!(writer.get_ref(), &bytes);
    let mut codec = WireCodec::new().with_schema_frames();
    let mut wire = BytesMut::new();
    codec.encode(&Ping { seq: 9 }, &mut wire).unwrap();
    assert_eq!(wire[..], bytes[..]);
    let mut buf = BytesMut::new();
    put_schema_frame(&mut buf, &SchemaSet::of::<Ping>().unwrap()).unwrap();
    put_frame(&mut buf, &Ping { seq: 9 }).unwrap();
    assert_eq!(buf[..], bytes[..]);

    // A reader with the type: one message.
    let mut reader = FrameReader::new(&bytes[..]);
    let (header, ping) = reader.next_view::<Ping>().unwrap().unwrap();
    assert_eq!((header.template_id, ping.seq()), (1, 9));
    assert!(reader.next_view::<Ping>().unwrap().is_none());
    let mut checked =
        FrameReader::new(&bytes[..]).check_schema_frames(SchemaSet::of::<Ping>().unwrap());
    assert_eq!(checked.next_view::<Ping>().unwrap().unwrap().1.seq(), 9);

    // A reader without it: the schema, then the message.
    let mut registry = SchemaRegistry::new();
    let mut reader = FrameReader::new(&bytes[..]);
    match registry
        .read(reader.next_any_frame().unwrap().unwrap())
        .unwrap()
    {
        StreamFrame::Schema(set) => {
            assert_eq!(*set, SchemaSet::of::<Ping>().unwrap());
            let ping = set.describe(0, 1).unwrap();
            assert_eq!(ping.fingerprint, Fingerprint(0xba99_f373_cf39_47a7));
            assert_eq!(
                ping.to_string(),
                "Ping t1 s0 v1 fingerprint ba99f373cf3947a7"
            );
        }
        other => panic!("{other:?}"),
    }
    match registry
        .read(reader.next_any_frame().unwrap().unwrap())
        .unwrap()
    {
        StreamFrame::Message(header, view) => {
            assert_eq!(header.version, 1);
            assert_eq!(view.to_string(), "Ping { seq: 9 }");
        }
        other => panic!("{other:?}"),
    }
    assert!(reader.next_any_frame().unwrap().is_none());
}

#[test]
fn a_schema_frame_before_the_first_message_of_each_type_only() {
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    let plain_ping = 4 + Ping { seq: 0 }.encoded_len_with_header();
    let plain_order = 4 + order(0).encoded_len_with_header();
    let ping_schema = 4 + SchemaSet::of::<Ping>().unwrap().to_bytes().unwrap().len();
    let order_schema = 4 + SchemaSet::of::<Order>().unwrap().to_bytes().unwrap().len();
    assert_eq!(
        writer.write(&Ping { seq: 1 }).unwrap(),
        ping_schema + plain_ping
    );
    assert_eq!(writer.write(&order(1)).unwrap(), order_schema + plain_order);
    assert_eq!(writer.write(&Ping { seq: 2 }).unwrap(), plain_ping);
    assert_eq!(writer.write(&order(2)).unwrap(), plain_order);
    let stream = writer.into_inner();

    let kinds: Vec<bool> = frames(&stream).into_iter().map(|(s, _)| s).collect();
    assert_eq!(kinds, [true, false, true, false, false, false]);
    let all = frames(&stream);
    assert_eq!(
        read_schema_frame(&all[2].1).unwrap(),
        SchemaSet::of::<Order>().unwrap() // Order and the Leg it nests
    );

    // The dispatch path skips schema frames, checked or not.
    for checked in [false, true] {
        let mut reader = FrameReader::new(&stream[..]);
        if checked {
            reader = reader.check_schema_frames(Feed::schema_set().unwrap());
        }
        let mut got = Vec::new();
        while let Some(frame) = reader.next_frame().unwrap() {
            got.push(Feed::decode(frame).unwrap());
        }
        assert_eq!(
            got,
            [
                Feed::Ping(Ping { seq: 1 }),
                Feed::Order(order(1)),
                Feed::Ping(Ping { seq: 2 }),
                Feed::Order(order(2))
            ]
        );
    }
}

#[test]
fn a_dispatch_enum_is_described_by_its_variants() {
    // Before: the first write of a dispatch enum to a describing writer failed with
    // UndescribedTemplate until its schema_set() was written by hand.
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&Feed::Ping(Ping { seq: 1 })).unwrap();
    writer.write(&Feed::Order(order(3))).unwrap();
    writer.write(&order(4)).unwrap(); // described by the variant's write already
    writer.write(&Feed::Ping(Ping { seq: 2 })).unwrap();
    let stream = writer.into_inner();
    let all = frames(&stream);
    let kinds: Vec<bool> = all.iter().map(|(s, _)| *s).collect();
    assert_eq!(kinds, [true, false, true, false, false, false]);
    assert_eq!(
        read_schema_frame(&all[0].1).unwrap(),
        SchemaSet::of::<Ping>().unwrap()
    );
    assert_eq!(
        read_schema_frame(&all[2].1).unwrap(),
        SchemaSet::of::<Order>().unwrap()
    );
    // A reader without the types reads every message.
    let mut registry = SchemaRegistry::new();
    let seen = all
        .iter()
        .filter(|(schema, _)| !schema)
        .map(|(_, frame)| registry_line(&mut registry, &all, frame))
        .collect::<Vec<_>>();
    assert_eq!(seen.len(), 4);
    assert!(seen[0].starts_with("Ping { seq: 1 }"), "{seen:?}");

    // Up front still works, and then nothing more is written before the messages.
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    let schema_len = writer.write_schema(&Feed::schema_set().unwrap()).unwrap();
    writer.write(&Feed::Ping(Ping { seq: 1 })).unwrap();
    writer.write(&Feed::Order(order(3))).unwrap();
    let stream = writer.into_inner();
    let kinds: Vec<bool> = frames(&stream).into_iter().map(|(s, _)| s).collect();
    assert_eq!(kinds, [true, false, false]);
    assert_eq!(frames(&stream)[0].1.len() + 4, schema_len);

    // The codec, the same: the variant's schema frame, then the value.
    let mut codec = WireCodec::new().with_schema_frames();
    let mut wire = BytesMut::new();
    codec.encode(&Feed::Order(order(5)), &mut wire).unwrap();
    codec.encode(&Feed::Order(order(6)), &mut wire).unwrap();
    assert!(is_schema_frame(&wire[4..]));
    let mut decoder = WireCodec::new().check_schema_frames(Feed::schema_set().unwrap());
    for id in [5, 6] {
        let frame = decoder.decode(&mut wire).unwrap().unwrap();
        assert_eq!(Feed::decode(&frame).unwrap(), Feed::Order(order(id)));
    }
    assert!(decoder.decode(&mut wire).unwrap().is_none());
}

/// The text of message `frame` as a registry that learned every schema frame of `all`
/// before it reads it.
fn registry_line(registry: &mut SchemaRegistry, all: &[(bool, Vec<u8>)], frame: &[u8]) -> String {
    for (schema, bytes) in all {
        if std::ptr::eq(bytes.as_slice(), frame) {
            break;
        }
        if *schema {
            registry.learn(bytes).unwrap();
        }
    }
    registry.view(frame).unwrap().1.to_string()
}

mod quote_v1 {
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 7)]
    pub(crate) struct Quote {
        pub(crate) px: i64,
    }
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 7, version = 2)]
struct Quote {
    px: i64,
    #[wire(since = 2)]
    size: u32,
}

#[test]
fn each_version_of_a_type_gets_its_schema_frame() {
    // Before: one writer of a v1 and then a v2 message of template id 7 described v1
    // only, and a schema-driven reader printed the v2 message without `size`.
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&quote_v1::Quote { px: 1 }).unwrap();
    writer.write(&Quote { px: 2, size: 30 }).unwrap();
    writer.write(&quote_v1::Quote { px: 3 }).unwrap();
    writer.write(&Quote { px: 4, size: 40 }).unwrap();
    let stream = writer.into_inner();
    let all = frames(&stream);
    let kinds: Vec<bool> = all.iter().map(|(s, _)| *s).collect();
    assert_eq!(kinds, [true, false, true, false, false, false]);
    let versions: Vec<u16> = [0, 2]
        .iter()
        .map(|&i| read_schema_frame(&all[i].1).unwrap().messages()[0].version)
        .collect();
    assert_eq!(versions, [1, 2]);
    let mut registry = SchemaRegistry::new();
    let mut lines = Vec::new();
    for (_, frame) in &all {
        if let StreamFrame::Message(header, view) = registry.read(frame).unwrap() {
            lines.push(format!("v{} {view}", header.version));
        }
    }
    assert_eq!(
        lines,
        [
            "v1 Quote { px: 1 }",
            "v2 Quote { px: 2, size: 30 }",
            "v1 Quote { px: 3, size: 0 }",
            "v2 Quote { px: 4, size: 40 }"
        ]
    );
}

#[test]
fn typed_writer_to_schema_driven_reader() {
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    for i in 0..3 {
        writer.write(&Ping { seq: i }).unwrap();
        writer.write(&order(u64::from(i))).unwrap();
    }
    let stream = writer.into_inner();
    let mut registry = SchemaRegistry::new();
    assert!(registry.is_empty());
    let mut lines = Vec::new();
    let mut reader = FrameReader::new(&stream[..]);
    while let Some(frame) = reader.next_any_frame().unwrap() {
        match registry.read(frame).unwrap() {
            StreamFrame::Schema(set) => lines.push(format!(
                "schema {:?}",
                set.messages()
                    .iter()
                    .map(|m| m.name.as_ref())
                    .collect::<Vec<_>>()
            )),
            StreamFrame::Message(header, view) => {
                // The same JSON as the typed view's.
                let typed = match Feed::view(frame).unwrap().1 {
                    FeedView::Ping(p) => serde_json::to_string(&p).unwrap(),
                    FeedView::Order(o) => serde_json::to_string(&o).unwrap(),
                };
                assert_eq!(serde_json::to_string(&view).unwrap(), typed);
                lines.push(format!("t{} {view}", header.template_id));
            }
        }
    }
    assert_eq!(lines.len(), 8);
    assert_eq!(lines[0], r#"schema ["Ping"]"#);
    assert_eq!(lines[1], "t1 Ping { seq: 0 }");
    assert_eq!(lines[2], r#"schema ["Leg", "Order"]"#);
    assert_eq!(
        lines[7],
        r#"t2 Order { id: 2, symbol: "MSFT", legs: [Leg { qty: 10, px: -5 }, Leg { qty: 20, px: 7 }], note: "rush" }"#
    );
    assert!(!registry.is_empty());
    assert_eq!(
        registry
            .schema_for(5, 2)
            .unwrap()
            .message("Leg")
            .unwrap()
            .name,
        "Leg"
    );
}

#[test]
fn a_message_of_an_undescribed_type_is_an_error_of_that_frame() {
    let mut stream = FrameWriter::new(Vec::new());
    stream.write(&Ping { seq: 1 }).unwrap(); // no schema frame
    stream
        .write_schema(&SchemaSet::of::<Ping>().unwrap())
        .unwrap();
    stream.write(&Ping { seq: 2 }).unwrap();
    let stream = stream.into_inner();
    let mut registry = SchemaRegistry::new();
    let mut reader = FrameReader::new(&stream[..]);
    let err = registry
        .read(reader.next_any_frame().unwrap().unwrap())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "no schema frame describes template id 1 (schema 0) at byte 2"
    );
    assert!(matches!(
        registry.read(reader.next_any_frame().unwrap().unwrap()),
        Ok(StreamFrame::Schema(_))
    ));
    let frame = reader.next_any_frame().unwrap().unwrap();
    let (_, view) = registry.view(frame).unwrap();
    assert_eq!(view.get("seq"), Some(Value::Unsigned(2)));
}

mod v1 {
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 1)]
    pub(crate) struct Ping {
        pub(crate) seq: u32,
    }
}

mod v2 {
    /// Version 2 of `Ping`: a field appended.
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 1, version = 2)]
    pub(crate) struct Ping {
        pub(crate) seq: u32,
        #[wire(since = 2)]
        pub(crate) flags: u8,
    }
}

mod changed {
    /// `Ping` at version 1 with another field type: a mismatch.
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 1)]
    pub(crate) struct Ping {
        pub(crate) seq: u64,
    }

    /// Another type under `Ping`'s template id.
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 1)]
    pub(crate) struct Heartbeat {
        pub(crate) seq: u32,
    }
}

#[test]
fn a_changed_description_at_the_same_version_names_the_type_and_both_fingerprints() {
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&changed::Ping { seq: 7 }).unwrap();
    writer.write(&changed::Heartbeat { seq: 8 }).unwrap(); // described already (t1 s0)
    let stream = writer.into_inner();
    let ours = SchemaSet::of::<Ping>().unwrap().fingerprint();
    let theirs = SchemaSet::of::<changed::Ping>().unwrap().fingerprint();
    assert_ne!(ours, theirs);

    let mut reader =
        FrameReader::new(&stream[..]).check_schema_frames(SchemaSet::of::<Ping>().unwrap());
    let err = reader.next_view::<Ping>().unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "a schema frame describes `Ping` (template id 1, schema 0, version 1) with \
             fingerprint {theirs}, but this reader's `Ping` has fingerprint {ours} at byte 0"
        )
    );
    assert_eq!(
        err.kind(),
        &ErrorKind::SchemaFrameMismatch {
            message: "Ping".into(),
            described: "Ping".into(),
            template_id: 1,
            schema_id: 0,
            version: 1,
            expected: ours,
            found: theirs
        }
    );
    // An error of that frame only: the message after it is read (its u64 `seq` is
    // 12 bytes where Ping's block is 4: the header's block length disagrees).
    assert!(matches!(
        reader.next_view::<Ping>().unwrap_err().kind(),
        ErrorKind::HeaderMismatch { .. }
    ));

    // Another type's name under the template id: both names in the message.
    let other = SchemaSet::of::<changed::Heartbeat>().unwrap();
    let err = SchemaSet::of::<Ping>()
        .unwrap()
        .check_descriptions(&other)
        .unwrap_err();
    assert!(
        err.to_string().starts_with(&format!(
            "a schema frame describes `Heartbeat` (template id 1, schema 0, version 1) with fingerprint {}",
            other.fingerprint()
        )),
        "{err}"
    );
}

#[test]
fn other_versions_are_not_compared() {
    // A v2 reader of a v1 writer's stream, and a v1 reader of a v2 writer's: both read.
    let mut old = FrameWriter::new(Vec::new()).with_schema_frames();
    old.write(&v1::Ping { seq: 1 }).unwrap();
    let old = old.into_inner();
    let mut new = FrameWriter::new(Vec::new()).with_schema_frames();
    new.write(&v2::Ping { seq: 2, flags: 3 }).unwrap();
    let new = new.into_inner();

    let mut reader =
        FrameReader::new(&old[..]).check_schema_frames(SchemaSet::of::<v2::Ping>().unwrap());
    let (_, ping) = reader.next_view::<v2::Ping>().unwrap().unwrap();
    assert_eq!((ping.seq(), ping.has_flags()), (1, false));
    let mut reader =
        FrameReader::new(&new[..]).check_schema_frames(SchemaSet::of::<v1::Ping>().unwrap());
    assert_eq!(reader.next_view::<v1::Ping>().unwrap().unwrap().1.seq(), 2);

    // A nested message at another version is another version too.
    mod nested_v1 {
        #[derive(wiremsg::WireMsg, Debug)]
        pub(crate) struct Leg {
            pub(crate) qty: u32,
        }
        #[derive(wiremsg::WireMsg, Debug)]
        #[wire(template_id = 9)]
        pub(crate) struct Basket {
            pub(crate) legs: Vec<Leg>,
        }
    }
    mod nested_v2 {
        #[derive(wiremsg::WireMsg, Debug)]
        #[wire(version = 2)]
        pub(crate) struct Leg {
            pub(crate) qty: u32,
            #[wire(since = 2)]
            pub(crate) px: i64,
        }
        #[derive(wiremsg::WireMsg, Debug)]
        #[wire(template_id = 9)]
        pub(crate) struct Basket {
            pub(crate) legs: Vec<Leg>,
        }
    }
    let ours = SchemaSet::of::<nested_v1::Basket>().unwrap();
    let theirs = SchemaSet::of::<nested_v2::Basket>().unwrap();
    assert_ne!(ours.fingerprint(), theirs.fingerprint());
    assert!(ours.check_descriptions(&theirs).is_ok());
}

#[test]
fn the_latest_schema_frame_wins() {
    // Two recordings joined end to end: before and after an upgrade of the writer.
    let mut first = FrameWriter::new(Vec::new()).with_schema_frames();
    first.write(&v1::Ping { seq: 1 }).unwrap();
    let mut second = FrameWriter::new(first.into_inner()).with_schema_frames();
    second.write(&v2::Ping { seq: 2, flags: 5 }).unwrap();
    // ... and a repeated schema frame (for late joiners) changes nothing.
    second
        .write_schema(&SchemaSet::of::<v2::Ping>().unwrap())
        .unwrap();
    second.write(&v2::Ping { seq: 3, flags: 6 }).unwrap();
    let stream = second.into_inner();

    let mut registry = SchemaRegistry::new();
    let mut messages = Vec::new();
    let mut reader = FrameReader::new(&stream[..]);
    while let Some(frame) = reader.next_any_frame().unwrap() {
        if let StreamFrame::Message(header, view) = registry.read(frame).unwrap() {
            messages.push(format!("v{} {view}", header.version));
        }
    }
    assert_eq!(
        messages,
        [
            "v1 Ping { seq: 1 }",
            "v2 Ping { seq: 2, flags: 5 }",
            "v2 Ping { seq: 3, flags: 6 }"
        ]
    );

    // A given schema wins for its types: the v1 reader reads v2 bytes as v1.
    let mut registry = SchemaRegistry::with_schema(SchemaSet::of::<v1::Ping>().unwrap());
    let mut reader = FrameReader::new(&stream[..]);
    let mut last = String::new();
    while let Some(frame) = reader.next_any_frame().unwrap() {
        if let StreamFrame::Message(_, view) = registry.read(frame).unwrap() {
            last = view.to_string();
        }
    }
    assert_eq!(last, "Ping { seq: 3 }");
}

#[test]
fn the_registry_holds_a_bounded_amount_of_schemas() {
    let frame = golden("S1"); // 117 bytes
    let mut registry = SchemaRegistry::new().with_max_schema_bytes(200);
    registry.learn(&frame).unwrap();
    registry.learn(&frame).unwrap(); // the same again: nothing more held
    let mut other = SchemaSet::of::<Ping>().unwrap();
    other.add::<Order>().unwrap();
    let err = registry.learn(&other.to_bytes().unwrap()).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "the stream's schema frames hold more bytes than the reader's limit"
        }
    );
    // A description that replaces the old one frees it.
    let v2 = SchemaSet::of::<v2::Ping>().unwrap().to_bytes().unwrap();
    assert!(v2.len() <= 200 - 117 || registry.learn(&v2).is_err());
    let mut registry = SchemaRegistry::new().with_max_schema_bytes(300);
    for _ in 0..10 {
        registry.learn(&frame).unwrap();
        registry.learn(&v2).unwrap();
    }
}

#[test]
fn hostile_schema_frames_are_errors_of_their_frame_never_panics() {
    let s1 = golden("S1");
    let ping = {
        let mut b = Vec::new();
        Ping { seq: 4 }.encode_with_header(&mut b).unwrap();
        b
    };
    // A schema frame cut short (its length prefix says so), then a message.
    let mut stream = framed(&s1[..60]);
    stream.extend(framed(&ping));
    let mut reader = FrameReader::new(&stream[..]);
    assert_eq!(reader.next_view::<Ping>().unwrap().unwrap().1.seq(), 4); // skipped unread
    let mut reader =
        FrameReader::new(&stream[..]).check_schema_frames(SchemaSet::of::<Ping>().unwrap());
    let err = reader.next_view::<Ping>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated: needs 94 bytes, has 52 at byte 10 in `messages`"
    );
    assert_eq!(reader.next_view::<Ping>().unwrap().unwrap().1.seq(), 4);
    let mut registry = SchemaRegistry::new();
    assert_eq!(
        registry.learn(&s1[..60]).unwrap_err().to_string(),
        "truncated: needs 94 bytes, has 52 at byte 10 in `messages`"
    );
    assert!(registry.is_empty());

    // A valid message that is not a schema: type code 99.
    let mut bad = s1.clone();
    bad[8 + 96] = 99;
    let err = read_schema_frame(&bad).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "unknown type code"
        }
    );

    // A schema frame that claims the reserved pair for a message.
    let mut reserved = s1.clone();
    // S1's Ping: template_id Some(1) at message offset 36..39, schema_id at 39..41.
    reserved[8 + 49..8 + 51].copy_from_slice(&[0xff, 0xff]);
    reserved[8 + 51..8 + 53].copy_from_slice(&[0xff, 0xff]);
    let err = read_schema_frame(&reserved).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid schema: template id 0xFFFF in schema 0xFFFF is reserved for schema messages at byte 0 in `Ping`"
    );
    // A message frame with the reserved pair is read as a (bad) schema frame.
    let mut fake = ping.clone();
    fake[2..6].copy_from_slice(&[0xff; 4]);
    assert!(is_schema_frame(&fake));
    let mut stream = framed(&fake);
    stream.extend(framed(&ping));
    let mut reader =
        FrameReader::new(&stream[..]).check_schema_frames(SchemaSet::of::<Ping>().unwrap());
    assert!(reader.next_frame().is_err());
    assert!(reader.next_frame().unwrap().is_some());
    // ... and a writer that describes its stream refuses to forward it.
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    assert!(writer.write_frame(&fake).is_err());
    assert!(writer.get_ref().is_empty());

    // Every cut and every changed byte of F2: errors or values, never a panic.
    let f2 = golden("F2");
    let mut variants: Vec<Vec<u8>> = (0..f2.len()).map(|n| f2[..n].to_vec()).collect();
    for at in 0..f2.len() {
        for flip in [0x01, 0x80, 0xff] {
            let mut b = f2.clone();
            b[at] ^= flip;
            variants.push(b);
        }
    }
    for bytes in &variants {
        let mut reader = FrameReader::with_max_frame_size(&bytes[..], 4096)
            .check_schema_frames(Feed::schema_set().unwrap());
        let mut registry = SchemaRegistry::new();
        let mut any = FrameReader::with_max_frame_size(&bytes[..], 4096);
        for _ in 0..4 {
            let _ = reader.next_view::<Ping>();
            if let Ok(Some(frame)) = any.next_any_frame() {
                let _ = registry.read(frame);
            }
        }
    }
}

#[test]
fn a_relay_forwards_schema_frames_as_they_are() {
    let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&Ping { seq: 1 }).unwrap();
    writer.write(&order(2)).unwrap();
    let stream = writer.into_inner();

    let mut reader = FrameReader::new(&stream[..]);
    let mut relay = FrameWriter::new(Vec::new()).with_schema_frames();
    while let Some(frame) = reader.next_any_frame().unwrap() {
        relay.write_frame(frame).unwrap();
    }
    assert_eq!(relay.into_inner(), stream);

    // A describing relay refuses a message of a type it has seen no schema of.
    let mut reader = FrameReader::new(&stream[..]);
    let mut relay = FrameWriter::new(Vec::new()).with_schema_frames();
    let err = relay
        .write_frame(reader.next_frame().unwrap().unwrap())
        .unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UndescribedTemplate {
            template_id: 1,
            schema_id: 0
        }
    ));
}

#[test]
fn writers_without_schema_frames_write_the_bytes_they_always_did() {
    let mut plain = FrameWriter::new(Vec::new());
    plain.write(&Ping { seq: 1 }).unwrap();
    plain.write(&Feed::Order(order(1))).unwrap();
    let plain = plain.into_inner();
    assert!(frames(&plain).iter().all(|(schema, _)| !schema));
    let mut described = FrameWriter::new(Vec::new()).with_schema_frames();
    described
        .write_schema(&Feed::schema_set().unwrap())
        .unwrap();
    let skip = described.get_ref().len();
    described.write(&Ping { seq: 1 }).unwrap();
    described.write(&Feed::Order(order(1))).unwrap();
    assert_eq!(described.into_inner()[skip..], plain[..]);
}

#[derive(wiremsg::WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u32)]
enum Code {
    A = 1,
}

#[derive(WireMsg, Debug)]
#[wire(template_id = 9)]
struct Coded {
    code: Code,
}

/// The schema set of `Coded`, its enum given `variants` variants (`V0` = 0, ...) and
/// its one field repeated `fields` times (`f0`, `f1`, ...), all of that one enum: a
/// hostile schema frame's set, small on the wire (the enum is encoded once).
fn big_enum_set(fields: usize, variants: usize) -> SchemaSet {
    use std::borrow::Cow;
    use wiremsg::{EnumSchema, Node, TypeSchema, VariantSchema};
    let mut message = SchemaSet::of::<Coded>().unwrap().messages()[0].clone();
    let field = message.fields[0].clone();
    let TypeSchema::Enum(e) = &*field.ty else {
        panic!("an enum field")
    };
    let mut e: EnumSchema = (**e).clone();
    e.variants = (0..variants)
        .map(|i| VariantSchema {
            name: format!("V{i}").into(),
            value: i as u64,
        })
        .collect::<Vec<_>>()
        .into();
    let ty = TypeSchema::Enum(Node::Owned(Box::new(e)));
    let fields: Vec<_> = (0..fields)
        .map(|i| {
            let mut f = field.clone();
            f.name = format!("f{i}").into();
            f.offset = 4 * i;
            f.ty = Node::Owned(Box::new(ty.clone()));
            f
        })
        .collect();
    message.block_length = 4 * fields.len();
    message.min_block_length = message.block_length;
    message.fields = Cow::Owned(fields);
    SchemaSet::from_messages([message]).unwrap()
}

#[test]
fn a_schema_frame_with_a_huge_enum_costs_n_log_n_not_n_squared() {
    // 30,000 variants: 700 KB on the wire, under the 1 MiB frame limit. Checking the
    // enum's names and values by scanning the variants before each one took 4.5e8
    // comparisons when the frame was read, and again for every message viewed with it.
    let set = big_enum_set(1, 30_000);
    let start = std::time::Instant::now();
    let mut writer = FrameWriter::new(Vec::new());
    writer.write_schema(&set).unwrap();
    for i in 0..50u32 {
        writer
            .write_with(|out| {
                out.extend_from_slice(&[4, 0, 9, 0, 0, 0, 1, 0]);
                out.extend_from_slice(&(i % 30_000).to_le_bytes());
                Ok(12)
            })
            .unwrap();
    }
    let stream = writer.into_inner();
    let mut registry = SchemaRegistry::new();
    let mut reader = FrameReader::new(&stream[..]);
    let mut last = String::new();
    while let Some(frame) = reader.next_any_frame().unwrap() {
        if let StreamFrame::Message(_, view) = registry.read(frame).unwrap() {
            last = view.to_string();
        }
    }
    assert_eq!(last, "Coded { f0: V49 }");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn a_schema_frame_whose_enum_many_fields_share_decodes_in_proportion_to_its_bytes() {
    let bytes = big_enum_set(2_000, 2_000).to_bytes().unwrap();
    assert!(bytes.len() < 120_000, "{}", bytes.len());
    let start = std::time::Instant::now();
    read_schema_frame(&bytes).unwrap();
    assert!(
        start.elapsed() < std::time::Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
