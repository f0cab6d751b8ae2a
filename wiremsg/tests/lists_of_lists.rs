//! Lists of lists (FORMAT.md §6.6): golden vector E13, O(1) access to the i-th inner
//! list, owned and borrowed encoding, in-place sets, schemas, the schema-driven
//! reader, and hostile input (an inner list past the outer region).

#[path = "common/golden.rs"]
mod format_golden;
use format_golden::golden;
use wiremsg::{ErrorKind, SchemaSet, WireMsg};

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Grid {
    rows: Vec<Vec<u16>>,
    words: Vec<Vec<String>>,
}

fn grid() -> Grid {
    Grid {
        rows: vec![vec![1, 2], vec![], vec![3]],
        words: vec![vec!["a".into()], vec![]],
    }
}

#[test]
fn e12_lists_of_lists() {
    let bytes = golden("E13");
    assert_eq!(grid().to_bytes().unwrap(), bytes);
    let view = Grid::view(&bytes).unwrap();
    let rows = view.rows();
    assert_eq!(rows.len(), 3);
    // The i-th inner list, straight from the outer table.
    let third = rows.get(2).unwrap();
    assert_eq!((third.len(), third.get(0)), (1, Some(3)));
    assert!(rows.get(1).unwrap().is_empty());
    assert_eq!(rows.get(3), None);
    assert_eq!(third.as_bytes(), &bytes[26..28]);
    let words: Vec<Vec<&str>> = view.words().iter().map(|w| w.iter().collect()).collect();
    assert_eq!(words, [vec!["a"], vec![]]);
    assert_eq!(Grid::decode(&bytes).unwrap(), grid());
}

/// Borrowed outer lists (inner elements owned: see the compile-fail case
/// `list-of-lists-of-borrowed`).
#[derive(WireMsg, Debug, PartialEq)]
struct GridRef<'a> {
    rows: &'a [&'a [u16]],
    words: &'a [Vec<String>],
}

#[test]
fn borrowed_lists_of_lists_encode_the_same_bytes() {
    let rows: [&[u16]; 3] = [&[1, 2], &[], &[3]];
    let words = [vec!["a".to_owned()], vec![]];
    let borrowed = GridRef {
        rows: &rows,
        words: &words,
    };
    let bytes = golden("E13");
    assert_eq!(borrowed.to_bytes().unwrap(), bytes);
    let view = GridRef::view(&bytes).unwrap();
    assert_eq!(view.rows().get(0).unwrap().get(1), Some(2));
    assert_eq!(view.words().get(0).unwrap().get(0), Some("a"));
}

