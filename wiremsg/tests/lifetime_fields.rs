//! Fields whose types carry the message's lifetimes (`n: Name<'a>`): the derive
//! guards them in their `'static` form (`Name<'static>: Field`), as it guards types
//! without lifetimes, so that a forgotten derive is reported at the type (the ui case
//! `field-lifetime-struct-without-wire-msg`), and decoding bounds them by
//! `DecodesAt`. These are the valid programs that must keep compiling and reading:
//! every position such a type can take (maps of borrowed messages, unions and options
//! among them, which decoding retypes by `Kind::Reads`), decoding borrowed from the
//! bytes, versions, and a type that cannot decode beside one that can.

use std::collections::BTreeMap;
use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Name<'a> {
    first: &'a str,
    last: &'a str,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Pair<'a, 'b> {
    left: &'a str,
    right: &'b str,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Tag<'a> {
    Text(Name<'a>) = 1,
    Code { code: u32 } = 2,
}

/// `Holder` (version 2) and `HolderV1`, the same fields but the last: one list, so
/// that the two versions cannot drift apart.
macro_rules! holders {
    ($($(#[$attr:meta])* $name:ident { $($later:tt)* })*) => {$(
        #[derive(WireMsg, Debug, PartialEq)]
        $(#[$attr])*
        struct $name<'a> {
            id: u64,
            name: Name<'a>,
            maybe: Option<Name<'a>>,
            all: Vec<Name<'a>>,
            boxed: Box<Name<'a>>,
            by_id: BTreeMap<u32, Name<'a>>,
            pair: Pair<'a, 'a>,
            tag: Tag<'a>,
            keys: BTreeMap<&'a str, u32>,
            tags: BTreeMap<&'a str, Tag<'a>>,
            maybe_by_id: BTreeMap<u32, Option<Name<'a>>>,
            $($later)*
        }
    )*};
}

holders! {
    #[wire(version = 2)]
    Holder {
        #[wire(since = 2)]
        later: Option<Name<'a>>,
    }
    HolderV1 {}
}

fn name(first: &'static str) -> Name<'static> {
    Name { first, last: "x" }
}

fn holder() -> Holder<'static> {
    Holder {
        id: 7,
        name: name("a"),
        maybe: Some(name("b")),
        all: vec![name("c"), name("d")],
        boxed: Box::new(name("e")),
        by_id: BTreeMap::from([(1, name("f"))]),
        pair: Pair {
            left: "l",
            right: "r",
        },
        tag: Tag::Text(name("g")),
        keys: BTreeMap::from([("k", 3)]),
        tags: BTreeMap::from([("t", Tag::Code { code: 5 }), ("u", Tag::Text(name("j")))]),
        maybe_by_id: BTreeMap::from([(1, None), (2, Some(name("k")))]),
        later: Some(name("i")),
    }
}

#[test]
fn every_position_views_and_decodes_borrowed() {
    let value = holder();
    let bytes = value.to_bytes().unwrap();
    let view = Holder::view(&bytes).unwrap();
    assert_eq!(view.name().first(), "a");
    assert_eq!(view.maybe().unwrap().first(), "b");
    assert_eq!(view.all().get(1).unwrap().first(), "d");
    assert_eq!(view.boxed().first(), "e");
    assert_eq!(view.pair().right(), "r");
    assert_eq!(view.by_id().get(1).unwrap().first(), "f");
    assert_eq!(view.maybe_by_id().get(2).unwrap().unwrap().first(), "k");
    assert_eq!(view.tags().len(), 2);
    assert_eq!(view.later().unwrap().first(), "i");
    let decoded = view.decode();
    assert_eq!(decoded, value);
    // Borrowed from the bytes, not copied.
    assert!(bytes.as_ptr_range().contains(&decoded.name.first.as_ptr()));
    assert_eq!(Holder::decode(&bytes).unwrap(), value);
}

#[test]
fn a_nested_message_with_lifetimes_reads_through_the_mutable_and_on_demand_views() {
    let mut bytes = holder().to_bytes().unwrap();
    let lazy = Holder::view_lazy(&bytes).unwrap();
    assert_eq!(lazy.name().unwrap().first().unwrap(), "a");
    let mut view = Holder::view_mut(&mut bytes).unwrap();
    assert_eq!(view.name().first(), "a");
    view.set_id(9);
    assert_eq!(Holder::view(&bytes).unwrap().id(), 9);
}

#[test]
fn a_later_field_of_a_message_with_lifetimes_reads_as_its_default_in_older_bytes() {
    let value = holder();
    // The older reader of the newer bytes: every field but the later one.
    let new = value.to_bytes().unwrap();
    let old = HolderV1::decode(&new).unwrap();
    assert_eq!(
        (&old.name, &old.by_id, &old.tags),
        (&value.name, &value.by_id, &value.tags)
    );
    assert_eq!(
        (&old.maybe_by_id, &old.keys, &old.all),
        (&value.maybe_by_id, &value.keys, &value.all)
    );
    let bytes = old.to_bytes().unwrap();
    let view = Holder::view(&bytes).unwrap();
    assert!(!view.has_later());
    assert!(view.later().is_none());
    let decoded = Holder::decode(&bytes).unwrap();
    assert_eq!(decoded.later, None);
    assert_eq!(decoded.name, value.name);
    assert_eq!(decoded.tag, value.tag);
}

/// Cannot decode (`&[u32]` is not aligned in the bytes): holding it inline leaves the
/// holder's `decode` unavailable, and the rest compiles and reads.
#[derive(WireMsg, Debug, PartialEq)]
struct Words<'a> {
    xs: &'a [u32],
}

#[derive(WireMsg, Debug, PartialEq)]
struct HoldsWords<'a> {
    words: Words<'a>,
    name: Name<'a>,
}

