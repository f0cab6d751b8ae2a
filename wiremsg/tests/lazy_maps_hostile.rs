//! Hostile code and hostile bytes against maps read on demand (`LazyMap`): keys of
//! every kind, strided and split entries, maps in an option, in a list, in a union's
//! payload, in a generic message, in a later version, near the depth limit. A map
//! that reads must answer as its up-front view does (keys, lookups, entries, errors);
//! a map up-front validation refuses on its own path (header, a key, key order)
//! must not read.

#[path = "common/handmade.rs"]
mod handmade;

use handmade::{Part, message, split};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::{BTreeMap, HashMap};
use std::fmt::Debug;
use wiremsg::{Error, ErrorKind, Field, FixedStr, LazyMap, MAX_DEPTH, MapKey, ViewOf, WireEnum};
use wiremsg::{WireMsg, WireUnion};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
    Cross = 9,
}

/// Declared out of value order, with a catch-all: its keys sort by wire value.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u16)]
enum Code {
    Late = 300,
    Known = 1,
    #[wire(other)]
    Other(u16),
}

type Sym = FixedStr<3, 0>;
type Tag = FixedStr<2>;

/// A map of every entry shape and key kind the existing tests do not cover.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Shapes {
    /// Split, the key in the block (a `FixedStr` padded with NUL).
    syms: BTreeMap<Sym, Vec<u16>>,
    /// Strided: an enum key without a catch-all, an option value.
    sides: BTreeMap<Side, Option<u32>>,
    /// Strided: a catch-all enum key, in a `HashMap`.
    codes: HashMap<Code, i8>,
    /// Split, the key in the block, a map value (read whole with its entry).
    nested: BTreeMap<u8, BTreeMap<String, u8>>,
    /// Split, key and value in the tail, in an option.
    maybe: Option<BTreeMap<String, String>>,
    /// Maps as elements of a table list.
    many: Vec<BTreeMap<Tag, String>>,
    /// Strided, 16-byte signed keys.
    wide: BTreeMap<i128, u8>,
    after: String,
}

fn parts(err: &Error) -> (String, usize, String) {
    (format!("{:?}", err.kind()), err.offset(), err.path())
}

fn sym(s: &str) -> Sym {
    FixedStr::new(s).unwrap()
}

fn tag(s: &str) -> Tag {
    FixedStr::new(s).unwrap()
}

fn shapes() -> Shapes {
    Shapes {
        syms: BTreeMap::from([
            (sym("A"), vec![1]),
            (sym("AB"), vec![]),
            (sym("B\u{e9}"), vec![2, 3]),
        ]),
        sides: BTreeMap::from([(Side::Buy, Some(5)), (Side::Cross, None)]),
        codes: HashMap::from([(Code::Late, -1), (Code::Known, 2), (Code::Other(7), 3)]),
        nested: BTreeMap::from([
            (1, BTreeMap::from([("x".into(), 1), ("y".into(), 2)])),
            (4, BTreeMap::new()),
        ]),
        maybe: Some(BTreeMap::from([
            ("".into(), "empty".into()),
            ("k".into(), "v".into()),
        ])),
        many: vec![
            BTreeMap::from([(tag("a"), "1".into()), (tag("b"), "2".into())]),
            BTreeMap::new(),
            BTreeMap::from([(tag("zz"), "3".into())]),
        ],
        wide: BTreeMap::from([(i128::MIN, 1), (-1, 2), (0, 3), (i128::MAX, 4)]),
        after: "end".into(),
    }
}

/// The checks every map that reads must pass, whatever else is wrong with the bytes:
/// its keys are found where they are (`position`, `contains_key`), `Debug` formats,
/// and `to_view` (up-front validation of the map) agrees: when it accepts the map,
/// every key, lookup and entry is the view's; when it refuses it, the error is not
/// about a key or the keys' order, and it is the first error a read of every entry
/// in order meets. `at` is the map's path from the root.
fn check_map<'v, K, V>(m: LazyMap<'v, K, V>, at: &str) -> Result<(), TestCaseError>
where
    K: MapKey + 'v,
    V: Field + 'v,
    ViewOf<'v, K>: Copy + Debug + PartialEq,
    ViewOf<'v, V>: Copy + Debug + PartialEq,
{
    let keys: Vec<ViewOf<'v, K>> = m.keys().collect();
    prop_assert_eq!(keys.len(), m.len());
    prop_assert_eq!(m.is_empty(), keys.is_empty());
    for (i, &k) in keys.iter().enumerate() {
        prop_assert_eq!(m.position(k), Some(i), "key {:?} of {}", k, at);
        prop_assert!(m.contains_key(k));
        match (m.get(k), m.entry(i).unwrap()) {
            (Ok(got), Ok((key, value))) => {
                prop_assert_eq!(key, k);
                prop_assert_eq!(got, Some(value));
            }
            (Err(a), Err(b)) => prop_assert_eq!(parts(&a), parts(&b)),
            (a, b) => prop_assert!(false, "get: {:?}, entry: {:?}", a, b),
        }
    }
    prop_assert!(m.entry(m.len()).is_none());
    let _ = format!("{m:?}");
    let first_failure = m.iter().find_map(Result::err);
    match m.to_view() {
        Ok(view) => {
            prop_assert!(first_failure.is_none(), "{:?}", first_failure);
            prop_assert_eq!(view.len(), m.len());
            prop_assert_eq!(view.keys().collect::<Vec<_>>(), keys.clone());
            for (i, &k) in keys.iter().enumerate() {
                prop_assert_eq!(view.get(k), m.get(k).unwrap());
                prop_assert_eq!(view.entry(i), Some(m.entry(i).unwrap().unwrap()));
            }
        }
        Err(err) => {
            // The map's own path: entry `i` (a key out of order) or its key.
            let path = err.path();
            let index = |rest: &str| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit());
            let entry = path
                .strip_prefix(at)
                .and_then(|rest| rest.strip_prefix('['));
            let order_error = entry
                .and_then(|rest| rest.strip_suffix(']'))
                .is_some_and(index)
                && matches!(
                    err.kind(),
                    ErrorKind::DuplicateKey | ErrorKind::UnsortedKeys
                );
            let key_error = entry
                .and_then(|rest| rest.strip_suffix("].0"))
                .is_some_and(index);
            prop_assert!(
                !order_error && !key_error,
                "{} read, but up-front validation refuses its keys: {:?}",
                at,
                err
            );
            let first = first_failure.expect("an entry fails as the map does");
            prop_assert_eq!(parts(&first), parts(&err));
        }
    }
    Ok(())
}

