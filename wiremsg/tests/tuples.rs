//! Tuples as fields (FORMAT.md §4.11): golden vector E12, round trips from owned and
//! borrowed data, views, in-place sets, options and lists of tuples, schemas, the
//! schema-driven reader, and hostile input.

#[path = "common/golden.rs"]
mod format_golden;
use format_golden::golden;
use wiremsg::{ErrorKind, WireMsg};

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Segment {
    id: u16,
    at: (i32, i16),
    fix: Option<(u8, u8)>,
    label: (u8, String),
    hops: Vec<(u16, u8)>,
}

fn segment() -> Segment {
    Segment {
        id: 1,
        at: (-1, 2),
        fix: Some((3, 4)),
        label: (5, "ab".into()),
        hops: vec![(6, 7), (8, 9)],
    }
}

#[test]
fn e11_tuples_inline_in_the_tail_and_in_a_list() {
    let bytes = golden("E12");
    assert_eq!(segment().to_bytes().unwrap(), bytes);
    assert_eq!(Segment::BLOCK_LENGTH, 21);
    assert_eq!((SegmentView::AT_OFFSET, SegmentView::AT_SIZE), (4, 6));
    assert_eq!((SegmentView::FIX_OFFSET, SegmentView::FIX_SIZE), (10, 3));
    assert_eq!(
        (SegmentView::LABEL_OFFSET, SegmentView::LABEL_SIZE),
        (13, 4)
    );
    let view = Segment::view(&bytes).unwrap();
    assert_eq!(view.at(), (-1, 2));
    assert_eq!(view.fix(), Some((3, 4)));
    assert_eq!(view.label(), (5, "ab"));
    let hops: Vec<(u16, u8)> = view.hops().iter().collect();
    assert_eq!(hops, [(6, 7), (8, 9)]);
    assert_eq!(Segment::decode(&bytes).unwrap(), segment());
}

/// The same message with borrowed text: the same bytes, decoded without copying.
#[derive(WireMsg, Debug, PartialEq)]
struct SegmentRef<'a> {
    id: u16,
    at: (i32, i16),
    fix: Option<(u8, u8)>,
    label: (u8, &'a str),
    hops: Vec<(u16, u8)>,
}

#[test]
fn borrowed_tuples_encode_the_same_bytes_and_decode_in_place() {
    let bytes = golden("E12");
    let borrowed = SegmentRef {
        id: 1,
        at: (-1, 2),
        fix: Some((3, 4)),
        label: (5, "ab"),
        hops: vec![(6, 7), (8, 9)],
    };
    assert_eq!(borrowed.to_bytes().unwrap(), bytes);
    let decoded = SegmentRef::decode(&bytes).unwrap();
    assert_eq!(decoded, borrowed);
    // `label.1` points into `bytes`: offset 21 + 7.
    assert!(core::ptr::eq(decoded.label.1.as_ptr(), &bytes[28]));
}

#[test]
fn fixed_size_tuples_are_set_in_place() {
    let mut bytes = golden("E12");
    let mut edit = Segment::view_mut(&mut bytes).unwrap();
    edit.set_at((7, -8));
    edit.set_fix(None);
    assert!(edit.hops_mut().set(1, &(10, 11)));
    assert!(!edit.hops_mut().set(2, &(0, 0)));
    assert_eq!(edit.at(), (7, -8));
    let value = Segment::decode(&bytes).unwrap();
    assert_eq!(
        value,
        Segment {
            at: (7, -8),
            fix: None,
            hops: vec![(6, 7), (10, 11)],
            ..segment()
        }
    );
    // An absent option's tuple bytes are zeroed (FORMAT.md §4.5).
    assert_eq!(&bytes[10..13], [0, 0, 0]);
}

#[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
struct Px {
    mantissa: i64,
    exponent: i8,
}

#[derive(wiremsg::WireEnum, Debug, PartialEq, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Shapes {
    point: Option<(f64, f64, f64)>,
    quote: (Side, Px),
    nested: ((u8, u16), String),
    one: (u32,),
    named: Vec<(u32, String)>,
    blobs: Vec<(u8, Vec<u8>)>,
    pairs: [(u8, bool); 2],
}

fn shapes() -> Shapes {
    Shapes {
        point: Some((1.0, -2.5, 3.25)),
        quote: (
            Side::Sell,
            Px {
                mantissa: 12_345,
                exponent: -2,
            },
        ),
        nested: ((1, 513), "xy".into()),
        one: (9,),
        named: vec![(1, "a".into()), (2, String::new()), (3, "ccc".into())],
        blobs: vec![(4, vec![1, 2, 3]), (5, vec![])],
        pairs: [(1, true), (2, false)],
    }
}

