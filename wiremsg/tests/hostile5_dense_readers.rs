//! Hostile bytes against every reader of dense lists (FORMAT.md §6.8): crafted
//! headers (strides, entry counts, tables that are a prefix of the reader's, longer,
//! permuted, with duplicate or unknown tags, block lengths 0, under the payload's
//! version-1 block, inside a field, past the reader's), entry indexes at every edge,
//! for unions with u8, u16, u32 and u64 tags, read by the reader whose table it is,
//! an older one (a variant fewer) and a newer one (a `since = 2` variant more).
//!
//! Every reader must agree, element by element: `view` (and `decode`, and
//! `view_unchecked` of bytes `view` accepted), `view_lazy` + `LazyList`, `view_mut`
//! with `get_mut` and `iter_mut`, and the schema-driven `dynamic::view`,
//! `dynamic::view_lazy` and `dynamic::annotate`. The `same_table` fast path (a table
//! equal to the reader's own variants' tags, in order) dispatches on the entry
//! index: these tables are built so that a fast path taken wrongly would pick
//! another variant than the entry's tag.

// The owned unions are built and compared whole; their payloads are not read apart.
#![allow(dead_code)]

#[path = "common/xorshift.rs"]
mod xorshift;
use xorshift::XorShift as Rng;

use wiremsg::dynamic::{self, Value};
use wiremsg::{SchemaSet, WireMsg};

/// A union family: `Fill` (a payload whose `px` came in version 2: blocks 4 and 12
/// are versions, 5..=11 end inside `px`), a unit variant and a struct variant with a
/// `bool` (so that a payload can be invalid). `old` lacks `C`; `new` adds `N`
/// (`since = 2`, a 1-byte payload).
macro_rules! family {
    ($m:ident, $repr:ident, $th:literal, $tf:literal, $tc:literal, $tn:literal) => {
        mod $m {
            pub(crate) const TAG: usize = core::mem::size_of::<$repr>();
            /// The reader's tags in declaration order (`cur`).
            pub(crate) const TAGS: [u64; 3] = [$th, $tf, $tc];
            /// Tags no reader has.
            pub(crate) const NEW: u64 = $tn;

            pub(crate) mod cur {
                use wiremsg::{WireMsg, WireUnion};
                #[derive(WireMsg, Debug, PartialEq, Clone)]
                #[wire(version = 2)]
                pub(crate) struct Fill {
                    pub(crate) qty: u32,
                    #[wire(since = 2, default = -7)]
                    pub(crate) px: i64,
                }
                #[derive(WireUnion, Debug, PartialEq, Clone)]
                #[repr($repr)]
                pub(crate) enum E {
                    H = $th,
                    F(Fill) = $tf,
                    C { id: u16, flag: bool } = $tc,
                }
                #[derive(WireMsg, Debug, PartialEq, Clone)]
                pub(crate) struct Batch {
                    pub(crate) seq: u32,
                    pub(crate) events: Vec<E>,
                }
                super::super::readers!(Batch, E, EView, EMut, ELazy,
                    { EView::C(c) => format!("C({},{})", c.id(), c.flag()), },
                    { EMut::C(_) => "C", }, { ELazy::C(_) => "C", });
            }
            pub(crate) mod old {
                use wiremsg::{WireMsg, WireUnion};
                pub(crate) use super::cur::Fill;
                #[derive(WireUnion, Debug, PartialEq, Clone)]
                #[repr($repr)]
                pub(crate) enum E {
                    H = $th,
                    F(Fill) = $tf,
                }
                #[derive(WireMsg, Debug, PartialEq, Clone)]
                pub(crate) struct Batch {
                    pub(crate) seq: u32,
                    pub(crate) events: Vec<E>,
                }
                super::super::readers!(Batch, E, EView, EMut, ELazy, {}, {}, {});
            }
            pub(crate) mod new {
                use wiremsg::{WireMsg, WireUnion};
                pub(crate) use super::cur::Fill;
                #[derive(WireMsg, Debug, PartialEq, Clone)]
                pub(crate) struct N {
                    pub(crate) b: u8,
                }
                #[derive(WireUnion, Debug, PartialEq, Clone)]
                #[repr($repr)]
                #[wire(version = 2)]
                pub(crate) enum E {
                    H = $th,
                    F(Fill) = $tf,
                    C { id: u16, flag: bool } = $tc,
                    #[wire(since = 2)]
                    N(N) = $tn,
                }
                #[derive(WireMsg, Debug, PartialEq, Clone)]
                pub(crate) struct Batch {
                    pub(crate) seq: u32,
                    pub(crate) events: Vec<E>,
                }
                super::super::readers!(Batch, E, EView, EMut, ELazy,
                    { EView::C(c) => format!("C({},{})", c.id(), c.flag()), EView::N(n) => format!("N({})", n.b()), },
                    { EMut::C(_) => "C", EMut::N(_) => "N", }, { ELazy::C(_) => "C", ELazy::N(_) => "N", });
            }
        }
    };
}

