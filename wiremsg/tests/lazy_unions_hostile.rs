//! Hostile review of the on-demand read of unions by a table of the variants' headers
//! (`union::lazy_union`, `VariantList::HEADERS`, `LazyMsg::from_header`).
//!
//! The contract: for every input, a union field (or a list element of unions) read on
//! demand gives the value the up-front view gives when the message is valid, and the
//! error `view` reports (kind, offset, path) when up-front validation refuses a region
//! on that field's path; never a panic. These tests run in debug builds, where
//! `from_header`'s `debug_assert_eq!` compares the table's block length with
//! `block_header`'s: a table that disagreed with a variant's header would panic here.
//!
//! Covered: unions with and without a catch-all; tags at 0, 15, 16 and large; `u8`,
//! `u16`, `u32` and `u64` tags; unit, tuple-message, boxed and struct variants;
//! payload messages with a block length on the wire (`#[wire(block_length)]`, a
//! tail) and without (fixed, empty); block lengths 0, 1, min-1, min, len, len+1 and
//! past the payload; truncated tags and payloads; older and newer writers of the
//! payloads and of the union; unions nested in unions up to and past
//! `MAX_DEPTH`; unions with lifetimes; unions inside elements of a split list; and
//! hand-written (safe) impls of the `#[doc(hidden)]` union traits with duplicate
//! tags (which the derive refuses: `tests/ui/union-duplicate-tags.rs`), per-union
//! constants on shared markers, and tags out of the tag type's range.
//!
//! The table held everywhere. Found, not from the union change, and fixed: an
//! element of a table list (unions, text) read alone with `get(i)` checked its
//! offset-table entry against the table's end instead of entry `i - 1`, as up-front
//! validation does, so it could read a region overlapping the element before
//! (`a_table_element_read_alone_*`).

#[path = "common/handmade.rs"]
mod handmade;

use handmade::{Part, message, table, union};
use proptest::prelude::*;
use std::fmt::Debug;
use wiremsg::{DecodeField, Error, ErrorKind, MAX_DEPTH, WireMsg, WireUnion};

/// What an error reports: kind, offset and path.
fn parts(err: &Error) -> (String, usize, String) {
    (format!("{:?}", err.kind()), err.offset(), err.path())
}

// ---------------------------------------------------------------------------------
// Payload messages: each way a payload's header is checked.
// ---------------------------------------------------------------------------------

/// No block length on the wire: the payload is the block (min 6).
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Fix {
    a: u32,
    b: u16,
}

/// Block length on the wire without a tail (min 2 + 10 = 12).
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(block_length)]
struct Pre {
    at: u64,
    seq: u16,
}

/// A tail: block length on the wire (min 2 + 1 + 4 = 7).
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Tl {
    n: u8,
    s: String,
}

/// No fields, no block length: every payload passes (min 0, size 0).
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Nothing {}

/// No fields, block length on the wire (min 2).
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(block_length)]
struct NothingPre {}

fn fix(l: FixLazy<'_>) -> Result<Fix, Error> {
    Ok(Fix {
        a: l.a()?,
        b: l.b()?,
    })
}

fn pre(l: PreLazy<'_>) -> Result<Pre, Error> {
    Ok(Pre {
        at: l.at()?,
        seq: l.seq()?,
    })
}

fn tl(l: TlLazy<'_>) -> Result<Tl, Error> {
    Ok(Tl {
        n: l.n()?,
        s: l.s()?.into(),
    })
}

// ---------------------------------------------------------------------------------
// Unions.
// ---------------------------------------------------------------------------------

/// Dense (every tag in the table's 64-tag window from the least, 0; no catch-all):
/// read by the table. Tags out of order, gaps 9-14, one payload type under two tags.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum D8 {
    Last(Fix) = 15,
    Unit = 0,
    Fix(Fix) = 1,
    Pre(Pre) = 2,
    Tl(Tl) = 3,
    Named { x: i16, s: String } = 4,
    Flat { x: u8 } = 5,
    Nothing(Nothing) = 6,
    Boxed(Box<Pre>) = 7,
    NothingPre(NothingPre) = 8,
}

fn d8(u: D8Lazy<'_>) -> Result<D8, Error> {
    Ok(match u {
        D8Lazy::Last(l) => D8::Last(fix(l)?),
        D8Lazy::Unit => D8::Unit,
        D8Lazy::Fix(l) => D8::Fix(fix(l)?),
        D8Lazy::Pre(l) => D8::Pre(pre(l)?),
        D8Lazy::Tl(l) => D8::Tl(tl(l)?),
        D8Lazy::Named(l) => D8::Named {
            x: l.x()?,
            s: l.s()?.into(),
        },
        D8Lazy::Flat(l) => D8::Flat { x: l.x()? },
        D8Lazy::Nothing(_) => D8::Nothing(Nothing {}),
        D8Lazy::Boxed(l) => D8::Boxed(Box::new(pre(l)?)),
        D8Lazy::NothingPre(_) => D8::NothingPre(NothingPre {}),
    })
}

/// The same payloads with one tag past the window (300): no table (the dispatch
/// alone), as a reference for `D8`.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
enum S16 {
    Unit = 0,
    Fix(Fix) = 1,
    Pre(Pre) = 16,
    Tl(Tl) = 300,
    Last(Fix) = 15,
}

fn s16(u: S16Lazy<'_>) -> Result<S16, Error> {
    Ok(match u {
        S16Lazy::Unit => S16::Unit,
        S16Lazy::Fix(l) => S16::Fix(fix(l)?),
        S16Lazy::Pre(l) => S16::Pre(pre(l)?),
        S16Lazy::Tl(l) => S16::Tl(tl(l)?),
        S16Lazy::Last(l) => S16::Last(fix(l)?),
    })
}

/// Dense with a `u32` tag.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u32)]
enum D32 {
    Pre(Pre) = 15,
    Fix(Fix) = 7,
    Unit = 0,
}

fn d32(u: D32Lazy<'_>) -> Result<D32, Error> {
    Ok(match u {
        D32Lazy::Pre(l) => D32::Pre(pre(l)?),
        D32Lazy::Fix(l) => D32::Fix(fix(l)?),
        D32Lazy::Unit => D32::Unit,
    })
}

/// Dense with a `u64` tag: hostile tags past `u32` must not alias a slot.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u64)]
enum D64 {
    Fix(Fix) = 3,
    Unit = 0,
    Tl(Tl) = 1,
}

fn d64(u: D64Lazy<'_>) -> Result<D64, Error> {
    Ok(match u {
        D64Lazy::Fix(l) => D64::Fix(fix(l)?),
        D64Lazy::Unit => D64::Unit,
        D64Lazy::Tl(l) => D64::Tl(tl(l)?),
    })
}

/// A `u64` tag at its largest: no table.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u64)]
enum S64 {
    Fix(Fix) = 0,
    Big(Pre) = u64::MAX,
}

fn s64(u: S64Lazy<'_>) -> Result<S64, Error> {
    Ok(match u {
        S64Lazy::Fix(l) => S64::Fix(fix(l)?),
        S64Lazy::Big(l) => S64::Big(pre(l)?),
    })
}

/// A catch-all: no table.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum O8 {
    Unit = 0,
    Fix(Fix) = 1,
    Pre(Pre) = 2,
    #[wire(other)]
    Other {
        tag: u8,
        bytes: Vec<u8>,
    },
}

fn o8(u: O8Lazy<'_>) -> Result<O8, Error> {
    Ok(match u {
        O8Lazy::Unit => O8::Unit,
        O8Lazy::Fix(l) => O8::Fix(fix(l)?),
        O8Lazy::Pre(l) => O8::Pre(pre(l)?),
        O8Lazy::Other { tag, bytes } => O8::Other {
            tag,
            bytes: bytes.to_vec(),
        },
    })
}

/// Unit variants alone (one at 15): the table of a union that holds no borrow.
#[derive(WireUnion, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Units {
    A = 0,
    B = 15,
}

fn units(u: UnitsLazy<'_>) -> Result<Units, Error> {
    Ok(match u {
        UnitsLazy::A => Units::A,
        UnitsLazy::B => Units::B,
        #[allow(unreachable_patterns)]
        _ => unreachable!(),
    })
}

/// A protocol's own kind bytes as tags (ITCH's letters): the window starts at the
/// least tag, `b'A'`, and ends at its last slot, `0x80` (`b'A' + 63`).
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum K8 {
    Add(Fix) = b'A',
    Pre(Pre) = b'E',
    Tl(Tl) = b'h',
    Unit = b'P',
    Edge(Fix) = 0x80,
}

fn k8(u: K8Lazy<'_>) -> Result<K8, Error> {
    Ok(match u {
        K8Lazy::Add(l) => K8::Add(fix(l)?),
        K8Lazy::Pre(l) => K8::Pre(pre(l)?),
        K8Lazy::Tl(l) => K8::Tl(tl(l)?),
        K8Lazy::Unit => K8::Unit,
        K8Lazy::Edge(l) => K8::Edge(fix(l)?),
    })
}

/// Tags 65 apart, one past the window: no table.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum W8 {
    Fix(Fix) = 0x10,
    Pre(Pre) = 0x51,
}

fn w8(u: W8Lazy<'_>) -> Result<W8, Error> {
    Ok(match u {
        W8Lazy::Fix(l) => W8::Fix(fix(l)?),
        W8Lazy::Pre(l) => W8::Pre(pre(l)?),
    })
}

/// A window at the top of `u64`: tags below the least wrap past the window.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u64)]
enum H64 {
    Fix(Fix) = u64::MAX - 10,
    Pre(Pre) = u64::MAX,
}

fn h64(u: H64Lazy<'_>) -> Result<H64, Error> {
    Ok(match u {
        H64Lazy::Fix(l) => H64::Fix(fix(l)?),
        H64Lazy::Pre(l) => H64::Pre(pre(l)?),
    })
}