#[test]
fn tuples_of_every_kind_round_trip_and_view() {
    let value = shapes();
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Shapes::decode(&bytes).unwrap(), value);
    let view = Shapes::view(&bytes).unwrap();
    assert_eq!(view.point(), Some((1.0, -2.5, 3.25)));
    let (side, px) = view.quote();
    assert_eq!(
        (side, px.mantissa(), px.exponent()),
        (Side::Sell, 12_345, -2)
    );
    assert_eq!(view.nested(), ((1, 513), "xy"));
    assert_eq!(view.one(), (9,));
    let named: Vec<(u32, &str)> = view.named().iter().collect();
    assert_eq!(named, [(1, "a"), (2, ""), (3, "ccc")]);
    assert_eq!(view.blobs().get(0), Some((4, &[1u8, 2, 3][..])));
    assert_eq!(view.pairs().get(1), Some((2, false)));
    // Slots: 1 + 24, then 1 + 9 inline, then three end offsets, 4, and 2 × 2.
    assert_eq!(
        (
            ShapesView::POINT_SIZE,
            ShapesView::QUOTE_SIZE,
            ShapesView::NESTED_SIZE
        ),
        (25, 10, 4)
    );
    assert_eq!(Shapes::BLOCK_LENGTH, 2 + 25 + 10 + 4 + 4 + 4 + 4 + 4);
    // A view equals itself and the owned value; another value differs.
    assert_eq!(view, Shapes::view(&bytes).unwrap());
    assert_eq!(value, view);
    let other = Shapes {
        one: (10,),
        ..shapes()
    }
    .to_bytes()
    .unwrap();
    assert_ne!(view, Shapes::view(&other).unwrap());
    let mut edit = Shapes::view_mut(&mut shapes().to_bytes().unwrap())
        .unwrap()
        .point();
    edit = edit.map(|(x, y, z)| (z, y, x));
    assert_eq!(edit, Some((3.25, -2.5, 1.0)));
}

#[test]
fn a_tuple_has_the_bytes_of_a_struct_with_its_fields() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Inner {
        a: u8,
        b: String,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    struct AsStruct {
        inner: Inner,
        list: Vec<Inner>,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    struct AsTuple {
        inner: (u8, String),
        list: Vec<(u8, String)>,
    }
    let tuple = AsTuple {
        inner: (1, "one".into()),
        list: vec![(2, "two".into()), (3, String::new())],
    };
    let strukt = AsStruct {
        inner: Inner {
            a: 1,
            b: "one".into(),
        },
        list: vec![
            Inner {
                a: 2,
                b: "two".into(),
            },
            Inner {
                a: 3,
                b: String::new(),
            },
        ],
    };
    let bytes = tuple.to_bytes().unwrap();
    assert_eq!(bytes, strukt.to_bytes().unwrap());
    assert_eq!(AsStruct::decode(&bytes).unwrap(), strukt);
}

#[test]
fn hostile_tuples_fail_with_the_path_and_offset() {
    let bytes = golden("E12");
    let fail = |at: usize, byte: u8| {
        let mut bad = bytes.clone();
        bad[at] = byte;
        let err = Segment::view(&bad).unwrap_err();
        (err.kind().clone(), err.path(), err.offset())
    };
    // The tuple's own block length, below its block.
    assert_eq!(
        fail(21, 6),
        (
            ErrorKind::BlockLengthTooSmall {
                declared: 6,
                required: 7,
                version: 1
            },
            "label".into(),
            21
        )
    );
    // Its string's end offset, past the tuple's region (9 bytes).
    assert_eq!(
        fail(24, 10),
        (
            ErrorKind::OffsetOutOfRange {
                end: 10,
                min: 7,
                max: 9
            },
            "label.1".into(),
            24
        )
    );
    // Its string, not UTF-8.
    assert_eq!(
        fail(28, 0xff),
        (
            ErrorKind::InvalidUtf8 { valid_up_to: 0 },
            "label.1".into(),
            28
        )
    );
    // The option's presence byte.
    assert_eq!(
        fail(10, 2),
        (ErrorKind::InvalidPresence { value: 2 }, "fix".into(), 10)
    );
    // A stride shorter than the tuple.
    assert_eq!(
        fail(30, 2),
        (
            ErrorKind::StrideTooSmall {
                stride: 2,
                required: 3
            },
            "hops".into(),
            30
        )
    );
    // The tuple's block length past its region.
    assert_eq!(
        fail(21, 10),
        (
            ErrorKind::Truncated {
                needed: 10,
                available: 9
            },
            "label".into(),
            21
        )
    );
    // Every prefix fails, never panics.
    for len in 0..bytes.len() {
        assert!(Segment::view(&bytes[..len]).is_err(), "{len}");
    }
}

#[test]
fn a_bool_inside_an_array_of_tuples_is_checked() {
    let mut bytes = shapes().to_bytes().unwrap();
    let at = ShapesView::PAIRS_OFFSET + 3;
    assert_eq!(bytes[at], 0); // pairs[1].1 = false
    bytes[at] = 2;
    let err = Shapes::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidBool { value: 2 });
    assert_eq!((err.path().as_str(), err.offset()), ("pairs[1].1", at));
}