/// One signature per element: the variant and its payload's fields.
macro_rules! sig {
    ($v:expr, $View:ident, { $($arms:tt)* }) => {
        match $v {
            $View::H => "H".to_string(),
            $View::F(f) => format!("F({},{},{})", f.qty(), f.px(), f.has_px()),
            $($arms)*
        }
    };
}

/// `check(bytes) -> Option<Vec<String>>`: every reader's elements, asserted equal;
/// `None` when the bytes are refused (by every reader alike).
macro_rules! readers {
    ($Batch:ident, $E:ident, $View:ident, $Mut:ident, $Lazy:ident,
     { $($varms:tt)* }, { $($marms:tt)* }, { $($larms:tt)* }) => {
        #[allow(dead_code)]
        pub(crate) fn check(set: &wiremsg::SchemaSet, bytes: &[u8]) -> Option<Vec<String>> {
            crate::check_all::<$Batch>(set, bytes, |bytes| {
                let view = match $Batch::view(bytes) {
                    Ok(view) => view,
                    Err(err) => {
                        // On demand: the list's header errors when the list is
                        // opened, an element's when it is read, as up front.
                        let text = err.to_string();
                        let lazy = $Batch::view_lazy(bytes).ok()?;
                        let list = match lazy.events() {
                            Ok(list) => list,
                            Err(lazy_err) => {
                                assert_eq!(lazy_err.to_string(), text, "lazy list open");
                                return None;
                            }
                        };
                        let path = err.path().to_string();
                        if let Some(j) = path
                            .strip_prefix("events[")
                            .and_then(|r| r.split(']').next())
                            .and_then(|j| j.parse::<usize>().ok())
                        {
                            match list.get(j) {
                                Some(Err(lazy_err)) => {
                                    assert_eq!(lazy_err.to_string(), text, "lazy element {j}")
                                }
                                // A block that ends inside `px`: the on-demand view
                                // fails when `px` is read, with the error of `view`.
                                Some(Ok($Lazy::F(f))) => {
                                    f.qty().expect("qty is in version 1's block");
                                    let e = f.px().expect_err("view refused, px read");
                                    assert_eq!(e.to_string(), text, "lazy px of {j}");
                                }
                                _ => {}
                            }
                            // The elements before it read on demand.
                            for i in 0..j {
                                list.get(i).unwrap().unwrap_or_else(|e| {
                                    panic!("lazy element {i} before the error at {j}: {e}")
                                });
                            }
                        } else if path == "events" {
                            panic!("a header error up front ({text}) opened on demand");
                        }
                        return None;
                    }
                };
                let events = view.events();
                let typed: Vec<String> = events.iter().map(|e| sig!(e, $View, { $($varms)* })).collect();
                // `get` at every index, and past the end.
                for (i, s) in typed.iter().enumerate() {
                    assert_eq!(&sig!(events.get(i).unwrap(), $View, { $($varms)* }), s, "get({i})");
                }
                assert!(events.get(typed.len()).is_none());
                assert_eq!(events.len(), typed.len());
                // decode, and the view's decode.
                let decoded = $Batch::decode(bytes).expect("view accepted, decode refused");
                assert_eq!(decoded, view.decode(), "decode vs view.decode");
                assert_eq!(decoded.events.len(), typed.len());
                // SAFETY: `view` accepted these bytes just above.
                let unchecked = unsafe { $Batch::view_unchecked(bytes) };
                let u: Vec<String> = unchecked.events().iter().map(|e| sig!(e, $View, { $($varms)* })).collect();
                assert_eq!(u, typed, "view_unchecked");
                // on demand: each element, and the list's to_view.
                let lazy = $Batch::view_lazy(bytes).expect("view accepted, view_lazy refused");
                let list = lazy.events().expect("view accepted, lazy list refused");
                assert_eq!(list.len(), typed.len());
                for (i, e) in list.iter().enumerate() {
                    let e = e.unwrap_or_else(|err| panic!("lazy element {i}: {err}"));
                    let name = match e {
                        $Lazy::H => "H",
                        $Lazy::F(_) => "F",
                        $($larms)*
                    };
                    assert!(typed[i].starts_with(name), "lazy {i}: {name} vs {}", typed[i]);
                }
                assert!(list.get(typed.len()).is_none());
                assert_eq!(list.to_view().expect("lazy to_view"), events);
                // mutable: get_mut and iter_mut name the same variants.
                let mut owned = bytes.to_vec();
                let mut m = $Batch::view_mut(&mut owned).expect("view accepted, view_mut refused");
                let mut evm = m.events_mut();
                let names = |e: &$Mut<'_>| match e {
                    $Mut::H => "H",
                    $Mut::F(_) => "F",
                    $($marms)*
                };
                let by_iter: Vec<&str> = evm.iter_mut().map(|e| names(&e)).collect();
                let by_get: Vec<&str> =
                    (0..typed.len()).map(|i| names(&evm.get_mut(i).unwrap())).collect();
                assert!(evm.get_mut(typed.len()).is_none());
                let want: Vec<&str> = typed.iter().map(|s| &s[..1]).collect();
                assert_eq!(by_iter, want, "iter_mut");
                assert_eq!(by_get, want, "get_mut");
                Some(typed)
            })
        }
    };
}
pub(crate) use readers;

