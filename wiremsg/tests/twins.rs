//! Borrowed twins (`#[wire(borrowed = NameRef)]`): the generated `NameRef<'a>` has the
//! owned message's fields and attributes with `&'a str` / `&'a [T]`, and encodes to
//! exactly the same bytes, with no allocation of its own.

#[path = "common/cases.rs"]
mod cases;
use proptest::prelude::*;
use wiremsg::{Decimal, ErrorKind, FixedStr, Template, WireEnum, WireMsg};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Alloc {
    account: u32,
    qty: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1, schema_id = 3, version = 2, borrowed = NewOrderRef)]
pub(crate) struct NewOrder {
    pub(crate) id: u64,
    pub(crate) symbol: FixedStr<8, 0>,
    pub(crate) side: Side,
    #[wire(null = i64::MIN)]
    pub(crate) limit: Option<Decimal<i64, 4>>,
    pub(crate) account: String,
    #[wire(max_len = 5)]
    pub(crate) allocs: Vec<Alloc>,
    pub(crate) note: Option<String>,
    pub(crate) tag: Vec<u8>,
    #[wire(reserved)]
    pub(crate) old: u16,
    #[wire(since = 2, default = 1)]
    pub(crate) tif: u8,
    #[wire(since = 2, default = "web")]
    pub(crate) origin: String,
}

fn order() -> NewOrder {
    NewOrder {
        id: 42,
        symbol: FixedStr::new("NQ").unwrap(),
        side: Side::Sell,
        limit: Some("21500.25".parse().unwrap()),
        account: "ACC-1".into(),
        allocs: vec![Alloc { account: 1, qty: 2 }, Alloc { account: 3, qty: 4 }],
        note: None,
        tag: vec![0xde, 0xad],
        old: 0,
        tif: 3,
        origin: "fix".into(),
    }
}

#[test]
fn the_twin_encodes_the_same_bytes_and_views_them() {
    let owned = order();
    let twin = NewOrderRef::from(&owned);
    assert_eq!(twin.account, "ACC-1");
    assert_eq!(twin.allocs.len(), 2);
    let bytes = owned.to_bytes().unwrap();
    assert_eq!(twin.to_bytes().unwrap(), bytes);
    let mut buf = [0u8; 256];
    let n = twin.encode_into(&mut buf).unwrap();
    assert_eq!(buf[..n], bytes[..]);
    // Same layout, same template, same header.
    assert_eq!(NewOrder::BLOCK_LENGTH, NewOrderRef::BLOCK_LENGTH);
    assert_eq!(NewOrder::MIN_BLOCK_LENGTH, NewOrderRef::MIN_BLOCK_LENGTH);
    assert_eq!(owned.header(), twin.header());
    let (mut a, mut b) = (Vec::new(), Vec::new());
    owned.encode_with_header(&mut a).unwrap();
    twin.encode_with_header(&mut b).unwrap();
    assert_eq!(a, b);
    // Each reads the other's bytes; the twin decodes without copying text.
    let view = NewOrderRef::view(&bytes).unwrap();
    assert_eq!(
        (view.account(), view.origin(), view.limit()),
        ("ACC-1", "fix", owned.limit)
    );
    let decoded = NewOrderRef::view(&bytes).unwrap();
    assert_eq!(decoded.note(), None);
    assert_eq!(NewOrder::decode(&twin.to_bytes().unwrap()).unwrap(), owned);
}

#[test]
fn the_twin_keeps_the_checks_of_the_owned_message() {
    let mut owned = order();
    owned.allocs = vec![Alloc { account: 0, qty: 0 }; 6];
    let twin = NewOrderRef::from(&owned);
    let err = twin.to_bytes().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::ListTooLong { len: 6, max: 5 });
    assert_eq!(err.path(), "allocs");
    let mut owned = order();
    owned.limit = Some(Decimal::from_mantissa(i64::MIN));
    let err = NewOrderRef::from(&owned).to_bytes().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::NullSentinel {
            value: i64::MIN.into()
        }
    );
}