#[test]
fn a_nested_message_that_cannot_decode_still_views() {
    let value = HoldsWords {
        words: Words { xs: &[4, 5] },
        name: name("w"),
    };
    let bytes = value.to_bytes().unwrap();
    let view = HoldsWords::view(&bytes).unwrap();
    assert_eq!(view.words().xs().get(1), Some(5));
    assert_eq!(view.name().first(), "w");
}

/// Containers of borrowed data inside containers: the view of each map, and of each
/// list of a type with lifetimes, names its parts in their `'static` form, and
/// decoding retypes it to the bytes' lifetime (`MapView::same_kinds`,
/// `List::same_kinds`, by `Kind::Reads`). None of these compiled before.
// The boxes are the shapes under test, not storage choices.
#[allow(clippy::vec_box, clippy::box_collection)]
#[derive(WireMsg, Debug, PartialEq)]
struct Nested<'a> {
    lists_by_id: BTreeMap<u32, Vec<Name<'a>>>,
    maps: Vec<BTreeMap<&'a str, u32>>,
    pairs: Vec<(Name<'a>, u32)>,
    boxes: Vec<Box<Name<'a>>>,
    name_and_map: (Name<'a>, BTreeMap<&'a str, u32>),
    maybe_maps: Option<Vec<BTreeMap<&'a str, u32>>>,
    boxed_map: Box<BTreeMap<&'a str, u32>>,
    tags_by_id: BTreeMap<u32, Vec<Tag<'a>>>,
}

#[test]
fn containers_of_borrowed_data_in_containers_view_and_decode() {
    let value = Nested {
        lists_by_id: BTreeMap::from([(1, vec![name("a"), name("b")]), (2, vec![])]),
        maps: vec![BTreeMap::from([("x", 1), ("y", 2)]), BTreeMap::new()],
        pairs: vec![(name("c"), 3)],
        boxes: vec![Box::new(name("d"))],
        name_and_map: (name("e"), BTreeMap::from([("z", 4)])),
        maybe_maps: Some(vec![BTreeMap::from([("w", 5)])]),
        boxed_map: Box::new(BTreeMap::from([("v", 6)])),
        tags_by_id: BTreeMap::from([(7, vec![Tag::Code { code: 8 }, Tag::Text(name("f"))])]),
    };
    let bytes = value.to_bytes().unwrap();
    let view = Nested::view(&bytes).unwrap();
    assert_eq!(
        view.lists_by_id().get(1).unwrap().get(1).unwrap().first(),
        "b"
    );
    assert_eq!(view.maps().get(0).unwrap().get("y"), Some(2));
    assert_eq!(view.pairs().get(0).unwrap().1, 3);
    assert_eq!(view.boxes().get(0).unwrap().first(), "d");
    assert_eq!(view.name_and_map().1.get("z"), Some(4));
    assert_eq!(view.boxed_map().get("v"), Some(6));
    let decoded = view.decode();
    assert_eq!(decoded, value);
    let key = *decoded.maps[0].keys().next().unwrap();
    assert!(bytes.as_ptr_range().contains(&key.as_ptr()));
    assert_eq!(Nested::decode(&bytes).unwrap(), value);
}

/// The same shapes in a union's struct variant, beside a newtype variant of a
/// borrowed message (whose decoding bound the variant's must not meet), and the union
/// held inline, in a list and in a map.
#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Event<'a> {
    Named {
        name: Name<'a>,
        maybe: Option<Name<'a>>,
        by_id: BTreeMap<u32, Name<'a>>,
        maps: Vec<BTreeMap<&'a str, u32>>,
    } = 1,
    Just(Name<'a>) = 2,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Events<'a> {
    one: Event<'a>,
    all: Vec<Event<'a>>,
    by_id: BTreeMap<u32, Event<'a>>,
}

#[test]
fn a_union_s_struct_variant_holds_borrowed_messages_and_maps() {
    let named = Event::Named {
        name: name("a"),
        maybe: Some(name("b")),
        by_id: BTreeMap::from([(1, name("c"))]),
        maps: vec![BTreeMap::from([("k", 2)])],
    };
    let value = Events {
        one: named.clone(),
        all: vec![Event::Just(name("d")), named.clone()],
        by_id: BTreeMap::from([(3, named), (4, Event::Just(name("e")))]),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Events::view(&bytes).unwrap().decode(), value);
    assert_eq!(Events::decode(&bytes).unwrap(), value);
}
