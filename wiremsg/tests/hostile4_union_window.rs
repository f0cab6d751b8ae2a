//! Hostile tests of the on-demand union's table of variant headers (the 64-tag window
//! from the union's least tag, `trust/shape/union.rs`): every repr, windows at the
//! edges of each repr's range, a window exactly 64 wide and one 65 wide, tags that wrap
//! below the least one, the same payload type under several tags, unit variants only,
//! a catch-all, a version 2 union read by version 1, payload messages of two versions,
//! unions in unions, in options and in table lists. Every read on demand (the union
//! alone, the union as a field, each list element in an iteration and alone) gives
//! what `view`/`decode` gives, or `view`'s error (kind, offset, path).

use std::fmt::Debug;
use wiremsg::{DecodeField, Error, WireMsg, WireUnion};

type Key = (String, usize, String);

fn key(e: &Error) -> Key {
    (format!("{:?}", e.kind()), e.offset(), e.path())
}

// --- payloads -----------------------------------------------------------------------

/// Fixed-size (no block length), 6 bytes.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Fx {
    a: u32,
    b: u16,
}

/// With a tail: block length 7.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Tx {
    s: String,
    n: u8,
}

/// A block length and no tail: block length 10.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(block_length)]
struct Bx {
    v: u64,
}

/// Fixed-size with a field of version 2: min 4, block 6.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(version = 2)]
struct Gx {
    a: u32,
    #[wire(since = 2, default = 77)]
    b: u16,
}

fn fx(l: FxLazy<'_>) -> Result<Fx, Error> {
    Ok(Fx {
        a: l.a()?,
        b: l.b()?,
    })
}
fn tx(l: TxLazy<'_>) -> Result<Tx, Error> {
    Ok(Tx {
        s: l.s()?.into(),
        n: l.n()?,
    })
}
fn bx(l: BxLazy<'_>) -> Result<Bx, Error> {
    Ok(Bx { v: l.v()? })
}
fn gx(l: GxLazy<'_>) -> Result<Gx, Error> {
    Ok(Gx {
        a: l.a()?,
        b: l.b()?,
    })
}

// --- unions -------------------------------------------------------------------------

/// `u16`, the window from 0x1000 exactly full: its last slot (0x103F) taken.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
enum W16 {
    Edge(Tx) = 0x103F,
    Least(Fx) = 0x1000,
    Mid = 0x101F,
    G(Gx) = 0x1001,
    B(Bx) = 0x1002,
}

/// The same, one tag past the window (0x1040): no table.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
enum X16 {
    Edge(Tx) = 0x1040,
    Least(Fx) = 0x1000,
    Mid = 0x101F,
    G(Gx) = 0x1001,
    B(Bx) = 0x1002,
}

/// `u32` at the top of its range: the window ends at `u32::MAX`.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u32)]
enum T32 {
    Top(Tx) = u32::MAX,
    Least(Fx) = u32::MAX - 63,
    Unit = u32::MAX - 1,
    G(Gx) = u32::MAX - 32,
}

/// `u64`, the window exactly at its top: tags 0..=63 wrap to slots 64.. (out).
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u64)]
enum T64 {
    Top(Tx) = u64::MAX,
    Least(Fx) = u64::MAX - 63,
    B(Bx) = u64::MAX - 62,
}

/// `u64` from 0, with a variant at 63: tags `1 << 32`, `1 << 63` and past `u32` must
/// not alias a slot.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u64)]
enum Z64 {
    Zero(Fx) = 0,
    Last(Tx) = 63,
    G(Gx) = 32,
}

/// `u8` near the top: window 0xC0..=0xFF.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum H8 {
    Least(Fx) = 0xC0,
    Top(Tx) = 0xFF,
    Unit = 0xC8,
    G(Gx) = 0xFE,
}

/// One payload type under many tags (kind bytes), and a struct variant.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Dup {
    A(Fx) = b'A',
    B(Fx) = b'B',
    C(Fx) = b'h',
    D(Tx) = b'D',
    E(Tx) = b'E',
    S { x: u32, t: String } = b'S',
    N = b'N',
}

