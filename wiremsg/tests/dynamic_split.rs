//! The schema-driven reader on split lists (FORMAT.md §6.3) written by hand: lists
//! of messages with a tail, of tuples with a tail, and maps whose entries have one;
//! their values, their annotated dumps, and the errors (kind, path, offset) of
//! corrupted copies.

use std::collections::BTreeMap;
use wiremsg::dynamic::{self, Value};
use wiremsg::{ErrorKind, SchemaSet, WireMsg};

#[derive(WireMsg, Debug, PartialEq)]
struct Venue {
    code: u8,
    name: String,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Venues {
    venues: Vec<Venue>,
}

/// `Venues { venues: [(1, "A"), (2, "")] }`: block length 6, the list at 6.
fn venues() -> Vec<u8> {
    let mut bytes = vec![0x06, 0x00, 0x1d, 0x00, 0x00, 0x00];
    bytes.extend_from_slice(&[
        0x16, 0x00, 0x00, 0x00, // 6   T(0) = 22
        0x07, 0x00, 0x01, 0x08, 0x00, 0x00, 0x00, // 10  [0]: B 7, code 1, name ends at 8
        0x17, 0x00, 0x00, 0x00, // 17  T(1) = 23
        0x07, 0x00, 0x02, 0x07, 0x00, 0x00, 0x00, // 21  [1]: B 7, code 2, name ends at 7
        0x41, // 28  [0]'s tail: "A"
    ]);
    bytes
}

fn set_of<T: WireMsg>() -> SchemaSet {
    SchemaSet::of::<T>().unwrap()
}

#[test]
fn a_list_of_messages_with_a_tail_reads_by_element() {
    let set = set_of::<Venues>();
    let bytes = venues();
    let view = dynamic::view(&set, "Venues", &bytes).unwrap();
    let venues = view.get("venues").unwrap();
    let list = venues.as_list().unwrap();
    assert_eq!(list.len(), 2);
    let first = list.get(0).unwrap();
    let first = first.as_message().unwrap();
    assert_eq!(first.get("code"), Some(Value::Unsigned(1)));
    assert_eq!(first.get("name").unwrap().as_str(), Some("A"));
    let second = list.get(1).unwrap();
    assert_eq!(
        second.as_message().unwrap().get("name").unwrap().as_str(),
        Some("")
    );
    assert!(list.get(2).is_none());
    assert_eq!(
        view.to_string(),
        r#"Venues { venues: [Venue { code: 1, name: "A" }, Venue { code: 2, name: "" }] }"#
    );
}

#[test]
fn the_dump_shows_tail_starts_blocks_then_tails() {
    let set = set_of::<Venues>();
    let bytes = venues();
    let dump = dynamic::annotate(&set, "Venues", &bytes, false);
    assert!(dump.error().is_none(), "{dump}");
    let rows: Vec<(usize, usize, &str)> = dump
        .rows()
        .iter()
        .map(|r| (r.offset, r.len, r.name.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (0, 2, "block length"),
            (2, 4, "venues"),
            (6, 23, "venues (tail)"),
            (6, 4, "[0] tail start"),
            (10, 7, "[0]"),
            (10, 2, "block length"),
            (12, 1, "code"),
            (13, 4, "name"),
            (17, 4, "[1] tail start"),
            (21, 7, "[1]"),
            (21, 2, "block length"),
            (23, 1, "code"),
            (24, 4, "name"),
            (28, 1, "[0] (tail)"),
            (28, 1, "name (tail)"),
        ],
        "{dump}"
    );
    let text = dump.to_string();
    assert!(text.contains("T(0) = 22"), "{text}");
    assert!(text.contains("T(1) = 23"), "{text}");
}

/// The error of the dynamic reader on `bytes`, and that of the annotated dump.
fn error(set: &SchemaSet, name: &str, bytes: &[u8]) -> wiremsg::Error {
    let err = dynamic::view(set, name, bytes).unwrap_err();
    let dump = dynamic::annotate(set, name, bytes, false);
    assert_eq!(dump.error().map(ToString::to_string), Some(err.to_string()));
    err
}

#[test]
fn block_errors_are_at_the_block_and_tail_errors_at_the_tail() {
    let set = set_of::<Venues>();
    // [1]'s block length is not [0]'s.
    let mut bytes = venues();
    bytes[21] = 8;
    let err = error(&set, "Venues", &bytes);
    assert_eq!(err.path(), "venues[1]".to_string());
    assert_eq!(err.offset(), 21);
    assert!(matches!(
        err.kind(),
        ErrorKind::StrideMismatch {
            block_length: 8,
            expected: 7
        }
    ));
    // [0]'s name is not UTF-8: at the tail.
    let mut bytes = venues();
    bytes[28] = 0xff;
    let err = error(&set, "Venues", &bytes);
    assert_eq!((err.path().as_str(), err.offset()), ("venues[0].name", 28));
    // [1]'s name ends before it starts (at 8, past the list's end): at its slot, in
    // its block.
    let mut bytes = venues();
    bytes[24] = 9;
    let err = error(&set, "Venues", &bytes);
    assert_eq!((err.path().as_str(), err.offset()), ("venues[1].name", 24));
    assert!(matches!(
        err.kind(),
        ErrorKind::OffsetOutOfRange {
            end: 9,
            min: 7,
            max: 7
        }
    ));
    // T(0) is not a multiple of the stride.
    let mut bytes = venues();
    bytes[6] = 21;
    let err = error(&set, "Venues", &bytes);
    assert_eq!((err.path().as_str(), err.offset()), ("venues", 6));
    assert!(matches!(
        err.kind(),
        ErrorKind::ListLengthMismatch {
            len: 21,
            element_size: 11
        }
    ));
    // T(1) before T(0).
    let mut bytes = venues();
    bytes[17] = 21;
    let err = error(&set, "Venues", &bytes);
    assert_eq!((err.path().as_str(), err.offset()), ("venues[1]", 17));
    // A block length under the element's.
    let mut bytes = venues();
    bytes[10] = 6;
    let err = error(&set, "Venues", &bytes);
    assert_eq!((err.path().as_str(), err.offset()), ("venues[0]", 10));
    assert!(matches!(err.kind(), ErrorKind::BlockLengthTooSmall { .. }));
}

#[derive(WireMsg, Debug, PartialEq)]
struct Tagged {
    tags: Vec<(u8, String)>,
}

#[test]
fn a_list_of_tuples_with_a_tail_is_split() {
    let set = set_of::<Tagged>();
    // The same bytes as `venues`: a tuple's block is a message's of version 1.
    let bytes = venues();
    let view = dynamic::view(&set, "Tagged", &bytes).unwrap();
    assert_eq!(view.to_string(), r#"Tagged { tags: [(1, "A"), (2, "")] }"#);
    let mut bad = bytes.clone();
    bad[28] = 0xff;
    let err = error(&set, "Tagged", &bad);
    assert_eq!((err.path().as_str(), err.offset()), ("tags[0].1", 28));
}

#[derive(WireMsg, Debug, PartialEq)]
struct Book {
    names: BTreeMap<String, u8>,
}

/// `Book { names: {"a": 1, "b": 2} }`: a split list of `(String, u8)` entries.
fn book() -> Vec<u8> {
    let mut bytes = vec![0x06, 0x00, 0x1e, 0x00, 0x00, 0x00];
    bytes.extend_from_slice(&[
        0x16, 0x00, 0x00, 0x00, // 6   T(0) = 22
        0x07, 0x00, 0x08, 0x00, 0x00, 0x00, 0x01, // 10  ("a", 1): key ends at 8
        0x17, 0x00, 0x00, 0x00, // 17  T(1) = 23
        0x07, 0x00, 0x08, 0x00, 0x00, 0x00, 0x02, // 21  ("b", 2)
        0x61, 0x62, // 28  "a", "b"
    ]);
    bytes
}

#[test]
fn a_map_of_entries_with_a_tail_is_split() {
    let set = set_of::<Book>();
    let bytes = book();
    let view = dynamic::view(&set, "Book", &bytes).unwrap();
    assert_eq!(view.to_string(), r#"Book { names: {"a": 1, "b": 2} }"#);
    let mut same = bytes.clone();
    same[29] = b'a';
    let err = error(&set, "Book", &same);
    assert_eq!((err.path().as_str(), err.offset()), ("names[1]", 17));
    assert!(matches!(err.kind(), ErrorKind::DuplicateKey));
}