/// The dynamic reader's signature of an element.
fn dyn_sig(v: &Value<'_>) -> String {
    let Value::Union(u) = v else {
        panic!("not a union: {v:?}")
    };
    let name = u.name().expect("a known variant");
    let p = u.payload();
    let field = |m: &Value<'_>, f: &str| -> String {
        match m.as_message().and_then(|m| m.get(f)) {
            Some(Value::Unsigned(x)) => x.to_string(),
            Some(Value::Signed(x)) => x.to_string(),
            Some(Value::Bool(b)) => b.to_string(),
            other => format!("{other:?}"),
        }
    };
    match name {
        "H" => "H".into(),
        "F" => {
            let has = !matches!(
                p.as_message().and_then(|m| m.get("px")),
                Some(Value::Absent)
            ) && p.as_message().is_some_and(|m| m.as_bytes().len() > 4);
            format!("F({},{},{})", field(&p, "qty"), field(&p, "px"), has)
        }
        "C" => format!("C({},{})", field(&p, "id"), field(&p, "flag")),
        "N" => format!("N({})", field(&p, "b")),
        other => panic!("{other}"),
    }
}

/// Runs the typed readers (`typed`), then the schema-driven ones, and compares.
fn check_all<T: WireMsg + for<'v> wiremsg::DecodeField<'v>>(
    set: &SchemaSet,
    bytes: &[u8],
    typed: impl FnOnce(&[u8]) -> Option<Vec<String>>,
) -> Option<Vec<String>> {
    let name = T::SCHEMA.name.as_ref();
    let typed_err = T::view(bytes).err();
    let got = typed(bytes);
    assert_eq!(got.is_some(), typed_err.is_none());
    // decode and view_lazy-to-the-end refuse what view refuses.
    if let Some(err) = &typed_err {
        assert!(
            T::decode(bytes).is_err(),
            "view refused ({err}), decode accepted"
        );
        let mut owned = bytes.to_vec();
        assert!(
            T::view_mut(&mut owned).is_err(),
            "view refused ({err}), view_mut accepted"
        );
    }
    let dynv = dynamic::view(set, name, bytes);
    let ann = dynamic::annotate(set, name, bytes, false);
    match (&typed_err, &dynv) {
        (None, Ok(v)) => {
            assert!(ann.error().is_none(), "annotate: {:?}", ann.error());
            let list = v.get("events").expect("events");
            let list = list.as_list().expect("a list");
            let d: Vec<String> = list.iter().map(|e| dyn_sig(&e)).collect();
            let want = got.as_ref().unwrap();
            // The dynamic reader has no `has_px`: compare it from its block.
            let strip = |s: &String| s.clone();
            assert_eq!(
                d.iter().map(strip).collect::<Vec<_>>(),
                *want,
                "dynamic::view"
            );
            // dynamic on demand.
            let dl = dynamic::view_lazy(set, name, bytes).expect("dynamic lazy");
            let l = dl
                .get("events")
                .expect("lazy events ok")
                .expect("lazy events");
            let l = l.as_list().expect("lazy list");
            let d2: Vec<String> = l.iter().map(|e| dyn_sig(&e)).collect();
            assert_eq!(&d2, want, "dynamic::view_lazy");
        }
        (Some(t), Err(d)) => {
            assert_eq!(t.to_string(), d.to_string(), "typed vs dynamic error");
            let a = ann.error().expect("annotate accepted what view refused");
            assert_eq!(t.to_string(), a.to_string(), "typed vs annotate error");
            // The schema-driven on-demand view checks the field whole when read.
            if let Ok(dl) = dynamic::view_lazy(set, name, bytes) {
                let seq = dl.get("seq");
                let events = dl.get("events");
                if t.path().starts_with("events") {
                    assert!(seq.is_ok());
                    let e = events.expect_err("dynamic lazy read a list view refused");
                    assert_eq!(e.to_string(), t.to_string(), "dynamic lazy error");
                }
                assert_eq!(dl.to_view().unwrap_err().to_string(), t.to_string());
            }
        }
        (t, d) => panic!("typed {t:?} vs dynamic {:?}", d.as_ref().err()),
    }
    got
}