/// Units alone, far from 0.
#[derive(WireUnion, Debug, Clone, Copy, PartialEq)]
#[repr(u16)]
enum Units {
    A = 1000,
    B = 1063,
    C = 1001,
}

/// A catch-all: never by the table.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Ca {
    A(Fx) = 0x41,
    T(Tx) = 0x42,
    U = 0x43,
    #[wire(other)]
    Other {
        tag: u8,
        bytes: Vec<u8>,
    },
}

/// Only one variant, at `u64::MAX`: slot 0 is `u64::MAX`, every other tag wraps.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u64)]
enum One64 {
    Only(Tx) = u64::MAX,
}

// --- owned reads on demand ------------------------------------------------------------

/// `fn $f(l: $lazy) -> Result<$u, Error>`: the union read on demand, every payload
/// field through its accessor.
macro_rules! owned {
    ($f:ident, $u:ident, $lazy:ident; $($v:ident => $p:ident),*; units $($unit:ident),*) => {
        #[allow(unreachable_patterns)]
        fn $f(l: $lazy<'_>) -> Result<$u, Error> {
            Ok(match l {
                $($lazy::$v(x) => $u::$v($p(x)?),)*
                $($lazy::$unit => $u::$unit,)*
            })
        }
    };
}

owned!(w16, W16, W16Lazy; Edge => tx, Least => fx, G => gx, B => bx; units Mid);
owned!(x16, X16, X16Lazy; Edge => tx, Least => fx, G => gx, B => bx; units Mid);
owned!(t32, T32, T32Lazy; Top => tx, Least => fx, G => gx; units Unit);
owned!(t64, T64, T64Lazy; Top => tx, Least => fx, B => bx; units);
owned!(z64, Z64, Z64Lazy; Zero => fx, Last => tx, G => gx; units);
owned!(h8, H8, H8Lazy; Least => fx, Top => tx, G => gx; units Unit);
owned!(one64, One64, One64Lazy; Only => tx; units);
owned!(units, Units, UnitsLazy; ; units A, B, C);

fn dup(l: DupLazy<'_>) -> Result<Dup, Error> {
    Ok(match l {
        DupLazy::A(x) => Dup::A(fx(x)?),
        DupLazy::B(x) => Dup::B(fx(x)?),
        DupLazy::C(x) => Dup::C(fx(x)?),
        DupLazy::D(x) => Dup::D(tx(x)?),
        DupLazy::E(x) => Dup::E(tx(x)?),
        DupLazy::S(x) => Dup::S {
            x: x.x()?,
            t: x.t()?.into(),
        },
        DupLazy::N => Dup::N,
    })
}

fn ca(l: CaLazy<'_>) -> Result<Ca, Error> {
    Ok(match l {
        CaLazy::A(x) => Ca::A(fx(x)?),
        CaLazy::T(x) => Ca::T(tx(x)?),
        CaLazy::U => Ca::U,
        CaLazy::Other { tag, bytes } => Ca::Other {
            tag,
            bytes: bytes.to_vec(),
        },
    })
}

// --- the comparison -----------------------------------------------------------------

/// `bytes` as union `U` up front (`view`, `decode`) and on demand (`view_lazy`, then
/// `read`): the same value, or the same error. Returns the outcome.
fn same<U>(bytes: &[u8], read: impl for<'v> Fn(U::Lazy<'v>) -> Result<U, Error>) -> Result<U, Key>
where
    U: WireUnion + for<'v> DecodeField<'v> + PartialEq + Debug + UnionLazyOf,
{
    let upfront = U::view(bytes).map(|_| U::decode(bytes).expect("decode of a view"));
    let lazy = U::lazy_of(bytes).and_then(read);
    match (upfront, lazy) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "{bytes:02x?}");
            Ok(a)
        }
        (Err(a), Err(b)) => {
            assert_eq!(key(&b), key(&a), "{bytes:02x?}");
            Err(key(&a))
        }
        (a, b) => panic!(
            "{bytes:02x?}: view {:?}, on demand {:?}",
            a.map_err(|e| key(&e)),
            b.map_err(|e| key(&e))
        ),
    }
}

