//! Hygiene: the derives expand inside a `#[no_implicit_prelude]` module whose names
//! shadow the prelude (`Option`, `Some`, `Ok`, `Vec`, ...) and the crate's traits, so
//! generated code that relies on any name in scope fails to compile here. Also covers
//! raw identifier fields (`r#type`).

#[no_implicit_prelude]
mod m {
    // Items that shadow what a careless expansion would use unqualified.
    #![allow(dead_code, non_camel_case_types)]
    struct Option;
    struct Some;
    struct None;
    struct Result;
    struct Ok;
    struct Err;
    struct Vec;
    struct String;
    struct Box;
    struct Default;
    struct Clone;
    struct Copy;
    struct Debug;
    struct Field;
    struct WireMsg;
    struct WireEnum;
    struct Error;
    struct List;
    struct Mode;
    trait Into {}
    trait From {}
    trait Iterator {}
    trait Sized {}
    mod core {}
    mod std {}
    mod alloc {}
    mod wiremsg {}

    #[derive(
        ::wiremsg::WireEnum,
        ::std::fmt::Debug,
        ::std::clone::Clone,
        ::std::marker::Copy,
        ::std::cmp::PartialEq,
        ::std::default::Default,
    )]
    #[repr(u8)]
    pub(crate) enum Side {
        #[default]
        Buy = 1,
        Sell = 2,
    }

    #[derive(
        ::wiremsg::WireEnum,
        ::std::fmt::Debug,
        ::std::clone::Clone,
        ::std::marker::Copy,
        ::std::cmp::PartialEq,
    )]
    #[repr(u16)]
    pub(crate) enum Venue {
        Xnas,
        Xnys = 7,
        Arcx,
        #[wire(other)]
        Unknown(u16),
    }

    /// Fixed-size: every field is in the block. (`Copy` and `Default` make arrays of
    /// it decodable.)
    #[derive(
        ::wiremsg::WireMsg,
        ::std::fmt::Debug,
        ::std::clone::Clone,
        ::std::marker::Copy,
        ::std::cmp::PartialEq,
        ::std::default::Default,
    )]
    pub(crate) struct Tick {
        pub(crate) seq: u64,
        pub(crate) price: i64,
        pub(crate) side: Side,
        pub(crate) live: bool,
    }

    /// Variable-size: has a tail.
    #[derive(::wiremsg::WireMsg, ::std::fmt::Debug, ::std::clone::Clone, ::std::cmp::PartialEq)]
    pub(crate) struct Item {
        pub(crate) sku: ::std::string::String,
        pub(crate) qty: i32,
    }

    /// Every field kind, and a raw identifier.
    #[derive(::wiremsg::WireMsg, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    pub(crate) struct Everything<'a> {
        pub(crate) r#type: u8,
        pub(crate) small: i8,
        pub(crate) wide: u128,
        pub(crate) ratio: f64,
        pub(crate) flag: bool,
        pub(crate) symbol: ::wiremsg::FixedStr<6>,
        pub(crate) levels: [u16; 3],
        pub(crate) maybe: ::std::option::Option<u32>,
        pub(crate) maybe_pair: ::std::option::Option<[u8; 2]>,
        pub(crate) venue: Venue,
        pub(crate) side: Side,
        pub(crate) tick: Tick,
        pub(crate) maybe_tick: ::std::option::Option<Tick>,
        pub(crate) ticks: [Tick; 2],
        pub(crate) name: ::std::string::String,
        pub(crate) note: &'a str,
        pub(crate) maybe_name: ::std::option::Option<::std::string::String>,
        pub(crate) blob: ::std::vec::Vec<u8>,
        pub(crate) raw: &'a [u8],
        pub(crate) numbers: ::std::vec::Vec<u32>,
        pub(crate) sides: ::std::vec::Vec<Side>,
        pub(crate) history: ::std::vec::Vec<Tick>,
        pub(crate) items: ::std::vec::Vec<Item>,
        pub(crate) labels: ::std::vec::Vec<::std::string::String>,
        pub(crate) item: Item,
        pub(crate) maybe_item: ::std::option::Option<Item>,
    }

    /// A tagged union of every variant shape, with a raw identifier, borrowed data
    /// and a catch-all.
    #[derive(::wiremsg::WireUnion, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[repr(u16)]
    pub(crate) enum Event<'a> {
        Empty = 1,
        Item(Item) = 2,
        Note {
            r#type: u8,
            text: &'a str,
            #[wire(max_len = 2)]
            levels: ::std::vec::Vec<u16>,
        } = 3,
        #[wire(other)]
        Other {
            tag: u16,
            bytes: &'a [u8],
        },
    }

    #[derive(::wiremsg::WireMsg, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    pub(crate) struct WithUnions<'a> {
        pub(crate) event: Event<'a>,
        pub(crate) maybe: ::std::option::Option<Event<'a>>,
        pub(crate) events: ::std::vec::Vec<Event<'a>>,
    }

    #[derive(::wiremsg::WireMsg, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    pub(crate) struct WithMaps<'a> {
        pub(crate) names: ::std::collections::BTreeMap<&'a str, ::std::vec::Vec<u16>>,
        pub(crate) by_id: ::std::collections::HashMap<u16, Item>,
        pub(crate) r#type: ::std::option::Option<::std::collections::BTreeMap<u8, u8>>,
        pub(crate) lists:
            ::std::vec::Vec<::std::collections::BTreeMap<::wiremsg::FixedStr<4>, bool>>,
    }

    /// A recursive message and a recursive union, through boxes (`Box` is shadowed
    /// here: the derive must not rely on the name meaning the standard box).
    #[derive(::wiremsg::WireMsg, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    pub(crate) struct Chain {
        pub(crate) r#type: u8,
        pub(crate) next: ::std::option::Option<::std::boxed::Box<Self>>,
        pub(crate) tree: ::std::option::Option<Tree>,
    }

    /// Generic, with a `where` clause and a lifetime beside the type parameters.
    #[derive(::wiremsg::WireMsg, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    pub(crate) struct Batch<'a, T, U>
    where
        U: ::std::marker::Copy,
    {
        pub(crate) r#type: &'a str,
        pub(crate) items: ::std::vec::Vec<T>,
        pub(crate) extra: ::std::option::Option<U>,
    }

    #[derive(::wiremsg::WireUnion, ::std::fmt::Debug, ::std::cmp::PartialEq)]
    #[repr(u8)]
    pub(crate) enum Tree {
        Leaf {
            value: i64,
        },
        Pair {
            l: ::std::boxed::Box<Tree>,
            r: ::std::boxed::Box<Self>,
        },
    }
}