/// A map read on demand: every entry in order, owned; the error of the first that
/// fails.
fn owned<'v, K, V, KO, VO, C>(
    m: LazyMap<'v, K, V>,
    key: impl Fn(ViewOf<'v, K>) -> KO,
    value: impl Fn(ViewOf<'v, V>) -> VO,
) -> Result<C, Error>
where
    K: MapKey + 'v,
    V: Field + 'v,
    C: FromIterator<(KO, VO)>,
{
    m.iter()
        .map(|e| e.map(|(k, v)| (key(k), value(v))))
        .collect()
}

/// Every field of a [`Shapes`] read on demand, in field order, and every map
/// checked by [`check_map`] (the `Err` of the outer result) on the way.
fn read_all(s: ShapesLazy<'_>) -> Result<Result<Shapes, Error>, TestCaseError> {
    macro_rules! read {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) => return Ok(Err(e)),
            }
        };
    }
    let m = read!(s.syms());
    check_map(m, "syms")?;
    let syms = read!(owned(m, sym, |v| v.iter().collect()));
    let m = read!(s.sides());
    check_map(m, "sides")?;
    let sides = read!(owned(m, |k| k, |v| v));
    let m = read!(s.codes());
    check_map(m, "codes")?;
    let codes = read!(owned(m, |k| k, |v| v));
    let m = read!(s.nested());
    check_map(m, "nested")?;
    let nested = read!(owned(
        m,
        |k| k,
        |v| v.iter().map(|(k, v)| (k.to_string(), v)).collect(),
    ));
    let maybe = match read!(s.maybe()) {
        Some(m) => {
            check_map(m, "maybe")?;
            Some(read!(owned(m, String::from, String::from)))
        }
        None => None,
    };
    let list = read!(s.many());
    let mut many = Vec::new();
    for (i, m) in list.iter().enumerate() {
        let m = read!(m);
        check_map(m, &format!("many[{i}]"))?;
        many.push(read!(owned(m, tag, String::from)));
    }
    let m = read!(s.wide());
    check_map(m, "wide")?;
    let wide = read!(owned(m, |k| k, |v| v));
    let after = read!(s.after()).into();
    Ok(Ok(Shapes {
        syms,
        sides,
        codes,
        nested,
        maybe,
        many,
        wide,
        after,
    }))
}

#[test]
fn every_shape_reads_as_the_view_does() {
    let value = shapes();
    let bytes = value.to_bytes().unwrap();
    let lazy = Shapes::view_lazy(&bytes).unwrap();
    assert_eq!(read_all(lazy.clone()).unwrap().unwrap(), value);
    let view = Shapes::view(&bytes).unwrap();

    let syms = lazy.syms().unwrap();
    // Wire order: the text without its padding ("A" < "AB" < "Bé").
    assert_eq!(syms.keys().collect::<Vec<_>>(), ["A", "AB", "B\u{e9}"]);
    assert_eq!(syms.get("AB").unwrap().unwrap().len(), 0);
    assert_eq!(syms.get("A\0").unwrap(), None, "padding is not text");
    assert_eq!(
        syms.position("B\u{e9}"),
        view.syms().get_entry("B\u{e9}").map(|e| e.0)
    );

    let codes = lazy.codes().unwrap();
    // Wire order: by value, not by declaration.
    assert_eq!(
        codes.keys().collect::<Vec<_>>(),
        [Code::Known, Code::Other(7), Code::Late]
    );
    assert_eq!(codes.get(Code::Other(7)).unwrap(), Some(3));
    assert_eq!(codes.get(Code::Other(8)).unwrap(), None);
    // A catch-all holding a known variant's value is that value on the wire.
    assert_eq!(codes.get(Code::Other(300)).unwrap(), Some(-1));

    let sides = lazy.sides().unwrap();
    assert_eq!(format!("{sides:?}"), "{Buy: Ok(Some(5)), Cross: Ok(None)}");
    assert_eq!(sides.get(Side::Sell).unwrap(), None);

    let wide = lazy.wide().unwrap();
    assert_eq!(wide.get(i128::MIN).unwrap(), Some(1));
    assert_eq!(wide.get(i128::MAX).unwrap(), Some(4));
    assert_eq!(wide.position(1), None);

    let maybe = lazy.maybe().unwrap().unwrap();
    assert_eq!(maybe.get("").unwrap(), Some("empty"));
    let many = lazy.many().unwrap();
    assert_eq!(many.get(2).unwrap().unwrap().get("zz").unwrap(), Some("3"));
    assert!(many.get(1).unwrap().unwrap().is_empty());
}

