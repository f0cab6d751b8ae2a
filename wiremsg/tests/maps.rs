//! Maps as fields (FORMAT.md §6.7): golden vector E14, round trips of `BTreeMap` and
//! `HashMap` from owned and borrowed data, lookups and iteration on the view, maps in
//! options and lists, schemas, the schema-driven reader, and hostile input.

#[path = "common/golden.rs"]
mod format_golden;
#[path = "common/handmade.rs"]
mod handmade;
use format_golden::golden;
use handmade::{Part, message, split};
use std::collections::{BTreeMap, HashMap};
use wiremsg::{ErrorKind, FixedStr, WireEnum, WireMsg};

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Book {
    depth: BTreeMap<u16, u32>,
    names: BTreeMap<String, u8>,
}

fn book() -> Book {
    Book {
        depth: BTreeMap::from([(2, 7), (1, 5)]),
        names: BTreeMap::from([("b".into(), 2), ("a".into(), 1)]),
    }
}

#[test]
fn e14_maps_of_fixed_size_and_variable_size_entries() {
    let bytes = golden("E14");
    assert_eq!(book().to_bytes().unwrap(), bytes);
    assert_eq!(Book::BLOCK_LENGTH, 10);
    let view = Book::view(&bytes).unwrap();
    let depth = view.depth();
    assert_eq!(depth.len(), 2);
    assert_eq!(
        (depth.get(1), depth.get(2), depth.get(3)),
        (Some(5), Some(7), None)
    );
    assert_eq!(depth.entry(0), Some((1, 5)));
    assert_eq!(depth.entry(2), None);
    let names = view.names();
    assert_eq!(names.get("a"), Some(1));
    assert_eq!(names.get("b"), Some(2));
    assert_eq!(names.get(""), None);
    assert!(names.contains_key("b") && !names.contains_key("c"));
    assert_eq!(names.get_entry("b"), Some((1, "b", 2)));
    assert_eq!(names.keys().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(names.values().collect::<Vec<_>>(), [1, 2]);
    assert_eq!(format!("{names:?}"), r#"{"a": 1, "b": 2}"#);
    assert_eq!(Book::decode(&bytes).unwrap(), book());
}

/// A `HashMap` (any iteration order) writes the same bytes as the `BTreeMap`, and
/// decodes back to an equal `HashMap`.
#[derive(WireMsg, Debug, PartialEq)]
struct HashBook {
    depth: HashMap<u16, u32>,
    names: HashMap<String, u8>,
}

#[test]
fn a_hash_map_is_written_sorted_with_the_same_bytes() {
    let bytes = golden("E14");
    let value = HashBook {
        depth: HashMap::from([(2, 7), (1, 5)]),
        names: HashMap::from([("b".into(), 2), ("a".into(), 1)]),
    };
    assert_eq!(value.to_bytes().unwrap(), bytes);
    assert_eq!(value.encoded_len(), bytes.len());
    assert_eq!(HashBook::decode(&bytes).unwrap(), value);
    // Many entries, in the hasher's order: still sorted on the wire.
    let many = HashBook {
        depth: (0..200u16)
            .rev()
            .map(|k| (k * 7 % 200, u32::from(k)))
            .collect(),
        names: (0..50u8).map(|k| (format!("k{k}"), k)).collect(),
    };
    let bytes = many.to_bytes().unwrap();
    let view = HashBook::view(&bytes).unwrap();
    let keys: Vec<u16> = view.depth().keys().collect();
    assert_eq!(keys, (0..200).collect::<Vec<_>>());
    for (k, v) in &many.names {
        assert_eq!(view.names().get(k), Some(*v));
    }
    assert_eq!(HashBook::decode(&bytes).unwrap(), many);
}

/// Borrowed data: keys and values borrowed (`BTreeMap<&str, &[u8]>`), or the whole
/// map borrowed (`&BTreeMap`, `&HashMap`), encode the same bytes without copying.
#[derive(WireMsg, Debug, PartialEq)]
struct BookRef<'a> {
    depth: &'a HashMap<u16, u32>,
    names: BTreeMap<&'a str, u8>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Blobs<'a> {
    by_name: BTreeMap<&'a str, &'a [u8]>,
}

#[test]
fn borrowed_maps_encode_the_same_bytes_and_decode_in_place() {
    let bytes = golden("E14");
    let depth = HashMap::from([(1, 5), (2, 7)]);
    let borrowed = BookRef {
        depth: &depth,
        names: BTreeMap::from([("b", 2), ("a", 1)]),
    };
    assert_eq!(borrowed.to_bytes().unwrap(), bytes);
    let view = BookRef::view(&bytes).unwrap();
    assert_eq!(view.names().get("a"), Some(1));

    let blobs = Blobs {
        by_name: BTreeMap::from([("x", &[1u8, 2][..]), ("", &[][..])]),
    };
    let bytes = blobs.to_bytes().unwrap();
    let decoded = Blobs::decode(&bytes).unwrap();
    assert_eq!(decoded, blobs);
    // The decoded key and value point into `bytes`.
    let (key, value) = decoded.by_name.iter().nth(1).unwrap();
    let inside = |p: *const u8| bytes.as_ptr_range().contains(&p);
    assert!(inside(key.as_ptr()) && inside(value.as_ptr()));
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
enum Venue {
    // Declared out of value order: the derived `Ord` is not the wire order.
    Xnas = 9,
    Arca = 2,
    Bats = 5,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u16)]
enum Code {
    Known = 1,
    #[wire(other)]
    Other(u16),
}

#[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
struct Level {
    price: i64,
    size: u32,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Fill {
    qty: u32,
    venue: String,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Shapes {
    signed: BTreeMap<i32, i64>,
    wide: BTreeMap<u128, bool>,
    symbols: BTreeMap<FixedStr<4>, Level>,
    nul_padded: BTreeMap<FixedStr<3, 0>, u8>,
    venues: BTreeMap<Venue, Vec<u16>>,
    codes: HashMap<Code, String>,
    fills: BTreeMap<String, Fill>,
    nested: BTreeMap<u8, BTreeMap<String, Option<u32>>>,
    maybe: Option<BTreeMap<u8, u8>>,
    absent: Option<BTreeMap<String, String>>,
    many: Vec<BTreeMap<i8, String>>,
    in_tuple: (u8, BTreeMap<u8, u8>),
}

fn sym<const N: usize, const P: u8>(s: &str) -> FixedStr<N, P> {
    FixedStr::new(s).unwrap()
}

fn shapes() -> Shapes {
    Shapes {
        signed: BTreeMap::from([(-5, 1), (0, -2), (7, 3), (i32::MIN, 4)]),
        wide: BTreeMap::from([(u128::MAX, true), (0, false)]),
        symbols: BTreeMap::from([
            (sym("MSFT"), Level { price: 1, size: 2 }),
            (sym("A"), Level { price: 3, size: 4 }),
            (sym("AAPL"), Level { price: 5, size: 6 }),
        ]),
        nul_padded: BTreeMap::from([(sym("ES"), 1), (sym("E"), 2), (sym("NQ"), 3)]),
        venues: BTreeMap::from([
            (Venue::Xnas, vec![1, 2]),
            (Venue::Arca, vec![]),
            (Venue::Bats, vec![3]),
        ]),
        codes: HashMap::from([
            (Code::Known, "known".into()),
            (Code::Other(7), "seven".into()),
            (Code::Other(0), "zero".into()),
        ]),
        fills: BTreeMap::from([
            (
                "f2".into(),
                Fill {
                    qty: 2,
                    venue: "B".into(),
                },
            ),
            (
                "f1".into(),
                Fill {
                    qty: 1,
                    venue: "A".into(),
                },
            ),
        ]),
        nested: BTreeMap::from([
            (
                2,
                BTreeMap::from([("x".into(), Some(1)), ("y".into(), None)]),
            ),
            (1, BTreeMap::new()),
        ]),
        maybe: Some(BTreeMap::from([(3, 4), (1, 2)])),
        absent: None,
        many: vec![
            BTreeMap::from([(-1, "m".into()), (1, "p".into())]),
            BTreeMap::new(),
        ],
        in_tuple: (9, BTreeMap::from([(1, 1)])),
    }
}

#[test]
fn maps_of_every_key_and_value_round_trip_and_view() {
    let value = shapes();
    let bytes = value.to_bytes().unwrap();
    assert_eq!(bytes.len(), value.encoded_len());
    assert_eq!(Shapes::decode(&bytes).unwrap(), value);
    let view = Shapes::view(&bytes).unwrap();

    // Signed keys in numeric order.
    let signed: Vec<i32> = view.signed().keys().collect();
    assert_eq!(signed, [i32::MIN, -5, 0, 7]);
    assert_eq!(view.signed().get(-5), Some(1));
    assert_eq!(view.wide().get(u128::MAX), Some(true));

    // Fixed-width text by its text: "A" < "AAPL" < "MSFT".
    let symbols: Vec<&str> = view.symbols().keys().collect();
    assert_eq!(symbols, ["A", "AAPL", "MSFT"]);
    assert_eq!(view.symbols().get("AAPL").unwrap().price(), 5);
    assert_eq!(
        view.nul_padded().keys().collect::<Vec<_>>(),
        ["E", "ES", "NQ"]
    );

    // Enum keys by wire value (2, 5, 9), not by declaration order.
    let venues: Vec<Venue> = view.venues().keys().collect();
    assert_eq!(venues, [Venue::Arca, Venue::Bats, Venue::Xnas]);
    assert_eq!(view.venues().get(Venue::Xnas).unwrap(), [1u16, 2][..]);
    assert!(view.venues().get(Venue::Arca).unwrap().is_empty());
    let codes: Vec<Code> = view.codes().keys().collect();
    assert_eq!(codes, [Code::Other(0), Code::Known, Code::Other(7)]);
    assert_eq!(view.codes().get(Code::Other(7)), Some("seven"));

    // Message values, maps of maps, options and lists of maps.
    assert_eq!(view.fills().get("f2").unwrap().venue(), "B");
    let inner = view.nested().get(2).unwrap();
    assert_eq!(
        (inner.get("x"), inner.get("y")),
        (Some(Some(1)), Some(None))
    );
    assert!(view.nested().get(1).unwrap().is_empty());
    assert_eq!(view.maybe().unwrap().get(3), Some(4));
    assert!(view.absent().is_none());
    assert_eq!(view.many().get(0).unwrap().get(-1), Some("m"));
    assert_eq!(view.many().get(1).unwrap().len(), 0);
    assert_eq!(view.in_tuple().1.get(1), Some(1));
}

#[test]
fn unchecked_and_mutable_views_read_maps_as_the_view() {
    let bytes = shapes().to_bytes().unwrap();
    let checked = format!("{:?}", Shapes::view(&bytes).unwrap());
    assert!(checked.contains(r#"symbols: {"A": LevelView"#), "{checked}");
    // SAFETY: `view` accepted these bytes just above.
    let unchecked = format!("{:?}", unsafe { Shapes::view_unchecked(&bytes) });
    assert_eq!(unchecked, checked);
    let mut copy = bytes.clone();
    let edit = Shapes::view_mut(&mut copy).unwrap();
    assert_eq!(format!("{:?}", edit.as_view()), checked);
    assert_eq!(edit.as_view().venues().get(Venue::Bats).unwrap().len(), 1);
}

#[test]
fn fixed_size_values_are_set_in_place_by_key() {
    let mut bytes = shapes().to_bytes().unwrap();
    let mut edit = Shapes::view_mut(&mut bytes).unwrap();
    assert!(edit.signed_mut().set(-5, &10));
    assert!(
        !edit.signed_mut().set(-6, &10),
        "no such key: nothing written"
    );
    assert!(edit.signed_mut().set_at(0, &11)); // i32::MIN, the first key
    assert!(!edit.signed_mut().set_at(4, &0));
    assert!(edit.wide_mut().set(0, &true));
    let level = Level { price: 9, size: 8 };
    assert!(edit.symbols_mut().set("AAPL", &level));
    assert!(edit.nul_padded_mut().set("ES", &7));
    assert_eq!(edit.symbols_mut().len(), 3);
    assert_eq!(edit.symbols_mut().as_view().get("AAPL").unwrap().price(), 9);
    let value = Shapes::decode(&bytes).unwrap();
    let mut expected = shapes();
    expected.signed.insert(-5, 10);
    expected.signed.insert(i32::MIN, 11);
    expected.wide.insert(0, true);
    expected.symbols.insert(sym("AAPL"), level);
    expected.nul_padded.insert(sym("ES"), 7);
    assert_eq!(value, expected);
}

#[test]
fn every_lookup_finds_its_key_and_misses_find_nothing() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Sparse {
        even: BTreeMap<i16, u8>,
        words: BTreeMap<String, u16>,
    }
    for n in [0usize, 1, 2, 3, 7, 64, 65] {
        let value = Sparse {
            even: (0..n as i16).map(|k| (2 * k - 40, k as u8)).collect(),
            words: (0..n as u16).map(|k| (format!("w{k:03}"), k)).collect(),
        };
        let bytes = value.to_bytes().unwrap();
        let view = Sparse::view(&bytes).unwrap();
        for k in -42..(2 * n as i16 - 38) {
            assert_eq!(view.even().get(k), value.even.get(&k).copied(), "{n} {k}");
        }
        for k in 0..n as u16 + 2 {
            let key = format!("w{k:03}");
            assert_eq!(view.words().get(&key), value.words.get(&key).copied());
        }
        assert_eq!(view.words().get("w"), None);
        assert_eq!(view.words().get("x"), None);
    }
}

/// Two keys with one wire value are refused by encode: nothing is written.
#[test]
fn encode_refuses_two_keys_with_one_wire_value() {
    #[derive(WireMsg, Debug)]
    struct Codes {
        codes: BTreeMap<Code, u8>,
    }
    let value = Codes {
        codes: BTreeMap::from([(Code::Known, 1), (Code::Other(1), 2)]),
    };
    let err = value.to_bytes().unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::DuplicateKey);
    assert_eq!(err.path(), "codes[1]");
    // A value encoding refuses has no length.
    assert_eq!(value.encoded_len(), usize::MAX);
    let mut out = vec![0xAA; 64];
    assert!(value.encode_into(&mut out).is_err());
    assert!(out.iter().all(|&b| b == 0xAA), "nothing written");
}

/// A map has the bytes of a list of `(key, value)` tuples: a list reads a map, and a
/// map reads a sorted list.
#[test]
fn a_map_has_the_bytes_of_a_list_of_pairs() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Pairs {
        depth: Vec<(u16, u32)>,
        names: Vec<(String, u8)>,
    }
    let bytes = golden("E14");
    let pairs = Pairs::decode(&bytes).unwrap();
    assert_eq!(pairs.depth, [(1, 5), (2, 7)]);
    assert_eq!(pairs.names, [("a".into(), 1), ("b".into(), 2)]);
    assert_eq!(pairs.to_bytes().unwrap(), bytes);
}

/// The golden E14 with its keys swapped or repeated, and other hostile bytes: the
/// error kind, the path and the offset of the later entry.
#[test]
fn hostile_maps_fail_with_the_path_and_offset() {
    let e14 = golden("E14");
    let fails = |bytes: &[u8]| {
        let err = Book::view(bytes).unwrap_err();
        (err.kind().clone(), err.path(), err.offset())
    };

    // depth keys 2, 1: unsorted, at entry 1 (offset 18).
    let mut bad = e14.clone();
    bad[12] = 2;
    bad[18] = 1;
    assert_eq!(
        fails(&bad),
        (ErrorKind::UnsortedKeys, "depth[1]".into(), 18)
    );
    // depth keys 1, 1: a duplicate.
    let mut bad = e14.clone();
    bad[18] = 1;
    assert_eq!(
        fails(&bad),
        (ErrorKind::DuplicateKey, "depth[1]".into(), 18)
    );
    // names keys "b", "b": a duplicate at entry 1 (its first byte, offset 24 + 11).
    // The names map is a split list (FORMAT.md §6.3): the keys' bytes are in the
    // tails after both blocks, "a" at 46 and "b" at 47.
    let mut bad = e14.clone();
    bad[46] = b'b';
    assert_eq!(
        fails(&bad),
        (ErrorKind::DuplicateKey, "names[1]".into(), 35)
    );
    // names keys "c", "b": unsorted.
    let mut bad = e14.clone();
    bad[46] = b'c';
    assert_eq!(
        fails(&bad),
        (ErrorKind::UnsortedKeys, "names[1]".into(), 35)
    );
    // A key that is not UTF-8: the tuple's error, at the byte in its tail.
    let mut bad = e14.clone();
    bad[46] = 0xff;
    let (kind, path, offset) = fails(&bad);
    assert!(matches!(kind, ErrorKind::InvalidUtf8 { .. }), "{kind:?}");
    assert_eq!((path.as_str(), offset), ("names[0].0", 46));
    // An entry past the map's region: the second entry's tail start past its end.
    let mut bad = e14.clone();
    bad[35] = 0x30;
    let (kind, path, offset) = fails(&bad);
    assert!(
        matches!(kind, ErrorKind::OffsetOutOfRange { .. }),
        "{kind:?}"
    );
    assert_eq!((path.as_str(), offset), ("names[1]", 35));
    // A stride smaller than a key and a value.
    let mut bad = e14.clone();
    bad[10] = 5;
    let (kind, path, offset) = fails(&bad);
    assert_eq!(
        kind,
        ErrorKind::StrideTooSmall {
            stride: 5,
            required: 6
        }
    );
    assert_eq!((path.as_str(), offset), ("depth", 10));
    // The entries' block length under the tuple's (both entries state it: a split
    // list's elements share one).
    let mut bad = e14.clone();
    bad[28] = 6;
    bad[39] = 6;
    let (kind, path, offset) = fails(&bad);
    assert!(
        matches!(kind, ErrorKind::BlockLengthTooSmall { .. }),
        "{kind:?}"
    );
    assert_eq!((path.as_str(), offset), ("names[0]", 28));
    // One entry's block length other than the first's.
    let mut bad = e14.clone();
    bad[39] = 8;
    assert_eq!(
        fails(&bad),
        (
            ErrorKind::StrideMismatch {
                block_length: 8,
                expected: 7
            },
            "names[1]".into(),
            39
        )
    );
}

#[test]
fn hostile_enum_keys_are_checked_before_their_order() {
    #[derive(WireMsg, Debug)]
    struct Venues {
        venues: BTreeMap<Venue, u8>,
    }
    let value = Venues {
        venues: BTreeMap::from([(Venue::Arca, 1), (Venue::Xnas, 2)]),
    };
    let mut bytes = value.to_bytes().unwrap();
    // block length 6, end offset, stride 2, then (2, 1), (9, 2).
    assert_eq!(&bytes[6..], [2, 0, 2, 1, 9, 2]);
    bytes[10] = 3;
    let err = Venues::view(&bytes).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnknownEnumValue { value: 3, .. }
    ));
    assert_eq!((err.path(), err.offset()), ("venues[1].0".into(), 10));
    bytes[10] = 2;
    let err = Venues::view(&bytes).unwrap_err();
    assert_eq!(*err.kind(), ErrorKind::DuplicateKey);
    assert_eq!((err.path(), err.offset()), ("venues[1]".into(), 10));
}

#[test]
fn the_schema_names_maps_and_survives_its_encoding() {
    use wiremsg::{SchemaSet, TypeSchema};
    let field = Book::SCHEMA.field("names").unwrap();
    assert_eq!(field.ty.display().to_string(), "BTreeMap<String, u8>");
    assert_eq!(format!("{:?}", field.ty), "Map(Tuple(Str, U8))");
    let TypeSchema::Map(entry) = &*field.ty else {
        panic!("a map")
    };
    assert_eq!(entry.map_key(), Some((&TypeSchema::Str, &TypeSchema::U8)));
    // A HashMap has the same schema as a BTreeMap.
    assert_eq!(SchemaSet::of::<HashBook>().unwrap().fingerprint(), {
        #[derive(WireMsg)]
        struct HashBook {
            depth: BTreeMap<u16, u32>,
            names: BTreeMap<String, u8>,
        }
        SchemaSet::of::<HashBook>().unwrap().fingerprint()
    });
    for set in [
        SchemaSet::of::<Book>().unwrap(),
        SchemaSet::of::<Shapes>().unwrap(),
    ] {
        let back = SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap();
        assert_eq!(back, set);
        assert_eq!(back.fingerprint(), set.fingerprint());
    }
    // `Fill`, a map value, and `Level`, are in the set.
    let set = SchemaSet::of::<Shapes>().unwrap();
    assert!(set.message("Fill").is_some() && set.message("Level").is_some());
}

#[test]
fn schema_file_of_e14_is_current() {
    use wiremsg::SchemaSet;
    let set = SchemaSet::of::<Book>().unwrap();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/golden/E14.wms");
    let bytes = set.to_bytes().unwrap();
    let update = std::env::var_os("WIREMSG_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    match std::fs::read(&path) {
        Ok(committed) if !update => assert!(
            committed == bytes,
            "{} is out of date: rerun with WIREMSG_UPDATE_SNAPSHOTS=1 and commit it",
            path.display()
        ),
        _ => std::fs::write(&path, &bytes).unwrap(),
    }
    assert_eq!(SchemaSet::read_file(&path).unwrap(), set);
}

#[test]
fn views_serialize_maps_as_objects_and_both_readers_agree() {
    let bytes = golden("E14");
    let json = serde_json::to_string(&Book::view(&bytes).unwrap()).unwrap();
    assert_eq!(json, r#"{"depth":{"1":5,"2":7},"names":{"a":1,"b":2}}"#);
    let set = wiremsg::SchemaSet::of::<Book>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Book", &bytes).unwrap();
    assert_eq!(serde_json::to_string(&dynamic).unwrap(), json);
    assert_eq!(
        dynamic.to_string(),
        r#"Book { depth: {1: 5, 2: 7}, names: {"a": 1, "b": 2} }"#
    );
    // Every shape: the same JSON from the typed and the schema-driven reader.
    let bytes = shapes().to_bytes().unwrap();
    let set = wiremsg::SchemaSet::of::<Shapes>().unwrap();
    let typed = serde_json::to_string(&Shapes::view(&bytes).unwrap()).unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Shapes", &bytes).unwrap();
    assert_eq!(serde_json::to_string(&dynamic).unwrap(), typed);
}

#[test]
fn the_dynamic_reader_refuses_what_the_view_refuses() {
    let set = wiremsg::SchemaSet::of::<Book>().unwrap();
    let e14 = golden("E14");
    for (at, byte) in [
        (12, 2),
        (18, 1),
        (39, b'b'),
        (39, b'c'),
        (39, 0xff),
        (28, 0x30),
    ] {
        let mut bad = e14.clone();
        bad[at] = byte;
        if at == 12 {
            bad[18] = 1;
        }
        let typed = Book::view(&bad).unwrap_err();
        let dynamic = wiremsg::dynamic::view(&set, "Book", &bad).unwrap_err();
        assert_eq!(
            (typed.kind(), typed.path(), typed.offset()),
            (dynamic.kind(), dynamic.path(), dynamic.offset())
        );
    }
}

#[test]
fn compat_sees_a_key_or_value_change() {
    use wiremsg::schema::{Verdict, compat};
    mod v1 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Depth {
            pub(crate) depth: std::collections::BTreeMap<u32, u32>,
        }
    }
    mod v2 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Depth {
            pub(crate) depth: std::collections::BTreeMap<i32, u32>,
        }
    }
    mod v3 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Depth {
            pub(crate) depth: std::collections::HashMap<u32, u64>,
        }
    }
    let old = wiremsg::SchemaSet::of::<v1::Depth>().unwrap();
    assert!(compat(&old, &old).changes().is_empty());
    for new in [
        wiremsg::SchemaSet::of::<v2::Depth>().unwrap(),
        wiremsg::SchemaSet::of::<v3::Depth>().unwrap(),
    ] {
        let report = compat(&old, &new);
        assert_eq!(report.changes().len(), 1, "{report}");
        let change = &report.changes()[0];
        assert_eq!(
            (change.old_readers, change.new_readers),
            (Verdict::Breaking, Verdict::Breaking)
        );
        assert!(
            change
                .description
                .contains("type BTreeMap<u32, u32> -> BTreeMap<"),
            "{change:?}"
        );
    }
}

