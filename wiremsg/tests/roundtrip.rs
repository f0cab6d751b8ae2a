//! Round trips of the reference messages, the three raw-struct hazards of
//! reference.md R4, and views at every alignment.

mod common;

use common::*;
use wiremsg::{ErrorKind, WireMsg};

#[test]
fn r1_login_round_trip() {
    let bytes = login().to_bytes().unwrap();
    assert_eq!(bytes.len(), 42);
    assert_eq!(LoginRequest::decode(&bytes).unwrap(), login());

    let response = LoginResponse {
        status: LoginStatus::MfaRequired,
        access_token: String::new(),
        expires_at: 1_764_403_200,
        error_message: "MFA token required".into(),
    };
    let bytes = response.to_bytes().unwrap();
    let view = LoginResponse::view(&bytes).unwrap();
    assert_eq!(view.status(), LoginStatus::MfaRequired);
    assert_eq!(view.expires_at(), 1_764_403_200);
    assert_eq!(view.error_message(), "MFA token required");
    assert_eq!(view.decode(), response);
}

#[test]
fn r2_order_round_trip_keeps_every_value() {
    let order = order();
    let bytes = order.to_bytes().unwrap();
    assert_eq!(bytes.len(), order.encoded_len());
    let view = Order::view(&bytes).unwrap();
    assert_eq!(view.id(), 20_261_129_001);
    assert_eq!(view.customer().name(), "Trần Thị Bích");
    assert_eq!(view.items().len(), 5);
    let second = view.items().get(1).unwrap();
    assert_eq!(second.name(), "Bánh mì thịt nướng");
    assert_eq!(second.discount(), 2000.0);
    assert_eq!(view.note(), "");
    let total: f64 = view
        .items()
        .iter()
        .map(|i| f64::from(i.quantity()) * i.unit_price() - i.discount())
        .sum();
    assert_eq!(total, 70000.0 + 23000.0 + 135000.0 + 30000.0 + 34500.0);
    assert_eq!(Order::decode(&bytes).unwrap(), order);
}

#[test]
fn r6_tick_round_trip_and_in_place_update() {
    let mut bytes = tick().to_bytes().unwrap();
    assert_eq!(bytes.len(), 50);
    let mut edit = Tick::view_mut(&mut bytes).unwrap();
    edit.set_bid_size(450);
    edit.set_side(Side::Sell);
    let view = Tick::view(&bytes).unwrap();
    assert_eq!(view.bid_size(), 450);
    assert_eq!(view.side(), Side::Sell);
    assert_eq!(
        Tick::decode(&bytes).unwrap(),
        Tick {
            bid_size: 450,
            side: Side::Sell,
            ..tick()
        }
    );
}

#[test]
fn r4_endianness_is_fixed_little_endian() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Word {
        value: u32,
    }
    let bytes = Word { value: 0x1234_5678 }.to_bytes().unwrap();
    assert_eq!(bytes, [0x78, 0x56, 0x34, 0x12]);
    // The same bytes on any host: a big-endian reader of native bytes would see these.
    assert_ne!(bytes, 0x1234_5678u32.to_be_bytes());
}

#[test]
fn r4_padding_is_absent() {
    #[repr(C)]
    struct Raw {
        _a: u8,
        _b: i32,
        _c: u8,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    struct Padded {
        a: u8,
        b: i32,
        c: u8,
    }
    assert_eq!(core::mem::size_of::<Raw>(), 12);
    assert_eq!(Padded::BLOCK_LENGTH, 6);
    assert_eq!(
        Padded { a: 1, b: -1, c: 2 }.to_bytes().unwrap(),
        [1, 255, 255, 255, 255, 2]
    );
}

mod v1 {
    use wiremsg::WireMsg;
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct LoginRequest {
        pub(crate) user_id: i32,
        pub(crate) username: [u8; 16],
    }
}

mod v2 {
    use wiremsg::WireMsg;
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct LoginRequest {
        pub(crate) user_id: i32,
        pub(crate) username: [u8; 16],
        pub(crate) email: [u8; 32],
    }
}

#[test]
fn r4_versioning_v2_reader_of_v1_bytes_gets_an_error_not_a_crash() {
    let mut username = [0u8; 16];
    username[..4].copy_from_slice(b"binh");
    let v1_bytes = v1::LoginRequest {
        user_id: 7,
        username,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1_bytes.len(), 20);
    let err = v2::LoginRequest::view(&v1_bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 52,
            available: 20
        }
    );

    // And a v1 reader of v2 bytes reads what it knows and ignores the rest.
    let v2_bytes = v2::LoginRequest {
        user_id: 7,
        username,
        email: [b'e'; 32],
    }
    .to_bytes()
    .unwrap();
    let view = v1::LoginRequest::view(&v2_bytes).unwrap();
    assert_eq!(view.user_id(), 7);
    assert_eq!(&view.username().as_bytes()[..4], b"binh");
}