/// Mutations of encoded bytes: a byte set, set small, nudged by one, or a `u32` (an
/// offset, a tail start) overwritten with a small number.
fn mutate(bytes: &mut [u8], changes: &[(usize, u8, u8)]) {
    let len = bytes.len();
    for &(at, v, how) in changes {
        let at = at % len;
        match how % 4 {
            0 => bytes[at] = v,
            1 => bytes[at] = v % 4,
            2 => bytes[at] = bytes[at].wrapping_add(if v % 2 == 0 { 1 } else { 255 }),
            _ => {
                let word = u32::from(v % 64).to_le_bytes();
                for (i, b) in word.iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(at + i) {
                        *slot = *b;
                    }
                }
            }
        }
    }
}

fn arb_shapes() -> impl Strategy<Value = Shapes> {
    let syms = prop::collection::btree_map(
        "[AB\u{e9}]{1}[AB]{0,1}",
        prop::collection::vec(any::<u16>(), 0..3),
        0..4,
    );
    let sides = prop::collection::btree_map(
        prop::sample::select(vec![Side::Buy, Side::Sell, Side::Cross]),
        any::<Option<u32>>(),
        0..3,
    );
    let codes = prop::collection::hash_map(
        prop_oneof![
            Just(Code::Known),
            Just(Code::Late),
            (2u16..6).prop_map(Code::Other)
        ],
        any::<i8>(),
        0..4,
    );
    let nested = prop::collection::btree_map(
        any::<u8>(),
        prop::collection::btree_map("[a-c]{0,2}", any::<u8>(), 0..3),
        0..3,
    );
    let maybe = prop::option::of(prop::collection::btree_map(
        "[a-c]{0,2}",
        "[a-z]{0,3}",
        0..4,
    ));
    let many = prop::collection::vec(
        prop::collection::btree_map("[ab]{1,2}", "[a-z]{0,2}", 0..3),
        0..3,
    );
    let wide = prop::collection::btree_map(any::<i128>(), any::<u8>(), 0..3);
    (syms, sides, codes, nested, maybe, many, wide).prop_map(
        |(syms, sides, codes, nested, maybe, many, wide)| Shapes {
            syms: syms.into_iter().map(|(k, v)| (sym(&k), v)).collect(),
            sides,
            codes,
            nested,
            maybe,
            many: many
                .into_iter()
                .map(|m| m.into_iter().map(|(k, v)| (tag(&k), v)).collect())
                .collect(),
            wide,
            after: "z".into(),
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Reading every field and entry on demand, in order, fails exactly as `view`
    /// does; every map that reads passes [`check_map`], whatever else is broken.
    #[test]
    fn mutated_maps_read_on_demand_as_view_reads_them(
        value in arb_shapes(),
        changes in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        let mut bad = value.to_bytes().unwrap();
        mutate(&mut bad, &changes);
        let upfront = Shapes::view(&bad);
        let on_demand = match Shapes::view_lazy(&bad) {
            Ok(lazy) => read_all(lazy)?,
            Err(e) => Err(e),
        };
        match (upfront, on_demand) {
            (Ok(_), Ok(read)) => prop_assert_eq!(Shapes::decode(&bad).unwrap(), read),
            (Err(expected), Err(err)) => prop_assert_eq!(parts(&err), parts(&expected)),
            (upfront, on_demand) => prop_assert!(
                false,
                "view: {:?}, on demand: {:?}",
                upfront.err(),
                on_demand.err()
            ),
        }
    }
}

// ---------------------------------------------------------------------------------
// Keys of every kind, broken by hand (small inputs, for Miri: the unchecked key read
// is reached only through maps whose keys were checked).

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Names {
    names: BTreeMap<String, u8>,
}

/// The same bytes, keys borrowed.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Borrowed<'a> {
    names: BTreeMap<&'a str, u8>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Syms {
    syms: BTreeMap<Sym, Vec<u16>>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Sides {
    sides: BTreeMap<Side, Option<u32>>,
    codes: BTreeMap<Code, u8>,
}

/// A `(String, u8)` entry alone, as a tuple is laid out (FORMAT.md §4.11): block
/// length 7, the key's end offset, the value; then the key's bytes.
fn text_entry(key: &[u8], value: u8) -> Vec<u8> {
    message(&[Part::Tail(key), Part::Fixed(&[value])])
}

/// A `Names` whose map is `region`.
fn names_message(region: &[u8]) -> Vec<u8> {
    message(&[Part::Tail(region)])
}

/// `Names` and `Borrowed` over `bytes`: the map reads on demand exactly when `view`
/// accepts the message (its values are `u8`s: every failure is on the keys' path),
/// with `view`'s error or its keys and values.
fn names_agree(bytes: &[u8]) -> Result<Vec<(String, u8)>, Error> {
    let upfront = Names::view(bytes);
    let lazy = Names::view_lazy(bytes).and_then(|n| n.names());
    let borrowed = Borrowed::view_lazy(bytes).and_then(|n| n.names());
    match (upfront, lazy, borrowed) {
        (Ok(view), Ok(m), Ok(b)) => {
            check_map(m, "names").unwrap();
            check_map(b, "names").unwrap();
            let expected: Vec<_> = view
                .names()
                .iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            let read: Vec<_> = m
                .iter()
                .map(|e| e.map(|(k, v)| (k.to_string(), v)))
                .collect::<Result<_, _>>()
                .unwrap();
            assert_eq!(read, expected);
            assert_eq!(b.keys().collect::<Vec<_>>(), m.keys().collect::<Vec<_>>());
            assert_eq!(format!("{m:?}"), format!("{b:?}"));
            Ok(read)
        }
        (Err(expected), Err(a), Err(b)) => {
            assert_eq!(parts(&a), parts(&expected));
            assert_eq!(parts(&b), parts(&expected));
            Err(expected)
        }
        (upfront, lazy, borrowed) => panic!(
            "view: {:?}, on demand: {:?}, borrowed: {:?}",
            upfront.err(),
            lazy.map(|m| format!("{m:?}")),
            borrowed.map(|m| format!("{m:?}")),
        ),
    }
}

/// Offsets in a `names_message` of two entries ("a" and "b"): the map's region starts
/// at 6; element `i` (stride 4 + 7) has its tail start at `6 + 11 i`, its block
/// length at `+ 4`, its key's end offset at `+ 6`; the tails at `6 + 22`.
const MAP: usize = 6;
const STRIDE: usize = 11;

fn two_names() -> Vec<u8> {
    names_message(&split(&[&text_entry(b"a", 1), &text_entry(b"b", 2)]))
}

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

#[test]
fn hand_built_text_keys_read_exactly_when_view_accepts_them() {
    let good = two_names();
    assert_eq!(
        good,
        Names {
            names: BTreeMap::from([("a".into(), 1), ("b".into(), 2)])
        }
        .to_bytes()
        .unwrap()
    );
    assert_eq!(
        names_agree(&good).unwrap(),
        [("a".into(), 1), ("b".into(), 2)]
    );
    let kind = |bytes: &[u8]| names_agree(bytes).unwrap_err().kind().clone();

    // Key bytes that are not UTF-8: a stray continuation byte, a cut sequence.
    let tails = MAP + 2 * STRIDE;
    let mut bad = good.clone();
    bad[tails + 1] = 0xA9;
    assert!(matches!(kind(&bad), ErrorKind::InvalidUtf8 { .. }));
    bad[tails + 1] = 0xC3;
    assert!(matches!(kind(&bad), ErrorKind::InvalidUtf8 { .. }));

    // A key's end offset before its element's block length (into the block), past
    // its element's tail (into the next one's), past the list.
    for end in [0, 6, 9, 10, 200, u32::MAX] {
        let mut bad = good.clone();
        put_u32(&mut bad, MAP + 6, end);
        names_agree(&bad).unwrap_err();
        let mut bad = good.clone();
        put_u32(&mut bad, MAP + STRIDE + 6, end);
        names_agree(&bad).unwrap_err();
    }
    // An empty key (end offset = block length): a valid key, sorted first.
    let mut empty = good.clone();
    put_u32(&mut empty, MAP + 6, 7);
    assert_eq!(
        names_agree(&empty).unwrap(),
        [(String::new(), 1), ("b".into(), 2)]
    );

    // Tail starts: into the blocks, backwards, past the list, at its end (where the
    // key's region ends past the list).
    for (element, start) in [
        (0, 0),
        (0, 21),
        (0, 23),
        (1, 0),
        (1, 21),
        (1, 22),
        (1, 24),
        (1, 25),
        (1, u32::MAX),
    ] {
        let mut bad = good.clone();
        put_u32(&mut bad, MAP + element * STRIDE, start);
        names_agree(&bad).unwrap_err();
    }
    // Element 1's block length not the list's.
    let mut bad = good.clone();
    bad[MAP + STRIDE + 4] = 8;
    assert!(matches!(kind(&bad), ErrorKind::StrideMismatch { .. }));

    // Keys out of order, repeated, and "a" < "a\0" (bytes, not C strings).
    let swapped = names_message(&split(&[&text_entry(b"b", 1), &text_entry(b"a", 2)]));
    assert_eq!(kind(&swapped), ErrorKind::UnsortedKeys);
    let repeated = names_message(&split(&[&text_entry(b"a", 1), &text_entry(b"a", 2)]));
    assert_eq!(kind(&repeated), ErrorKind::DuplicateKey);
    let nul = names_message(&split(&[&text_entry(b"a", 1), &text_entry(b"a\0", 2)]));
    assert_eq!(
        names_agree(&nul).unwrap(),
        [("a".into(), 1), ("a\0".into(), 2)]
    );

    // A key followed, in its tail, by bytes a newer writer's tuple could hold,
    // starting with a continuation byte: the key ("a") is UTF-8 on its own.
    let mut entry = text_entry(b"a\xA9", 1);
    put_u32(&mut entry, 2, 8);
    let odd = names_message(&split(&[&entry]));
    assert_eq!(names_agree(&odd).unwrap(), [("a".into(), 1)]);
}

#[test]
fn entries_of_a_newer_writer_with_longer_blocks_read_as_view_reads_them() {
    // A tuple's block is frozen (FORMAT.md §4.11), but a split list's header takes
    // any block length from the reader's: one byte more per element.
    let entry = |key: &[u8], v: u8| message(&[Part::Tail(key), Part::Fixed(&[v, 0xEE])]);
    let bytes = names_message(&split(&[&entry(b"a", 1), &entry(b"b", 2)]));
    assert_eq!(
        names_agree(&bytes).unwrap(),
        [("a".into(), 1), ("b".into(), 2)]
    );
}

/// `Syms` with the given keys' bytes (3 each) and empty lists as values.
fn syms_message(keys: &[[u8; 3]]) -> Vec<u8> {
    let entries: Vec<Vec<u8>> = keys
        .iter()
        .map(|k| message(&[Part::Fixed(k), Part::Tail(&[])]))
        .collect();
    let entries: Vec<&[u8]> = entries.iter().map(Vec::as_slice).collect();
    message(&[Part::Tail(&split(&entries))])
}

fn syms_agree(bytes: &[u8]) -> Result<Vec<String>, Error> {
    let upfront = Syms::view(bytes);
    let lazy = Syms::view_lazy(bytes).and_then(|s| s.syms());
    match (upfront, lazy) {
        (Ok(view), Ok(m)) => {
            check_map(m, "syms").unwrap();
            let keys: Vec<String> = m.keys().map(String::from).collect();
            assert_eq!(keys, view.syms().keys().collect::<Vec<_>>());
            Ok(keys)
        }
        (Err(expected), Err(err)) => {
            assert_eq!(parts(&err), parts(&expected));
            Err(expected)
        }
        (upfront, lazy) => panic!(
            "view: {:?}, on demand: {:?}",
            upfront.err(),
            lazy.map(|m| format!("{m:?}"))
        ),
    }
}

#[test]
fn hand_built_fixed_str_keys_read_exactly_when_view_accepts_them() {
    let ok = |keys: &[[u8; 3]]| syms_agree(&syms_message(keys)).unwrap();
    let kind = |keys: &[[u8; 3]]| syms_agree(&syms_message(keys)).unwrap_err().kind().clone();
    assert_eq!(ok(&[*b"A\0\0", *b"AB\0", *b"B\0\0"]), ["A", "AB", "B"]);
    // Padding inside the text is text; padding alone is the empty key.
    assert_eq!(ok(&[[0; 3], *b"A\0B"]), ["", "A\0B"]);
    assert_eq!(ok(&[[0xC3, 0xA9, 0]]), ["\u{e9}"]);
    // Not UTF-8 before the padding: a cut sequence, a lone continuation byte.
    assert!(matches!(
        kind(&[[b'A', 0xC3, 0]]),
        ErrorKind::InvalidUtf8 { .. }
    ));
    assert!(matches!(
        kind(&[*b"A\0\0", [0xA9, 0, 0]]),
        ErrorKind::InvalidUtf8 { .. }
    ));
    assert!(matches!(
        kind(&[[0xC3, 0, 0xA9]]),
        ErrorKind::InvalidUtf8 { .. }
    ));
    // "A" and "A" padded the same: one key twice. "A\0" is "A" on the wire.
    assert_eq!(kind(&[*b"A\0\0", *b"A\0\0"]), ErrorKind::DuplicateKey);
    assert_eq!(kind(&[*b"B\0\0", *b"A\0\0"]), ErrorKind::UnsortedKeys);
    // Wire order is the unpadded text: "A" before "A\u{1}" though 00 < 01.
    assert_eq!(ok(&[*b"A\0\0", *b"A\x01\0"]), ["A", "A\u{1}"]);
}

#[test]
fn hand_built_enum_keys_read_exactly_when_view_accepts_them() {
    // `sides`: strided (1-byte key, 5-byte option); `codes`: strided (2 + 1).
    let sides = |keys: &[u8]| {
        let mut region = vec![6, 0];
        for &k in keys {
            region.extend([k, 0, 0, 0, 0, 0]);
        }
        region
    };
    let codes = |keys: &[u16]| {
        let mut region = vec![3, 0];
        for &k in keys {
            region.extend(k.to_le_bytes());
            region.push(7);
        }
        region
    };
    let agree = |s: &[u8], c: &[u16]| {
        let bytes = message(&[Part::Tail(&sides(s)), Part::Tail(&codes(c))]);
        let upfront = Sides::view(&bytes);
        let lazy = Sides::view_lazy(&bytes).unwrap();
        let (s, c) = (lazy.sides(), lazy.codes());
        match upfront {
            Ok(view) => {
                let (s, c) = (s.unwrap(), c.unwrap());
                check_map(s, "sides").unwrap();
                check_map(c, "codes").unwrap();
                assert_eq!(
                    s.keys().collect::<Vec<_>>(),
                    view.sides().keys().collect::<Vec<_>>()
                );
                assert_eq!(
                    c.keys().collect::<Vec<_>>(),
                    view.codes().keys().collect::<Vec<_>>()
                );
                Ok(c.keys().collect::<Vec<_>>())
            }
            Err(expected) => {
                let err = s.and(c.map(|_| ())).unwrap_err();
                assert_eq!(parts(&err), parts(&expected));
                Err(expected)
            }
        }
    };
    assert_eq!(
        agree(&[1, 9], &[1, 2, 300, 301]).unwrap(),
        [Code::Known, Code::Other(2), Code::Late, Code::Other(301)]
    );
    for bad in [0, 3, 255] {
        let err = agree(&[1, bad], &[]).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnknownEnumValue { .. }),
            "{err:?}"
        );
        assert_eq!(err.path(), "sides[1].0");
    }
    assert_eq!(
        agree(&[9, 1], &[]).unwrap_err().kind(),
        &ErrorKind::UnsortedKeys
    );
    // A catch-all takes every value; order by value (not by declaration).
    assert_eq!(
        agree(&[], &[300, 1]).unwrap_err().kind(),
        &ErrorKind::UnsortedKeys
    );
    assert_eq!(
        agree(&[], &[0, u16::MAX]).unwrap(),
        [Code::Other(0), Code::Other(u16::MAX)]
    );
}