/// Decoding counts a map's entries against the decode budget before it allocates.
#[test]
fn decoding_a_map_counts_against_the_budget() {
    let value = shapes();
    let bytes = value.to_bytes().unwrap();
    let err = Shapes::decode_with_budget(&bytes, 16).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DecodeBudgetExceeded { .. }),
        "{err:?}"
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn book() -> impl Strategy<Value = HashBook> {
        (
            proptest::collection::hash_map(any::<u16>(), any::<u32>(), 0..8),
            proptest::collection::hash_map(".{0,6}", any::<u8>(), 0..6),
        )
            .prop_map(|(depth, names)| HashBook { depth, names })
    }

    proptest! {
        #[test]
        fn round_trips(value in book()) {
            let bytes = value.to_bytes().unwrap();
            prop_assert_eq!(bytes.len(), value.encoded_len());
            let back = HashBook::decode(&bytes).unwrap();
            prop_assert_eq!(&back, &value);
            let view = HashBook::view(&bytes).unwrap();
            for (k, v) in &value.names {
                prop_assert_eq!(view.names().get(k), Some(*v));
            }
            let sorted: BTreeMap<_, _> = value.depth.iter().map(|(k, v)| (*k, *v)).collect();
            prop_assert_eq!(view.depth().iter().collect::<Vec<_>>(), sorted.into_iter().collect::<Vec<_>>());
            // The BTreeMap of the same entries writes the same bytes.
            let b = Book {
                depth: value.depth.iter().map(|(k, v)| (*k, *v)).collect(),
                names: value.names.clone().into_iter().collect(),
            };
            prop_assert_eq!(b.to_bytes().unwrap(), bytes);
        }

        #[test]
        fn mutated_bytes_never_panic_and_both_readers_agree(
            value in book(),
            edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        ) {
            let mut bytes = value.to_bytes().unwrap();
            for (at, byte) in edits {
                let len = bytes.len();
                bytes[at % len] = byte;
            }
            let set = wiremsg::SchemaSet::of::<Book>().unwrap();
            let typed = Book::view(&bytes);
            let dynamic = wiremsg::dynamic::view(&set, "Book", &bytes).map(|_| ());
            match (&typed, dynamic) {
                (Ok(view), Ok(())) => {
                    // A valid map's lookups find each of its keys.
                    for (i, (k, v)) in view.names().iter().enumerate() {
                        prop_assert_eq!(view.names().get_entry(k), Some((i, k, v)));
                    }
                    let _ = Book::decode(&bytes).unwrap();
                }
                (Err(a), Err(b)) => prop_assert_eq!(
                    (a.kind(), a.path(), a.offset()),
                    (b.kind(), b.path(), b.offset())
                ),
                (a, b) => prop_assert!(false, "typed {:?}, dynamic {:?}", a, b),
            }
        }

        /// Keys whose `Ord` is not the wire order (fixed-width text with bytes below
        /// its padding, enums declared out of value order) and signed keys: written
        /// sorted by the wire order, found by every lookup, decoded back.
        #[test]
        fn keys_sort_by_their_wire_order(
            symbols in proptest::collection::btree_set("[\\x00-\\x7f]{0,3}", 0..8),
            signed in proptest::collection::btree_map(any::<i64>(), any::<u8>(), 0..8),
            venues in proptest::collection::vec(0..3usize, 0..4),
        ) {
            #[derive(WireMsg, Debug, PartialEq)]
            struct Keys {
                symbols: BTreeMap<FixedStr<4>, u8>,
                signed: BTreeMap<i64, u8>,
                venues: BTreeMap<Venue, u8>,
            }
            let symbols: BTreeMap<FixedStr<4>, u8> = symbols
                .iter()
                .filter_map(|s| FixedStr::new(s).ok())
                .enumerate()
                .map(|(i, s)| (s, i as u8))
                .collect();
            let all = [Venue::Xnas, Venue::Arca, Venue::Bats];
            let venues = venues.iter().map(|&i| (all[i], i as u8)).collect();
            let value = Keys { symbols, signed, venues };
            let bytes = value.to_bytes().unwrap();
            let view = Keys::view(&bytes).unwrap();
            let texts: Vec<&str> = view.symbols().keys().collect();
            let mut sorted: Vec<&str> = value.symbols.keys().map(|s| s.as_str()).collect();
            sorted.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
            prop_assert_eq!(texts, sorted);
            for (k, v) in &value.symbols {
                prop_assert_eq!(view.symbols().get(k.as_str()), Some(*v));
            }
            for (k, v) in &value.signed {
                prop_assert_eq!(view.signed().get(*k), Some(*v));
            }
            let raws: Vec<u8> = view.venues().keys().map(|v| v.to_raw()).collect();
            prop_assert!(raws.windows(2).all(|w| w[0] < w[1]));
            prop_assert_eq!(Keys::decode(&bytes).unwrap(), value);
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = Book::view(&bytes).map(|v| format!("{v:?}"));
            let _ = Shapes::view(&bytes).map(|v| format!("{v:?}"));
            let _ = Shapes::decode(&bytes);
        }
    }
}