#[test]
fn views_work_at_every_alignment() {
    let order_bytes = order().to_bytes().unwrap();
    let tick_bytes = tick().to_bytes().unwrap();
    for shift in 0..16 {
        let mut buffer = vec![0xAAu8; shift];
        buffer.extend_from_slice(&order_bytes);
        let view = Order::view(&buffer[shift..]).unwrap();
        assert_eq!(view.decode(), order(), "order at offset {shift}");

        let mut buffer = vec![0x55u8; shift];
        buffer.extend_from_slice(&tick_bytes);
        let view = Tick::view(&buffer[shift..]).unwrap();
        assert_eq!(view.ask_price(), 2_345_700, "tick at offset {shift}");
        assert_eq!(view.symbol(), "AAPL");
    }
}

#[test]
fn trusted_view_reads_the_same_values() {
    let bytes = order().to_bytes().unwrap();
    assert!(Order::view(&bytes).is_ok());
    // SAFETY: `view` accepted the bytes just above.
    let view = unsafe { wiremsg::view_unchecked::<Order>(&bytes) };
    assert_eq!(view.decode(), order());
    assert_eq!(view.items().get(4).unwrap().sku(), "SKU-0005");
}

#[test]
fn encode_into_appends_nothing_on_a_short_buffer() {
    let order = order();
    let len = order.encoded_len();
    let mut short = vec![0u8; len - 1];
    let err = order.encode_into(&mut short).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BufferTooSmall {
            needed: len,
            available: len - 1
        }
    );
    assert!(short.iter().all(|&b| b == 0));
    let mut exact = vec![0u8; len + 3];
    assert_eq!(order.encode_into(&mut exact).unwrap(), len);
    assert_eq!(Order::decode(&exact[..len]).unwrap(), order);

    let mut appended = vec![9u8];
    assert_eq!(order.encode(&mut appended).unwrap(), len);
    assert_eq!(appended[0], 9);
    assert_eq!(&appended[1..], &exact[..len]);
}

#[test]
fn schema_descriptor_lists_fields_with_offsets() {
    let schema = Tick::SCHEMA;
    assert_eq!(schema.name, "Tick");
    assert_eq!(schema.block_length, 50);
    assert!(!schema.has_tail);
    let names: Vec<_> = schema
        .fields
        .iter()
        .map(|f| (f.name.as_ref(), f.offset, f.size))
        .collect();
    assert_eq!(names[2], ("symbol", 16, 8));
    assert_eq!(names[8], ("flags", 49, 1));
    assert_eq!(
        *schema.fields[2].ty,
        wiremsg::TypeSchema::FixedStr { len: 8 }
    );

    let order = Order::SCHEMA;
    assert!(order.has_tail);
    assert_eq!(order.fields[1].name, "customer");
    match &*order.fields[2].ty {
        wiremsg::TypeSchema::List(item) => match &**item {
            wiremsg::TypeSchema::Message(item) => {
                assert_eq!(item.name, "LineItem");
                assert_eq!(item.resolve().unwrap().name, "LineItem");
            }
            other => panic!("unexpected {other:?}"),
        },
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(
        format!("{:?}", order.fields[2].ty),
        "List(Message(LineItem))"
    );
}

#[test]
fn recursive_messages_round_trip() {
    let tree = Node {
        value: 1,
        children: vec![
            chain(3),
            Node {
                value: 9,
                children: vec![],
            },
        ],
    };
    let bytes = tree.to_bytes().unwrap();
    assert_eq!(Node::decode(&bytes).unwrap(), tree);
}

/// Neither `Copy` nor `Default`: an array of it can be viewed and encoded, and a
/// message nesting that array still derives (only `decode` is unavailable).
#[derive(WireMsg, Debug, PartialEq)]
struct Quote {
    price: i64,
}

#[derive(WireMsg, Debug, PartialEq)]
struct TwoQuotes {
    quotes: [Quote; 2],
}

#[derive(WireMsg, Debug, PartialEq)]
struct Outer {
    id: u8,
    inner: TwoQuotes,
}

#[test]
fn arrays_of_non_copy_messages_view_and_encode() {
    let outer = Outer {
        id: 1,
        inner: TwoQuotes {
            quotes: [Quote { price: -3 }, Quote { price: 4 }],
        },
    };
    let bytes = outer.to_bytes().unwrap();
    assert_eq!(bytes.len(), 17);
    let view = Outer::view(&bytes).unwrap();
    assert_eq!(view.inner().quotes().get(1).unwrap().price(), 4);
}

#[test]
fn as_bytes_is_the_whole_message_and_walks_back_to_back_messages() {
    let mut stream = order().to_bytes().unwrap();
    let first_len = stream.len();
    stream.extend(login().to_bytes().unwrap());
    let first = Order::view(&stream).unwrap();
    assert_eq!(first.as_bytes().unwrap().len(), first_len);
    let second = LoginRequest::view(&stream[first.as_bytes().unwrap().len()..]).unwrap();
    assert_eq!(second.username(), "hpn_user");
    let tick_bytes = tick().to_bytes().unwrap();
    assert_eq!(
        Tick::view(&tick_bytes).unwrap().as_bytes(),
        Some(&tick_bytes[..])
    );
}

#[derive(wiremsg::WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Gaps {
    A = 5,
    #[wire(other)]
    Other(u8),
    B,
}

