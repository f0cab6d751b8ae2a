//! A hostile review of split lists (FORMAT.md §6.3): valid encodings of messages
//! with every kind of split list (nested in an element's tail, maps with string keys
//! and message values, tuples with a tail, `Option<Vec<Msg>>`, boxes, a recursive
//! message), changed at the words the schema-driven dump names (tail starts, block
//! lengths, end offsets) and at random. On every buffer the typed and schema-driven
//! readers accept and refuse alike (same error kind, path, offset), for a reader of
//! the same, an older and a newer version; over accepted bytes the checked,
//! unchecked and mutable views, decoding, the schema-driven view and the re-encoded
//! value all read the same values, and writes through the mutable views of every
//! element at once land in their own element.

// `Vec<Box<Leg>>` on purpose: boxed elements of split lists are under test.
#![allow(clippy::vec_box)]

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use wiremsg::dynamic;
use wiremsg::{SchemaSet, WireMsg};

mod v1 {
    use std::collections::BTreeMap;
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Leg {
        pub(crate) px: i64,
        pub(crate) sym: String,
        pub(crate) tags: Vec<u16>,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Node {
        pub(crate) id: u32,
        pub(crate) kids: Vec<Node>,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Inner {
        pub(crate) n: u8,
        pub(crate) legs: Vec<Leg>,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Hostile {
        pub(crate) id: u16,
        pub(crate) legs: Vec<Leg>,
        pub(crate) inners: Vec<Inner>,
        pub(crate) pairs: Vec<(u8, String)>,
        pub(crate) book: BTreeMap<String, Leg>,
        pub(crate) maybe: Option<Vec<Leg>>,
        pub(crate) boxed: Vec<Box<Leg>>,
        pub(crate) tree: Node,
    }
}

mod v2 {
    use std::collections::BTreeMap;
    use wiremsg::WireMsg;

    pub(crate) use super::v1::Node;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Leg {
        pub(crate) px: i64,
        pub(crate) sym: String,
        pub(crate) tags: Vec<u16>,
        #[wire(since = 2)]
        pub(crate) qty: u32,
        #[wire(since = 2)]
        pub(crate) note: String,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Inner {
        pub(crate) n: u8,
        pub(crate) legs: Vec<Leg>,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Hostile {
        pub(crate) id: u16,
        pub(crate) legs: Vec<Leg>,
        pub(crate) inners: Vec<Inner>,
        pub(crate) pairs: Vec<(u8, String)>,
        pub(crate) book: BTreeMap<String, Leg>,
        pub(crate) maybe: Option<Vec<Leg>>,
        pub(crate) boxed: Vec<Box<Leg>>,
        pub(crate) tree: Node,
    }
}

fn text() -> impl Strategy<Value = String> {
    "[a-c\u{e9}]{0,3}"
}

fn leg2() -> impl Strategy<Value = v2::Leg> {
    (
        -3i64..3,
        text(),
        proptest::collection::vec(0u16..4, 0..3),
        0u32..3,
        text(),
    )
        .prop_map(|(px, sym, tags, qty, note)| v2::Leg {
            px,
            sym,
            tags,
            qty,
            note,
        })
}

fn node() -> impl Strategy<Value = v1::Node> {
    let leaf = (0u32..9).prop_map(|id| v1::Node { id, kids: vec![] });
    leaf.prop_recursive(3, 8, 3, |inner| {
        (0u32..9, proptest::collection::vec(inner, 0..3))
            .prop_map(|(id, kids)| v1::Node { id, kids })
    })
}

fn hostile2() -> impl Strategy<Value = v2::Hostile> {
    let legs = || proptest::collection::vec(leg2(), 0..3);
    (
        any::<u16>(),
        legs(),
        proptest::collection::vec(
            (0u8..4, legs()).prop_map(|(n, legs)| v2::Inner { n, legs }),
            0..3,
        ),
        proptest::collection::vec((0u8..4, text()), 0..3),
        proptest::collection::btree_map(text(), leg2(), 0..3),
        proptest::option::of(legs()),
        proptest::collection::vec(leg2().prop_map(Box::new), 0..2),
        node(),
    )
        .prop_map(
            |(id, legs, inners, pairs, book, maybe, boxed, tree)| v2::Hostile {
                id,
                legs,
                inners,
                pairs,
                book,
                maybe,
                boxed,
                tree,
            },
        )
}

fn v1_of(leg: &v2::Leg) -> v1::Leg {
    v1::Leg {
        px: leg.px,
        sym: leg.sym.clone(),
        tags: leg.tags.clone(),
    }
}

fn hostile1(h: &v2::Hostile) -> v1::Hostile {
    v1::Hostile {
        id: h.id,
        legs: h.legs.iter().map(v1_of).collect(),
        inners: h
            .inners
            .iter()
            .map(|i| v1::Inner {
                n: i.n,
                legs: i.legs.iter().map(v1_of).collect(),
            })
            .collect(),
        pairs: h.pairs.clone(),
        book: h.book.iter().map(|(k, v)| (k.clone(), v1_of(v))).collect(),
        maybe: h.maybe.as_ref().map(|l| l.iter().map(v1_of).collect()),
        boxed: h.boxed.iter().map(|l| Box::new(v1_of(l))).collect(),
        tree: h.tree.clone(),
    }
}

/// `Debug` of a view as that of the decoded value (`LegView { ..` as `Leg { ..`).
fn unview(view: impl std::fmt::Debug) -> String {
    format!("{view:?}").replace("View {", " {")
}

/// Checks every reader of one type over `bytes`; true if they accepted.
macro_rules! agree {
    ($ty:ty, $set:expr, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let set: &SchemaSet = $set;
        let typed = <$ty>::view(bytes);
        let dynamic = dynamic::view(set, "Hostile", bytes);
        let dump = dynamic::annotate(set, "Hostile", bytes, false);
        match (&typed, &dynamic) {
            (Ok(view), Ok(dview)) => {
                assert!(dump.error().is_none(), "{dump}");
                let decoded = <$ty>::decode(bytes).expect("decode of viewed bytes");
                let want = format!("{decoded:?}");
                let seen = unview(view);
                // SAFETY: `view` accepted these bytes just above.
                let unchecked = unsafe { <$ty>::view_unchecked(bytes) };
                assert_eq!(unview(unchecked), seen, "unchecked view");
                assert_eq!(dview.to_string(), want, "schema-driven view");
                let mut copy = bytes.to_vec();
                let edit = <$ty>::view_mut(&mut copy).unwrap();
                assert_eq!(unview(edit.as_view()), seen, "mutable view");
                assert_eq!(unview(<$ty>::view(&copy).unwrap()), seen);
                let again = decoded.to_bytes().unwrap();
                assert_eq!(format!("{:?}", <$ty>::decode(&again).unwrap()), want);
                true
            }
            (Err(t), Err(d)) => {
                assert_eq!(
                    (t.kind(), t.path(), t.offset()),
                    (d.kind(), d.path(), d.offset()),
                    "typed `{t}`, schema-driven `{d}`"
                );
                let a = dump.error().expect("the dump's error");
                assert_eq!(a.to_string(), d.to_string());
                false
            }
            _ => panic!(
                "{}: typed {:?}, schema-driven {:?}",
                stringify!($ty),
                typed.as_ref().err(),
                dynamic.as_ref().err()
            ),
        }
    }};
}

struct Sets {
    one: SchemaSet,
    two: SchemaSet,
}

fn sets() -> Sets {
    Sets {
        one: SchemaSet::of::<v1::Hostile>().unwrap(),
        two: SchemaSet::of::<v2::Hostile>().unwrap(),
    }
}

/// Every reader over `bytes`: version 1 and version 2, each typed and schema-driven.
/// Returns whether each accepted.
fn check_all(sets: &Sets, bytes: &[u8]) -> (bool, bool) {
    let one = agree!(v1::Hostile, &sets.one, bytes);
    let two = agree!(v2::Hostile, &sets.two, bytes);
    if one || two {
        // A newer writer's bytes read by an older reader are valid for it (FORMAT.md
        // §5); not the converse (an older reader accepts what a newer refuses).
        // Writes through mutable views of every element of every split list.
        write_through_all(bytes);
    }
    (one, two)
}

/// Offsets of the words the dump names: tail starts, block lengths, end offsets.
fn words(set: &SchemaSet, bytes: &[u8]) -> Vec<(usize, usize)> {
    let dump = dynamic::annotate(set, "Hostile", bytes, false);
    dump.rows()
        .iter()
        .filter(|r| r.len == 2 || r.len == 4)
        .map(|r| (r.offset, r.len))
        .collect()
}

#[derive(Debug, Clone)]
enum Hit {
    /// A named word (index modulo their number) plus a small delta.
    Word(usize, i32),
    /// A named word set to another named word's value (pointing a tail elsewhere).
    Copy(usize, usize),
    /// A byte anywhere.
    Byte(usize, u8),
    /// The buffer cut.
    Cut(usize),
}

fn hits() -> impl Strategy<Value = Vec<Hit>> {
    let hit = prop_oneof![
        6 => (any::<usize>(), -12i32..12).prop_map(|(w, d)| Hit::Word(w, d)),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Hit::Copy(a, b)),
        2 => (any::<usize>(), any::<u8>()).prop_map(|(a, b)| Hit::Byte(a, b)),
        1 => any::<usize>().prop_map(Hit::Cut),
    ];
    proptest::collection::vec(hit, 1..4)
}

fn read_word(bytes: &[u8], at: usize, len: usize) -> i64 {
    let mut w = [0u8; 4];
    w[..len].copy_from_slice(&bytes[at..at + len]);
    i64::from(u32::from_le_bytes(w))
}

fn write_word(bytes: &mut [u8], at: usize, len: usize, value: i64) {
    let w = (value as u32).to_le_bytes();
    bytes[at..at + len].copy_from_slice(&w[..len]);
}

fn apply(words: &[(usize, usize)], bytes: &mut Vec<u8>, hits: &[Hit]) {
    for hit in hits {
        if bytes.is_empty() {
            return;
        }
        match *hit {
            Hit::Word(w, d) if !words.is_empty() => {
                let (at, len) = words[w % words.len()];
                if at + len <= bytes.len() {
                    let v = read_word(bytes, at, len) + i64::from(d);
                    write_word(bytes, at, len, v);
                }
            }
            Hit::Copy(a, b) if !words.is_empty() => {
                let (at, len) = words[a % words.len()];
                let (from, flen) = words[b % words.len()];
                if at + len <= bytes.len() && from + flen <= bytes.len() {
                    let v = read_word(bytes, from, flen);
                    write_word(bytes, at, len, v);
                }
            }
            Hit::Byte(at, b) => {
                let len = bytes.len();
                bytes[at % len] = b;
            }
            Hit::Cut(at) => {
                let len = bytes.len();
                bytes.truncate(at % len);
            }
            _ => {}
        }
    }
}

/// Through a version-2 mutable view (or version 1 when version 2 refuses), holds the
/// mutable views of every element of `legs`, of every `inners` element and of their
/// `legs` at once, writes each one's `px` (and `n`), then checks that decoding sees
/// exactly those writes.
fn write_through_all(bytes: &[u8]) {
    if v2::Hostile::view(bytes).is_ok() {
        let mut want = v2::Hostile::decode(bytes).unwrap();
        for (i, leg) in want.legs.iter_mut().enumerate() {
            leg.px = 100 + i as i64;
        }
        for (i, inner) in want.inners.iter_mut().enumerate() {
            inner.n = 50 + i as u8;
            for (j, leg) in inner.legs.iter_mut().enumerate() {
                leg.px = 1000 * (i as i64 + 1) + j as i64;
            }
        }
        let mut copy = bytes.to_vec();
        let mut edit = v2::Hostile::view_mut(&mut copy).unwrap();
        {
            let mut legs = edit.legs_mut();
            let mut all: Vec<_> = legs.iter_mut().collect();
            for (i, leg) in all.iter_mut().enumerate() {
                leg.set_px(100 + i as i64);
            }
            // Read back through every view while all are held.
            for (i, leg) in all.iter().enumerate() {
                assert_eq!(leg.px(), 100 + i as i64);
            }
        }
        {
            let mut inners = edit.inners_mut();
            let mut all: Vec<_> = inners.iter_mut().collect();
            let mut lists: Vec<_> = all
                .iter_mut()
                .enumerate()
                .map(|(i, inner)| {
                    inner.set_n(50 + i as u8);
                    inner.legs_mut()
                })
                .collect();
            let mut legs: Vec<Vec<_>> = lists.iter_mut().map(|l| l.iter_mut().collect()).collect();
            for (i, row) in legs.iter_mut().enumerate() {
                for (j, leg) in row.iter_mut().enumerate() {
                    leg.update_px(|_| 1000 * (i as i64 + 1) + j as i64);
                }
            }
        }
        assert_eq!(
            format!("{:?}", v2::Hostile::decode(&copy).unwrap()),
            format!("{want:?}")
        );
    }
}

#[test]
fn valid_values_read_alike() {
    let sets = sets();
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..if cfg!(miri) { 2 } else { 64 } {
        let value = hostile2().new_tree(&mut runner).unwrap().current();
        let bytes = value.to_bytes().unwrap();
        assert_eq!(check_all(&sets, &bytes), (true, true));
        let old = hostile1(&value).to_bytes().unwrap();
        assert_eq!(check_all(&sets, &old), (true, true));
        assert_eq!(v1::Hostile::decode(&bytes).unwrap(), hostile1(&value));
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 4 } else { std::env::var("HS_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(3000) },
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn hostile_split_words_read_alike(value in hostile2(), hits in hits(), old in any::<bool>()) {
        let sets = sets();
        let mut bytes = if old {
            hostile1(&value).to_bytes().unwrap()
        } else {
            value.to_bytes().unwrap()
        };
        let words = words(&sets.two, &bytes);
        let orig = bytes.clone();
        apply(&words, &mut bytes, &hits);
        let r = check_all(&sets, &bytes);
        if bytes != orig && std::env::var("HS_CASES").is_ok() {
            eprintln!("STAT {:?}", r);
        }
    }
}

#[path = "common/handmade.rs"]
mod handmade;

/// `Node` bytes nested `levels` deep through `kids` (each node's only kid), built by
/// hand so that depths the encoder refuses can be read.
fn chain_bytes(levels: u32) -> Vec<u8> {
    use handmade::{Part, message, split};
    let mut node = message(&[Part::Fixed(&[0; 4]), Part::Tail(&[])]);
    for id in 1..=levels {
        let kids = split(&[&node]);
        node = message(&[Part::Fixed(&id.to_le_bytes()), Part::Tail(&kids)]);
    }
    node
}

fn chain(levels: u32) -> v1::Node {
    let mut node = v1::Node {
        id: 0,
        kids: vec![],
    };
    for id in 1..=levels {
        node = v1::Node {
            id,
            kids: vec![node],
        };
    }
    node
}

/// A recursive message through a split list (`kids: Vec<Node>`) at the nesting limit:
/// the encoder refuses exactly the values whose bytes both readers refuse, with the
/// same error, and the hand-made bytes of the encodable ones are the encoder's.
#[test]
fn recursion_through_split_lists_at_the_depth_limit() {
    let set = SchemaSet::of::<v1::Node>().unwrap();
    let top = if cfg!(miri) {
        2
    } else {
        wiremsg::MAX_DEPTH + 2
    };
    let from = if cfg!(miri) {
        0
    } else {
        wiremsg::MAX_DEPTH - 2
    };
    for levels in from..=top {
        let bytes = chain_bytes(levels);
        let typed = v1::Node::view(&bytes);
        let dynamic = dynamic::view(&set, "Node", &bytes);
        let written = chain(levels).to_bytes();
        match (&typed, &dynamic, &written) {
            (Ok(_), Ok(_), Ok(w)) => {
                assert_eq!(w, &bytes, "{levels} levels");
                assert_eq!(v1::Node::decode(&bytes).unwrap(), chain(levels));
            }
            (Err(t), Err(d), Err(w)) => {
                assert_eq!(
                    (t.kind(), t.path(), t.offset()),
                    (d.kind(), d.path(), d.offset()),
                    "{levels} levels"
                );
                assert_eq!(t.kind(), w.kind(), "{levels} levels");
                assert!(
                    matches!(t.kind(), wiremsg::ErrorKind::DepthLimitExceeded { .. }),
                    "{t}"
                );
            }
            _ => panic!(
                "{levels} levels: typed {typed:?}, dynamic {:?}, written {written:?}",
                dynamic.err()
            ),
        }
    }
}

/// Claims `v1::Leg`'s kind (so a list of it is a split list) and lies, by `mode`:
/// 0 a tail length of 0, 1 too short, 2 too long, 3 a block length other than
/// `Leg`'s, 4 appends more tail than it says and an end offset past it, 5 a newer
/// `Leg`'s whole encoding through the default `append_split`, 6 an honest `Leg`.
#[derive(Debug)]
struct Liar(u8);

fn honest() -> v1::Leg {
    v1::Leg {
        px: 7,
        sym: "ab".into(),
        tags: vec![1, 2],
    }
}

impl wiremsg::Field for Liar {
    type Kind = <v1::Leg as wiremsg::Field>::Kind;
    const TYPE: &'static wiremsg::TypeSchema = <v1::Leg as wiremsg::Field>::TYPE;

    fn tail_len(&self) -> usize {
        let real = honest().tail_len();
        match self.0 {
            0 => 0,
            1 => real - 3,
            2 => real + 9,
            5 => v2_leg().tail_len(),
            _ => real,
        }
    }

    fn write(&self, block: &mut [u8], tail: &mut [u8]) {
        match self.0 {
            5 => v2_leg().write(block, tail),
            _ => {
                let real = honest().to_bytes().unwrap();
                let n = real.len().min(tail.len());
                tail[..n].copy_from_slice(&real[..n]);
                if self.0 == 3 && tail.len() > 1 {
                    tail[0] ^= 0x01;
                }
            }
        }
    }

    fn append_split(&self, block: &mut [u8], tail: &mut wiremsg::__private::Out<'_>) {
        match self.0 {
            3 => {
                wiremsg::__private::Out::append(tail, &[0xAA; 5]);
                block.fill(0xFF);
            }
            4 => {
                honest().append_split(block, tail);
                tail.append(&[b'x'; 40]);
                let (end, len) = (block.len() + 1000, block.len());
                block[len - 4..].copy_from_slice(&(end as u32).to_le_bytes());
            }
            5 => v2_leg().append_split(block, tail),
            6 => honest().append_split(block, tail),
            _ => {
                let mut scratch = vec![0u8; self.tail_len()];
                self.write(&mut [], &mut scratch);
                let at = block.len().min(scratch.len());
                block[..at].copy_from_slice(&scratch[..at]);
                tail.append(&scratch[at..]);
            }
        }
    }
}

fn v2_leg() -> v2::Leg {
    v2::Leg {
        px: 8,
        sym: "cd".into(),
        tags: vec![3],
        qty: 4,
        note: "e".into(),
    }
}

impl wiremsg::Element for Liar {
    type ListView<'v> = wiremsg::List<'v, Self>;

    fn list_view<'v>(list: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self> {
        list
    }

    fn list_of<'v>(list: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self>
    where
        Self: 'v,
    {
        list
    }
}

#[derive(WireMsg, Debug)]
#[wire(no_decode)]
struct Liars {
    xs: Vec<Liar>,
    boxed: Vec<Box<Liar>>,
    after: String,
}

mod honest {
    use wiremsg::WireMsg;

    /// The same wire shape, honestly typed: the reader of what the liars wrote.
    #[derive(WireMsg, Debug)]
    pub(crate) struct Liars {
        pub(crate) xs: Vec<super::v1::Leg>,
        pub(crate) boxed: Vec<Box<super::v1::Leg>>,
        pub(crate) after: String,
    }
}
use honest::Liars as Honest;

/// Lying `Field` impls in split lists: every encoder writes its promised length
/// without panicking, and the three agree byte for byte; whatever they wrote either
/// fails validation alike for the typed and the schema-driven reader, or reads the
/// same through both (and through the honest type).
#[test]
fn lying_fields_in_split_lists_write_bytes_that_validate_or_fail_alike() {
    let set = SchemaSet::of::<Honest>().unwrap();
    let modes = 0..7u8;
    let mut accepted = 0;
    let mut cases = vec![];
    for a in modes.clone() {
        for b in modes.clone() {
            cases.push((vec![a, b], vec![b]));
            cases.push((vec![a], vec![]));
        }
    }
    if cfg!(miri) {
        // The honest ones first, so that Miri also reads accepted bytes.
        cases.sort_by_key(|(xs, _)| std::cmp::Reverse(xs.iter().filter(|&&m| m == 6).count()));
        cases.truncate(6);
    }
    for (xs, boxed) in cases {
        let value = Liars {
            xs: xs.iter().map(|&m| Liar(m)).collect(),
            boxed: boxed.iter().map(|&m| Box::new(Liar(m))).collect(),
            after: "end".into(),
        };
        let len = value.encoded_len();
        let bytes = value.to_bytes().unwrap();
        assert_eq!(bytes.len(), len);
        let mut appended = vec![9u8];
        value.encode(&mut appended).unwrap();
        assert_eq!(&appended[1..], &bytes[..]);
        let mut slice = vec![0x55u8; len + 3];
        assert_eq!(value.encode_into(&mut slice).unwrap(), len);
        assert_eq!(&slice[..len], &bytes[..], "{xs:?} {boxed:?}");
        assert_eq!(&slice[len..], &[0x55; 3]);

        let typed = Liars::view(&bytes);
        let honest = Honest::view(&bytes);
        let dynamic = dynamic::view(&set, "Liars", &bytes);
        match (&typed, &honest, &dynamic) {
            (Ok(t), Ok(h), Ok(d)) => {
                accepted += 1;
                let list: Vec<String> = t.xs().iter().map(|l| format!("{l:?}")).collect();
                let want: Vec<String> = h.xs().iter().map(|l| format!("{l:?}")).collect();
                assert_eq!(list, want);
                let decoded = Honest::decode(&bytes).unwrap();
                assert_eq!(d.to_string(), format!("{decoded:?}"));
            }
            (Err(t), Err(h), Err(d)) => {
                assert_eq!(t.to_string(), h.to_string());
                assert_eq!(
                    (t.kind(), t.path(), t.offset()),
                    (d.kind(), d.path(), d.offset()),
                    "{xs:?} {boxed:?}: typed `{t}`, schema-driven `{d}`"
                );
            }
            _ => panic!("{xs:?} {boxed:?}: {typed:?} {honest:?} {:?}", dynamic.err()),
        }
    }
    assert!(accepted > 0);
}

#[derive(WireMsg, Debug, PartialEq)]
struct Pairs {
    pairs: Vec<(u8, String)>,
    nested: Vec<(String, Vec<v1::Leg>)>,
}

/// A split list of tuples whose block length is not the tuple's: longer (bytes a
/// tuple never has: no version adds elements) and shorter. Both readers decide
/// alike, and read alike what they accept.
#[test]
fn tuple_elements_with_another_block_length_read_alike() {
    use handmade::{Part, message, split};
    let set = SchemaSet::of::<Pairs>().unwrap();
    let leg = message(&[
        Part::Fixed(&5i64.to_le_bytes()),
        Part::Tail(b"s"),
        Part::Tail(&[]),
    ]);
    let legs = split(&[&leg, &leg]);
    for extra in [&[][..], &[0xEE], &[0xEE, 0xEE, 0xEE]] {
        for short in [false, true] {
            let pair = |n: u8, s: &[u8]| {
                if short {
                    message(&[Part::Tail(s)])
                } else {
                    message(&[Part::Fixed(&[n]), Part::Tail(s), Part::Fixed(extra)])
                }
            };
            let (a, b) = (pair(1, b"xy"), pair(2, b""));
            let nested_a = message(&[Part::Tail(b"k"), Part::Tail(&legs), Part::Fixed(extra)]);
            let bytes = message(&[
                Part::Tail(&split(&[&a, &b])),
                Part::Tail(&split(&[&nested_a])),
            ]);
            let typed = Pairs::view(&bytes);
            let dynamic = dynamic::view(&set, "Pairs", &bytes);
            assert_eq!(typed.is_ok(), !short, "{extra:?} {short}");
            match (&typed, &dynamic) {
                (Ok(t), Ok(d)) => {
                    assert!(!short);
                    let decoded = Pairs::decode(&bytes).unwrap();
                    assert_eq!(d.to_string(), format!("{decoded:?}"));
                    assert_eq!(unview(t), format!("{decoded:?}"));
                    assert_eq!(decoded.pairs, [(1, "xy".into()), (2, String::new())]);
                    assert_eq!(decoded.nested[0].1.len(), 2);
                }
                (Err(t), Err(d)) => {
                    assert_eq!(
                        (t.kind(), t.path(), t.offset()),
                        (d.kind(), d.path(), d.offset()),
                        "typed `{t}`, schema-driven `{d}`"
                    );
                }
                _ => panic!("{extra:?} {short}: {typed:?} {:?}", dynamic.err()),
            }
        }
    }
}

/// Where a split list's element has its tail right after its block (the only element
/// of a list; the last one, when every tail before it is empty), its `as_bytes()` is
/// `Some`: its block and tail, a valid encoding of it on their own.
#[test]
fn as_bytes_of_an_element_whose_tail_follows_its_block_is_its_encoding() {
    let one = v1::Inner {
        n: 1,
        legs: vec![honest()],
    };
    let bytes = one.to_bytes().unwrap();
    let view = v1::Inner::view(&bytes).unwrap();
    let leg = view.legs().get(0).unwrap();
    let own = leg.as_bytes().expect("block and tail together");
    assert_eq!(own, &honest().to_bytes().unwrap()[..]);
    assert_eq!(v1::Leg::decode(own).unwrap(), honest());
    let empty = v1::Leg {
        px: 1,
        sym: String::new(),
        tags: vec![],
    };
    let two = v1::Inner {
        n: 1,
        legs: vec![empty.clone(), honest()],
    };
    let bytes = two.to_bytes().unwrap();
    let view = v1::Inner::view(&bytes).unwrap();
    assert!(view.legs().get(0).unwrap().as_bytes().is_none());
    let last = view.legs().get(1).unwrap().as_bytes().expect("together");
    assert_eq!(v1::Leg::decode(last).unwrap(), honest());
}