// ---------------------------------------------------------------------------------
// Depth: a map's entries with a tail are a nesting level of their own.

#[derive(WireMsg, Debug, Clone, PartialEq, Default)]
struct Deep {
    names: BTreeMap<String, u8>,
    codes: BTreeMap<u8, u8>,
    kids: Vec<Deep>,
}

/// `levels` nested `Deep`s (the root is level 0), the innermost with one entry in
/// each map.
fn deep(levels: u32) -> Deep {
    let mut value = Deep {
        names: BTreeMap::from([("a".into(), 1)]),
        codes: BTreeMap::from([(1, 1)]),
        kids: vec![],
    };
    for _ in 0..levels {
        value = Deep {
            kids: vec![value],
            ..Deep::default()
        };
    }
    value
}

/// The bytes of `deep(levels)`, built by hand: the encoder refuses values past the
/// depth limit, hostile writers do not.
fn deep_bytes(levels: u32) -> Vec<u8> {
    let names = split(&[&text_entry(b"a", 1)]);
    let innermost = message(&[
        Part::Tail(&names),
        Part::Tail(&[2, 0, 1, 1]),
        Part::Tail(&[]),
    ]);
    (0..levels).fold(innermost, |child, _| {
        message(&[
            Part::Tail(&[]),
            Part::Tail(&[]),
            Part::Tail(&split(&[&child])),
        ])
    })
}