/// A union with a lifetime.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Lt<'a> {
    S { s: &'a str, n: u16 } = 0,
    F(Fix) = 1,
}

fn lt<'a>(u: LtLazy<'a>) -> Result<Lt<'a>, Error> {
    Ok(match u {
        LtLazy::S(l) => Lt::S {
            s: l.s()?,
            n: l.n()?,
        },
        LtLazy::F(l) => Lt::F(fix(l)?),
    })
}

// ---------------------------------------------------------------------------------
// Holders: a union field, a list of unions, an optional union.
// ---------------------------------------------------------------------------------

macro_rules! holder {
    ($holder:ident, $lazy:ident, $u:ty, $read:ident, $read_h:ident) => {
        #[derive(WireMsg, Debug, Clone, PartialEq)]
        struct $holder {
            id: u32,
            u: $u,
            us: Vec<$u>,
            o: Option<$u>,
        }

        #[allow(dead_code)]
        fn $read_h(h: $lazy<'_>) -> Result<$holder, Error> {
            Ok($holder {
                id: h.id()?,
                u: $read(h.u()?)?,
                us: h
                    .us()?
                    .iter()
                    .map(|u| $read(u?))
                    .collect::<Result<_, _>>()?,
                o: h.o()?.map($read).transpose()?,
            })
        }

        impl Holder for $holder {
            fn read_u(l: &Self::Lazy<'_>) -> Result<Option<String>, Error> {
                Ok(Some(format!("{:?}", $read(l.u()?)?)))
            }
            fn read_us(l: &Self::Lazy<'_>, i: usize) -> Result<Option<String>, Error> {
                match l.us()?.get(i) {
                    Some(u) => Ok(Some(format!("{:?}", $read(u?)?))),
                    None => Ok(None),
                }
            }
            fn read_o(l: &Self::Lazy<'_>) -> Result<Option<String>, Error> {
                Ok(l.o()?.map($read).transpose()?.map(|u| format!("{u:?}")))
            }
            fn owned_u(&self) -> Option<String> {
                Some(format!("{:?}", self.u))
            }
            fn owned_us(&self, i: usize) -> Option<String> {
                self.us.get(i).map(|u| format!("{u:?}"))
            }
            fn owned_o(&self) -> Option<String> {
                self.o.as_ref().map(|u| format!("{u:?}"))
            }
        }
    };
}

