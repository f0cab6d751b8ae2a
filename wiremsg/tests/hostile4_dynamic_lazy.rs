//! Hostile tests of `dynamic::view_lazy` (`DynLazy`): against `dynamic::view` and
//! against the typed on-demand view's accessors, field by field, for readers of two
//! versions over bytes of both versions, with block lengths around every boundary,
//! hostile end offsets, reserved fields, fields in the tail after absent ones, nested
//! messages, unions, lists and maps, deep nesting and unknown names.
//!
//! The contract checked: `view_lazy` fails only as `view` fails on the block length
//! (same error); where `view` accepts, every `get` is `view`'s value and `to_view` is
//! `view`; where `view` refuses, the fields before the failing one read and the
//! failing one fails with `view`'s error. Beyond it: every field's `get` succeeds or
//! fails exactly as the typed on-demand accessor of that field does (followed by the
//! rest of that field's validation: `to_view` of a nested message, list or map).

use wiremsg::dynamic::{self, Value};
use wiremsg::{Error, SchemaSet, WireMsg};

type Key = (String, usize, String);

/// Each field's name and read, or the header's error.
type Fields = Result<Vec<(&'static str, Result<(), Key>)>, Key>;

fn key(e: &Error) -> Key {
    (format!("{:?}", e.kind()), e.offset(), e.path())
}

mod v1 {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Inner {
        pub(crate) x: u16,
        pub(crate) s: String,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Leaf {
        pub(crate) a: i32,
        pub(crate) b: u8,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Sel {
        L(Leaf) = b'L',
        I(Inner) = b'I',
        Nothing = b'N',
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Rec {
        pub(crate) id: u32,
        pub(crate) name: String,
        #[wire(reserved)]
        pub(crate) old: String,
        pub(crate) opt: Option<String>,
        pub(crate) inner: Inner,
        pub(crate) sel: Sel,
        pub(crate) xs: Vec<String>,
        pub(crate) k: u8,
    }
}

mod v2 {
    pub(crate) use super::v1::{Inner, Sel};
    use std::collections::BTreeMap;
    use wiremsg::WireMsg;

    /// `Rec` of version 2: a fixed field, then tail fields, appended.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Rec {
        pub(crate) id: u32,
        pub(crate) name: String,
        #[wire(reserved)]
        pub(crate) old: String,
        pub(crate) opt: Option<String>,
        pub(crate) inner: Inner,
        pub(crate) sel: Sel,
        pub(crate) xs: Vec<String>,
        pub(crate) k: u8,
        #[wire(since = 2, default = 42)]
        pub(crate) extra: u32,
        #[wire(since = 2)]
        pub(crate) tail2: String,
        #[wire(since = 2)]
        pub(crate) m: BTreeMap<u16, String>,
        #[wire(since = 2)]
        pub(crate) more: Option<Sel>,
    }
}

fn inner() -> v1::Inner {
    v1::Inner {
        x: 7,
        s: "in".into(),
    }
}

fn rec1() -> v1::Rec {
    v1::Rec {
        id: 0xA1A2A3A4,
        name: "nm".into(),
        old: String::new(),
        opt: Some("op".into()),
        inner: inner(),
        sel: v1::Sel::I(inner()),
        xs: vec!["a".into(), "".into(), "bc".into()],
        k: 5,
    }
}

fn rec2() -> v2::Rec {
    v2::Rec {
        id: 0xA1A2A3A4,
        name: "nm".into(),
        old: String::new(),
        opt: None,
        inner: inner(),
        sel: v1::Sel::L(v1::Leaf { a: -1, b: 2 }),
        xs: vec!["x".into()],
        k: 5,
        extra: 99,
        tail2: "t2".into(),
        m: [(1, "one".into()), (3, "three".into())]
            .into_iter()
            .collect(),
        more: Some(v1::Sel::Nothing),
    }
}

/// The union read on demand, checked whole: `Ok` where `view` of its bytes accepts.
fn sel_whole(l: v1::SelLazy<'_>) -> Result<(), Error> {
    match l {
        v1::SelLazy::L(x) => x.to_view().map(|_| ()),
        v1::SelLazy::I(x) => x.to_view().map(|_| ()),
        v1::SelLazy::Nothing => Ok(()),
    }
}

/// Each readable field of `Rec` v1 read by the typed on-demand view, and checked whole.
fn typed1(bytes: &[u8]) -> Fields {
    let l = v1::Rec::view_lazy(bytes).map_err(|e| key(&e))?;
    let k = |r: Result<(), Error>| r.map_err(|e| key(&e));
    Ok(vec![
        ("id", k(l.id().map(|_| ()))),
        ("name", k(l.name().map(|_| ()))),
        ("opt", k(l.opt().map(|_| ()))),
        ("inner", k(l.inner().and_then(|x| x.to_view()).map(|_| ()))),
        ("sel", k(l.sel().and_then(sel_whole))),
        ("xs", k(l.xs().and_then(|x| x.to_view()).map(|_| ()))),
        ("k", k(l.k().map(|_| ()))),
    ])
}

/// As [`typed1`], for `Rec` v2 (fields of version 2 by `try_`).
fn typed2(bytes: &[u8]) -> Fields {
    let l = v2::Rec::view_lazy(bytes).map_err(|e| key(&e))?;
    let k = |r: Result<(), Error>| r.map_err(|e| key(&e));
    Ok(vec![
        ("id", k(l.id().map(|_| ()))),
        ("name", k(l.name().map(|_| ()))),
        ("opt", k(l.opt().map(|_| ()))),
        ("inner", k(l.inner().and_then(|x| x.to_view()).map(|_| ()))),
        ("sel", k(l.sel().and_then(sel_whole))),
        ("xs", k(l.xs().and_then(|x| x.to_view()).map(|_| ()))),
        ("k", k(l.k().map(|_| ()))),
        ("extra", k(l.try_extra().map(|_| ()))),
        ("tail2", k(l.try_tail2().map(|_| ()))),
        (
            "m",
            k(l.try_m()
                .and_then(|m| m.map(|m| m.to_view().map(|_| ())).transpose())
                .map(|_| ())),
        ),
        (
            "more",
            k(l.try_more()
                .and_then(|m| m.flatten().map(sel_whole).transpose())
                .map(|_| ())),
        ),
    ])
}

/// The contract and the typed comparison, for reader `set` (`name`) over `bytes`.
/// Returns whether `view` accepted.
fn check(set: &SchemaSet, bytes: &[u8], version: u16) -> bool {
    let name = "Rec";
    let upfront = dynamic::view(set, name, bytes);
    type Typed = fn(&[u8]) -> Fields;
    let (typed, typed_view): (Typed, _) = if version == 1 {
        (typed1, v1::Rec::view(bytes).map(|_| ()))
    } else {
        (typed2, v2::Rec::view(bytes).map(|_| ()))
    };
    // `dynamic::view` is the typed view (tested elsewhere; assumed here).
    assert_eq!(
        upfront.as_ref().map(|_| ()).map_err(key),
        typed_view.map_err(|e| key(&e)),
        "{bytes:02x?}"
    );
    let lazy = dynamic::view_lazy(set, name, bytes);
    let typed_fields = typed(bytes);
    let lazy = match lazy {
        Err(e) => {
            let expected = upfront
                .as_ref()
                .expect_err("view_lazy refused what view accepts");
            assert_eq!(key(&e), key(expected), "{bytes:02x?}");
            assert_eq!(Err(key(&e)), typed_fields.map(|_| ()), "{bytes:02x?}");
            return false;
        }
        Ok(lazy) => lazy,
    };
    let typed_fields = typed_fields.unwrap_or_else(|e| {
        panic!("{bytes:02x?}: view_lazy opens, the typed view_lazy refuses: {e:?}")
    });
    // `Debug` reads every field on demand, never panics, and names each readable one.
    let debug = format!("{lazy:?}");
    assert!(debug.starts_with("Rec {") && debug.contains("id:") && !debug.contains("old:"));
    // Unknown and reserved names.
    for unknown in ["", "nope", "old", "Rec", "id ", "ID", "inner.x"] {
        assert_eq!(
            lazy.get(unknown).map_err(|e| key(&e)),
            Ok(None),
            "{unknown}"
        );
    }
    let readable: Vec<&str> = set
        .message(name)
        .unwrap()
        .fields
        .iter()
        .filter(|f| !f.reserved)
        .map(|f| f.name.as_ref())
        .collect();
    assert_eq!(
        readable,
        typed_fields.iter().map(|(n, _)| *n).collect::<Vec<_>>()
    );
    // Field by field, against the typed accessors.
    for (field, typed) in &typed_fields {
        let got = lazy.get(field).map(|v| {
            assert!(v.is_some(), "{field}");
        });
        assert_eq!(
            got.map_err(|e| key(&e)),
            typed.clone(),
            "{bytes:02x?}: field {field}"
        );
    }
    match &upfront {
        Ok(view) => {
            for field in &readable {
                let got = lazy.get(field).unwrap();
                assert_eq!(
                    format!("{got:?}"),
                    format!("{:?}", view.get(field)),
                    "{field}"
                );
            }
            assert_eq!(lazy.to_view().unwrap(), *view);
            assert_eq!(lazy.version(), view.version());
            for field in &readable {
                assert_eq!(lazy.has(field), view.has(field));
            }
            true
        }
        Err(expected) => {
            assert_eq!(
                lazy.to_view().map(|_| ()).map_err(|e| key(&e)),
                Err(key(expected))
            );
            let path = expected.path();
            let failing = path.split(['.', '[', ' ']).next().unwrap_or_default();
            match readable.iter().position(|f| *f == failing) {
                Some(at) => {
                    for field in &readable[..at] {
                        assert!(
                            lazy.get(field).is_ok(),
                            "{field} before {path}: {bytes:02x?}"
                        );
                    }
                    let err = lazy.get(failing).expect_err("the failing field reads");
                    assert_eq!(key(&err), key(expected), "{bytes:02x?}");
                }
                None => {
                    // The message as a whole, or a reserved field.
                    assert!(
                        failing.is_empty() || failing == "old",
                        "{path}: {bytes:02x?}"
                    );
                }
            }
            false
        }
    }
}

fn sets() -> (SchemaSet, SchemaSet) {
    (
        SchemaSet::of::<v1::Rec>().unwrap(),
        SchemaSet::of::<v2::Rec>().unwrap(),
    )
}

/// Both readers over `bytes`: returns how many accepted.
fn both(sets: &(SchemaSet, SchemaSet), bytes: &[u8]) -> usize {
    usize::from(check(&sets.0, bytes, 1)) + usize::from(check(&sets.1, bytes, 2))
}

#[test]
fn both_versions_read_both_writers() {
    let sets = sets();
    let b1 = rec1().to_bytes().unwrap();
    let b2 = rec2().to_bytes().unwrap();
    assert_eq!(both(&sets, &b1), 2);
    assert_eq!(both(&sets, &b2), 2);
    // v2 reading v1 bytes: the fields of version 2 read their defaults.
    let l = dynamic::view_lazy(&sets.1, "Rec", &b1).unwrap();
    assert_eq!(l.get("extra").unwrap(), Some(Value::Unsigned(42)));
    assert_eq!(l.get("tail2").unwrap(), Some(Value::Str("".into())));
    assert!(!l.has("extra"));
    assert_eq!(l.version(), 1);
    // v1 reading v2 bytes: the tail fields it knows, then nothing.
    let l = dynamic::view_lazy(&sets.0, "Rec", &b2).unwrap();
    assert_eq!(l.get("k").unwrap(), Some(Value::Unsigned(5)));
    assert_eq!(l.get("extra").unwrap(), None);
    assert_eq!(l.get("name").unwrap(), Some(Value::Str("nm".into())));
}

/// The block length set to every value from 0 to past the bytes, for both writers,
/// both readers: around the minimum (v1's block), inside the fields of version 2 and
/// past them.
#[test]
fn every_block_length() {
    let sets = sets();
    let mut accepted = 0;
    for bytes in [rec1().to_bytes().unwrap(), rec2().to_bytes().unwrap()] {
        for bl in 0..=(bytes.len() as u16 + 2) {
            let mut b = bytes.clone();
            b[..2].copy_from_slice(&bl.to_le_bytes());
            accepted += both(&sets, &b);
        }
        for bl in [0xFFFFu16, 0x8000] {
            let mut b = bytes.clone();
            b[..2].copy_from_slice(&bl.to_le_bytes());
            both(&sets, &b);
        }
    }
    assert!(accepted >= 4, "{accepted}");
}

/// A v2 message whose block is cut after a field of version 2 (the writer of a
/// version between): bytes built with v2's block length cut to each field boundary
/// and each byte inside the fields of version 2, the tail regions of the fields
/// left kept.
#[test]
fn blocks_cut_inside_and_between_fields_of_version_2() {
    let sets = sets();
    let schema = sets.1.message("Rec").unwrap();
    let full = rec2().to_bytes().unwrap();
    let block = usize::from(u16::from_le_bytes([full[0], full[1]]));
    let k = schema.fields.iter().find(|f| f.name == "k").unwrap();
    let v1_block = k.offset + k.size;
    for cut in v1_block..=block {
        let mut b = full.clone();
        b[..2].copy_from_slice(&(cut as u16).to_le_bytes());
        both(&sets, &b);
        // The block bytes removed: a writer whose block was that long, its tail
        // regions (of the fields in it) moved down. The offsets are then off by the
        // bytes removed: out of order, hostile.
        let mut short = full[..cut].to_vec();
        short[..2].copy_from_slice(&(cut as u16).to_le_bytes());
        short.extend_from_slice(&full[block..]);
        both(&sets, &short);
    }
}

/// Every end offset of every tail field of the root, and of the nested ones, set to
/// each value around every boundary (the block's end, each region's ends, the
/// bytes' end and past it, `u32::MAX`).
#[test]
fn hostile_end_offsets() {
    let sets = sets();
    for bytes in [rec1().to_bytes().unwrap(), rec2().to_bytes().unwrap()] {
        let len = bytes.len();
        let mut values: Vec<u32> = vec![0, 1, 2, 0xFFFF, 0x10000, u32::MAX, u32::MAX - 1];
        for n in 0..=len as u32 + 2 {
            values.push(n);
        }
        // Every 4-byte window of the block (the slots among them).
        let block = usize::from(u16::from_le_bytes([bytes[0], bytes[1]]));
        for at in 2..=block.saturating_sub(4) {
            for &v in &values {
                let mut b = bytes.clone();
                b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                both(&sets, &b);
            }
        }
    }
}

/// Every byte of both writers' bytes set to a few values, and every cut.
#[test]
fn every_byte_changed_and_every_cut() {
    let sets = sets();
    let mut accepted = 0;
    for bytes in [rec1().to_bytes().unwrap(), rec2().to_bytes().unwrap()] {
        for at in 0..bytes.len() {
            for v in [
                0x00,
                0x01,
                0x02,
                0x4C,
                0x49,
                0x4E,
                0x80,
                0xFF,
                bytes[at] ^ 1,
            ] {
                let mut b = bytes.clone();
                b[at] = v;
                accepted += both(&sets, &b);
            }
        }
        for cut in 0..=bytes.len() {
            both(&sets, &bytes[..cut]);
        }
        let mut longer = bytes.clone();
        longer.extend([0xEE; 9]);
        assert_eq!(both(&sets, &longer), 2);
    }
    assert!(accepted > 100, "{accepted}");
}

// --- reserved fields in the middle of the tail ----------------------------------------

mod r {
    use wiremsg::WireMsg;

    /// A reserved tail field between two readable ones, and a reserved fixed one.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Gap {
        pub(crate) a: String,
        #[wire(reserved)]
        pub(crate) gone: Vec<u32>,
        #[wire(reserved)]
        pub(crate) flag: u16,
        pub(crate) b: String,
    }
}

#[test]
fn a_reserved_tail_field_holds_data_or_hostile_offsets() {
    let set = SchemaSet::of::<r::Gap>().unwrap();
    let base = r::Gap {
        a: "aa".into(),
        gone: vec![1, 2],
        flag: 0,
        b: "bbb".into(),
    };
    // Writers write the reserved field's default: build one that holds data.
    let bytes = base.to_bytes().unwrap();
    let typed = |bytes: &[u8]| -> Fields {
        let l = r::Gap::view_lazy(bytes).map_err(|e| key(&e))?;
        Ok(vec![
            ("a", l.a().map(|_| ()).map_err(|e| key(&e))),
            ("b", l.b().map(|_| ()).map_err(|e| key(&e))),
        ])
    };
    let run = |b: &[u8]| {
        let upfront = dynamic::view(&set, "Gap", b);
        assert_eq!(
            upfront.as_ref().map(|_| ()).map_err(key),
            r::Gap::view(b).map(|_| ()).map_err(|e| key(&e))
        );
        let lazy = dynamic::view_lazy(&set, "Gap", b);
        match (lazy, typed(b)) {
            (Ok(l), Ok(fields)) => {
                assert_eq!(l.get("gone").map_err(|e| key(&e)), Ok(None));
                assert_eq!(l.get("flag").map_err(|e| key(&e)), Ok(None));
                for (f, t) in fields {
                    assert_eq!(l.get(f).map(|_| ()).map_err(|e| key(&e)), t, "{f} {b:02x?}");
                }
                if let Ok(view) = &upfront {
                    assert_eq!(l.to_view().unwrap(), *view);
                    assert_eq!(l.get("b").unwrap(), view.get("b"));
                }
            }
            (Err(e), Err(t)) => assert_eq!(key(&e), t),
            (a, b) => panic!(
                "{:?} {:?}",
                a.map(|_| ()).map_err(|e| key(&e)),
                b.map(|_| ())
            ),
        }
    };
    run(&bytes);
    for at in 0..bytes.len() {
        for v in [0u8, 1, 4, 8, 0x20, 0xFF, bytes[at].wrapping_add(1)] {
            let mut b = bytes.clone();
            b[at] = v;
            run(&b);
        }
    }
    // The reserved list's region not a list (5 bytes): view refuses it on `gone`; `a`
    // reads, and `b`, whose region starts at `gone`'s end, reads "bbb" in both.
    let l = dynamic::view_lazy(&set, "Gap", &bytes).unwrap();
    assert_eq!(l.get("b").unwrap(), Some(Value::Str("bbb".into())));
}

// --- deep nesting ---------------------------------------------------------------------

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Node {
    v: u8,
    next: Option<Box<Node>>,
    label: String,
}

fn chain(n: usize) -> Node {
    let mut node = Node {
        v: 0,
        next: None,
        label: "end".into(),
    };
    for i in 1..n {
        node = Node {
            v: i as u8,
            next: Some(Box::new(node)),
            label: format!("n{i}"),
        };
    }
    node
}

#[test]
fn deep_chains_around_the_nesting_limit() {
    let set = SchemaSet::of::<Node>().unwrap();
    for n in [1usize, 2, 63, 64, 65] {
        let Ok(bytes) = chain(n).to_bytes() else {
            continue;
        };
        let upfront = dynamic::view(&set, "Node", &bytes);
        let lazy = dynamic::view_lazy(&set, "Node", &bytes).unwrap();
        let typed = Node::view_lazy(&bytes).unwrap();
        let next_typed = typed
            .next()
            .and_then(|n| n.map(|n| n.to_view().map(|_| ())).transpose())
            .map(|_| ())
            .map_err(|e| key(&e));
        assert_eq!(
            lazy.get("next").map(|_| ()).map_err(|e| key(&e)),
            next_typed,
            "{n}"
        );
        let label = if n == 1 {
            "end".to_string()
        } else {
            format!("n{}", n - 1)
        };
        assert_eq!(lazy.get("label").unwrap(), Some(Value::Str(label.into())));
        match upfront {
            Ok(view) => assert_eq!(lazy.to_view().unwrap(), view),
            Err(e) => {
                assert_eq!(key(&lazy.get("next").unwrap_err()), key(&e));
                assert_eq!(key(&lazy.to_view().unwrap_err()), key(&e));
            }
        }
    }
}