use m::{Everything, Item, Side, Tick, Venue};
use wiremsg::{FixedStr, TypeSchema, WireMsg};

fn tick(seq: u64, side: Side) -> Tick {
    Tick {
        seq,
        price: -(seq as i64) * 100,
        side,
        live: seq % 2 == 0,
    }
}

fn item(sku: &str, qty: i32) -> Item {
    Item {
        sku: sku.into(),
        qty,
    }
}

fn sample<'a>(note: &'a str, raw: &'a [u8]) -> Everything<'a> {
    Everything {
        r#type: 42,
        small: -3,
        wide: u128::MAX - 1,
        ratio: 0.25,
        flag: true,
        symbol: FixedStr::new("MSFT").unwrap(),
        levels: [1, 2, 65535],
        maybe: Some(9),
        maybe_pair: None,
        venue: Venue::Unknown(300),
        side: Side::Sell,
        tick: tick(1, Side::Buy),
        maybe_tick: Some(tick(2, Side::Sell)),
        ticks: [tick(3, Side::Buy), tick(4, Side::Sell)],
        name: "everything".into(),
        note,
        maybe_name: Some("yes".into()),
        blob: vec![0, 1, 2, 255],
        raw,
        numbers: vec![10, 20, 30],
        sides: vec![Side::Buy, Side::Sell, Side::Buy],
        history: vec![tick(5, Side::Buy), tick(6, Side::Sell)],
        items: vec![item("a", 1), item("", 0), item("ccc", -7)],
        labels: vec!["x".into(), "yy".into()],
        item: item("nested", 5),
        maybe_item: None,
    }
}