/// Field by field reads of a holder, as strings of the owned values, so that one
/// checker serves every union.
trait Holder: WireMsg + for<'a> DecodeField<'a> + PartialEq + Debug {
    fn read_u(l: &Self::Lazy<'_>) -> Result<Option<String>, Error>;
    fn read_us(l: &Self::Lazy<'_>, i: usize) -> Result<Option<String>, Error>;
    fn read_o(l: &Self::Lazy<'_>) -> Result<Option<String>, Error>;
    fn owned_u(&self) -> Option<String>;
    fn owned_us(&self, i: usize) -> Option<String>;
    fn owned_o(&self) -> Option<String>;
}

holder!(HD8, HD8Lazy, D8, d8, read_hd8);
holder!(HS16, HS16Lazy, S16, s16, read_hs16);
holder!(HD32, HD32Lazy, D32, d32, read_hd32);
holder!(HD64, HD64Lazy, D64, d64, read_hd64);
holder!(HS64, HS64Lazy, S64, s64, read_hs64);
holder!(HO8, HO8Lazy, O8, o8, read_ho8);
holder!(HUnits, HUnitsLazy, Units, units, read_hunits);
holder!(HK8, HK8Lazy, K8, k8, read_hk8);

/// A union field read alone, as the `Debug` text of its owned value (`None`: an
/// absent option or an index past the list).
type FieldRead = Result<Option<String>, Error>;

/// True if `path` (an error's) is on `field`'s: the field itself or inside it.
fn on_path(path: &str, field: &str) -> bool {
    path == field
        || path
            .strip_prefix(field)
            .is_some_and(|rest| rest.starts_with('.') || rest.starts_with(' '))
}

/// `bad` read whole on demand (`read`, every field in order) and up front: the same
/// value or the same error. Then each union field alone (`u`, each element of `us`,
/// `o`): the value `decode` gives where `view` accepts; `view`'s error where `view`
/// refuses a region on that field's path; a value where `view`'s first error is
/// after it in the walk (`u`, the first tail field, has nothing before it that can
/// fail but the header).
fn agree<H: Holder>(
    bad: &[u8],
    read: impl for<'v> Fn(H::Lazy<'v>) -> Result<H, Error>,
) -> Result<(), String> {
    let upfront = H::view(bad).map(|_| ());
    let whole = H::view_lazy(bad).and_then(read);
    match (&upfront, &whole) {
        (Ok(()), Ok(value)) => {
            let decoded = H::decode(bad).map_err(|e| format!("decode: {e:?}"))?;
            if &decoded != value {
                return Err(format!("decode {decoded:?} != on demand {value:?}"));
            }
        }
        (Err(expected), Err(err)) => {
            if parts(err) != parts(expected) {
                return Err(format!(
                    "view: {:?}, on demand: {:?}",
                    parts(expected),
                    parts(err)
                ));
            }
        }
        _ => {
            return Err(format!(
                "view: {:?}, on demand: {:?}",
                upfront.as_ref().err().map(parts),
                whole.as_ref().err().map(parts)
            ));
        }
    }
    let lazy = match H::view_lazy(bad) {
        Ok(lazy) => lazy,
        Err(_) => return Ok(()), // the header: compared above
    };
    let decoded = upfront.as_ref().ok().map(|_| H::decode(bad).unwrap());
    // The list's length: the first index past it (a broken list header: none).
    let count = (0..64)
        .find(|&i| matches!(H::read_us(&lazy, i), Ok(None)))
        .unwrap_or(0);
    // Each field: its name, its read alone, and the decoded value's (if `view`
    // accepts the bytes).
    let mut fields: Vec<(String, FieldRead, Option<Option<String>>)> = Vec::new();
    fields.push((
        "u".into(),
        H::read_u(&lazy),
        decoded.as_ref().map(|d| d.owned_u()),
    ));
    for i in 0..count.max(1) {
        fields.push((
            format!("us[{i}]"),
            H::read_us(&lazy, i),
            decoded.as_ref().map(|d| d.owned_us(i)),
        ));
    }
    fields.push((
        "o".into(),
        H::read_o(&lazy),
        decoded.as_ref().map(|d| d.owned_o()),
    ));
    for (name, got, want) in fields {
        match (&upfront, got) {
            (Ok(()), Ok(got)) => {
                if Some(&got) != want.as_ref() {
                    return Err(format!("{name}: decode {want:?} != on demand {got:?}"));
                }
            }
            (Ok(()), Err(err)) => {
                return Err(format!("{name}: view accepts, on demand {:?}", parts(&err)));
            }
            (Err(expected), got) => {
                let path = expected.path();
                // A list header's error is on every element's path.
                let on = on_path(&path, &name)
                    || (name.starts_with("us[") && (path == "us" || path.starts_with("us ")));
                // A table entry out of order or range on element `i`'s own path: read
                // alone, the element checks its entry against the table's end, not
                // entry `i - 1` (a separate bug, not the unions': see
                // `a_table_element_read_alone_*` below). The whole read in order,
                // above, compares these too.
                let table_entry = name.starts_with("us[")
                    && path == name
                    && matches!(expected.kind(), ErrorKind::OffsetOutOfRange { .. });
                let on = on && !table_entry;
                match got {
                    Err(err) if on && parts(&err) != parts(expected) => {
                        return Err(format!(
                            "{name}: view {:?}, on demand {:?}",
                            parts(expected),
                            parts(&err)
                        ));
                    }
                    Ok(v) if on => {
                        return Err(format!(
                            "{name}: view refuses it with {:?}, on demand {v:?}",
                            parts(expected)
                        ));
                    }
                    Err(err) if !on && name == "u" => {
                        return Err(format!(
                            "u: view's first error {:?} is elsewhere, on demand {:?}",
                            parts(expected),
                            parts(&err)
                        ));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// A changed copy of `bytes`: each `(index, value)` overwrites a byte, positions
/// taken modulo the length.
fn changed(bytes: &[u8], changes: &[(usize, u8)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for &(at, value) in changes {
        let len = out.len();
        out[at % len] = value;
    }
    out
}

macro_rules! union_agrees {
    ($u:ty, $read:path, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let upfront = <$u>::view(bytes).map(|_| ());
        let on_demand = <$u>::view_lazy(bytes).and_then($read);
        let result: Result<$u, Error> = match (upfront, on_demand) {
            (Ok(()), Ok(value)) => {
                assert_eq!(<$u>::decode(bytes).unwrap(), value, "{bytes:?}");
                Ok(value)
            }
            (Err(expected), Err(err)) => {
                assert_eq!(parts(&err), parts(&expected), "{bytes:?}");
                Err(err)
            }
            (upfront, on_demand) => panic!(
                "{bytes:?}: view {:?}, on demand {:?}",
                upfront.err().map(|e| parts(&e)),
                on_demand.err().map(|e| parts(&e))
            ),
        };
        result
    }};
}

// ---------------------------------------------------------------------------------
// Values.
// ---------------------------------------------------------------------------------

fn sample_fix() -> Fix {
    Fix {
        a: 0xA1A2_A3A4,
        b: 0xB1B2,
    }
}

fn sample_pre() -> Pre {
    Pre {
        at: 0x0102_0304_0506_0708,
        seq: 0x0A0B,
    }
}

fn every_d8() -> Vec<D8> {
    vec![
        D8::Last(sample_fix()),
        D8::Unit,
        D8::Fix(Fix { a: 1, b: 2 }),
        D8::Pre(sample_pre()),
        D8::Tl(Tl {
            n: 9,
            s: "tail".into(),
        }),
        D8::Named {
            x: -3,
            s: "nm".into(),
        },
        D8::Flat { x: 0xEE },
        D8::Nothing(Nothing {}),
        D8::Boxed(Box::new(Pre { at: 5, seq: 6 })),
        D8::NothingPre(NothingPre {}),
    ]
}

fn arb_fix() -> impl Strategy<Value = Fix> {
    (any::<u32>(), any::<u16>()).prop_map(|(a, b)| Fix { a, b })
}

fn arb_pre() -> impl Strategy<Value = Pre> {
    (any::<u64>(), any::<u16>()).prop_map(|(at, seq)| Pre { at, seq })
}

fn arb_tl() -> impl Strategy<Value = Tl> {
    (any::<u8>(), "[a-z]{0,4}").prop_map(|(n, s)| Tl { n, s })
}

fn arb_d8() -> impl Strategy<Value = D8> {
    prop_oneof![
        arb_fix().prop_map(D8::Last),
        Just(D8::Unit),
        arb_fix().prop_map(D8::Fix),
        arb_pre().prop_map(D8::Pre),
        arb_tl().prop_map(D8::Tl),
        (any::<i16>(), "[a-z]{0,3}").prop_map(|(x, s)| D8::Named { x, s }),
        any::<u8>().prop_map(|x| D8::Flat { x }),
        Just(D8::Nothing(Nothing {})),
        arb_pre().prop_map(|p| D8::Boxed(Box::new(p))),
        Just(D8::NothingPre(NothingPre {})),
    ]
}

fn arb_k8() -> impl Strategy<Value = K8> {
    prop_oneof![
        arb_fix().prop_map(K8::Add),
        arb_pre().prop_map(K8::Pre),
        arb_tl().prop_map(K8::Tl),
        Just(K8::Unit),
        arb_fix().prop_map(K8::Edge),
    ]
}

fn arb_s16() -> impl Strategy<Value = S16> {
    prop_oneof![
        Just(S16::Unit),
        arb_fix().prop_map(S16::Fix),
        arb_pre().prop_map(S16::Pre),
        arb_tl().prop_map(S16::Tl),
        arb_fix().prop_map(S16::Last),
    ]
}

fn arb_d32() -> impl Strategy<Value = D32> {
    prop_oneof![
        arb_pre().prop_map(D32::Pre),
        arb_fix().prop_map(D32::Fix),
        Just(D32::Unit),
    ]
}

fn arb_d64() -> impl Strategy<Value = D64> {
    prop_oneof![
        arb_fix().prop_map(D64::Fix),
        Just(D64::Unit),
        arb_tl().prop_map(D64::Tl),
    ]
}

fn arb_o8() -> impl Strategy<Value = O8> {
    prop_oneof![
        Just(O8::Unit),
        arb_fix().prop_map(O8::Fix),
        arb_pre().prop_map(O8::Pre),
        (3u8..=255, prop::collection::vec(any::<u8>(), 0..14))
            .prop_map(|(tag, bytes)| O8::Other { tag, bytes }),
    ]
}

/// Changes biased to the bytes that decide a header: small values, block lengths
/// around the minimums, tags around the table's edge.
fn arb_changes() -> impl Strategy<Value = Vec<(usize, u8)>> {
    let value = prop_oneof![
        any::<u8>(),
        0u8..3,
        prop::sample::select(vec![5u8, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 0x7F, 0xFF]),
    ];
    prop::collection::vec((any::<usize>(), value), 1..4)
}

// ---------------------------------------------------------------------------------
// 1. Hostile bytes.
// ---------------------------------------------------------------------------------

#[test]
fn every_variant_of_every_union_reads_on_demand_as_decode_does() {
    for u in every_d8() {
        let h = HD8 {
            id: 1,
            u: u.clone(),
            us: every_d8(),
            o: Some(u.clone()),
        };
        let bytes = h.to_bytes().unwrap();
        assert_eq!(read_hd8(HD8::view_lazy(&bytes).unwrap()).unwrap(), h);
        agree::<HD8>(&bytes, read_hd8).unwrap();
        let alone = u.to_bytes().unwrap();
        assert_eq!(union_agrees!(D8, d8, &alone).unwrap(), u);
    }
    let h = HS16 {
        id: 2,
        u: S16::Pre(sample_pre()),
        us: vec![
            S16::Unit,
            S16::Fix(sample_fix()),
            S16::Tl(Tl {
                n: 1,
                s: "x".into(),
            }),
            S16::Last(sample_fix()),
        ],
        o: None,
    };
    let bytes = h.to_bytes().unwrap();
    assert_eq!(read_hs16(HS16::view_lazy(&bytes).unwrap()).unwrap(), h);
    let h = HD32 {
        id: 3,
        u: D32::Pre(sample_pre()),
        us: vec![D32::Fix(sample_fix()), D32::Unit],
        o: Some(D32::Unit),
    };
    let bytes = h.to_bytes().unwrap();
    assert_eq!(read_hd32(HD32::view_lazy(&bytes).unwrap()).unwrap(), h);
    let h = HD64 {
        id: 4,
        u: D64::Tl(Tl {
            n: 2,
            s: "yy".into(),
        }),
        us: vec![D64::Fix(sample_fix()), D64::Unit],
        o: Some(D64::Fix(Fix { a: 3, b: 4 })),
    };
    let bytes = h.to_bytes().unwrap();
    assert_eq!(read_hd64(HD64::view_lazy(&bytes).unwrap()).unwrap(), h);
    let h = HS64 {
        id: 5,
        u: S64::Big(sample_pre()),
        us: vec![S64::Fix(sample_fix())],
        o: None,
    };
    let bytes = h.to_bytes().unwrap();
    assert_eq!(read_hs64(HS64::view_lazy(&bytes).unwrap()).unwrap(), h);
    let h = HO8 {
        id: 6,
        u: O8::Other {
            tag: 9,
            bytes: vec![1, 2, 3],
        },
        us: vec![O8::Unit, O8::Fix(sample_fix()), O8::Pre(sample_pre())],
        o: Some(O8::Other {
            tag: 200,
            bytes: vec![],
        }),
    };
    let bytes = h.to_bytes().unwrap();
    assert_eq!(read_ho8(HO8::view_lazy(&bytes).unwrap()).unwrap(), h);
    let h = HUnits {
        id: 7,
        u: Units::B,
        us: vec![Units::A, Units::B],
        o: Some(Units::A),
    };
    let bytes = h.to_bytes().unwrap();
    assert_eq!(read_hunits(HUnits::view_lazy(&bytes).unwrap()).unwrap(), h);
}

/// Payloads to put after every tag: empty, one byte, a valid payload of each shape,
/// and a long run of `0xFF` (a block length of 65535).
/// Every `u8` tag; under Miri, those around the table's slots and edges.
fn u8_tags() -> Vec<u8> {
    if cfg!(miri) {
        vec![
            0, 1, 2, 3, 4, 7, 8, 9, 14, 15, 16, 17, 0x40, 0x41, 0x45, 0x50, 0x51, 0x68, 0x80, 0x81,
            0xFF,
        ]
    } else {
        (0..=255).collect()
    }
}

fn payloads() -> Vec<Vec<u8>> {
    let strip = |tag_size: usize, v: Vec<u8>| v[tag_size..].to_vec();
    let mut out = vec![vec![], vec![0], vec![6, 0], vec![12, 0], vec![0xFF; 20]];
    for u in every_d8() {
        out.push(strip(1, u.to_bytes().unwrap()));
    }
    out
}

#[test]
fn every_u8_tag_over_every_payload_reads_as_view_does() {
    let (mut seen_ok, mut seen_k8) = (0, 0);
    for tag in u8_tags() {
        for payload in payloads() {
            let bytes = union(tag, &payload);
            if union_agrees!(D8, d8, &bytes).is_ok() {
                seen_ok += 1;
            }
            let _ = union_agrees!(O8, o8, &bytes);
            let _ = union_agrees!(Units, units, &bytes);
            if union_agrees!(K8, k8, &bytes).is_ok() {
                seen_k8 += 1;
            }
            let _ = union_agrees!(W8, w8, &bytes);
        }
    }
    assert!(seen_k8 > if cfg!(miri) { 2 } else { 10 }, "{seen_k8}");
    // Every K8 variant reads back; a tag one below the window, and one past it.
    for u in [
        K8::Add(sample_fix()),
        K8::Pre(sample_pre()),
        K8::Tl(Tl {
            n: 3,
            s: "kind".into(),
        }),
        K8::Unit,
        K8::Edge(sample_fix()),
    ] {
        let bytes = u.to_bytes().unwrap();
        assert_eq!(union_agrees!(K8, k8, &bytes).unwrap(), u);
    }
    let fix = strip_tag(K8::Add(sample_fix()).to_bytes().unwrap(), 1);
    for tag in [b'A' - 1, 0x81, 0] {
        let err = union_agrees!(K8, k8, &union(tag, &fix)).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::UnknownVariant {
                union_name: "K8".into(),
                tag: u64::from(tag)
            }
        );
    }
    for u in [W8::Fix(sample_fix()), W8::Pre(sample_pre())] {
        let bytes = u.to_bytes().unwrap();
        assert_eq!(union_agrees!(W8, w8, &bytes).unwrap(), u);
    }
    assert!(seen_ok > if cfg!(miri) { 10 } else { 40 }, "{seen_ok}");
    // Tags with no variant, inside and past the table, and a cut-short tag.
    for tag in [8u8, 9, 14, 16, 17, 255] {
        if tag == 8 {
            continue; // NothingPre
        }
        let err = D8::view_lazy(&[tag, 0, 0, 0, 0, 0, 0]).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset(), err.path()),
            (
                &ErrorKind::UnknownVariant {
                    union_name: "D8".into(),
                    tag: u64::from(tag)
                },
                0,
                String::new()
            )
        );
    }
    let err = D8::view_lazy(&[]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 1,
            available: 0
        }
    );
}

#[test]
fn wide_tags_read_as_view_does() {
    let fix = strip_tag(S16::Fix(sample_fix()).to_bytes().unwrap(), 2);
    let pre = strip_tag(S16::Pre(sample_pre()).to_bytes().unwrap(), 2);
    // u16: every tag up to 320 and the largest, over each payload; cut tags.
    let tags: Vec<u16> = if cfg!(miri) {
        vec![0, 1, 15, 16, 17, 300, 0x0101, 0xFFFF]
    } else {
        (0..=320u16)
            .chain([0x0100, 0x0101, 0x0F00, 0xFFFF])
            .collect()
    };
    for tag in tags {
        for payload in [&[][..], &fix, &pre, &[0xFF; 16]] {
            let mut bytes = tag.to_le_bytes().to_vec();
            bytes.extend_from_slice(payload);
            let _ = union_agrees!(S16, s16, &bytes);
        }
    }
    for cut in 0..2 {
        let err = union_agrees!(S16, s16, &[1u8, 0][..cut]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Truncated { needed: 2, .. }));
    }
    // u32: tags that are a slot's in their low byte only.
    for tag in [
        0u32,
        7,
        15,
        16,
        0x100,
        0x107,
        0x1_000F,
        0x0700_0000,
        u32::MAX,
    ] {
        for payload in [&[][..], &fix, &pre] {
            let mut bytes = tag.to_le_bytes().to_vec();
            bytes.extend_from_slice(payload);
            let _ = union_agrees!(D32, d32, &bytes);
        }
    }
    let pre32 = D32::Pre(sample_pre()).to_bytes().unwrap();
    assert_eq!(
        union_agrees!(D32, d32, &pre32).unwrap(),
        D32::Pre(sample_pre())
    );
    for cut in 0..4 {
        let err = union_agrees!(D32, d32, &pre32[..cut]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Truncated { needed: 4, .. }));
    }
    // u64: a slot's tag plus 2^32, 2^63: never the slot's variant.
    let fix64 = D64::Fix(sample_fix()).to_bytes().unwrap();
    assert_eq!(
        union_agrees!(D64, d64, &fix64).unwrap(),
        D64::Fix(sample_fix())
    );
    for tag in [
        3u64,
        (1 << 32) | 3,
        (1 << 63) | 3,
        (1 << 32) | 1,
        u64::MAX,
        16,
        2,
        1 << 32,
    ] {
        let mut bytes = tag.to_le_bytes().to_vec();
        bytes.extend_from_slice(&fix64[8..]);
        let got = union_agrees!(D64, d64, &bytes);
        if tag == 3 {
            assert_eq!(got.unwrap(), D64::Fix(sample_fix()));
        } else if tag != 1 {
            assert_eq!(
                got.unwrap_err().kind(),
                &ErrorKind::UnknownVariant {
                    union_name: "D64".into(),
                    tag
                }
            );
        }
        let _ = union_agrees!(S64, s64, &bytes);
    }
    // u64 at the top: the window from `u64::MAX - 10` wraps; tags that wrap into
    // it from 0 (52: its last slot, 53: one past) are no variant's.
    for u in [H64::Fix(sample_fix()), H64::Pre(sample_pre())] {
        let bytes = u.to_bytes().unwrap();
        assert_eq!(union_agrees!(H64, h64, &bytes).unwrap(), u);
    }
    for tag in [0, 1, 52, 53, u64::MAX - 11, u64::MAX - 9, u64::MAX - 1] {
        for payload in [&fix64[8..], &pre[..]] {
            let mut bytes = tag.to_le_bytes().to_vec();
            bytes.extend_from_slice(payload);
            assert_eq!(
                union_agrees!(H64, h64, &bytes).unwrap_err().kind(),
                &ErrorKind::UnknownVariant {
                    union_name: "H64".into(),
                    tag
                }
            );
        }
    }
    let big = S64::Big(sample_pre()).to_bytes().unwrap();
    assert_eq!(
        union_agrees!(S64, s64, &big).unwrap(),
        S64::Big(sample_pre())
    );
    for cut in 0..8 {
        let err = union_agrees!(D64, d64, &fix64[..cut]).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Truncated { needed: 8, .. }));
    }
}