/// The innermost `Deep` of `levels`, read on demand, and its maps: each error as
/// `view` reports it.
/// The innermost `Deep`'s maps, as read.
type DeepMaps = (Vec<(String, u8)>, Vec<(u8, u8)>);

fn read_deep(bytes: &[u8], levels: u32) -> Result<DeepMaps, Error> {
    let mut at = Deep::view_lazy(bytes)?;
    for _ in 0..levels {
        at = at.kids()?.get(0).expect("one kid")?;
    }
    let names = at.names()?;
    check_map(names, "").ok();
    let names = owned(names, String::from, |v| v)?;
    let codes = owned(at.codes()?, |k| k, |v| v)?;
    Ok((names, codes))
}

#[test]
fn maps_at_the_depth_limit_read_on_demand_as_view_reads_them() {
    for levels in [0, 1, MAX_DEPTH - 2] {
        assert_eq!(deep_bytes(levels), deep(levels).to_bytes().unwrap());
    }
    assert!(
        deep(MAX_DEPTH).to_bytes().is_err(),
        "the encoder refuses it"
    );
    for levels in [MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, MAX_DEPTH + 2] {
        let bytes = deep_bytes(levels);
        let upfront = Deep::view(&bytes);
        let on_demand = read_deep(&bytes, levels);
        match (upfront, on_demand) {
            (Ok(_), Ok(read)) => {
                assert!(levels < MAX_DEPTH);
                assert_eq!(read, (vec![("a".into(), 1)], vec![(1, 1)]));
            }
            (Err(expected), Err(err)) => {
                assert!(levels >= MAX_DEPTH);
                assert_eq!(
                    err.kind(),
                    &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
                );
                assert_eq!(parts(&err), parts(&expected));
            }
            (upfront, on_demand) => panic!("{levels}: view {upfront:?}, on demand {on_demand:?}"),
        }
    }
    // At the limit, the map of fixed-size entries (no level of their own) reads.
    let bytes = deep_bytes(MAX_DEPTH);
    let mut at = Deep::view_lazy(&bytes).unwrap();
    for _ in 0..MAX_DEPTH {
        at = at.kids().unwrap().get(0).unwrap().unwrap();
    }
    assert_eq!(at.codes().unwrap().get(1).unwrap(), Some(1));
    assert!(at.names().is_err());
}