#[test]
fn round_trips_every_field_kind_through_the_view_and_decode() {
    let note = String::from("a note");
    let raw = [9u8, 8, 7];
    let value = sample(&note, &raw);
    let bytes = value.to_bytes().unwrap();
    assert_eq!(bytes.len(), value.encoded_len());

    let view = Everything::view(&bytes).unwrap();
    assert_eq!(view.r#type(), 42);
    assert_eq!(view.small(), -3);
    assert_eq!(view.wide(), u128::MAX - 1);
    assert_eq!(view.ratio(), 0.25);
    assert!(view.flag());
    assert_eq!(view.symbol(), "MSFT");
    assert_eq!(view.levels().to_array(), [1, 2, 65535]);
    assert_eq!(view.maybe(), Some(9));
    assert!(view.maybe_pair().is_none());
    assert_eq!(view.venue(), Venue::Unknown(300));
    assert_eq!(view.side(), Side::Sell);
    assert_eq!(view.tick().seq(), 1);
    assert_eq!(view.tick().price(), -100);
    assert_eq!(view.maybe_tick().unwrap().side(), Side::Sell);
    assert_eq!(view.ticks().get(1).unwrap().seq(), 4);
    assert_eq!(view.name(), "everything");
    assert_eq!(view.note(), "a note");
    assert_eq!(view.maybe_name(), Some("yes"));
    assert_eq!(view.blob(), &[0, 1, 2, 255][..]);
    assert_eq!(view.raw(), &[9, 8, 7][..]);
    assert_eq!(view.numbers().iter().collect::<Vec<_>>(), [10, 20, 30]);
    assert_eq!(
        view.sides().iter().collect::<Vec<_>>(),
        [Side::Buy, Side::Sell, Side::Buy]
    );
    assert_eq!(view.history().len(), 2);
    assert_eq!(view.history().get(1).unwrap().price(), -600);
    let skus: Vec<&str> = view.items().iter().map(|i| i.sku()).collect();
    assert_eq!(skus, ["a", "", "ccc"]);
    assert_eq!(view.items().get(2).unwrap().qty(), -7);
    assert_eq!(view.labels().iter().collect::<Vec<_>>(), ["x", "yy"]);
    assert_eq!(view.item().sku(), "nested");
    assert!(view.maybe_item().is_none());

    // Decoding through the view and through the type agree with the value.
    assert_eq!(view.decode(), value);
    assert_eq!(Everything::decode(&bytes).unwrap(), value);
}

#[test]
fn raw_identifier_field_keeps_its_plain_name_in_the_schema_and_setters() {
    let note = String::new();
    let value = sample(&note, &[]);
    let mut bytes = value.to_bytes().unwrap();

    let schema = Everything::SCHEMA;
    let first = &schema.fields[0];
    assert_eq!(first.name, "type");
    assert_eq!(first.size, 1);
    assert_eq!(*first.ty, TypeSchema::U8);
    // The message has a tail, so its first field follows the u16 block length.
    assert!(schema.has_tail);
    assert_eq!(first.offset, 2);
    assert_eq!(m::EverythingView::TYPE_OFFSET, 2);
    assert_eq!(m::EverythingView::TYPE_SIZE, 1);
    assert_eq!(bytes[m::EverythingView::TYPE_OFFSET], 42);
    let names: Vec<&str> = schema.fields.iter().map(|f| f.name.as_ref()).collect();
    assert_eq!(names.len(), 26);
    assert_eq!(&names[..3], ["type", "small", "wide"]);
    assert_eq!(names.last(), Some(&"maybe_item"));

    let mut edit = Everything::view_mut(&mut bytes).unwrap();
    edit.set_type(7);
    edit.set_side(Side::Buy);
    edit.set_venue(Venue::Xnys);
    edit.set_levels([4, 5, 6]);
    edit.tick_mut().set_price(12);
    edit.items_mut().get_mut(0).unwrap().set_qty(100);
    ::core::assert!(edit.numbers_mut().set(2, &33));
    let decoded = Everything::decode(&bytes).unwrap();
    assert_eq!(decoded.r#type, 7);
    assert_eq!(decoded.side, Side::Buy);
    assert_eq!(decoded.venue, Venue::Xnys);
    assert_eq!(decoded.levels, [4, 5, 6]);
    assert_eq!(decoded.tick.price, 12);
    assert_eq!(decoded.items[0].qty, 100);
    assert_eq!(decoded.numbers, [10, 20, 33]);
    assert_eq!(decoded.name, "everything");
}

#[test]
fn enum_values_follow_rust_discriminant_rules() {
    use wiremsg::WireEnum;
    assert_eq!(Venue::Xnas.to_raw(), 0);
    assert_eq!(Venue::Xnys.to_raw(), 7);
    assert_eq!(Venue::Arcx.to_raw(), 8);
    assert_eq!(Venue::from_raw(9), Some(Venue::Unknown(9)));
    assert_eq!(Venue::Unknown(9).to_raw(), 9);
    assert_eq!(Side::from_raw(0), None);
    assert_eq!(Side::from_raw(2), Some(Side::Sell));
    let schema = Venue::ENUM_SCHEMA;
    assert_eq!(schema.name, "Venue");
    let variants: Vec<(&str, u64)> = schema
        .variants
        .iter()
        .map(|v| (v.name.as_ref(), v.value))
        .collect();
    assert_eq!(variants, [("Xnas", 0), ("Xnys", 7), ("Arcx", 8)]);
    assert_eq!(schema.catch_all.as_deref(), Some("Unknown"));
}

/// Generated code names primitive types by their full path: a scope that shadows
/// them (and defines items named like the derive's internal constants) changes only
/// the user's own fields.
mod shadowed {
    #![allow(non_camel_case_types, dead_code)]
    type u8 = ::core::primitive::u64;
    type u16 = ::core::primitive::u32;
    type u32 = ::core::primitive::u64;
    type u64 = ::core::primitive::u8;
    type usize = ::core::primitive::u8;
    type bool = ::core::primitive::u8;
    type str = ::core::primitive::u8;
    const __WIREMSG_TEMPLATE_0: u8 = 3;
    const __WIREMSG_SCHEMA_0: u8 = 3;
    const BASE: ::core::primitive::u16 = 40;

    #[derive(wiremsg::WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u16)]
    pub(crate) enum Kind {
        A = BASE + 2,
        B,
        C = 7 * 2,
    }

    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    #[wire(template_id = 3)]
    pub(crate) struct Msg {
        pub(crate) a: u32,
        pub(crate) flag: bool,
        pub(crate) kind: Kind,
        pub(crate) text: ::std::string::String,
        pub(crate) list: ::std::vec::Vec<u16>,
    }

    #[derive(wiremsg::WireDispatch, Debug, PartialEq)]
    pub(crate) enum Any {
        Msg(Msg),
    }

    /// The accessors name the types as written (`Option<u32>` is `Option<u64>` here).
    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    pub(crate) struct Typed {
        pub(crate) maybe: ::core::option::Option<u32>,
        pub(crate) pair: [u16; 2],
        pub(crate) symbol: wiremsg::FixedStr<4>,
        pub(crate) names: ::std::vec::Vec<::std::string::String>,
        pub(crate) bytes: ::std::vec::Vec<u64>,
    }

    /// The borrowed twin names `str` by the primitive's full path, which the `type
    /// str` above cannot take (it wrote a bare `&'a str`, which became `&'a u8`).
    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    #[wire(version = 2, borrowed = NoteRef)]
    pub(crate) struct Note {
        pub(crate) id: u32,
        pub(crate) text: ::std::string::String,
        pub(crate) maybe: ::core::option::Option<::std::string::String>,
        pub(crate) tags: ::std::vec::Vec<u16>,
        #[wire(since = 2, default = "web")]
        pub(crate) origin: ::std::string::String,
    }

    #[test]
    fn the_borrowed_twin_names_str_by_its_full_path() {
        use wiremsg::WireMsg;
        let note = Note {
            id: 7,
            text: "hi".into(),
            maybe: ::core::option::Option::Some("m".into()),
            tags: ::std::vec![1, 2],
            origin: "fix".into(),
        };
        let twin = NoteRef::from(&note);
        let (text, maybe): (&::core::primitive::str, _) = (twin.text, twin.maybe);
        assert_eq!((text, maybe), ("hi", ::core::option::Option::Some("m")));
        let bytes = twin.to_bytes().unwrap();
        assert_eq!(bytes, note.to_bytes().unwrap());
        let view = NoteRef::view(&bytes).unwrap();
        assert_eq!((view.text(), view.origin()), ("hi", "fix"));
        assert_eq!(Note::decode(&bytes).unwrap(), note);
    }

    #[test]
    fn shadowed_primitives_read_through_typed_accessors() {
        use wiremsg::WireMsg;
        let value = Typed {
            maybe: ::core::option::Option::Some(1 << 40),
            pair: [1 << 20, 3],
            symbol: wiremsg::FixedStr::new("ab").unwrap(),
            names: ::std::vec!["x".into()],
            bytes: ::std::vec![7, 8],
        };
        let bytes = value.to_bytes().unwrap();
        let view = Typed::view(&bytes).unwrap();
        let maybe: ::core::option::Option<::core::primitive::u64> = view.maybe();
        let pair: wiremsg::ArrayView<'_, ::core::primitive::u32, 2> = view.pair();
        let symbol: &::core::primitive::str = view.symbol();
        let names: wiremsg::List<'_, ::std::string::String> = view.names();
        let bytes: &[::core::primitive::u8] = view.bytes();
        assert_eq!(maybe, ::core::option::Option::Some(1 << 40));
        assert_eq!(pair.to_array(), [1 << 20, 3]);
        assert_eq!(
            (symbol, names.get(0), bytes),
            ("ab", ::core::option::Option::Some("x"), &[7, 8][..])
        );
        assert_eq!(Typed::decode(view.as_bytes().unwrap()).unwrap(), value);
    }

    #[test]
    fn shadowed_primitives_change_only_the_users_fields() {
        use wiremsg::{WireEnum, WireMsg};
        assert_eq!(
            (Kind::A.to_raw(), Kind::B.to_raw(), Kind::C.to_raw()),
            (42, 43, 14)
        );
        let value = Msg {
            a: 1 << 40,
            flag: 200,
            kind: Kind::B,
            text: "x".into(),
            list: ::std::vec![1 << 20],
        };
        let bytes = value.to_bytes().unwrap();
        // u64 + u8 + u16 + two end offsets after the 2-byte block length.
        assert_eq!(Msg::BLOCK_LENGTH, 2 + 8 + 1 + 2 + 4 + 4);
        assert_eq!(Msg::decode(&bytes).unwrap(), value);
        let mut framed = ::std::vec::Vec::new();
        wiremsg::Template::encode_with_header(&value, &mut framed).unwrap();
        assert_eq!(Any::decode(&framed).unwrap(), Any::Msg(value));
    }
}

#[test]
fn unions_expand_without_the_prelude() {
    use wiremsg::{WireMsg, WireUnion};
    let value = m::WithUnions {
        event: m::Event::Note {
            r#type: 1,
            text: "t",
            levels: vec![4],
        },
        maybe: Some(m::Event::Item(Item {
            sku: "s".into(),
            qty: 2,
        })),
        events: vec![
            m::Event::Empty,
            m::Event::Other {
                tag: 9,
                bytes: &[1],
            },
        ],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(m::WithUnions::decode(&bytes).unwrap(), value);
    assert_eq!(
        m::Event::decode(&m::Event::Empty.to_bytes().unwrap()).unwrap(),
        m::Event::Empty
    );
}

#[test]
fn maps_expand_without_the_prelude() {
    use std::collections::{BTreeMap, HashMap};
    let value = m::WithMaps {
        names: BTreeMap::from([("b", vec![1]), ("a", vec![])]),
        by_id: HashMap::from([(
            3,
            Item {
                sku: "s".into(),
                qty: 1,
            },
        )]),
        r#type: Some(BTreeMap::from([(1, 2)])),
        lists: vec![BTreeMap::from([(FixedStr::new("AAPL").unwrap(), true)])],
    };
    let bytes = value.to_bytes().unwrap();
    let view = m::WithMaps::view(&bytes).unwrap();
    assert_eq!(view.names().keys().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(view.by_id().get(3).unwrap().qty(), 1);
    assert_eq!(view.r#type().unwrap().get(1), Some(2));
    assert_eq!(m::WithMaps::decode(&bytes).unwrap(), value);
}

#[test]
fn boxes_and_recursion_expand_without_the_prelude() {
    use m::{Chain, Tree};
    let leaf = |value| Box::new(Tree::Leaf { value });
    let value = Chain {
        r#type: 1,
        next: Some(Box::new(Chain {
            r#type: 2,
            next: None,
            tree: Some(Tree::Pair {
                l: leaf(3),
                r: leaf(4),
            }),
        })),
        tree: None,
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Chain::decode(&bytes).unwrap(), value);
    let view = Chain::view(&bytes).unwrap();
    assert_eq!(view.next().map(|n| n.r#type()), Some(2));
}

#[test]
fn generic_messages_expand_without_the_prelude() {
    let value = m::Batch {
        r#type: "t",
        items: vec![tick(1, Side::Buy)],
        extra: Some(7u16),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(m::Batch::<'_, Tick, u16>::decode(&bytes).unwrap(), value);
    let view = m::Batch::<'_, Tick, u16>::view(&bytes).unwrap();
    assert_eq!((view.r#type(), view.extra()), ("t", Some(7)));
    assert_eq!(
        <m::Batch<'_, Tick, u16> as WireMsg>::SCHEMA.name,
        "Batch_Tick_u16"
    );
}

/// Issue 30: user constants spelled like names the derives generate (`__WIREMSG_D1`,
/// `__WIREMSG_T0`, a marker type's name, a local's) are what the user's expressions
/// name, in discriminants, tags, `default = ...` and `null = ...`. Before the fix the
/// enum of the issue wrote the derive's value (both variants 7), silently.
mod user_names_like_generated_ones {
    #![allow(non_upper_case_globals)]
    use wiremsg::{WireEnum, WireMsg, WireUnion};

    pub(crate) const __WIREMSG_D0: u8 = 40;
    pub(crate) const __WIREMSG_D1: u8 = 3;
    pub(crate) const __WIREMSG_D2: u8 = 41;
    pub(crate) const __WIREMSG_T0: u8 = 50;
    pub(crate) const __WIREMSG_T1: u8 = 9;
    pub(crate) const __WireMsgVariant0: u8 = 60;
    pub(crate) const __wiremsg_sentinel: u32 = 66;
    pub(crate) const sentinel: u32 = 77;
    pub(crate) const __wiremsg_value: u32 = 88;

    /// The enum of the issue.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum E {
        A = __WIREMSG_D1,
        B = 7,
    }

    /// The same with a catch-all (its values cannot be cast: they are computed).
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Open {
        A = __WIREMSG_D1,
        B,
        C = __WIREMSG_D0 + __WIREMSG_D2 - 80,
        #[wire(other)]
        Unknown(u8),
    }

    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    pub(crate) enum U {
        A = __WIREMSG_T1,
        #[wire(tag = __WireMsgVariant0 - 59)]
        B {
            x: u32,
        },
        C {
            x: u16,
        },
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct V1 {
        pub(crate) e: E,
        pub(crate) f: E,
        pub(crate) open: Open,
        pub(crate) ope: Open,
        pub(crate) opn: Open,
        pub(crate) u: U,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct W {
        pub(crate) u: U,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct V2 {
        pub(crate) e: E,
        pub(crate) f: E,
        pub(crate) open: Open,
        pub(crate) ope: Open,
        pub(crate) opn: Open,
        pub(crate) u: U,
        #[wire(since = 2, default = __wiremsg_value + __WIREMSG_T0 as u32)]
        pub(crate) late: u32,
        #[wire(since = 2, null = sentinel + 0 * __wiremsg_sentinel)]
        pub(crate) maybe: Option<u32>,
    }
}

#[test]
fn user_constants_named_like_generated_ones_are_what_the_user_meant() {
    use user_names_like_generated_ones::{E, Open, U, V1, V2, W};
    use wiremsg::WireMsg;
    assert_eq!(E::A as u8, 3);
    let v1 = V1 {
        e: E::A,
        f: E::B,
        open: Open::A,
        ope: Open::B,
        opn: Open::C,
        u: U::C { x: 0x0201 },
    };
    let bytes = v1.to_bytes().unwrap();
    // Block length 11; E::A = 3 (the user's constant), E::B = 7; Open: 3, 4 (A + 1),
    // 1; the union's slot, then in the tail its tag 2 (B's 1 + 1) and the `u16`.
    assert_eq!(bytes, [11, 0, 3, 7, 3, 4, 1, 14, 0, 0, 0, 2, 1, 2]);
    // The union's tags: 9 (the user's `__WIREMSG_T1`), 1 (`__WireMsgVariant0 - 59`),
    // 2.
    let tagged = |u| W { u }.to_bytes().unwrap();
    assert_eq!(tagged(U::A), [6, 0, 7, 0, 0, 0, 9]);
    assert_eq!(tagged(U::B { x: 5 }), [6, 0, 11, 0, 0, 0, 1, 5, 0, 0, 0]);
    assert_eq!(tagged(U::C { x: 6 }), [6, 0, 9, 0, 0, 0, 2, 6, 0]);
    // A version-1 writer: the reader of version 2 sees the declared default.
    let v2 = V2::decode(&bytes).unwrap();
    assert_eq!(v2.late, 88 + 50);
    assert_eq!(v2.maybe, None);
    // `null = sentinel` is the user's 77.
    let full = V2 {
        e: E::B,
        f: E::A,
        open: Open::C,
        ope: Open::Unknown(200),
        opn: Open::A,
        u: U::A,
        late: 1,
        maybe: None,
    };
    let b = full.to_bytes().unwrap();
    // ..., late = 1, then `None` as the user's sentinel 77, then the union (tag 9).
    assert_eq!(
        b,
        [
            19, 0, 7, 3, 1, 200, 3, 20, 0, 0, 0, 1, 0, 0, 0, 77, 0, 0, 0, 9
        ]
    );
    assert_eq!(V2::view(&b).unwrap().decode(), full);
}

/// User types and lifetimes spelled like the generic parameters a careless expansion
/// would introduce (`S` for a serializer, `T`, `V`, `P`, `'v`, `'m`, ...): a field of
/// type `S` must be the user's `S`, a message generic over `'v` must keep its own.
/// Before the fix a type named `S` did not compile with the `serde` feature (the
/// generated `serialize<S: Serializer>` shadowed it).
mod user_types_named_like_generic_parameters {
    #![allow(non_camel_case_types)]
    use wiremsg::{WireMsg, WireUnion};

    macro_rules! leaf {
        ($($name:ident),*) => {$(
            #[derive(WireMsg, Debug, Clone, PartialEq)]
            pub(crate) struct $name {
                pub(crate) x: u16,
            }
        )*};
    }
    leaf!(S, T, U, V, P, D, E, F, K, R, W, B, M, G);

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Holder<'v, 'm, 'a, 't> {
        pub(crate) s: S,
        pub(crate) t: T,
        pub(crate) u: Vec<U>,
        pub(crate) v: Option<V>,
        pub(crate) p: P,
        pub(crate) d: D,
        pub(crate) e: E,
        pub(crate) f: F,
        pub(crate) k: K,
        pub(crate) r: R,
        pub(crate) w: W,
        pub(crate) b: B,
        pub(crate) m: M,
        pub(crate) g: G,
        pub(crate) v_text: &'v str,
        pub(crate) m_text: &'m str,
        pub(crate) a_text: &'a str,
        pub(crate) t_text: &'t str,
    }

    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Choice<'v> {
        S(S),
        P(P),
        Named { s: S, text: &'v str },
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct WithChoice<'v> {
        pub(crate) choice: Choice<'v>,
    }
}

#[test]
fn user_types_named_like_generic_parameters_are_the_users() {
    use user_types_named_like_generic_parameters::*;
    let h = Holder {
        s: S { x: 1 },
        t: T { x: 2 },
        u: vec![U { x: 3 }],
        v: Some(V { x: 4 }),
        p: P { x: 5 },
        d: D { x: 6 },
        e: E { x: 7 },
        f: F { x: 8 },
        k: K { x: 9 },
        r: R { x: 10 },
        w: W { x: 11 },
        b: B { x: 12 },
        m: M { x: 13 },
        g: G { x: 14 },
        v_text: "v",
        m_text: "m",
        a_text: "a",
        t_text: "t",
    };
    let bytes = h.to_bytes().unwrap();
    let view = Holder::view(&bytes).unwrap();
    assert_eq!(view.s().x(), 1);
    assert_eq!(view.g().x(), 14);
    assert_eq!(view.v_text(), "v");
    assert_eq!(view.t_text(), "t");
    assert_eq!(Holder::decode(&bytes).unwrap(), h);
    let json = serde_json::to_value(view).unwrap();
    assert_eq!(json["s"]["x"], 1);
    assert_eq!(json["m_text"], "m");
    let json = serde_json::to_value(Holder::view_lazy(&bytes).unwrap()).unwrap();
    assert_eq!(json["k"]["x"], 9);

    for choice in [
        Choice::S(S { x: 21 }),
        Choice::P(P { x: 22 }),
        Choice::Named {
            s: S { x: 23 },
            text: "n",
        },
    ] {
        let msg = WithChoice { choice };
        let bytes = msg.to_bytes().unwrap();
        assert_eq!(WithChoice::decode(&bytes).unwrap(), msg);
        let json = serde_json::to_value(WithChoice::view(&bytes).unwrap()).unwrap();
        let expected = match &msg.choice {
            Choice::S(s) => serde_json::json!({"choice": {"S": {"x": s.x}}}),
            Choice::P(p) => serde_json::json!({"choice": {"P": {"x": p.x}}}),
            Choice::Named { s, text } => {
                serde_json::json!({"choice": {"Named": {"s": {"x": s.x}, "text": text}}})
            }
        };
        assert_eq!(json, expected);
    }
}

/// Payloads and fields written by a `macro_rules!` `$t:ty` (an invisible group) or in
/// parentheses are the types they name: the union's check that a payload is named by
/// its message's own name saw through neither before (it failed to compile).
mod types_through_macros_and_parentheses {
    #![allow(unused_parens)]
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Fill {
        pub(crate) qty: u32,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Cancel {
        pub(crate) id: u64,
    }

    macro_rules! union_of {
        ($name:ident, $a:ty, $b:ty, $opt:ty) => {
            #[derive(WireUnion, Debug, PartialEq)]
            #[repr(u8)]
            pub(crate) enum $name {
                Fill($a),
                Cancel(Box<$b>),
                Paren((Fill)),
            }

            #[derive(WireMsg, Debug, PartialEq)]
            pub(crate) struct Holder {
                pub(crate) event: $name,
                pub(crate) maybe: $opt,
                pub(crate) list: Vec<$a>,
            }
        };
    }
    union_of!(Event, Fill, Cancel, Option<u32>);

    /// `Holder` written out: the same layout.
    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    pub(crate) enum DirectEvent {
        Fill(Fill),
        Cancel(Box<Cancel>),
        Paren(Fill),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Direct {
        pub(crate) event: DirectEvent,
        pub(crate) maybe: Option<u32>,
        pub(crate) list: Vec<Fill>,
    }
}

#[test]
fn types_through_macros_and_parentheses_are_the_types_they_name() {
    use types_through_macros_and_parentheses::{Cancel, Direct, DirectEvent, Event, Fill, Holder};
    for event in [
        Event::Fill(Fill { qty: 3 }),
        Event::Cancel(Box::new(Cancel { id: 9 })),
        Event::Paren(Fill { qty: 4 }),
    ] {
        let msg = Holder {
            event,
            maybe: Some(5),
            list: vec![Fill { qty: 6 }],
        };
        let bytes = msg.to_bytes().unwrap();
        assert_eq!(Holder::decode(&bytes).unwrap(), msg);
    }
    // The layout of the same types written out: the option of a primitive in the
    // block (presence byte and value), each payload at its tag.
    let direct = Direct {
        event: DirectEvent::Cancel(Box::new(Cancel { id: 9 })),
        maybe: None,
        list: vec![Fill { qty: 1 }],
    };
    let through = Holder {
        event: Event::Cancel(Box::new(Cancel { id: 9 })),
        maybe: None,
        list: vec![Fill { qty: 1 }],
    };
    let bytes = through.to_bytes().unwrap();
    assert_eq!(bytes, direct.to_bytes().unwrap());
    assert_eq!(&bytes[..2], &[2 + 4 + 5 + 4, 0]);
}

/// Lints a careful crate denies: the generated code trips none of them.
pub mod strict_lints {
    #![deny(
        unused_lifetimes,
        single_use_lifetimes,
        unused_qualifications,
        trivial_casts,
        trivial_numeric_casts,
        unused_results,
        elided_lifetimes_in_paths,
        missing_debug_implementations,
        unreachable_pub,
        missing_docs,
        unused_import_braces,
        explicit_outlives_requirements,
        let_underscore_drop,
        redundant_lifetimes,
        unsafe_code,
        keyword_idents,
        macro_use_extern_crate,
        unit_bindings
    )]
    use wiremsg::{WireEnum, WireMsg, WireUnion};

    /// A side.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub enum Side {
        /// Buy.
        Buy = 1,
        /// Sell.
        Sell = 2,
    }

    /// A fill.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub struct Fill {
        /// Quantity.
        pub qty: u32,
        /// Side.
        pub side: Side,
    }

    /// A note.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub struct Note<'a> {
        /// Text.
        pub text: &'a str,
        /// Fills.
        pub fills: Vec<Fill>,
        /// Maybe a fill.
        pub last: Option<Fill>,
    }

    /// An event.
    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    pub enum Event<'a> {
        /// A fill.
        Fill(Fill),
        /// A note.
        Note(Note<'a>),
        /// A cancel.
        Cancel {
            /// Its id.
            id: u64,
        },
    }

    /// A batch.
    #[derive(WireMsg, Debug, PartialEq)]
    pub struct Batch<'a> {
        /// Events.
        pub events: Vec<Event<'a>>,
        /// One event.
        pub first: Event<'a>,
        /// A map.
        pub by_id: std::collections::BTreeMap<u64, Fill>,
    }
}

/// Trait methods in scope named like a message's fields, callable on the mutable
/// view (a blanket `&self` method, `Borrow::borrow`, `BorrowMut::borrow_mut`,
/// `Debug::fmt`): the generated updaters read the field through the view's own
/// getter, never through the user's method, which method-call lookup on `&mut self`
/// would find first. And constants named like bindings a careless `__check` would
/// make.
mod user_methods_named_like_fields {
    #![allow(dead_code, non_upper_case_globals)]
    pub(crate) use core::fmt::Debug;
    // In scope for the generated code to misuse; nothing here calls them.
    #[allow(unused_imports)]
    pub(crate) use std::borrow::{Borrow, BorrowMut};
    use wiremsg::WireMsg;

    /// Every type's size: the kind of blanket method a user crate may have.
    pub(crate) trait ByteSize {
        fn size(&self) -> u64;
    }

    impl<T> ByteSize for T {
        fn size(&self) -> u64 {
            core::mem::size_of_val(self) as u64
        }
    }

    pub(crate) const __wiremsg_e: u8 = 0;
    pub(crate) const e: u8 = 0;

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) size: u64,
        pub(crate) borrow: u64,
        pub(crate) fmt: i16,
        pub(crate) note: String,
        #[wire(max_len = 2)]
        pub(crate) legs: Vec<u32>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Leg {
        pub(crate) borrow_mut: Option<u32>,
    }
}

#[test]
fn updaters_read_fields_through_the_view_not_user_methods_of_their_names() {
    use user_methods_named_like_fields::{ByteSize, Leg, Order, OrderView};
    use wiremsg::WireMsg;
    let order = Order {
        size: 100,
        borrow: 7,
        fmt: -2,
        note: "n".into(),
        legs: vec![1, 2],
    };
    let mut bytes = order.to_bytes().unwrap();
    let mut view = Order::view_mut(&mut bytes).unwrap();
    // The user's method, called by the user, is the user's.
    assert_eq!(ByteSize::size(&view), core::mem::size_of_val(&view) as u64);
    let mut seen = 0;
    view.update_size(|s| {
        seen = s;
        s + 1
    });
    assert_eq!(seen, 100);
    view.update_borrow(|b| b * 3);
    view.update_fmt(|f| f - 1);
    let read = Order::decode(&bytes).unwrap();
    let want = Order {
        size: 101,
        borrow: 21,
        fmt: -3,
        note: "n".into(),
        legs: vec![1, 2],
    };
    assert_eq!(read, want);

    let mut leg = Leg {
        borrow_mut: Some(3),
    }
    .to_bytes()
    .unwrap();
    Leg::view_mut(&mut leg)
        .unwrap()
        .update_borrow_mut(|b| b.map(|b| b + 1));
    assert_eq!(
        Leg::decode(&leg).unwrap(),
        Leg {
            borrow_mut: Some(4)
        }
    );

    // The check still refuses a list over its `max_len`, at its field.
    let long = Order {
        legs: vec![1, 2, 3],
        ..want
    };
    let err = long.to_bytes().unwrap_err();
    assert_eq!(err.path(), "legs");
    assert_eq!(err.offset(), OrderView::LEGS_OFFSET);
}

/// Fields named `into` (and so `try_into`, `has_into` for a field of a later version):
/// the mutable view's getters forward to the view's by path. As methods of the
/// temporary view they found `Into::into`/`TryInto::try_into` first (those take the
/// view by value, the accessors by reference), and the message did not compile.
#[test]
fn mutable_views_forward_fields_named_like_by_value_trait_methods() {
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    struct Conv {
        into: u32,
        from: u64,
        #[wire(since = 2)]
        try_from: u16,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    struct Later {
        id: u8,
        #[wire(since = 2)]
        into: i16,
    }

    let mut bytes = Conv {
        into: 7,
        from: 9,
        try_from: 11,
    }
    .to_bytes()
    .unwrap();
    let m = Conv::view_mut(&mut bytes).unwrap();
    assert_eq!(ConvMut::into(&m), 7);
    assert_eq!(ConvMut::from(&m), 9);
    assert_eq!(ConvMut::try_try_from(&m), Some(11));

    let mut bytes = Later { id: 1, into: -5 }.to_bytes().unwrap();
    let m = Later::view_mut(&mut bytes).unwrap();
    assert_eq!(LaterMut::into(&m), -5);
    assert_eq!(LaterMut::try_into(&m), Some(-5));
    assert!(LaterMut::has_into(&m));
}