fn strip_tag(bytes: Vec<u8>, tag_size: usize) -> Vec<u8> {
    bytes[tag_size..].to_vec()
}

/// The block length of a `Pre` payload (block length on the wire, min 12) at 0, 1,
/// min-1, min, the payload's length, one past it, and the largest; the payload has 4
/// bytes after the block so that len != min.
#[test]
fn block_lengths_around_the_minimum_and_the_payload() {
    let mut payload = strip_tag(D8::Pre(sample_pre()).to_bytes().unwrap(), 1);
    assert_eq!(payload.len(), 12);
    payload.extend_from_slice(&[0xEE; 4]);
    let len = payload.len();
    for declared in [0usize, 1, 2, 11, 12, 13, 15, len, len + 1, 0xFFFF] {
        let mut p = payload.clone();
        p[..2].copy_from_slice(&(declared as u16).to_le_bytes());
        for tag in [2u8, 7] {
            let bytes = union(tag, &p);
            let got = union_agrees!(D8, d8, &bytes);
            let name = if tag == 2 { "Pre" } else { "Boxed" };
            match declared {
                12..=16 => {
                    let want = if tag == 2 {
                        D8::Pre(sample_pre())
                    } else {
                        D8::Boxed(Box::new(sample_pre()))
                    };
                    assert_eq!(got.unwrap(), want, "{declared}");
                }
                0..=11 => {
                    let err = got.unwrap_err();
                    assert!(
                        matches!(err.kind(), ErrorKind::BlockLengthTooSmall { .. }),
                        "{declared}: {err:?}"
                    );
                    assert_eq!((err.offset(), err.path()), (1, name.to_string()));
                }
                _ => {
                    let err = got.unwrap_err();
                    assert_eq!(
                        (err.kind(), err.offset(), err.path()),
                        (
                            &ErrorKind::Truncated {
                                needed: declared,
                                available: len
                            },
                            1,
                            name.to_string()
                        )
                    );
                }
            }
        }
        // The same payload under the old dispatch (a `u16` tag at 16) and under a
        // `u32` tag at 15, the table's last slot.
        let mut b16 = 16u16.to_le_bytes().to_vec();
        b16.extend_from_slice(&p);
        let _ = union_agrees!(S16, s16, &b16);
        let mut b32 = 15u32.to_le_bytes().to_vec();
        b32.extend_from_slice(&p);
        let _ = union_agrees!(D32, d32, &b32);
        // And inside a message: the union field, a list element, the option.
        let h = HD8 {
            id: 1,
            u: D8::Pre(sample_pre()),
            us: vec![D8::Unit, D8::Pre(sample_pre())],
            o: Some(D8::Boxed(Box::new(sample_pre()))),
        };
        let bytes = h.to_bytes().unwrap();
        let needle = sample_pre().at.to_le_bytes();
        let mut bad = bytes.clone();
        for at in bytes
            .windows(8)
            .enumerate()
            .filter(|(_, w)| *w == needle)
            .map(|(i, _)| i)
        {
            bad[at - 2..at].copy_from_slice(&(declared as u16).to_le_bytes());
            agree::<HD8>(&bad, read_hd8).unwrap();
            // One at a time too.
            let mut one = bytes.clone();
            one[at - 2..at].copy_from_slice(&(declared as u16).to_le_bytes());
            agree::<HD8>(&one, read_hd8).unwrap();
        }
    }
}

/// `NothingPre`: a block length on the wire and no fields (min 2); `Tl`: a tail.
#[test]
fn block_lengths_of_empty_and_tail_payloads() {
    for declared in 0u16..=4 {
        let mut p = declared.to_le_bytes().to_vec();
        p.extend_from_slice(&[0, 0]);
        let got = union_agrees!(D8, d8, &union(8, &p));
        if declared >= 2 {
            assert_eq!(got.unwrap(), D8::NothingPre(NothingPre {}));
        } else {
            assert!(matches!(
                got.unwrap_err().kind(),
                ErrorKind::BlockLengthTooSmall { .. }
            ));
        }
        // Cut to the block length field alone, and shorter.
        for cut in 0..=2 {
            let _ = union_agrees!(D8, d8, &union(8, &p[..cut]));
        }
    }
    let tl_payload = strip_tag(
        D8::Tl(Tl {
            n: 4,
            s: "abc".into(),
        })
        .to_bytes()
        .unwrap(),
        1,
    );
    for declared in 0u16..=16 {
        let mut p = tl_payload.clone();
        p[..2].copy_from_slice(&declared.to_le_bytes());
        let got = union_agrees!(D8, d8, &union(3, &p));
        if declared == 7 {
            assert_eq!(
                got.unwrap(),
                D8::Tl(Tl {
                    n: 4,
                    s: "abc".into()
                })
            );
        }
        for cut in 0..p.len() {
            let _ = union_agrees!(D8, d8, &union(3, &p[..cut]));
        }
    }
}