// ---------------------------------------------------------------------------------
// Maps in a union's payload, in a later version, in a generic message.

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Ev {
    Named {
        names: BTreeMap<String, u8>,
        tags: Vec<BTreeMap<u8, String>>,
    } = 1,
    Quiet = 2,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Feed {
    ev: Ev,
    evs: Vec<Ev>,
    /// A union as a map value, read whole with its entry.
    by_id: BTreeMap<u16, Ev>,
    /// Maps in the elements of a split list.
    holders: Vec<Holder>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Holder {
    note: String,
    names: BTreeMap<String, u8>,
}

fn read_ev(ev: EvLazy<'_>, at: &str) -> Result<Result<Ev, Error>, TestCaseError> {
    macro_rules! read {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) => return Ok(Err(e)),
            }
        };
    }
    Ok(Ok(match ev {
        EvLazy::Quiet => Ev::Quiet,
        EvLazy::Named(n) => {
            let m = read!(n.names());
            check_map(m, &format!("{at}.Named.names"))?;
            let names = read!(owned(m, String::from, |v| v));
            let mut tags = Vec::new();
            for (i, m) in read!(n.tags()).iter().enumerate() {
                let m = read!(m);
                check_map(m, &format!("{at}.Named.tags[{i}]"))?;
                tags.push(read!(owned(m, |k| k, String::from)));
            }
            Ev::Named { names, tags }
        }
    }))
}

fn read_feed(f: FeedLazy<'_>) -> Result<Result<Feed, Error>, TestCaseError> {
    macro_rules! read {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) => return Ok(Err(e)),
            }
        };
    }
    let ev = read!(read_ev(read!(f.ev()), "ev")?);
    let mut evs = Vec::new();
    for (i, ev) in read!(f.evs()).iter().enumerate() {
        evs.push(read!(read_ev(read!(ev), &format!("evs[{i}]"))?));
    }
    let m = read!(f.by_id());
    check_map(m, "by_id")?;
    let by_id = read!(owned(m, |k| k, |v| v.decode()));
    let mut holders = Vec::new();
    for (i, h) in read!(f.holders()).iter().enumerate() {
        let h = read!(h);
        let note = read!(h.note()).into();
        let m = read!(h.names());
        check_map(m, &format!("holders[{i}].names"))?;
        let names = read!(owned(m, String::from, |v| v));
        holders.push(Holder { note, names });
    }
    Ok(Ok(Feed {
        ev,
        evs,
        by_id,
        holders,
    }))
}