/// A schema file with a map row, corrupted byte by byte: read back or refused, never
/// a panic.
#[test]
fn corrupt_schema_files_with_maps_never_panic() {
    let bytes = wiremsg::SchemaSet::of::<Shapes>()
        .unwrap()
        .to_bytes()
        .unwrap();
    let mut refused = 0;
    for at in 8..bytes.len() {
        for flip in [0x00, 0x01, 0x19, 0x1e, 0xff] {
            let mut bad = bytes.clone();
            bad[at] = flip;
            refused += usize::from(wiremsg::SchemaSet::from_bytes(&bad).is_err());
        }
    }
    assert!(refused > 0);
}

/// A message that nests itself through a map: each level counts towards the nesting
/// limit twice (the entry, a tuple with a tail, and the message), so validation stops
/// at the limit with `DepthLimitExceeded`, on a small stack, and the schema-driven
/// reader stops at the same place.
#[derive(WireMsg, Debug, Default, PartialEq)]
struct Tree {
    id: u32,
    kids: BTreeMap<u32, Tree>,
}

fn tree(levels: u32) -> Tree {
    let mut value = Tree::default();
    for id in (0..levels).rev() {
        value = Tree {
            id,
            kids: BTreeMap::from([(id, value)]),
        };
    }
    value
}