/// Payloads without a block length cut at every length: `Fix` (min 6), `Flat`
/// (min 1), `Nothing` (min 0), unit.
#[test]
fn truncated_fixed_payloads() {
    let long = [0x11u8, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88];
    for cut in 0..=long.len() {
        let p = &long[..cut];
        for tag in [1u8, 15] {
            let got = union_agrees!(D8, d8, &union(tag, p));
            if cut >= 6 {
                let f = Fix {
                    a: 0x4433_2211,
                    b: 0x6655,
                };
                let want = if tag == 1 { D8::Fix(f) } else { D8::Last(f) };
                assert_eq!(got.unwrap(), want);
            } else {
                let err = got.unwrap_err();
                assert_eq!(
                    (err.kind(), err.offset()),
                    (
                        &ErrorKind::Truncated {
                            needed: 6,
                            available: cut
                        },
                        1
                    )
                );
            }
        }
        let got = union_agrees!(D8, d8, &union(5, p));
        assert_eq!(got.is_ok(), cut >= 1);
        assert_eq!(
            union_agrees!(D8, d8, &union(6, p)).unwrap(),
            D8::Nothing(Nothing {})
        );
        assert_eq!(union_agrees!(D8, d8, &union(0, p)).unwrap(), D8::Unit);
        let mut b32 = 7u32.to_le_bytes().to_vec();
        b32.extend_from_slice(p);
        let _ = union_agrees!(D32, d32, &b32);
    }
}

#[test]
fn a_union_with_a_lifetime_reads_on_demand() {
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    struct HLt<'a> {
        u: Lt<'a>,
        us: Vec<Lt<'a>>,
    }
    let h = HLt {
        u: Lt::S { s: "abc", n: 7 },
        us: vec![Lt::F(sample_fix()), Lt::S { s: "", n: 0 }],
    };
    let bytes = h.to_bytes().unwrap();
    let lazy = HLt::view_lazy(&bytes).unwrap();
    assert_eq!(lt(lazy.u().unwrap()).unwrap(), h.u);
    let us: Vec<Lt<'_>> = lazy
        .us()
        .unwrap()
        .iter()
        .map(|u| lt(u.unwrap()))
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(us, h.us);
    let step = if cfg!(miri) { 5 } else { 1 };
    for at in (0..bytes.len()).step_by(step) {
        for v in [0u8, 1, 2, 0xFF, 0xC0] {
            let bad = changed(&bytes, &[(at, v)]);
            let upfront = HLt::view(&bad).map(|_| ());
            let on_demand = HLt::view_lazy(&bad).and_then(|l| {
                Ok(HLt {
                    u: lt(l.u()?)?,
                    us: l.us()?.iter().map(|u| lt(u?)).collect::<Result<_, _>>()?,
                })
            });
            match (upfront, on_demand) {
                (Ok(()), Ok(v)) => assert_eq!(HLt::decode(&bad).unwrap(), v),
                (Err(e), Err(g)) => assert_eq!(parts(&g), parts(&e)),
                (a, b) => panic!("{bad:?}: {:?} {:?}", a.err(), b.err()),
            }
        }
    }
}

// ---- Versions -------------------------------------------------------------------

mod v1 {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Px {
        pub(crate) a: u32,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(block_length)]
    pub(crate) struct Bl {
        pub(crate) at: u64,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Ev {
        Px(Px) = 0,
        Bl(Bl) = 1,
        St { x: u32 } = 2,
        Off = 3,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Hold {
        pub(crate) id: u32,
        pub(crate) u: Ev,
        pub(crate) us: Vec<Ev>,
        pub(crate) o: Option<Ev>,
    }
}

mod v2 {
    use wiremsg::{WireMsg, WireUnion};

    /// Grows: a fixed block whose older writers' blocks are shorter.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Px {
        pub(crate) a: u32,
        #[wire(since = 2)]
        pub(crate) b: u16,
    }

    /// Grows a number and a tail behind its block length.
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(block_length, version = 2)]
    pub(crate) struct Bl {
        pub(crate) at: u64,
        #[wire(since = 2)]
        pub(crate) seq: u16,
        #[wire(since = 2)]
        pub(crate) note: String,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u8)]
    #[wire(version = 2)]
    pub(crate) enum Ev {
        Px(Px) = 0,
        Bl(Bl) = 1,
        St {
            x: u32,
        } = 2,
        Off = 3,
        #[wire(since = 2)]
        New(Px) = 4,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Hold {
        pub(crate) id: u32,
        pub(crate) u: Ev,
        pub(crate) us: Vec<Ev>,
        pub(crate) o: Option<Ev>,
    }
}

fn ev1(u: v1::EvLazy<'_>) -> Result<v1::Ev, Error> {
    Ok(match u {
        v1::EvLazy::Px(l) => v1::Ev::Px(v1::Px { a: l.a()? }),
        v1::EvLazy::Bl(l) => v1::Ev::Bl(v1::Bl { at: l.at()? }),
        v1::EvLazy::St(l) => v1::Ev::St { x: l.x()? },
        v1::EvLazy::Off => v1::Ev::Off,
    })
}

fn px2(l: v2::PxLazy<'_>) -> Result<v2::Px, Error> {
    Ok(v2::Px {
        a: l.a()?,
        b: l.b()?,
    })
}

fn ev2(u: v2::EvLazy<'_>) -> Result<v2::Ev, Error> {
    Ok(match u {
        v2::EvLazy::Px(l) => v2::Ev::Px(px2(l)?),
        v2::EvLazy::Bl(l) => v2::Ev::Bl(v2::Bl {
            at: l.at()?,
            seq: l.seq()?,
            note: l.try_note()?.map(String::from).unwrap_or_default(),
        }),
        v2::EvLazy::St(l) => v2::Ev::St { x: l.x()? },
        v2::EvLazy::Off => v2::Ev::Off,
        v2::EvLazy::New(l) => v2::Ev::New(px2(l)?),
    })
}

impl Holder for v1::Hold {
    fn read_u(l: &Self::Lazy<'_>) -> Result<Option<String>, Error> {
        Ok(Some(format!("{:?}", ev1(l.u()?)?)))
    }
    fn read_us(l: &Self::Lazy<'_>, i: usize) -> Result<Option<String>, Error> {
        match l.us()?.get(i) {
            Some(u) => Ok(Some(format!("{:?}", ev1(u?)?))),
            None => Ok(None),
        }
    }
    fn read_o(l: &Self::Lazy<'_>) -> Result<Option<String>, Error> {
        Ok(l.o()?.map(ev1).transpose()?.map(|u| format!("{u:?}")))
    }
    fn owned_u(&self) -> Option<String> {
        Some(format!("{:?}", self.u))
    }
    fn owned_us(&self, i: usize) -> Option<String> {
        self.us.get(i).map(|u| format!("{u:?}"))
    }
    fn owned_o(&self) -> Option<String> {
        self.o.as_ref().map(|u| format!("{u:?}"))
    }
}

impl Holder for v2::Hold {
    fn read_u(l: &Self::Lazy<'_>) -> Result<Option<String>, Error> {
        Ok(Some(format!("{:?}", ev2(l.u()?)?)))
    }
    fn read_us(l: &Self::Lazy<'_>, i: usize) -> Result<Option<String>, Error> {
        match l.us()?.get(i) {
            Some(u) => Ok(Some(format!("{:?}", ev2(u?)?))),
            None => Ok(None),
        }
    }
    fn read_o(l: &Self::Lazy<'_>) -> Result<Option<String>, Error> {
        Ok(l.o()?.map(ev2).transpose()?.map(|u| format!("{u:?}")))
    }
    fn owned_u(&self) -> Option<String> {
        Some(format!("{:?}", self.u))
    }
    fn owned_us(&self, i: usize) -> Option<String> {
        self.us.get(i).map(|u| format!("{u:?}"))
    }
    fn owned_o(&self) -> Option<String> {
        self.o.as_ref().map(|u| format!("{u:?}"))
    }
}

fn read_hold1(h: v1::HoldLazy<'_>) -> Result<v1::Hold, Error> {
    Ok(v1::Hold {
        id: h.id()?,
        u: ev1(h.u()?)?,
        us: h.us()?.iter().map(|u| ev1(u?)).collect::<Result<_, _>>()?,
        o: h.o()?.map(ev1).transpose()?,
    })
}

fn read_hold2(h: v2::HoldLazy<'_>) -> Result<v2::Hold, Error> {
    Ok(v2::Hold {
        id: h.id()?,
        u: ev2(h.u()?)?,
        us: h.us()?.iter().map(|u| ev2(u?)).collect::<Result<_, _>>()?,
        o: h.o()?.map(ev2).transpose()?,
    })
}

fn hold1() -> v1::Hold {
    v1::Hold {
        id: 1,
        u: v1::Ev::Bl(v1::Bl { at: 77 }),
        us: vec![
            v1::Ev::Px(v1::Px { a: 5 }),
            v1::Ev::Bl(v1::Bl { at: 6 }),
            v1::Ev::St { x: 7 },
            v1::Ev::Off,
        ],
        o: Some(v1::Ev::Px(v1::Px { a: 8 })),
    }
}

fn hold2() -> v2::Hold {
    v2::Hold {
        id: 2,
        u: v2::Ev::Bl(v2::Bl {
            at: 77,
            seq: 3,
            note: "n".into(),
        }),
        us: vec![
            v2::Ev::Px(v2::Px { a: 5, b: 9 }),
            v2::Ev::Bl(v2::Bl {
                at: 6,
                seq: 1,
                note: String::new(),
            }),
            v2::Ev::St { x: 7 },
            v2::Ev::Off,
            v2::Ev::New(v2::Px { a: 1, b: 2 }),
        ],
        o: Some(v2::Ev::Px(v2::Px { a: 8, b: 10 })),
    }
}