fn arb_ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        Just(Ev::Quiet),
        (
            prop::collection::btree_map("[a-c]{0,2}", any::<u8>(), 0..3),
            prop::collection::vec(
                prop::collection::btree_map(any::<u8>(), "[a-z]{0,2}", 0..3),
                0..3
            ),
        )
            .prop_map(|(names, tags)| Ev::Named { names, tags }),
    ]
}

fn arb_feed() -> impl Strategy<Value = Feed> {
    (
        arb_ev(),
        prop::collection::vec(arb_ev(), 0..3),
        prop::collection::btree_map(any::<u16>(), arb_ev(), 0..3),
        prop::collection::vec(
            (
                "[a-z]{0,2}",
                prop::collection::btree_map("[a-c]{0,2}", any::<u8>(), 0..3),
            )
                .prop_map(|(note, names)| Holder { note, names }),
            0..3,
        ),
    )
        .prop_map(|(ev, evs, by_id, holders)| Feed {
            ev,
            evs,
            by_id,
            holders,
        })
}

mod v1 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(super) struct Rec {
        pub(super) id: u32,
        pub(super) note: String,
    }
}

mod v2 {
    use std::collections::BTreeMap;
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(super) struct Rec {
        pub(super) id: u32,
        pub(super) note: String,
        #[wire(since = 2)]
        pub(super) names: BTreeMap<String, u8>,
        #[wire(since = 2)]
        pub(super) codes: BTreeMap<u32, u8>,
    }
}

fn read_v1(r: v1::RecLazy<'_>) -> Result<v1::Rec, Error> {
    Ok(v1::Rec {
        id: r.id()?,
        note: r.note()?.into(),
    })
}

fn read_v2(r: v2::RecLazy<'_>) -> Result<Result<v2::Rec, Error>, TestCaseError> {
    macro_rules! read {
        ($e:expr) => {
            match $e {
                Ok(v) => v,
                Err(e) => return Ok(Err(e)),
            }
        };
    }
    let id = read!(r.id());
    let note = read!(r.note()).into();
    let names = match read!(r.try_names()) {
        Some(m) => {
            prop_assert!(r.has_names());
            check_map(m, "names")?;
            read!(owned(m, String::from, |v| v))
        }
        None => BTreeMap::new(),
    };
    let codes = match read!(r.try_codes()) {
        Some(m) => {
            check_map(m, "codes")?;
            read!(owned(m, |k| k, |v| v))
        }
        None => BTreeMap::new(),
    };
    Ok(Ok(v2::Rec {
        id,
        note,
        names,
        codes,
    }))
}

/// Generic in the key and the value.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Keyed<K: MapKey + Ord, V: Field> {
    id: u8,
    m: BTreeMap<K, V>,
}

macro_rules! agree {
    ($upfront:expr, $on_demand:expr, $decode:expr) => {
        match ($upfront, $on_demand) {
            (Ok(_), Ok(read)) => prop_assert_eq!($decode.unwrap(), read),
            (Err(expected), Err(err)) => prop_assert_eq!(parts(&err), parts(&expected)),
            (upfront, on_demand) => prop_assert!(
                false,
                "view: {:?}, on demand: {:?}",
                upfront.err(),
                on_demand.err()
            ),
        }
    };
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn maps_in_union_payloads_read_on_demand_as_view_reads_them(
        value in arb_feed(),
        changes in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        let mut bad = value.to_bytes().unwrap();
        mutate(&mut bad, &changes);
        let on_demand = match Feed::view_lazy(&bad) {
            Ok(lazy) => read_feed(lazy)?,
            Err(e) => Err(e),
        };
        agree!(Feed::view(&bad), on_demand, Feed::decode(&bad));
    }

    #[test]
    fn maps_of_a_later_version_read_on_demand_as_view_reads_them(
        names in prop::collection::btree_map("[a-c]{0,2}", any::<u8>(), 0..4),
        codes in prop::collection::btree_map(any::<u32>(), any::<u8>(), 0..3),
        old in any::<bool>(),
        changes in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        let mut bad = if old {
            v1::Rec { id: 1, note: "n".into() }.to_bytes().unwrap()
        } else {
            v2::Rec { id: 1, note: "n".into(), names, codes }.to_bytes().unwrap()
        };
        mutate(&mut bad, &changes);
        let on_demand = v1::Rec::view_lazy(&bad).and_then(read_v1);
        agree!(v1::Rec::view(&bad), on_demand, v1::Rec::decode(&bad));
        let on_demand = match v2::Rec::view_lazy(&bad) {
            Ok(lazy) => read_v2(lazy)?,
            Err(e) => Err(e),
        };
        agree!(v2::Rec::view(&bad), on_demand, v2::Rec::decode(&bad));
    }

    #[test]
    fn maps_of_generic_messages_read_on_demand_as_view_reads_them(
        m in prop::collection::btree_map("[AB]{1,3}", "[a-z]{0,2}", 0..4),
        changes in prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..4),
    ) {
        let value = Keyed::<Sym, String> {
            id: 3,
            m: m.into_iter().map(|(k, v)| (sym(&k), v)).collect(),
        };
        let mut bad = value.to_bytes().unwrap();
        mutate(&mut bad, &changes);
        let read = |k: KeyedLazy<'_, Sym, String>| -> Result<Result<Keyed<Sym, String>, Error>, TestCaseError> {
            let id = match k.id() { Ok(id) => id, Err(e) => return Ok(Err(e)) };
            let m = match k.m() { Ok(m) => m, Err(e) => return Ok(Err(e)) };
            check_map(m, "m")?;
            Ok(owned(m, sym, String::from).map(|m| Keyed { id, m }))
        };
        let on_demand = match Keyed::<Sym, String>::view_lazy(&bad) {
            Ok(lazy) => read(lazy)?,
            Err(e) => Err(e),
        };
        agree!(Keyed::<Sym, String>::view(&bad), on_demand, Keyed::<Sym, String>::decode(&bad));
    }
}