/// The bytes of `tree(levels)`, built by hand (the encoder refuses trees past the
/// depth limit): a map entry is the tuple `(id, kid)`, which has a tail.
fn tree_bytes(levels: u32) -> Vec<u8> {
    let leaf = message(&[Part::Fixed(&0u32.to_le_bytes()), Part::Tail(&[])]);
    (0..levels).rev().fold(leaf, |kid, id| {
        let id = id.to_le_bytes();
        let entry = message(&[Part::Fixed(&id), Part::Tail(&kid)]);
        message(&[Part::Fixed(&id), Part::Tail(&split(&[&entry]))])
    })
}

#[test]
fn maps_of_themselves_stop_at_the_depth_limit() {
    let set = wiremsg::SchemaSet::of::<Tree>().unwrap();
    let (ok, over) = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(|| {
            let deepest = (0..=wiremsg::MAX_DEPTH)
                .take_while(|&n| Tree::view(&tree_bytes(n)).is_ok())
                .last()
                .unwrap();
            for n in [0, 1, deepest] {
                assert_eq!(tree(n).to_bytes().unwrap(), tree_bytes(n));
            }
            let written = tree(deepest + 1).to_bytes().unwrap_err();
            let read = Tree::view(&tree_bytes(deepest + 1)).unwrap_err();
            assert_eq!((written.kind(), written.path()), (read.kind(), read.path()));
            (deepest, Err::<(), _>(read))
        })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(ok, wiremsg::MAX_DEPTH / 2);
    let err = over.unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::DepthLimitExceeded { .. }),
        "{err:?}"
    );
    let bytes = tree_bytes(ok);
    assert_eq!(Tree::decode(&bytes).unwrap().kids[&0].id, 1);
    assert!(wiremsg::dynamic::view(&set, "Tree", &bytes).is_ok());
    let dynamic = wiremsg::dynamic::view(&set, "Tree", &tree_bytes(ok + 1)).unwrap_err();
    assert_eq!(
        (dynamic.kind(), dynamic.path(), dynamic.offset()),
        (err.kind(), err.path(), err.offset())
    );
}