#[test]
fn older_and_newer_writers_read_on_demand_as_view_does() {
    // A newer reader of an older writer's bytes: the new fields absent, their
    // defaults read.
    let old = hold1().to_bytes().unwrap();
    let read = read_hold2(v2::Hold::view_lazy(&old).unwrap()).unwrap();
    assert_eq!(read, v2::Hold::decode(&old).unwrap());
    assert_eq!(
        read.u,
        v2::Ev::Bl(v2::Bl {
            at: 77,
            seq: 0,
            note: String::new()
        })
    );
    assert_eq!(read.us[0], v2::Ev::Px(v2::Px { a: 5, b: 0 }));
    agree::<v2::Hold>(&old, read_hold2).unwrap();
    // An older reader of a newer writer's bytes: the new fields skipped, the new
    // variant refused as `view` refuses it.
    let new = hold2().to_bytes().unwrap();
    let expected = v1::Hold::view(&new).unwrap_err();
    assert_eq!(
        expected.kind(),
        &ErrorKind::UnknownVariant {
            union_name: "Ev".into(),
            tag: 4
        }
    );
    agree::<v1::Hold>(&new, read_hold1).unwrap();
    let lazy = v1::Hold::view_lazy(&new).unwrap();
    assert_eq!(
        ev1(lazy.u().unwrap()).unwrap(),
        v1::Ev::Bl(v1::Bl { at: 77 })
    );
    let us = lazy.us().unwrap();
    assert_eq!(
        ev1(us.get(0).unwrap().unwrap()).unwrap(),
        v1::Ev::Px(v1::Px { a: 5 })
    );
    assert_eq!(parts(&us.get(4).unwrap().unwrap_err()), parts(&expected));
    // Without the new variant, the older reader reads it all.
    let mut h = hold2();
    h.us.pop();
    let new = h.to_bytes().unwrap();
    let read = read_hold1(v1::Hold::view_lazy(&new).unwrap()).unwrap();
    assert_eq!(read, v1::Hold::decode(&new).unwrap());
    assert_eq!(read.us[1], v1::Ev::Bl(v1::Bl { at: 6 }));
    agree::<v1::Hold>(&new, read_hold1).unwrap();
    // Payloads alone, every cut.
    for (bytes, what) in [(&old, "old"), (&new, "new")] {
        for cut in (0..bytes.len()).step_by(if cfg!(miri) { 7 } else { 1 }) {
            agree::<v1::Hold>(&bytes[..cut], read_hold1)
                .map_err(|e| format!("{what} {cut}: {e}"))
                .unwrap();
            agree::<v2::Hold>(&bytes[..cut], read_hold2)
                .map_err(|e| format!("{what} {cut}: {e}"))
                .unwrap();
        }
    }
}

// ---- Nesting --------------------------------------------------------------------

/// An expression tree: unions nested in unions through boxes and lists.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Expr {
    Num { value: i64 } = 0,
    Add { l: Box<Expr>, r: Box<Expr> } = 1,
    Neg { e: Box<Expr> } = 2,
    Many { xs: Vec<Expr> } = 3,
    Zero = 4,
    Lit(Pre) = 5,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Formula {
    name: String,
    expr: Expr,
}

fn expr(e: ExprLazy<'_>) -> Result<Expr, Error> {
    Ok(match e {
        ExprLazy::Num(n) => Expr::Num { value: n.value()? },
        ExprLazy::Add(a) => Expr::Add {
            l: Box::new(expr(a.l()?)?),
            r: Box::new(expr(a.r()?)?),
        },
        ExprLazy::Neg(n) => Expr::Neg {
            e: Box::new(expr(n.e()?)?),
        },
        ExprLazy::Many(m) => Expr::Many {
            xs: m.xs()?.iter().map(|x| expr(x?)).collect::<Result<_, _>>()?,
        },
        ExprLazy::Zero => Expr::Zero,
        ExprLazy::Lit(l) => Expr::Lit(pre(l)?),
    })
}

fn formula(f: FormulaLazy<'_>) -> Result<Formula, Error> {
    Ok(Formula {
        name: f.name()?.into(),
        expr: expr(f.expr()?)?,
    })
}

/// `Neg` around `inner` (tag 2, a message whose one tail field is the union).
fn neg(inner: &[u8]) -> Vec<u8> {
    union(2, &message(&[Part::Tail(inner)]))
}

/// `Many` of `inner` alone (tag 3, a message whose list holds the union).
fn many(inner: &[u8]) -> Vec<u8> {
    union(3, &message(&[Part::Tail(&table(&[inner]))]))
}

fn formula_of(expr: &[u8]) -> Vec<u8> {
    message(&[Part::Tail(b"f"), Part::Tail(expr)])
}

fn leaves() -> Vec<Vec<u8>> {
    let mut pre = Expr::Lit(sample_pre()).to_bytes().unwrap();
    let lit = pre.clone();
    pre[1] = 11; // a block length below `Pre`'s minimum
    vec![
        union(0, &(-5i64).to_le_bytes()),
        union(0, &[1, 2, 3]), // cut short
        union(4, &[]),
        union(4, &[9, 9]),
        lit,
        pre,
        union(9, &[]), // no variant
    ]
}

/// Run on a thread with an 8 MiB stack: the test's own converter (`expr`, through
/// `collect`) takes about 18 debug-build frames a level and overflowed the default
/// 2 MiB with Rust 1.85. The library's own stack at the limit is `tests/depth.rs`'s.
#[test]
fn unions_nested_in_unions_around_the_nesting_limit() {
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(unions_nested_around_the_limit)
        .unwrap()
        .join()
        .unwrap();
}

fn unions_nested_around_the_limit() {
    let lo = MAX_DEPTH as usize - 3;
    let hi = MAX_DEPTH as usize + 3;
    let mut deepest_ok = [0usize; 2];
    for (w, wrap) in [neg as fn(&[u8]) -> Vec<u8>, many].into_iter().enumerate() {
        for leaf in leaves() {
            let mut bytes = leaf.clone();
            for _ in 0..lo {
                bytes = wrap(&bytes);
            }
            for levels in lo..=hi {
                let got = union_agrees!(Expr, expr, &bytes);
                let f = formula_of(&bytes);
                let upfront = Formula::view(&f).map(|_| ());
                let on_demand = Formula::view_lazy(&f).and_then(formula);
                match (&upfront, &on_demand) {
                    (Ok(()), Ok(v)) => assert_eq!(&Formula::decode(&f).unwrap(), v),
                    (Err(e), Err(g)) => assert_eq!(parts(g), parts(e), "{levels}"),
                    _ => panic!(
                        "{levels}: view {:?}, on demand {:?}",
                        upfront.as_ref().err().map(parts),
                        on_demand.as_ref().err().map(parts)
                    ),
                }
                if leaf == leaves()[0] {
                    match &got {
                        Ok(_) => deepest_ok[w] = levels,
                        Err(e) => assert_eq!(
                            e.kind(),
                            &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
                            "{levels}"
                        ),
                    }
                }
                bytes = wrap(&bytes);
            }
        }
    }
    // The deepest accepted chain: `Num` inside 63 `Neg`s (each payload one level, 64
    // in all) for a root union; the same through lists (`Many`: a list adds none).
    assert_eq!(deepest_ok[0], MAX_DEPTH as usize - 1);
    assert_eq!(deepest_ok[1], MAX_DEPTH as usize - 1, "{deepest_ok:?}");
}

// ---------------------------------------------------------------------------------
// Property tests.
// ---------------------------------------------------------------------------------

fn arb_expr() -> impl Strategy<Value = Expr> {
    let leaf = prop_oneof![
        any::<i64>().prop_map(|value| Expr::Num { value }),
        Just(Expr::Zero),
        arb_pre().prop_map(Expr::Lit),
    ];
    leaf.prop_recursive(4, 16, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(l, r)| Expr::Add {
                l: Box::new(l),
                r: Box::new(r)
            }),
            inner.clone().prop_map(|e| Expr::Neg { e: Box::new(e) }),
            prop::collection::vec(inner, 0..3).prop_map(|xs| Expr::Many { xs }),
        ]
    })
}

/// Holders as elements of a split list (FORMAT.md §6.3), then a union after it.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Outer {
    hs: Vec<HD8>,
    tail: D8,
}

fn read_outer(o: OuterLazy<'_>) -> Result<Outer, Error> {
    Ok(Outer {
        hs: o
            .hs()?
            .iter()
            .map(|h| read_hd8(h?))
            .collect::<Result<_, _>>()?,
        tail: d8(o.tail()?)?,
    })
}