#[test]
fn the_schema_names_tuples_and_survives_its_encoding() {
    use wiremsg::{SchemaSet, TypeSchema};
    let field = Segment::SCHEMA.field("label").unwrap();
    assert_eq!(field.ty.display().to_string(), "(u8, String)");
    assert_eq!(format!("{:?}", field.ty), "Tuple(U8, Str)");
    let TypeSchema::Tuple(elements) = &*Shapes::SCHEMA.field("one").unwrap().ty else {
        panic!("a tuple")
    };
    assert_eq!(elements.len(), 1);
    assert_eq!(
        Shapes::SCHEMA
            .field("one")
            .unwrap()
            .ty
            .display()
            .to_string(),
        "(u32,)"
    );
    for set in [
        SchemaSet::of::<Segment>().unwrap(),
        SchemaSet::of::<Shapes>().unwrap(),
    ] {
        let back = SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap();
        assert_eq!(back, set);
        assert_eq!(back.fingerprint(), set.fingerprint());
    }
    // `Px`, nested in a tuple, is in the set.
    assert!(SchemaSet::of::<Shapes>().unwrap().message("Px").is_some());
}

#[test]
fn schema_file_of_e11_is_current() {
    use wiremsg::SchemaSet;
    let set = SchemaSet::of::<Segment>().unwrap();
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/golden/E12.wms");
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
fn views_serialize_tuples_as_arrays() {
    let bytes = golden("E12");
    let json = serde_json::to_string(&Segment::view(&bytes).unwrap()).unwrap();
    assert_eq!(
        json,
        r#"{"id":1,"at":[-1,2],"fix":[3,4],"label":[5,"ab"],"hops":[[6,7],[8,9]]}"#
    );
    let set = wiremsg::SchemaSet::of::<Segment>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Segment", &bytes).unwrap();
    assert_eq!(serde_json::to_string(&dynamic).unwrap(), json);
    assert_eq!(
        dynamic.to_string(),
        r#"Segment { id: 1, at: (-1, 2), fix: Some((3, 4)), label: (5, "ab"), hops: [(6, 7), (8, 9)] }"#
    );
}

#[test]
fn compat_sees_a_tuple_element_change() {
    use wiremsg::schema::{Verdict, compat};
    mod v1 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Pos {
            pub(crate) at: (i32, i16),
        }
    }
    mod v2 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Pos {
            pub(crate) at: (i32, u16),
        }
    }
    let old = wiremsg::SchemaSet::of::<v1::Pos>().unwrap();
    let new = wiremsg::SchemaSet::of::<v2::Pos>().unwrap();
    assert!(compat(&old, &old).changes().is_empty());
    let report = compat(&old, &new);
    assert_eq!(report.changes().len(), 1, "{report}");
    let change = &report.changes()[0];
    assert_eq!(
        (change.old_readers, change.new_readers),
        (Verdict::Breaking, Verdict::Breaking)
    );
    assert!(
        change.description.contains("(i32, i16) -> (i32, u16)"),
        "{change:?}"
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn segment() -> impl Strategy<Value = Segment> {
        (
            any::<u16>(),
            any::<(i32, i16)>(),
            any::<Option<(u8, u8)>>(),
            (any::<u8>(), ".{0,8}"),
            proptest::collection::vec(any::<(u16, u8)>(), 0..5),
        )
            .prop_map(|(id, at, fix, label, hops)| Segment {
                id,
                at,
                fix,
                label,
                hops,
            })
    }

    proptest! {
        #[test]
        fn round_trips(value in segment()) {
            let bytes = value.to_bytes().unwrap();
            prop_assert_eq!(bytes.len(), value.encoded_len());
            prop_assert_eq!(Segment::decode(&bytes).unwrap(), value.clone());
            let view = Segment::view(&bytes).unwrap();
            prop_assert_eq!(view.label().1, value.label.1.as_str());
        }

        #[test]
        fn no_input_panics_and_both_readers_agree(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let set = wiremsg::SchemaSet::of::<Segment>().unwrap();
            let typed = Segment::view(&bytes).map(|_| ());
            let dynamic = wiremsg::dynamic::view(&set, "Segment", &bytes).map(|_| ());
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

/// A schema file with tuple rows, corrupted byte by byte: read back or refused, never
/// a panic or a loop (a tuple's rest has one element fewer, so its chain ends).
#[test]
fn corrupt_schema_files_with_tuples_never_panic() {
    let bytes = wiremsg::SchemaSet::of::<Shapes>()
        .unwrap()
        .to_bytes()
        .unwrap();
    let mut refused = 0;
    for at in 8..bytes.len() {
        for flip in [0x00, 0x01, 0x1e, 0xff] {
            let mut bad = bytes.clone();
            bad[at] = flip;
            refused += usize::from(wiremsg::SchemaSet::from_bytes(&bad).is_err());
        }
    }
    assert!(refused > 0);
}