/// A schema (made by hand, as a schema file can say anything) whose map has a key
/// without a wire order, or an entry type that is not a pair, is refused with the
/// reason; one the derive could write is accepted.
#[test]
fn schemas_of_maps_without_a_key_order_are_refused() {
    use std::borrow::Cow;
    use wiremsg::{FieldSchema, MessageSchema, Node, SchemaSet, TypeSchema};
    let with_entry = |entry: TypeSchema| {
        let field = FieldSchema {
            name: "m".into(),
            offset: 2,
            size: 4,
            ty: TypeSchema::Map(entry.into()).into(),
            since: 1,
            reserved: false,
            default: None,
        };
        let message = MessageSchema {
            name: "M".into(),
            version: 1,
            block_length: 6,
            min_block_length: 6,
            has_block_length: true,
            has_tail: true,
            template_id: None,
            schema_id: 0,
            fields: vec![field].into(),
        };
        SchemaSet::from_messages([message]).map(|_| ())
    };
    let pair = |k: TypeSchema, v: TypeSchema| {
        TypeSchema::Tuple(Cow::Owned(vec![Node::from(k), Node::from(v)]))
    };
    assert!(with_entry(pair(TypeSchema::I64, TypeSchema::Str)).is_ok());
    assert!(with_entry(pair(TypeSchema::FixedStr { len: 3 }, TypeSchema::U8)).is_ok());
    for (entry, reason) in [
        (
            pair(TypeSchema::F64, TypeSchema::U8),
            "a map's key is not an integer, a string, a FixedStr or an enum",
        ),
        (
            pair(TypeSchema::Bool, TypeSchema::U8),
            "a map's key is not an integer, a string, a FixedStr or an enum",
        ),
        (
            pair(TypeSchema::FixedStr { len: 0 }, TypeSchema::U8),
            "a map's key is not an integer, a string, a FixedStr or an enum",
        ),
        (
            TypeSchema::U32,
            "a map's entry type is not a tuple of two elements",
        ),
        (
            TypeSchema::Tuple(Cow::Owned(vec![TypeSchema::U8.into()])),
            "a map's entry type is not a tuple of two elements",
        ),
    ] {
        let err = with_entry(entry).unwrap_err();
        assert_eq!(*err.kind(), ErrorKind::InvalidSchema { reason }, "{err}");
        assert_eq!(err.path(), "M.m");
    }
}