#[test]
fn enum_values_follow_rusts_discriminant_rule() {
    use wiremsg::WireEnum;
    // `Other` takes 6 as in Rust, so `B` is 7.
    assert_eq!(Gaps::B.to_raw(), 7);
    assert_eq!(Gaps::from_raw(6), Some(Gaps::Other(6)));
    assert_eq!(Gaps::from_raw(5), Some(Gaps::A));
    let variants: Vec<_> = Gaps::ENUM_SCHEMA
        .variants
        .iter()
        .map(|v| (v.name.as_ref(), v.value))
        .collect();
    assert_eq!(variants, [("A", 5), ("B", 7)]);
}

/// `Self` in a field type, and a `'static` borrow next to the struct's own lifetime.
#[derive(WireMsg, Debug, PartialEq)]
struct Tree<'a> {
    label: &'a str,
    kind: &'static str,
    kids: Vec<Self>,
}

#[test]
fn self_in_field_types_and_static_borrows() {
    let tree = Tree {
        label: "root",
        kind: "dir",
        kids: vec![Tree {
            label: "leaf",
            kind: "file",
            kids: vec![],
        }],
    };
    let bytes = tree.to_bytes().unwrap();
    let view = Tree::view(&bytes).unwrap();
    assert_eq!(view.kids().get(0).unwrap().label(), "leaf");
    assert_eq!(view.kids().get(0).unwrap().kind(), "file");
}

/// Encode-only (a `'static` borrow): no `decode`.
#[derive(WireMsg, Debug, PartialEq)]
struct Label {
    text: &'static str,
}

/// Lists, maps and boxes of an encode-only message, as `no_decode` allows.
#[derive(WireMsg, Debug, PartialEq)]
#[wire(no_decode)]
struct Labels {
    all: Vec<Label>,
    by_id: std::collections::BTreeMap<u16, Label>,
    first: Option<Box<Label>>,
}

#[test]
fn no_decode_holds_lists_maps_and_boxes_of_encode_only_messages() {
    let labels = Labels {
        all: vec![Label { text: "bid" }, Label { text: "ask" }],
        by_id: [(7, Label { text: "x" })].into(),
        first: Some(Box::new(Label { text: "y" })),
    };
    let bytes = labels.to_bytes().unwrap();
    assert_eq!(bytes.len(), labels.encoded_len());
    let view = Labels::view(&bytes).unwrap();
    let all: Vec<&str> = view.all().iter().map(|l| l.text()).collect();
    assert_eq!(all, ["bid", "ask"]);
    assert_eq!(view.by_id().get(7).map(|l| l.text()), Some("x"));
    assert_eq!(view.first().map(|l| l.text()), Some("y"));
    assert_eq!(view, labels);
}