#[test]
fn a_later_text_field_with_a_default_decodes_owned_and_borrowed() {
    #[derive(WireMsg)]
    #[wire(template_id = 1, schema_id = 3)]
    #[allow(dead_code)] // `old` is reserved: written, never read
    struct NewOrderV1 {
        id: u64,
        symbol: FixedStr<8, 0>,
        side: Side,
        #[wire(null = i64::MIN)]
        limit: Option<Decimal<i64, 4>>,
        account: String,
        #[wire(max_len = 5)]
        allocs: Vec<Alloc>,
        note: Option<String>,
        tag: Vec<u8>,
        #[wire(reserved)]
        old: u16,
    }
    let old = NewOrderV1 {
        id: 5,
        symbol: FixedStr::new("ES").unwrap(),
        side: Side::Buy,
        limit: None,
        account: "A".into(),
        allocs: vec![],
        note: None,
        tag: vec![],
        old: 0,
    }
    .to_bytes()
    .unwrap();
    let owned = NewOrder::decode(&old).unwrap();
    assert_eq!((owned.origin.as_str(), owned.tif), ("web", 1));
    let view = NewOrderRef::view(&old).unwrap();
    assert_eq!((view.origin(), view.tif(), view.account()), ("web", 1, "A"));

    // Decoding a borrowed text field with a default (it did not compile before).
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2, borrowed = NoteRef)]
    struct Note {
        id: u8,
        name: String,
        #[wire(since = 2, default = "none")]
        text: String,
    }
    #[derive(WireMsg)]
    struct NoteV1 {
        id: u8,
        name: String,
    }
    let old = NoteV1 {
        id: 3,
        name: "n".into(),
    }
    .to_bytes()
    .unwrap();
    let note = NoteRef::decode(&old).unwrap();
    assert_eq!((note.id, note.name, note.text), (3, "n", "none"));
    assert_eq!(Note::decode(&old).unwrap().text, "none");
}

#[test]
fn a_twin_is_built_from_borrowed_data_without_an_owned_message() {
    let allocs = [Alloc { account: 9, qty: 1 }];
    let twin = NewOrderRef {
        id: 1,
        symbol: FixedStr::new("ES").unwrap(),
        side: Side::Buy,
        limit: None,
        account: "A",
        allocs: &allocs,
        note: Some("hello"),
        tag: &[],
        old: 0,
        tif: 0,
        origin: "web",
    };
    let bytes = twin.to_bytes().unwrap();
    let owned = NewOrder::decode(&bytes).unwrap();
    assert_eq!(owned.note.as_deref(), Some("hello"));
    assert_eq!(owned.to_bytes().unwrap(), bytes);
}

/// A message whose nested field is not `Clone` still gets its twin (without `From`).
#[derive(WireMsg)]
#[wire(borrowed = HolderRef)]
struct Holder {
    inner: NotClone,
    names: Vec<String>,
}

#[derive(WireMsg)]
struct NotClone {
    x: u8,
}