/// A map added in a later version: a newer reader of older bytes reads it empty (and
/// decodes an empty map), an older reader of newer bytes ignores it.
#[test]
fn a_map_added_in_a_later_version_reads_empty_on_older_bytes() {
    mod v1 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Quote {
            pub(crate) price: i64,
            pub(crate) venue: String,
        }
    }
    mod v2 {
        use std::collections::BTreeMap;
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Quote {
            pub(crate) price: i64,
            pub(crate) venue: String,
            #[wire(since = 2)]
            pub(crate) sizes: BTreeMap<u16, u32>,
        }
    }
    let old = v1::Quote {
        price: 5,
        venue: "X".into(),
    }
    .to_bytes()
    .unwrap();
    let view = v2::Quote::view(&old).unwrap();
    assert!(view.sizes().is_empty() && !view.has_sizes());
    assert_eq!(view.sizes().get(1), None);
    assert!(view.try_sizes().is_none());
    assert!(v2::Quote::decode(&old).unwrap().sizes.is_empty());
    let mut old_copy = old.clone();
    assert!(
        v2::Quote::view_mut(&mut old_copy)
            .unwrap()
            .sizes_mut()
            .is_none()
    );

    let new = v2::Quote {
        price: 6,
        venue: "Y".into(),
        sizes: BTreeMap::from([(1, 2)]),
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        v1::Quote::decode(&new).unwrap(),
        v1::Quote {
            price: 6,
            venue: "Y".into()
        }
    );
    assert_eq!(v2::Quote::view(&new).unwrap().sizes().get(1), Some(2));
}