fn prop_agree<H: Holder>(
    bytes: &[u8],
    changes: &[(usize, u8)],
    read: impl for<'v> Fn(H::Lazy<'v>) -> Result<H, Error>,
) -> Result<(), TestCaseError> {
    let bad = changed(bytes, changes);
    agree::<H>(&bad, read).map_err(|e| TestCaseError::fail(format!("{bad:?}: {e}")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn dense_u8_unions_in_messages(
        u in arb_d8(),
        us in prop::collection::vec(arb_d8(), 0..4),
        o in proptest::option::of(arb_d8()),
        changes in arb_changes(),
    ) {
        let bytes = HD8 { id: 1, u, us, o }.to_bytes().unwrap();
        prop_agree::<HD8>(&bytes, &changes, read_hd8)?;
    }

    #[test]
    fn kind_byte_unions_in_messages(
        u in arb_k8(),
        us in prop::collection::vec(arb_k8(), 0..4),
        o in proptest::option::of(arb_k8()),
        changes in arb_changes(),
    ) {
        let bytes = HK8 { id: 1, u, us, o }.to_bytes().unwrap();
        prop_agree::<HK8>(&bytes, &changes, read_hk8)?;
    }

    #[test]
    fn wide_and_sparse_unions_in_messages(
        (s16u, s16us) in (arb_s16(), prop::collection::vec(arb_s16(), 0..3)),
        (d32u, d32us) in (arb_d32(), prop::collection::vec(arb_d32(), 0..3)),
        (d64u, d64us) in (arb_d64(), prop::collection::vec(arb_d64(), 0..3)),
        (o8u, o8us) in (arb_o8(), prop::collection::vec(arb_o8(), 0..3)),
        changes in arb_changes(),
    ) {
        let b = HS16 { id: 1, u: s16u, us: s16us, o: None }.to_bytes().unwrap();
        prop_agree::<HS16>(&b, &changes, read_hs16)?;
        let b = HD32 { id: 1, u: d32u.clone(), us: d32us, o: Some(d32u) }.to_bytes().unwrap();
        prop_agree::<HD32>(&b, &changes, read_hd32)?;
        let b = HD64 { id: 1, u: d64u, us: d64us, o: None }.to_bytes().unwrap();
        prop_agree::<HD64>(&b, &changes, read_hd64)?;
        let b = HO8 { id: 1, u: o8u.clone(), us: o8us, o: Some(o8u) }.to_bytes().unwrap();
        prop_agree::<HO8>(&b, &changes, read_ho8)?;
    }

    #[test]
    fn unions_inside_elements_of_a_split_list(
        hs in prop::collection::vec(
            (arb_d8(), prop::collection::vec(arb_d8(), 0..3), proptest::option::of(arb_d8())),
            0..3,
        ),
        changes in arb_changes(),
    ) {
        let outer = Outer {
            hs: hs.into_iter().map(|(u, us, o)| HD8 { id: 9, u, us, o }).collect(),
            tail: D8::Pre(sample_pre()),
        };
        let bytes = outer.to_bytes().unwrap();
        prop_assert_eq!(read_outer(Outer::view_lazy(&bytes).unwrap()).unwrap(), outer);
        let bad = changed(&bytes, &changes);
        let upfront = Outer::view(&bad).map(|_| ());
        let on_demand = Outer::view_lazy(&bad).and_then(read_outer);
        match (upfront, on_demand) {
            (Ok(()), Ok(v)) => prop_assert_eq!(Outer::decode(&bad).unwrap(), v),
            (Err(e), Err(g)) => prop_assert_eq!(parts(&g), parts(&e)),
            (a, b) => prop_assert!(false, "{:?}: view {:?}, on demand {:?}", bad, a.err(), b.err()),
        }
    }

    #[test]
    fn a_union_value_alone(u in arb_d8(), changes in arb_changes(), cut in any::<prop::sample::Index>()) {
        let bytes = u.to_bytes().unwrap();
        let bad = changed(&bytes, &changes);
        let _ = union_agrees!(D8, d8, &bad);
        let cut = cut.index(bytes.len() + 1);
        let _ = union_agrees!(D8, d8, &bytes[..cut]);
    }

    #[test]
    fn expression_trees(e in arb_expr(), changes in arb_changes()) {
        let f = Formula { name: "f".into(), expr: e };
        let bytes = f.to_bytes().unwrap();
        prop_assert_eq!(formula(Formula::view_lazy(&bytes).unwrap()).unwrap(), f.clone());
        let bad = changed(&bytes, &changes);
        let upfront = Formula::view(&bad).map(|_| ());
        let on_demand = Formula::view_lazy(&bad).and_then(formula);
        match (upfront, on_demand) {
            (Ok(()), Ok(v)) => prop_assert_eq!(Formula::decode(&bad).unwrap(), v),
            (Err(e), Err(g)) => prop_assert_eq!(parts(&g), parts(&e)),
            (a, b) => prop_assert!(false, "view {:?}, on demand {:?}", a.err(), b.err()),
        }
        let alone = f.expr.to_bytes().unwrap();
        let _ = union_agrees!(Expr, expr, &changed(&alone, &changes));
    }

    #[test]
    fn versions_across(
        changes in arb_changes(),
        which in any::<bool>(),
    ) {
        let bytes = if which { hold1().to_bytes().unwrap() } else { hold2().to_bytes().unwrap() };
        prop_agree::<v1::Hold>(&bytes, &changes, read_hold1)?;
        prop_agree::<v2::Hold>(&bytes, &changes, read_hold2)?;
    }

    #[test]
    fn any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..96)) {
        agree::<HD8>(&bytes, read_hd8).map_err(TestCaseError::fail)?;
        let _ = union_agrees!(D8, d8, &bytes);
        let _ = union_agrees!(Expr, expr, &bytes);
    }
}

// ---------------------------------------------------------------------------------
// 2. Hostile code: hand-written impls of the hidden union traits, in safe code.
// ---------------------------------------------------------------------------------

mod forged {
    use super::{Fix, FixLazy, FixMut, FixView, Pre, PreLazy, PreMut, PreView};
    use wiremsg::__private::{
        Carries, Field, TypeSchema, UnionLayout, UnionOf, Unit, VOne, VPair, Variant,
    };
    use wiremsg::{UnionSchema, WireUnion};

    #[derive(Clone, Copy, Debug, PartialEq)]
    pub(crate) enum FView<'v> {
        Pre(PreView<'v>),
        Fix(FixView<'v>),
        Unit,
    }

    #[derive(Debug)]
    #[allow(dead_code)] // built by the mutable view's dispatch, never matched here
    pub(crate) enum FMut<'v> {
        Pre(PreMut<'v>),
        Fix(FixMut<'v>),
        Unit,
    }

    #[derive(Clone, Debug)]
    pub(crate) enum FLazy<'v> {
        Pre(PreLazy<'v>),
        Fix(FixLazy<'v>),
        Unit,
    }

    /// Tags written with numbers the derive would refuse: three variants share tag 3
    /// (a block-length-prefixed message with min 12, a fixed one with min 6, a unit),
    /// and the union's own tag-0 variant is declared after a variant with a tag no
    /// `u8` holds.
    #[derive(Debug)]
    pub(crate) struct Forged;

    /// The same markers in another union, where their constants differ: each
    /// (marker, union) pair has its own tag.
    #[derive(Debug)]
    pub(crate) struct Forged2;

    /// Three variants on tag 3 and nothing else: every tag in the table's window
    /// (from 3), so the table is used, and the slot of tag 3 must hold the first
    /// variant's header (`Pre`'s).
    #[derive(Debug)]
    pub(crate) struct Forged3;

    pub(crate) struct A;
    pub(crate) struct B;
    pub(crate) struct C;
    pub(crate) struct Huge;

    macro_rules! layout {
        ($l:ident, $variants:ty, $name:literal) => {
            impl UnionLayout for $l {
                type Tag = u8;
                type Variants = $variants;
                const NAME: &'static str = $name;
                type View<'v> = FView<'v>;
                type Mut<'v> = FMut<'v>;
                type Lazy<'v> = FLazy<'v>;

                fn __serialize_view<S: serde::Serializer>(
                    _: &FView<'_>,
                    s: S,
                ) -> Result<S::Ok, S::Error> {
                    s.serialize_unit()
                }
            }

            impl Field for $l {
                type Kind = UnionOf<$l>;
                const TYPE: &'static TypeSchema = <u8 as Field>::TYPE;
                fn tail_len(&self) -> usize {
                    0
                }
                fn write(&self, _: &mut [u8], _: &mut [u8]) {}
            }

            impl WireUnion for $l {
                const VERSION: u16 = 1;
                const UNION_SCHEMA: &'static UnionSchema = super::D8::UNION_SCHEMA;
                type Layout = $l;
            }
        };
    }

    layout!(
        Forged,
        VPair<VPair<VOne<A>, VOne<Huge>>, VPair<VOne<B>, VOne<C>>>,
        "Forged"
    );
    layout!(Forged2, VPair<VOne<B>, VOne<A>>, "Forged2");
    layout!(Forged3, VPair<VOne<A>, VPair<VOne<B>, VOne<C>>>, "Forged3");

    macro_rules! variant {
        ($m:ident, $l:ident, $payload:ty, $tag:expr, $variant:ident) => {
            impl Variant<$l> for $m {
                type Payload = $payload;
                const TAG: u64 = $tag;
                const NAME: &'static str = stringify!($variant);
                fn wrap<'v>(_: u64, p: PayloadView<'v, $payload>) -> FView<'v> {
                    variant!(@wrap FView, $variant, p)
                }
                fn wrap_mut<'v>(_: u64, p: PayloadMut<'v, $payload>) -> FMut<'v> {
                    variant!(@wrap FMut, $variant, p)
                }
                fn wrap_lazy<'v>(_: u64, p: PayloadLazy<'v, $payload>) -> FLazy<'v> {
                    variant!(@wrap FLazy, $variant, p)
                }
            }
        };
        (@wrap $e:ident, Unit, $p:ident) => {{
            let () = $p;
            $e::Unit
        }};
        (@wrap $e:ident, $variant:ident, $p:ident) => {
            $e::$variant($p)
        };
    }

    type PayloadView<'v, P> = <P as wiremsg::__private::Payload>::View<'v>;
    type PayloadMut<'v, P> = <P as wiremsg::__private::Payload>::Mut<'v>;
    type PayloadLazy<'v, P> = <P as wiremsg::__private::Payload>::Lazy<'v>;

    variant!(A, Forged, Carries<Pre>, 3, Pre);
    variant!(Huge, Forged, Carries<Pre>, 0x1_0000, Pre);
    variant!(B, Forged, Carries<Fix>, 3, Fix);
    variant!(C, Forged, Unit, 3, Unit);
    // In `Forged2`: `B` (fixed, min 6) at 0, `A` (prefixed, min 12) at 1.
    variant!(B, Forged2, Carries<Fix>, 0, Fix);
    variant!(A, Forged2, Carries<Pre>, 1, Pre);
    variant!(A, Forged3, Carries<Pre>, 3, Pre);
    variant!(B, Forged3, Carries<Fix>, 3, Fix);
    variant!(C, Forged3, Unit, 3, Unit);

    pub(crate) fn read(u: FLazy<'_>) -> Result<String, wiremsg::Error> {
        Ok(match u {
            FLazy::Pre(p) => format!("Pre({:?})", super::pre(p)?),
            FLazy::Fix(f) => format!("Fix({:?})", super::fix(f)?),
            FLazy::Unit => "Unit".into(),
        })
    }

    pub(crate) fn show(u: FView<'_>) -> String {
        match u {
            FView::Pre(p) => format!(
                "Pre({:?})",
                Pre {
                    at: p.at(),
                    seq: p.seq()
                }
            ),
            FView::Fix(f) => format!("Fix({:?})", Fix { a: f.a(), b: f.b() }),
            FView::Unit => "Unit".into(),
        }
    }
}