/// `no_decode` on a message with a borrowed twin is the twin's too.
#[derive(WireMsg, Debug, PartialEq)]
#[wire(no_decode, borrowed = TaggedLabelsRef)]
struct TaggedLabels {
    tag: String,
    by_id: std::collections::BTreeMap<u16, Label>,
    first: Option<Box<Label>>,
}

/// `no_decode` on a union: a struct variant's list and a boxed payload of
/// encode-only messages.
#[derive(wiremsg::WireUnion, Debug, PartialEq)]
#[wire(no_decode)]
#[repr(u8)]
enum LabelEvent {
    Many { all: Vec<Label> } = 1,
    One(Box<Label>) = 2,
}

#[test]
fn no_decode_passes_to_borrowed_twins_and_unions() {
    use wiremsg::WireUnion;
    let owned = TaggedLabels {
        tag: "t".into(),
        by_id: [(3, Label { text: "x" })].into(),
        first: None,
    };
    let twin = TaggedLabelsRef {
        tag: "t",
        by_id: [(3, Label { text: "x" })].into(),
        first: None,
    };
    assert_eq!(twin.to_bytes().unwrap(), owned.to_bytes().unwrap());
    let event = LabelEvent::Many {
        all: vec![Label { text: "bid" }],
    };
    let bytes = event.to_bytes().unwrap();
    match LabelEvent::view(&bytes).unwrap() {
        LabelEventView::Many(many) => assert_eq!(many.all().get(0).unwrap().text(), "bid"),
        other => panic!("{other:?}"),
    }
    let one = LabelEvent::One(Box::new(Label { text: "y" }))
        .to_bytes()
        .unwrap();
    assert_eq!(one, [2, 6, 0, 7, 0, 0, 0, b'y']);
}

macro_rules! wide {
    ($($field:ident)*) => {
        /// 130 fields: offsets are flat sums, so no recursion limit is reached.
        #[derive(WireMsg, Debug, Default, PartialEq)]
        struct Wide { $($field: u8,)* }
    };
}

wide! {
    f000 f001 f002 f003 f004 f005 f006 f007 f008 f009 f010 f011 f012 f013 f014 f015 f016 f017 f018 f019
    f020 f021 f022 f023 f024 f025 f026 f027 f028 f029 f030 f031 f032 f033 f034 f035 f036 f037 f038 f039
    f040 f041 f042 f043 f044 f045 f046 f047 f048 f049 f050 f051 f052 f053 f054 f055 f056 f057 f058 f059
    f060 f061 f062 f063 f064 f065 f066 f067 f068 f069 f070 f071 f072 f073 f074 f075 f076 f077 f078 f079
    f080 f081 f082 f083 f084 f085 f086 f087 f088 f089 f090 f091 f092 f093 f094 f095 f096 f097 f098 f099
    f100 f101 f102 f103 f104 f105 f106 f107 f108 f109 f110 f111 f112 f113 f114 f115 f116 f117 f118 f119
    f120 f121 f122 f123 f124 f125 f126 f127 f128 f129
}

#[test]
fn a_message_with_130_fields() {
    let wide = Wide {
        f129: 9,
        ..Wide::default()
    };
    let bytes = wide.to_bytes().unwrap();
    assert_eq!(bytes.len(), 130);
    assert_eq!(WideView::F129_OFFSET, 129);
    assert_eq!(Wide::view(&bytes).unwrap().f129(), 9);
}

/// `iter_mut` walks table lists (elements with a tail) and strided lists, and the
/// writes land in the right elements.
#[test]
fn iter_mut_updates_every_element_of_every_list_shape() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Entry {
        name: String,
        hits: u32,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
    struct Point {
        x: i32,
        y: i32,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    struct Both {
        entries: Vec<Entry>,
        points: Vec<Point>,
    }
    let value = Both {
        entries: (0..5)
            .map(|i| Entry {
                name: "é".repeat(i),
                hits: i as u32,
            })
            .collect(),
        points: (0..3).map(|i| Point { x: i, y: -i }).collect(),
    };
    let mut bytes = value.to_bytes().unwrap();
    let mut view = Both::view_mut(&mut bytes).unwrap();
    for mut e in view.entries_mut().iter_mut() {
        let hits = e.hits();
        e.set_hits(hits * 10 + e.name().len() as u32);
    }
    for mut p in view.points_mut().iter_mut() {
        let x = p.x();
        p.set_y(x * 100);
    }
    assert_eq!(view.entries_mut().iter_mut().len(), 5);
    let back = Both::decode(&bytes).unwrap();
    let hits: Vec<u32> = back.entries.iter().map(|e| e.hits).collect();
    assert_eq!(hits, [0, 12, 24, 36, 48]);
    let names: Vec<&str> = back.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["", "é", "éé", "ééé", "éééé"]);
    let ys: Vec<i32> = back.points.iter().map(|p| p.y).collect();
    assert_eq!(ys, [0, 100, 200]);
}