family!(u8s, u8, 0, 1, 5, 9);
family!(u16s, u16, 7, 300, 2, 301);
family!(u32s, u32, 70000, 3, 1, 4);
family!(u64s, u64, 1, 0, 0x1_0000_0000_0001, 0xffff_ffff_ffff_fff0);

/// A `Batch` whose list region is `region`.
fn batch(region: &[u8]) -> Vec<u8> {
    let mut out = vec![10, 0, 1, 0, 0, 0];
    out.extend_from_slice(&((10 + region.len()) as u32).to_le_bytes());
    out.extend_from_slice(region);
    out
}

fn le(v: u64, size: usize) -> Vec<u8> {
    v.to_le_bytes()[..size].to_vec()
}

/// A hostile dense region for tag size `tag`, from `tags` (the readers' and others).
fn region(r: &mut Rng, tag: usize, tags: &[u64]) -> Vec<u8> {
    let entries = r.pick(&[0usize, 1, 2, 3, 3, 3, 4, 5]);
    let mut table: Vec<(u64, u16)> = Vec::new();
    for k in 0..entries {
        let t = match r.below(6) {
            // The reader's tag at this place (the fast path's table), often.
            0..=2 => tags.get(k).copied().unwrap_or(tags[0]),
            3 => r.pick(tags),
            4 => tags[(k + 1) % tags.len()],
            _ => {
                r.next()
                    & if tag == 8 {
                        u64::MAX
                    } else {
                        (1u64 << (8 * tag)) - 1
                    }
            }
        };
        let natural = |t: u64| -> u16 {
            if t == tags[1] {
                12
            } else if t == tags[2] {
                3
            } else if t == tags.get(3).copied().unwrap_or(u64::MAX) {
                1
            } else {
                0
            }
        };
        let b = match r.below(5) {
            0 | 1 => natural(t),
            2 => r.pick(&[0, 1, 3, 4, 5, 11, 12, 13, 20]),
            3 => r.pick(&[4, 12]),
            _ => r.below(16) as u16,
        };
        table.push((t, b));
    }
    let max_b = table.iter().map(|e| e.1 as usize).max().unwrap_or(0);
    let stride = match r.below(6) {
        0 => r.below(24) as usize,
        1 => tag + max_b + r.below(4) as usize,
        _ => tag + max_b,
    };
    let mut out = Vec::new();
    out.extend_from_slice(&(stride as u16).to_le_bytes());
    out.extend_from_slice(&(entries as u16).to_le_bytes());
    for (t, b) in &table {
        out.extend(le(*t, tag));
        out.extend_from_slice(&b.to_le_bytes());
    }
    let count = r.below(5) as usize;
    for _ in 0..count {
        let k = match r.below(10) {
            0 => entries as u64,
            1 => r.next(),
            _ => r.below(entries.max(1) as u64),
        };
        let mut el = le(k, tag);
        for _ in tag..stride {
            el.push(match r.below(4) {
                0 => r.next() as u8,
                1 => 1,
                _ => 0,
            });
        }
        el.truncate(stride);
        out.extend(el);
    }
    if r.below(12) == 0 {
        out.truncate(r.below(out.len() as u64 + 1) as usize);
    }
    if r.below(12) == 0 {
        out.push(r.next() as u8);
    }
    out
}