mod clashing {
    pub(crate) mod one {
        #[derive(wiremsg::WireEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        #[repr(u8)]
        pub(crate) enum Side {
            Buy = 0,
            Sell = 1,
        }
    }
    pub(crate) mod two {
        #[derive(wiremsg::WireEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        #[repr(u8)]
        pub(crate) enum Side {
            Bid = 0,
            Ask = 1,
        }
    }

    /// Two enums named `Side`, one only in a map's keys, one in its values.
    #[derive(wiremsg::WireMsg, Debug)]
    pub(crate) struct Keys {
        pub(crate) side: one::Side,
        pub(crate) by_side: std::collections::BTreeMap<two::Side, u8>,
    }

    #[derive(wiremsg::WireMsg, Debug)]
    pub(crate) struct Values {
        pub(crate) side: one::Side,
        pub(crate) sides: std::collections::BTreeMap<u8, Vec<two::Side>>,
    }
}

/// A schema set finds the enums a map's entries hold, as it finds a list's: two of
/// one name are refused.
#[test]
fn two_enums_of_one_name_are_refused_through_a_map() {
    for (err, path) in [
        (
            wiremsg::SchemaSet::of::<clashing::Keys>().unwrap_err(),
            "Keys.by_side",
        ),
        (
            wiremsg::SchemaSet::of::<clashing::Values>().unwrap_err(),
            "Values.sides",
        ),
    ] {
        assert_eq!(
            (err.kind(), err.path().to_string()),
            (
                &ErrorKind::InvalidSchema {
                    reason: "two different enums have the same name"
                },
                path.to_owned()
            ),
            "{err}"
        );
    }
}