/// The union's on-demand view type, named for `same`'s closure.
trait UnionLazyOf: WireUnion {
    type Lazy<'v>;
    fn lazy_of(bytes: &[u8]) -> Result<Self::Lazy<'_>, Error>;
}

macro_rules! lazy_of {
    ($($u:ident),*) => {$(
        impl UnionLazyOf for $u {
            type Lazy<'v> = wiremsg::UnionLazy<'v, $u>;
            fn lazy_of(bytes: &[u8]) -> Result<Self::Lazy<'_>, Error> {
                $u::view_lazy(bytes)
            }
        }
    )*};
}

lazy_of!(W16, X16, T32, T64, Z64, H8, Dup, Units, Ca, One64);

/// Payloads: empty, short, every payload type's encodings (both versions of `Gx`),
/// block lengths around each minimum and past the bytes, bad UTF-8, junk.
fn payloads() -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = vec![vec![], vec![0], vec![0xff; 3], vec![0; 4], vec![0; 5]];
    let f = Fx {
        a: 0xA1A2A3A4,
        b: 0xB1B2,
    }
    .to_bytes()
    .unwrap();
    let t = Tx {
        s: "héllo".into(),
        n: 9,
    }
    .to_bytes()
    .unwrap();
    let b = Bx {
        v: 0x0102030405060708,
    }
    .to_bytes()
    .unwrap();
    let g = Gx { a: 5, b: 6 }.to_bytes().unwrap();
    out.extend([f.clone(), t.clone(), b.clone(), g.clone()]);
    out.push(g[..4].to_vec()); // Gx of version 1
    out.push(g[..5].to_vec()); // cut inside `b`
    let mut longer = f.clone();
    longer.extend([0xEE; 7]); // bytes after the payload
    out.push(longer);
    for p in [&t, &b] {
        for bl in [0u16, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 40, 0xFFFF] {
            let mut q = p.clone();
            q[..2].copy_from_slice(&bl.to_le_bytes());
            out.push(q);
        }
        for cut in 0..p.len() {
            out.push(p[..cut].to_vec());
        }
    }
    // Tx's end offset out of range, then its text not UTF-8.
    for end in [0u8, 6, 7, 8, 13, 14, 15, 200] {
        let mut q = t.clone();
        q[2] = end;
        out.push(q);
    }
    let mut q = t.clone();
    q[8] = 0xFF;
    out.push(q);
    out
}

fn encode_tag(tag: u64, size: usize) -> Vec<u8> {
    tag.to_le_bytes()[..size].to_vec()
}

/// Tags around every given tag, the window's edges from `least`, and the repr's edges.
fn tags_around(known: &[u64], least: u64, max: u64) -> Vec<u64> {
    let mut out = vec![0, 1, 63, 64, 65, max, max - 1, max - 63, max - 64];
    for d in [0u64, 1, 31, 62, 63, 64, 65, 127, 128] {
        out.push(least.wrapping_add(d));
        out.push(least.wrapping_sub(d));
    }
    for &t in known {
        out.extend([t, t.wrapping_add(1), t.wrapping_sub(1), t.wrapping_add(64)]);
    }
    if max == u64::MAX {
        out.extend([
            1 << 32,
            (1u64 << 32).wrapping_add(least),
            1 << 63,
            (1u64 << 63).wrapping_add(least),
        ]);
    }
    let mut out: Vec<u64> = out.into_iter().map(|t| t & max).collect();
    out.sort_unstable();
    out.dedup();
    out
}