macro_rules! forged_agrees {
    ($u:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let upfront = <$u>::view(bytes).map(forged::show);
        let on_demand = <$u>::view_lazy(bytes).and_then(forged::read);
        let result: Result<String, Error> = match (upfront, on_demand) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a, b, "{bytes:?}");
                Ok(a)
            }
            (Err(e), Err(g)) => {
                assert_eq!(parts(&g), parts(&e), "{bytes:?}");
                Err(g)
            }
            (upfront, on_demand) => panic!(
                "{bytes:?}: view {:?}, on demand {:?}",
                upfront.err().map(|e| parts(&e)),
                on_demand.err().map(|e| parts(&e))
            ),
        };
        result
    }};
}

#[test]
fn hand_written_variants_cannot_make_the_table_disagree_with_the_dispatch() {
    let pre_payload = strip_tag(D8::Pre(sample_pre()).to_bytes().unwrap(), 1);
    let fix_payload = strip_tag(D8::Fix(sample_fix()).to_bytes().unwrap(), 1);
    // Tag 3 in `Forged` (no table: a tag past 16) and `Forged3` (a table): the
    // first of three variants with it, `Pre`, takes it, in both reads; `Fix`'s
    // smaller minimum and the unit's none are never used for it.
    let fix_as_pre = D8::view(&union(2, &fix_payload)).unwrap_err();
    for forged in [0, 3] {
        let read = |bytes: &[u8]| {
            if forged == 0 {
                forged_agrees!(forged::Forged, bytes)
            } else {
                forged_agrees!(forged::Forged3, bytes)
            }
        };
        assert_eq!(
            read(&union(3, &pre_payload)).unwrap(),
            format!("Pre({:?})", sample_pre())
        );
        // `Fix`'s bytes (a1 a2 a3 a4 b1 b2) as `Pre`'s: a block length of 0xA3A4
        // past the payload, as `D8`'s `Pre` reports it.
        let err = read(&union(3, &fix_payload)).unwrap_err();
        assert_eq!(parts(&err), parts(&fix_as_pre));
        assert_eq!(err.path(), "Pre");
        let err = read(&union(3, &[])).unwrap_err();
        assert_eq!(
            (err.kind(), err.path()),
            (
                &ErrorKind::Truncated {
                    needed: 2,
                    available: 0
                },
                "Pre".to_string()
            )
        );
    }
    // In `Forged2` the same markers have other tags.
    assert_eq!(
        forged_agrees!(forged::Forged2, &union(0, &fix_payload)).unwrap(),
        format!("Fix({:?})", sample_fix())
    );
    assert_eq!(
        forged_agrees!(forged::Forged2, &union(1, &pre_payload)).unwrap(),
        format!("Pre({:?})", sample_pre())
    );
    let err = forged_agrees!(forged::Forged2, &union(1, &fix_payload)).unwrap_err();
    assert_eq!(err.path(), "Pre");
    let err = forged_agrees!(forged::Forged2, &union(3, &pre_payload)).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownVariant {
            union_name: "Forged2".into(),
            tag: 3
        }
    );
    // Every tag over every payload, both unions.
    for tag in u8_tags() {
        for payload in payloads() {
            let bytes = union(tag, &payload);
            let _ = forged_agrees!(forged::Forged, &bytes);
            let _ = forged_agrees!(forged::Forged2, &bytes);
            let _ = forged_agrees!(forged::Forged3, &bytes);
        }
    }
}

// ---------------------------------------------------------------------------------
// Found: an element of a table list (unions, text, lists) read alone, `get(i)`.
// Not from the union change: `LazyList::element`'s `Table` arm checks entry `i`
// against the end of the offset table, where up-front validation checks it against
// entry `i - 1` and reports a bad entry `i` on element `i`'s path.
// ---------------------------------------------------------------------------------

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Words {
    ws: Vec<String>,
}

/// `HD8` with `us = [Unit, Fix, Unit]` and entry 2 of the list's offset table set to
/// `entry`; the list's region is at 20, its table entries at 20, 24 and 28 (12, 13,
/// 20), the region 21 bytes long.
fn hd8_with_entry2(entry: u8) -> Vec<u8> {
    let h = HD8 {
        id: 1,
        u: D8::Unit,
        us: vec![D8::Unit, D8::Fix(sample_fix()), D8::Unit],
        o: None,
    };
    let mut bytes = h.to_bytes().unwrap();
    assert_eq!(&bytes[20..32], &[12, 0, 0, 0, 13, 0, 0, 0, 20, 0, 0, 0]);
    bytes[28] = entry;
    bytes
}

/// `Words` with `ws = ["a", "bcdefg", "h"]` and entry 2 (at 14; the table holds 12,
/// 13, 19 in a region of 20 bytes) set to `entry`.
fn words_with_entry2(entry: u8) -> Vec<u8> {
    let w = Words {
        ws: vec!["a".into(), "bcdefg".into(), "h".into()],
    };
    let mut bytes = w.to_bytes().unwrap();
    assert_eq!(&bytes[6..18], &[12, 0, 0, 0, 13, 0, 0, 0, 19, 0, 0, 0]);
    bytes[14] = entry;
    bytes
}

/// Entry 2 (12) before entry 1 (13): `view` refuses it on `us[2]`'s path
/// (`OffsetOutOfRange { end: 12, min: 13 }` at the entry), as the in-order read
/// does (element 1's end is entry 2); element 2 read alone refuses it too (it was a
/// value before the fix).
#[test]
fn a_table_element_read_alone_after_its_entry_went_back() {
    let bytes = hd8_with_entry2(12);
    let expected = HD8::view(&bytes).unwrap_err();
    assert_eq!(
        parts(&expected),
        (
            "OffsetOutOfRange { end: 12, min: 13, max: 21 }".into(),
            28,
            "us[2]".into()
        )
    );
    let us = HD8::view_lazy(&bytes).unwrap().us().unwrap();
    // In order (element 1 first): view's error.
    let err = us.get(1).unwrap().unwrap_err();
    assert_eq!(parts(&err), parts(&expected));
    // Alone: `Ok(Unit)` (the bytes from 12 read as element 2: element 0's tag 0, then `Fix`'s).
    let got = us.get(2).unwrap().and_then(d8);
    assert_eq!(got.map_err(|e| parts(&e)), Err(parts(&expected)));
    // The same with text, no union involved.
    let bytes = words_with_entry2(12);
    let expected = Words::view(&bytes).unwrap_err();
    assert_eq!(expected.path(), "ws[2]");
    let ws = Words::view_lazy(&bytes).unwrap().ws().unwrap();
    let got = ws.get(2).unwrap(); // Ok("abcdefgh")
    assert_eq!(got.map_err(|e| parts(&e)), Err(parts(&expected)));
    // An iteration, which passes each entry it read on to the next element, reads
    // every element as `get` does.
    let bytes = hd8_with_entry2(12);
    let us = HD8::view_lazy(&bytes).unwrap().us().unwrap();
    let by_get: Vec<_> = (0..us.len())
        .map(|i| us.get(i).unwrap().and_then(d8).map_err(|e| parts(&e)))
        .collect();
    let by_iter: Vec<_> = us
        .iter()
        .map(|u| u.and_then(d8).map_err(|e| parts(&e)))
        .collect();
    assert_eq!(by_iter, by_get);
    assert_eq!(by_iter[2], Err(parts(&HD8::view(&bytes).unwrap_err())));
    // `nth` reads its element alone, as `get` does, from the start or mid-way.
    for n in 0..=us.len() + 1 {
        let got = us
            .iter()
            .nth(n)
            .map(|u| u.and_then(d8).map_err(|e| parts(&e)));
        assert_eq!(got, by_get.get(n).cloned(), "nth({n})");
    }
    let mut iter = us.iter();
    let _ = iter.next();
    let second = iter.nth(1).map(|u| u.and_then(d8).map_err(|e| parts(&e)));
    assert_eq!(second, Some(by_get[2].clone()));
    assert_eq!(iter.len(), us.len() - 3);
    let bytes = words_with_entry2(12);
    let ws = Words::view_lazy(&bytes).unwrap().ws().unwrap();
    let by_iter: Vec<_> = ws.iter().map(|w| w.map_err(|e| parts(&e))).collect();
    let by_get: Vec<_> = (0..ws.len())
        .map(|i| ws.get(i).unwrap().map_err(|e| parts(&e)))
        .collect();
    assert_eq!(by_iter, by_get);
    assert_eq!(by_iter[2], Err(parts(&Words::view(&bytes).unwrap_err())));
}

/// Entry 2 past the list: both reads refuse it on `us[2]`'s path, with the same
/// error: the entry had to be at least entry 1 (13) (the read alone said the table's
/// end, 12, before the fix).
#[test]
fn a_table_element_read_alone_with_its_entry_past_the_list() {
    let bytes = hd8_with_entry2(27);
    let expected = HD8::view(&bytes).unwrap_err();
    assert_eq!(
        parts(&expected),
        (
            "OffsetOutOfRange { end: 27, min: 13, max: 21 }".into(),
            28,
            "us[2]".into()
        )
    );
    let us = HD8::view_lazy(&bytes).unwrap().us().unwrap();
    let err = us.get(2).unwrap().unwrap_err(); // min: 12
    assert_eq!(parts(&err), parts(&expected));
    let bytes = words_with_entry2(27);
    let expected = Words::view(&bytes).unwrap_err();
    let ws = Words::view_lazy(&bytes).unwrap().ws().unwrap();
    let err = ws.get(2).unwrap().unwrap_err(); // min: 12
    assert_eq!(parts(&err), parts(&expected));
}