// ---------------------------------------------------------------------------------
// Hostile code: higher-ranked subtyping through a generic message's on-demand view,
// lifetimes of keys and maps.

#[test]
#[cfg_attr(miri, ignore = "runs the compiler")]
fn generic_lazy_views_are_invariant_and_keys_do_not_outlive_their_bytes() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/lazy_maps_hostile/*.rs");
}

#[derive(WireMsg)]
struct KeyHolder {
    names: BTreeMap<String, u8>,
    by_id: BTreeMap<u16, String>,
}

/// `LazyMap` is `Copy` and `keys()` copies it: the keys borrow the bytes (`'v`), not
/// the map value they were taken from, as `iter()`'s do (`MapView` alike). This
/// compiles only if so.
fn lazy_keys(bytes: &[u8]) -> impl Iterator<Item = &str> + '_ {
    let lazy = KeyHolder::view_lazy(bytes).unwrap();
    lazy.names().unwrap().keys()
}

fn view_keys_and_values(
    bytes: &[u8],
) -> (
    impl Iterator<Item = u16> + '_,
    impl Iterator<Item = &str> + '_,
) {
    let map = KeyHolder::view(bytes).unwrap().by_id();
    (map.keys(), map.values())
}

#[test]
fn keys_borrow_the_bytes_not_the_map_value() {
    let value = KeyHolder {
        names: BTreeMap::from([("a".into(), 1), ("b".into(), 2)]),
        by_id: BTreeMap::from([(7, "seven".into())]),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(lazy_keys(&bytes).collect::<Vec<_>>(), ["a", "b"]);
    let (keys, values) = view_keys_and_values(&bytes);
    assert_eq!(
        (keys.collect::<Vec<_>>(), values.collect::<Vec<_>>()),
        (vec![7], vec!["seven"])
    );
}

// ---------------------------------------------------------------------------------
// Resource bounds.

#[derive(WireMsg, Debug)]
struct Lists {
    many: Vec<BTreeMap<u8, String>>,
}

/// A `Lists` of `n` maps `{1: "~"}`, each value made not UTF-8: every map reads (its
/// key is fine), every entry fails.
fn broken_lists(n: usize) -> Vec<u8> {
    let value = Lists {
        many: (0..n).map(|_| BTreeMap::from([(1, "~".into())])).collect(),
    };
    let mut bytes = value.to_bytes().unwrap();
    // The list's region starts after the block (block length, one end offset): a
    // table, each element ending with its value's one byte.
    let region = 6;
    let start = |i: usize| {
        let at = region + 4 * i;
        region + u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
    };
    let ends: Vec<usize> = (1..n).map(start).chain([bytes.len()]).collect();
    for end in ends {
        assert_eq!(bytes[end - 1], b'~');
        bytes[end - 1] = 0xFF;
    }
    bytes
}

#[test]
fn debug_of_hostile_maps_terminates_and_shows_each_error() {
    let bytes = broken_lists(3);
    let expected = Lists::view(&bytes).unwrap_err();
    let lazy = Lists::view_lazy(&bytes).unwrap();
    let many = lazy.many().unwrap();
    let first = many.get(0).unwrap().unwrap();
    assert_eq!(parts(&first.get(1).unwrap_err()), parts(&expected));
    assert_eq!(expected.path(), "many[0][0].1");
    let shown = format!("{many:?}");
    assert_eq!(shown.matches("InvalidUtf8").count(), 3, "{shown}");
    assert!(shown.contains("many[2][0].1"), "{shown}");
}

/// Each error of a view inside a list finds its path by a walk from the root
/// (`Root::error`), which finds the element that holds the view by a binary search:
/// N broken maps in a list cost O(N log N), not O(N²) as a scan did (40,000 maps,
/// 600 KB: 1.5 s in release; `view`: 0.5 ms). Thirty-two times the maps: about 45
/// times the time if so, a thousand if quadratic; the bound leaves room for a noisy
/// machine either way.
#[test]
fn errors_of_many_maps_in_a_list_cost_n_log_n() {
    use std::time::{Duration, Instant};
    let time = |n: usize| {
        let bytes = broken_lists(n);
        let lazy = Lists::view_lazy(&bytes).unwrap();
        let many = lazy.many().unwrap();
        let start = Instant::now();
        let mut errors = 0;
        for map in many.iter() {
            errors += map.unwrap().iter().filter(Result::is_err).count();
        }
        assert_eq!(errors, n);
        start.elapsed().max(Duration::from_micros(1))
    };
    let (small, large) = (time(1_000), time(32_000));
    assert!(
        large < small * 250,
        "{small:?} for 1,000 broken maps, {large:?} for 32,000"
    );
}