fn sweep<U>(
    size: usize,
    max: u64,
    read: impl for<'v> Fn(U::Lazy<'v>) -> Result<U, Error> + Copy,
) -> (usize, usize)
where
    U: WireUnion + for<'v> DecodeField<'v> + PartialEq + Debug + UnionLazyOf,
{
    let known: Vec<u64> = U::UNION_SCHEMA.variants.iter().map(|v| v.tag).collect();
    let least = *known.iter().min().unwrap();
    let (mut ok, mut err) = (0, 0);
    for tag in tags_around(&known, least, max) {
        for payload in payloads() {
            let mut bytes = encode_tag(tag, size);
            bytes.extend_from_slice(&payload);
            match same::<U>(&bytes, read) {
                Ok(_) => ok += 1,
                Err(_) => err += 1,
            }
        }
        // The tag cut short.
        for cut in 0..size {
            let bytes = encode_tag(tag, size)[..cut].to_vec();
            let e = same::<U>(&bytes, read).unwrap_err();
            assert_eq!(
                e.0,
                format!("Truncated {{ needed: {size}, available: {cut} }}")
            );
        }
    }
    (ok, err)
}

#[test]
fn every_repr_at_its_window_edges_reads_as_view_does() {
    let counts = [
        sweep::<W16>(2, u16::MAX.into(), w16),
        sweep::<X16>(2, u16::MAX.into(), x16),
        sweep::<T32>(4, u32::MAX.into(), t32),
        sweep::<T64>(8, u64::MAX, t64),
        sweep::<Z64>(8, u64::MAX, z64),
        sweep::<H8>(1, u8::MAX.into(), h8),
        sweep::<Dup>(1, u8::MAX.into(), dup),
        sweep::<Units>(2, u16::MAX.into(), units),
        sweep::<Ca>(1, u8::MAX.into(), ca),
        sweep::<One64>(8, u64::MAX, one64),
    ];
    // Each union both accepted and refused some of them.
    for (i, (ok, err)) in counts.iter().enumerate() {
        assert!(
            *ok > 5 && *err > 10,
            "union {i}: {ok} accepted, {err} refused"
        );
    }
}

#[test]
fn the_window_edge_slots_read_their_own_variant() {
    let t = Tx {
        s: "edge".into(),
        n: 1,
    };
    // The last slot (least + 63) and the first, each of its own variant.
    let bytes = W16::Edge(t.clone()).to_bytes().unwrap();
    assert_eq!(&bytes[..2], &[0x3F, 0x10]);
    assert_eq!(same::<W16>(&bytes, w16).unwrap(), W16::Edge(t.clone()));
    let f = Fx { a: 1, b: 2 };
    let bytes = W16::Least(f.clone()).to_bytes().unwrap();
    assert_eq!(same::<W16>(&bytes, w16).unwrap(), W16::Least(f.clone()));
    // The payload of `Edge` under the slot after the last (0x1040): unknown in `W16`,
    // `Edge` in `X16`.
    let mut past = bytes.clone();
    past[..2].copy_from_slice(&0x1040u16.to_le_bytes());
    let e = same::<W16>(&past, w16).unwrap_err();
    assert_eq!(
        e,
        (
            "UnknownVariant { union_name: \"W16\", tag: 4160 }".into(),
            0,
            String::new()
        )
    );
    // `u32::MAX` and `u64::MAX` at the window's last slot.
    let bytes = T32::Top(t.clone()).to_bytes().unwrap();
    assert_eq!(&bytes[..4], &[0xff; 4]);
    assert_eq!(same::<T32>(&bytes, t32).unwrap(), T32::Top(t.clone()));
    let bytes = T64::Top(t.clone()).to_bytes().unwrap();
    assert_eq!(same::<T64>(&bytes, t64).unwrap(), T64::Top(t.clone()));
    // Tag 0 wraps to slot 64 of `T64`'s window (out of it): unknown.
    let mut zero = bytes.clone();
    zero[..8].copy_from_slice(&0u64.to_le_bytes());
    assert!(
        same::<T64>(&zero, t64)
            .unwrap_err()
            .0
            .starts_with("UnknownVariant")
    );
    // `1 << 32` is not `Zero`'s 0, nor `(1 << 32) + 63` `Last`'s 63.
    let bytes = Z64::Last(t.clone()).to_bytes().unwrap();
    let mut alias = bytes.clone();
    alias[..8].copy_from_slice(&((1u64 << 32) + 63).to_le_bytes());
    assert!(
        same::<Z64>(&alias, z64)
            .unwrap_err()
            .0
            .starts_with("UnknownVariant")
    );
    // A Tx payload under a Fx tag of `Dup` is a Fx (6 bytes of it).
    let bytes = Dup::D(t.clone()).to_bytes().unwrap();
    let mut as_fx = bytes.clone();
    as_fx[0] = b'B';
    assert!(matches!(same::<Dup>(&as_fx, dup).unwrap(), Dup::B(_)));
}