#[derive(WireMsg, Debug, PartialEq)]
struct Note {
    text: String,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Optional {
    a: Option<String>,
    b: Option<Box<Note>>,
    c: Box<Note>,
}

/// Options and boxes of tail data write their tails in place (`encode`) and into a
/// slice (`encode_into`) to the same bytes, present or absent.
#[test]
fn options_and_boxes_of_tail_data_encode_to_their_golden_bytes_either_way() {
    let present = Optional {
        a: Some("hi".into()),
        b: Some(Box::new(Note { text: "x".into() })),
        c: Box::new(Note { text: "yz".into() }),
    };
    #[rustfmt::skip]
    let golden: &[u8] = &[
        16, 0,                // block length
        1, 18, 0, 0, 0,       // a: present, ends at 18
        1, 25, 0, 0, 0,       // b: present, ends at 25
        33, 0, 0, 0,          // c: ends at 33
        b'h', b'i',           // a's text
        6, 0, 7, 0, 0, 0, b'x', // b's Note: block length 6, text ends at 7
        6, 0, 8, 0, 0, 0, b'y', b'z', // c's Note
    ];
    let absent = Optional {
        a: None,
        b: None,
        c: Box::new(Note {
            text: String::new(),
        }),
    };
    #[rustfmt::skip]
    let golden_absent: &[u8] = &[
        16, 0,
        0, 16, 0, 0, 0,       // a: absent, an empty region
        0, 16, 0, 0, 0,       // b: absent
        22, 0, 0, 0,
        6, 0, 6, 0, 0, 0,     // c's Note, empty text
    ];
    for (value, golden) in [(present, golden), (absent, golden_absent)] {
        let mut appended = vec![0xAA];
        assert_eq!(value.encode(&mut appended).unwrap(), golden.len());
        assert_eq!(&appended[1..], golden);
        let mut slice = vec![0xAA; golden.len()];
        assert_eq!(value.encode_into(&mut slice).unwrap(), golden.len());
        assert_eq!(slice, golden);
        assert_eq!(Optional::decode(golden).unwrap(), value);
    }
}

/// Text of every length up to past the inline copies (two overlapping loads and
/// stores up to 32 bytes, `memcpy` beyond) is appended byte for byte, between its
/// neighbours, and nothing is written past the message.
#[test]
fn text_of_every_length_is_appended_byte_for_byte() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Pair {
        first: String,
        second: String,
    }
    for len in 0..=70usize {
        let first: String = (0..len)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let second: String = (0..70 - len)
            .map(|i| char::from(b'A' + (i % 26) as u8))
            .collect();
        let value = Pair {
            first: first.clone(),
            second: second.clone(),
        };
        // Block length 10, the two end offsets, then the texts.
        let mut expected = vec![10, 0];
        expected.extend_from_slice(&(10 + len as u32).to_le_bytes());
        expected.extend_from_slice(&80u32.to_le_bytes());
        expected.extend_from_slice(first.as_bytes());
        expected.extend_from_slice(second.as_bytes());
        let mut out = vec![0xAA; 3];
        assert_eq!(value.encode(&mut out).unwrap(), 80, "{len}");
        assert_eq!(
            (&out[..3], &out[3..]),
            (&[0xAA; 3][..], &expected[..]),
            "{len}"
        );
        let mut slice = [0x55u8; 84];
        assert_eq!(value.encode_into(&mut slice).unwrap(), 80, "{len}");
        assert_eq!(
            (&slice[..80], &slice[80..]),
            (&expected[..], &[0x55; 4][..]),
            "{len}"
        );
    }
}