#[test]
fn a_twin_without_from_still_encodes_alike() {
    let names = ["a".to_owned(), "bc".to_owned()];
    let twin = HolderRef {
        inner: NotClone { x: 7 },
        names: &names,
    };
    let owned = Holder {
        inner: NotClone { x: 7 },
        names: names.to_vec(),
    };
    assert_eq!(twin.to_bytes().unwrap(), owned.to_bytes().unwrap());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(256)))]

    #[test]
    fn twins_encode_alike(
        id in any::<u64>(),
        account in ".{0,12}",
        note in proptest::option::of(".{0,8}"),
        allocs in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..7),
        tag in proptest::collection::vec(any::<u8>(), 0..9),
        limit in proptest::option::of(any::<i64>()),
    ) {
        let owned = NewOrder {
            id,
            account,
            note,
            allocs: allocs.into_iter().map(|(account, qty)| Alloc { account, qty }).collect(),
            tag,
            limit: limit.map(Decimal::from_mantissa),
            ..order()
        };
        let twin = NewOrderRef::from(&owned);
        match (owned.to_bytes(), twin.to_bytes()) {
            (Ok(a), Ok(b)) => {
                prop_assert_eq!(&a, &b);
                prop_assert_eq!(NewOrder::decode(&a).unwrap(), owned);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
    }
}

/// The generated code of `null`, `max_len` and `borrowed` names everything by its
/// full path.
#[no_implicit_prelude]
mod hygiene {
    #[derive(::wiremsg::WireMsg)]
    #[wire(borrowed = QuoteRef)]
    pub(crate) struct Quote {
        #[wire(null = i64::MIN)]
        pub(crate) bid: ::core::option::Option<::wiremsg::Decimal<i64, 4>>,
        #[wire(max_len = 3)]
        pub(crate) venues: ::std::vec::Vec<u16>,
        pub(crate) name: ::std::string::String,
        pub(crate) note: ::core::option::Option<::std::string::String>,
        pub(crate) sym: ::wiremsg::FixedStr<4, 0>,
    }
}

#[test]
fn hygiene_twin_encodes_alike() {
    let quote = hygiene::Quote {
        bid: None,
        venues: vec![1],
        name: "n".into(),
        note: Some("x".into()),
        sym: FixedStr::new("AB").unwrap(),
    };
    let twin = hygiene::QuoteRef::from(&quote);
    assert_eq!(twin.to_bytes().unwrap(), quote.to_bytes().unwrap());
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(borrowed = LegRef)]
struct Leg {
    symbol: String,
    ratio: i32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(borrowed = SpreadRef)]
struct Spread {
    id: u64,
    #[wire(borrowed = LegRef)]
    front: Leg,
    #[wire(borrowed = LegRef)]
    back: Option<Leg>,
    #[wire(borrowed = LegRef, max_len = 4)]
    legs: Vec<Leg>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(borrowed = PairRef)]
struct Pair {
    #[wire(borrowed = LegRef)]
    front: Leg,
    #[wire(borrowed = LegRef)]
    back: Option<Leg>,
}

#[test]
fn nested_twins_encode_alike_without_any_allocation() {
    let leg = |symbol: &str, ratio| Leg {
        symbol: symbol.into(),
        ratio,
    };
    let owned = Spread {
        id: 9,
        front: leg("ESZ6", 1),
        back: Some(leg("ESH7", -1)),
        legs: vec![leg("A", 2), leg("BB", 3)],
    };
    let legs = [
        LegRef {
            symbol: "A",
            ratio: 2,
        },
        LegRef {
            symbol: "BB",
            ratio: 3,
        },
    ];
    let twin = SpreadRef {
        id: 9,
        front: LegRef {
            symbol: "ESZ6",
            ratio: 1,
        },
        back: Some(LegRef {
            symbol: "ESH7",
            ratio: -1,
        }),
        legs: &legs,
    };
    let bytes = owned.to_bytes().unwrap();
    assert_eq!(twin.to_bytes().unwrap(), bytes);
    assert_eq!(
        SpreadRef::view(&bytes)
            .unwrap()
            .legs()
            .get(1)
            .unwrap()
            .symbol(),
        "BB"
    );
    let too_many: Vec<LegRef<'_>> = (0..5).map(|ratio| LegRef { symbol: "L", ratio }).collect();
    let err = SpreadRef {
        legs: &too_many,
        ..twin
    }
    .to_bytes()
    .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::ListTooLong { len: 5, max: 4 });
    // Without a list of nested twins, the twin borrows from the owned message.
    let pair = Pair {
        front: leg("X", 1),
        back: None,
    };
    let borrowed = PairRef::from(&pair);
    assert_eq!(
        (borrowed.front.symbol, borrowed.back.is_none()),
        ("X", true)
    );
    assert_eq!(borrowed.to_bytes().unwrap(), pair.to_bytes().unwrap());
    let pair = Pair {
        back: Some(leg("Y", 2)),
        ..pair
    };
    assert_eq!(
        PairRef::from(&pair).to_bytes().unwrap(),
        pair.to_bytes().unwrap()
    );
}