macro_rules! fuzz {
    ($name:ident, $m:ident, $seed:literal) => {
        #[test]
        fn $name() {
            use $m::*;
            let sets = [
                SchemaSet::of::<cur::Batch>().unwrap(),
                SchemaSet::of::<old::Batch>().unwrap(),
                SchemaSet::of::<new::Batch>().unwrap(),
            ];
            let tags = [TAGS[0], TAGS[1], TAGS[2], NEW];
            let mut r = Rng($seed);
            let (mut ok, mut total) = (0, 0);
            for _ in 0..iters() {
                let bytes = batch(&region(&mut r, TAG, &tags));
                total += 1;
                let a = cur::check(&sets[0], &bytes);
                let b = old::check(&sets[1], &bytes);
                let c = new::check(&sets[2], &bytes);
                // A newer reader reads whatever an older one reads, alike.
                if let Some(b) = &b {
                    assert_eq!(a.as_ref(), Some(b), "old vs cur: {bytes:02x?}");
                }
                if let Some(a) = &a {
                    assert_eq!(c.as_ref(), Some(a), "cur vs new: {bytes:02x?}");
                    ok += 1;
                }
            }
            eprintln!("{ok} of {total} accepted");
            assert!(ok * 30 > total, "{ok} of {total}");
        }
    };
}

fuzz!(hostile_tables_u8, u8s, 0x9e3779b97f4a7c15);
fuzz!(hostile_tables_u16, u16s, 0x2545f4914f6cdd1d);
fuzz!(hostile_tables_u32, u32s, 0x1234_5678_9abc_def1);
fuzz!(hostile_tables_u64, u64s, 0xdead_beef_cafe_f00d);

/// Cases per fuzz test (`HOSTILE5_ITERS` for a longer run).
fn iters() -> usize {
    std::env::var("HOSTILE5_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6000)
}