#[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
struct Level {
    price: i64,
    size: u32,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Venue {
    code: u8,
    name: String,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Deep {
    books: Vec<Vec<Level>>,
    venues: Vec<Vec<Venue>>,
    cube: Vec<Vec<Vec<u8>>>,
    pairs: Vec<Vec<(u8, String)>>,
}

fn deep() -> Deep {
    Deep {
        books: vec![
            vec![Level { price: 1, size: 2 }],
            vec![],
            vec![Level { price: -3, size: 4 }; 3],
        ],
        venues: vec![vec![
            Venue {
                code: 1,
                name: "XNAS".into(),
            },
            Venue {
                code: 2,
                name: String::new(),
            },
        ]],
        cube: vec![vec![vec![1, 2], vec![]], vec![], vec![vec![3]]],
        pairs: vec![vec![(1, "x".into())], vec![]],
    }
}

#[test]
fn lists_of_lists_of_messages_bytes_and_tuples_round_trip() {
    let value = deep();
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Deep::decode(&bytes).unwrap(), value);
    let view = Deep::view(&bytes).unwrap();
    assert_eq!(view.books().get(2).unwrap().get(1).unwrap().price(), -3);
    assert_eq!(view.venues().get(0).unwrap().get(0).unwrap().name(), "XNAS");
    assert_eq!(view.cube().get(0).unwrap().get(0), Some(&[1u8, 2][..]));
    assert_eq!(view.pairs().get(0).unwrap().get(0), Some((1, "x")));
    assert_eq!(view, Deep::view(&bytes).unwrap());
    assert_eq!(value, view);
    let json = serde_json::to_string(&view).unwrap();
    let set = SchemaSet::of::<Deep>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Deep", &bytes).unwrap();
    assert_eq!(serde_json::to_string(&dynamic).unwrap(), json);
    assert!(json.contains(r#""cube":[[[1,2],[]],[],[[3]]]"#), "{json}");
}

#[test]
fn inner_lists_are_mutated_in_place() {
    let mut bytes = deep().to_bytes().unwrap();
    let mut edit = Deep::view_mut(&mut bytes).unwrap();
    let mut books = edit.books_mut();
    let mut third = books.list_mut(2).unwrap();
    assert!(third.set(0, &Level { price: 9, size: 9 }));
    third.get_mut(1).unwrap().set_size(7);
    assert!(books.list_mut(3).is_none());
    let value = Deep::decode(&bytes).unwrap();
    assert_eq!(value.books[2][0], Level { price: 9, size: 9 });
    assert_eq!(value.books[2][1], Level { price: -3, size: 7 });
}

#[test]
fn hostile_inner_lists_fail_with_path_and_offset() {
    let bytes = golden("E13");
    let fail = |at: usize, byte: u8| {
        let mut bad = bytes.clone();
        bad[at] = byte;
        let err = Grid::view(&bad).unwrap_err();
        let set = SchemaSet::of::<Grid>().unwrap();
        let dynamic = wiremsg::dynamic::view(&set, "Grid", &bad).unwrap_err();
        assert_eq!(
            (err.kind(), err.path(), err.offset()),
            (dynamic.kind(), dynamic.path(), dynamic.offset())
        );
        (err.kind().clone(), err.path(), err.offset())
    };
    // Inner list 1 starting past the outer region (18 bytes).
    assert_eq!(
        fail(14, 0x30),
        (
            ErrorKind::OffsetOutOfRange {
                end: 48,
                min: 12,
                max: 18
            },
            "rows[1]".into(),
            14
        )
    );
    // Inner list 0 cut to 3 bytes: not a whole number of u16.
    assert_eq!(
        fail(14, 0x0f),
        (
            ErrorKind::ListLengthMismatch {
                len: 3,
                element_size: 2
            },
            "rows[0]".into(),
            22
        )
    );
    // The inner table of words[0] pointing past its region (5 bytes).
    assert_eq!(
        fail(36, 0x08),
        (
            ErrorKind::ListCountTooLarge {
                count: 2,
                available: 5
            },
            "words[0]".into(),
            36
        )
    );
    // Its string, not UTF-8.
    assert_eq!(
        fail(40, 0xff),
        (
            ErrorKind::InvalidUtf8 { valid_up_to: 0 },
            "words[0][0]".into(),
            40
        )
    );
    for len in 0..bytes.len() {
        assert!(Grid::view(&bytes[..len]).is_err(), "{len}");
    }
}

#[test]
fn the_schema_of_lists_of_lists_survives_its_encoding() {
    let field = Grid::SCHEMA.field("words").unwrap();
    assert_eq!(field.ty.display().to_string(), "Vec<Vec<String>>");
    let set = SchemaSet::of::<Deep>().unwrap();
    assert_eq!(
        SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap(),
        set
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/golden/E13.wms");
    let set = SchemaSet::of::<Grid>().unwrap();
    let bytes = set.to_bytes().unwrap();
    let update = std::env::var_os("WIREMSG_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    match std::fs::read(&path) {
        Ok(committed) if !update => {
            assert!(committed == bytes, "{} is out of date", path.display())
        }
        _ => std::fs::write(&path, &bytes).unwrap(),
    }
    assert_eq!(SchemaSet::read_file(&path).unwrap(), set);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn round_trips(
            rows in proptest::collection::vec(proptest::collection::vec(any::<u16>(), 0..4), 0..4),
            words in proptest::collection::vec(proptest::collection::vec(".{0,4}", 0..3), 0..3),
        ) {
            let value = Grid { rows, words };
            let bytes = value.to_bytes().unwrap();
            prop_assert_eq!(bytes.len(), value.encoded_len());
            prop_assert_eq!(Grid::decode(&bytes).unwrap(), value.clone());
            let view = Grid::view(&bytes).unwrap();
            for (i, row) in value.rows.iter().enumerate() {
                prop_assert_eq!(view.rows().get(i).unwrap().len(), row.len());
            }
        }

        #[test]
        fn no_input_panics_and_both_readers_agree(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let set = SchemaSet::of::<Grid>().unwrap();
            let typed = Grid::view(&bytes).map(|_| ());
            let dynamic = wiremsg::dynamic::view(&set, "Grid", &bytes).map(|_| ());
            match (typed, dynamic) {
                (Ok(()), Ok(())) => {}
                (Err(a), Err(b)) => prop_assert_eq!(
                    (a.kind(), a.path(), a.offset()),
                    (b.kind(), b.path(), b.offset())
                ),
                (a, b) => prop_assert!(false, "typed {:?}, dynamic {:?}", a, b),
            }
        }
    }
}