// --- unions as fields, in options, lists, in unions, in maps ---------------------------

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
enum Outer {
    Inner(W16Box) = 0x2000,
    Kids(Kids) = 0x203F,
    Leaf = 0x2001,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct W16Box {
    w: W16,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Kids {
    ks: Vec<H8>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Holder {
    id: u8,
    u: W16,
    o: Option<T32>,
    us: Vec<Dup>,
    nest: Vec<Vec<Z64>>,
    outer: Outer,
    m: std::collections::BTreeMap<u8, H8>,
}

fn outer(l: OuterLazy<'_>) -> Result<Outer, Error> {
    Ok(match l {
        OuterLazy::Inner(b) => Outer::Inner(W16Box { w: w16(b.w()?)? }),
        OuterLazy::Kids(k) => Outer::Kids(Kids {
            ks: k
                .ks()?
                .iter()
                .map(|x| x.and_then(h8))
                .collect::<Result<_, _>>()?,
        }),
        OuterLazy::Leaf => Outer::Leaf,
    })
}

fn holder(l: HolderLazy<'_>) -> Result<Holder, Error> {
    // In field order, so that the first error is `view`'s.
    let (id, u, o) = (l.id()?, w16(l.u()?)?, l.o()?.map(t32).transpose()?);
    let us = l.us()?;
    // An iteration and `get(i)` read the same.
    for (i, x) in us.iter().enumerate() {
        let by_get = us.get(i).unwrap();
        assert_eq!(
            x.and_then(dup).map_err(|e| key(&e)),
            by_get.and_then(dup).map_err(|e| key(&e))
        );
    }
    Ok(Holder {
        id,
        u,
        o,
        us: us
            .iter()
            .map(|x| x.and_then(dup))
            .collect::<Result<_, _>>()?,
        nest: l
            .nest()?
            .iter()
            .map(|inner| inner?.iter().map(|x| x.and_then(z64)).collect())
            .collect::<Result<_, _>>()?,
        outer: outer(l.outer()?)?,
        m: {
            let m = l.m()?;
            let mut out = std::collections::BTreeMap::new();
            for e in m.iter() {
                let (k, v) = e?;
                out.insert(k, <H8 as DecodeField>::decode_view(v));
            }
            out
        },
    })
}

fn sample_holder() -> Holder {
    let t = |s: &str| Tx { s: s.into(), n: 3 };
    Holder {
        id: 1,
        u: W16::Edge(t("u")),
        o: Some(T32::Least(Fx { a: 7, b: 8 })),
        us: vec![
            Dup::N,
            Dup::C(Fx { a: 1, b: 1 }),
            Dup::S {
                x: 5,
                t: "s".into(),
            },
            Dup::E(t("e")),
        ],
        nest: vec![vec![Z64::Last(t("z")), Z64::G(Gx { a: 1, b: 2 })], vec![]],
        outer: Outer::Kids(Kids {
            ks: vec![H8::Top(t("k")), H8::Unit],
        }),
        m: [(1, H8::G(Gx { a: 9, b: 9 })), (2, H8::Unit)]
            .into_iter()
            .collect(),
    }
}

fn holder_same(bytes: &[u8]) -> Result<(), Key> {
    let upfront = Holder::view(bytes).map(|_| Holder::decode(bytes).unwrap());
    let lazy = Holder::view_lazy(bytes).and_then(holder);
    match (upfront, lazy) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a, b, "{bytes:02x?}");
            Ok(())
        }
        (Err(a), Err(b)) => {
            assert_eq!(key(&b), key(&a), "{bytes:02x?}");
            Err(key(&a))
        }
        (a, b) => panic!(
            "{bytes:02x?}: view {:?}, on demand {:?}",
            a.map_err(|e| key(&e)),
            b.map_err(|e| key(&e))
        ),
    }
}

