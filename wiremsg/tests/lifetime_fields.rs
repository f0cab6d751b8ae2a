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

#[derive(WireMsg, Debug, PartialEq)]
#[wire(version = 2)]
struct Holder<'a> {
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
    #[wire(since = 2)]
    later: Option<Name<'a>>,
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
    let at = decoded.name.first.as_ptr() as usize;
    assert!(bytes.as_ptr_range().contains(&(at as *const u8)));
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

#[derive(WireMsg, Debug, PartialEq)]
struct HolderV1<'a> {
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
}

#[test]
fn a_later_field_of_a_message_with_lifetimes_reads_as_its_default_in_older_bytes() {
    let value = holder();
    let old = HolderV1 {
        id: value.id,
        name: value.name.clone(),
        maybe: value.maybe.clone(),
        all: value.all.clone(),
        boxed: value.boxed.clone(),
        by_id: value.by_id.clone(),
        pair: value.pair.clone(),
        tag: value.tag.clone(),
        keys: value.keys.clone(),
        tags: value.tags.clone(),
        maybe_by_id: value.maybe_by_id.clone(),
    };
    let bytes = old.to_bytes().unwrap();
    let view = Holder::view(&bytes).unwrap();
    assert!(!view.has_later());
    assert!(view.later().is_none());
    let decoded = Holder::decode(&bytes).unwrap();
    assert_eq!(decoded.later, None);
    assert_eq!(decoded.name, value.name);
    // And the newer bytes read as the older message.
    let new = value.to_bytes().unwrap();
    assert_eq!(HolderV1::decode(&new).unwrap(), old);
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