#[test]
fn unions_in_fields_options_lists_maps_and_unions_under_every_one_byte_change() {
    let h = sample_holder();
    let bytes = h.to_bytes().unwrap();
    assert_eq!(holder_same(&bytes), Ok(()));
    assert_eq!(Holder::view_lazy(&bytes).and_then(holder).unwrap(), h);
    let (mut ok, mut err) = (0, 0);
    for at in 0..bytes.len() {
        for v in [
            0x00,
            0x01,
            0x3F,
            0x40,
            0xFF,
            bytes[at].wrapping_add(1),
            bytes[at].wrapping_sub(1),
        ] {
            let mut b = bytes.clone();
            b[at] = v;
            match holder_same(&b) {
                Ok(()) => ok += 1,
                Err(_) => err += 1,
            }
        }
    }
    assert!(ok > 100 && err > 100, "{ok} {err}");
    for cut in 0..bytes.len() {
        let _ = holder_same(&bytes[..cut]);
    }
}

// --- versions -----------------------------------------------------------------------

mod v1 {
    use super::{Fx, Tx};
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct P {
        pub(crate) a: u32,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u16)]
    pub(crate) enum Ev {
        F(Fx) = 500,
        T(Tx) = 501,
        P(P) = 502,
    }
}

mod v2 {
    use super::{Fx, Tx};
    use wiremsg::{WireMsg, WireUnion};

    /// `P` of version 2: a fixed-size payload that grew (6 bytes, was 4).
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct P {
        pub(crate) a: u32,
        #[wire(since = 2)]
        pub(crate) b: u16,
    }

    /// Version 2 adds a variant at the window's last slot, and one at its first
    /// slot minus one (a new least tag: the window moves down).
    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u16)]
    #[wire(version = 2)]
    pub(crate) enum Ev {
        F(Fx) = 500,
        T(Tx) = 501,
        P(P) = 502,
        #[wire(since = 2)]
        New(Fx) = 563,
        #[wire(since = 2)]
        Low = 499,
    }
}

fn ev1(l: v1::EvLazy<'_>) -> Result<v1::Ev, Error> {
    Ok(match l {
        v1::EvLazy::F(x) => v1::Ev::F(fx(x)?),
        v1::EvLazy::T(x) => v1::Ev::T(tx(x)?),
        v1::EvLazy::P(x) => v1::Ev::P(v1::P { a: x.a()? }),
    })
}

fn ev2(l: v2::EvLazy<'_>) -> Result<v2::Ev, Error> {
    Ok(match l {
        v2::EvLazy::F(x) => v2::Ev::F(fx(x)?),
        v2::EvLazy::T(x) => v2::Ev::T(tx(x)?),
        v2::EvLazy::P(x) => v2::Ev::P(v2::P {
            a: x.a()?,
            b: x.b()?,
        }),
        v2::EvLazy::New(x) => v2::Ev::New(fx(x)?),
        v2::EvLazy::Low => v2::Ev::Low,
    })
}

impl UnionLazyOf for v1::Ev {
    type Lazy<'v> = wiremsg::UnionLazy<'v, v1::Ev>;
    fn lazy_of(bytes: &[u8]) -> Result<Self::Lazy<'_>, Error> {
        v1::Ev::view_lazy(bytes)
    }
}
impl UnionLazyOf for v2::Ev {
    type Lazy<'v> = wiremsg::UnionLazy<'v, v2::Ev>;
    fn lazy_of(bytes: &[u8]) -> Result<Self::Lazy<'_>, Error> {
        v2::Ev::view_lazy(bytes)
    }
}

#[test]
fn newer_and_older_writers_read_on_demand_as_view_does() {
    let f = Fx { a: 1, b: 2 };
    // v2 bytes read by v1: the new variants are unknown; the grown payload reads.
    let new = v2::Ev::New(f.clone()).to_bytes().unwrap();
    let e = same::<v1::Ev>(&new, ev1).unwrap_err();
    assert_eq!(
        e,
        (
            "UnknownVariant { union_name: \"Ev\", tag: 563 }".into(),
            0,
            String::new()
        )
    );
    let low = v2::Ev::Low.to_bytes().unwrap();
    assert!(
        same::<v1::Ev>(&low, ev1)
            .unwrap_err()
            .0
            .starts_with("UnknownVariant")
    );
    let p2 = v2::Ev::P(v2::P { a: 9, b: 10 }).to_bytes().unwrap();
    assert_eq!(p2.len(), 8);
    assert_eq!(same::<v1::Ev>(&p2, ev1).unwrap(), v1::Ev::P(v1::P { a: 9 }));
    // v1 bytes read by v2: the payload of version 1 reads `b` as absent (0).
    let p1 = v1::Ev::P(v1::P { a: 9 }).to_bytes().unwrap();
    assert_eq!(
        same::<v2::Ev>(&p1, ev2).unwrap(),
        v2::Ev::P(v2::P { a: 9, b: 0 })
    );
    // Cut inside `b`: no version's block.
    let e = same::<v2::Ev>(&p2[..7], ev2).unwrap_err();
    assert!(e.0.starts_with("BlockLengthTooSmall"), "{e:?}");
    assert_eq!(e.2, "P.b");
    // Every tag of either version over every payload, both readers.
    for tag in 0..=u16::MAX {
        if !(tag < 8 || (480..=600).contains(&tag) || tag > u16::MAX - 4) {
            continue;
        }
        for payload in payloads() {
            let mut bytes = tag.to_le_bytes().to_vec();
            bytes.extend_from_slice(&payload);
            let _ = same::<v1::Ev>(&bytes, ev1);
            let _ = same::<v2::Ev>(&bytes, ev2);
        }
    }
}

// --- the nesting limit through the table ----------------------------------------------

/// A recursive union whose tags are kind bytes (the table from b'a').
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Expr {
    Lit(Fx) = b'a',
    Neg { e: Box<Expr> } = b'z',
    Pair { l: Box<Expr>, r: Box<Expr> } = b'p',
    Nil = b'n',
}

fn expr(l: ExprLazy<'_>) -> Result<Expr, Error> {
    Ok(match l {
        ExprLazy::Lit(x) => Expr::Lit(fx(x)?),
        ExprLazy::Neg(x) => Expr::Neg {
            e: Box::new(expr(x.e()?)?),
        },
        ExprLazy::Pair(p) => Expr::Pair {
            l: Box::new(expr(p.l()?)?),
            r: Box::new(expr(p.r()?)?),
        },
        ExprLazy::Nil => Expr::Nil,
    })
}

lazy_of!(Expr);

#[test]
fn recursive_kind_byte_unions_around_the_nesting_limit() {
    // Negations and pairs nested `n` deep (encoding refuses past the limit).
    for n in [60usize, 62, 63, 64, 65, 66, 70] {
        let mut e = Expr::Lit(Fx { a: n as u32, b: 0 });
        for i in 0..n {
            e = if i % 3 == 0 {
                Expr::Neg { e: Box::new(e) }
            } else {
                Expr::Pair {
                    l: Box::new(Expr::Nil),
                    r: Box::new(e),
                }
            };
        }
        let Ok(bytes) = e.to_bytes() else { continue };
        let got = same::<Expr>(&bytes, expr);
        if let Ok(v) = got {
            assert_eq!(v, e);
        }
        // Every byte changed to each tag byte.
        for at in 0..bytes.len().min(400) {
            for v in [b'a', b'z', b'p', b'n', 0x00, 0xFF] {
                let mut b = bytes.clone();
                b[at] = v;
                let _ = same::<Expr>(&b, expr);
            }
        }
    }
}
