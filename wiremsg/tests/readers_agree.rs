//! Every reader agrees on every input: random mutations of a valid encoding of one
//! message that combines shapes the fuzz targets keep apart (lists of lists of
//! lists, options of enums in arrays, maps of unions with and without a catch-all,
//! dense union lists in options and tuples, versioned messages in split lists,
//! generic messages, the trading field types, `max_len`, `reserved`, fields since
//! versions 2 and 3). For each input, the up-front view, the mutable view, `decode`,
//! the on-demand view and both schema-driven readers accept or refuse it alike, with
//! the same error kind, offset and path; an accepted input gives the same JSON through
//! the typed and the schema-driven view, and decodes to a value that encodes again.
//! `READERS_AGREE_ITERS` and `READERS_AGREE_SEED` run it longer or elsewhere.
//! From the fifteenth session's hostile review (150,000 mutations on three seeds,
//! no disagreement).
#![allow(dead_code)]
#[path = "common/xorshift.rs"]
mod xorshift;

use std::collections::BTreeMap;
use wiremsg::{Decimal, FixedStr, SchemaSet, WireEnum, WireMsg, WireUnion};
use xorshift::XorShift;

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Col {
    R = 0,
    G = 1,
    B = 2,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u16)]
enum Wide {
    A = 7,
    B = 300,
    #[wire(other)]
    Other(u16),
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Px {
    m: i32,
    live: bool,
    col: Col,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(block_length, version = 2)]
struct Grow {
    a: u16,
    #[wire(since = 2)]
    b: Option<String>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Gen<T> {
    head: u8,
    items: Vec<T>,
    one: Option<T>,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Fx {
    Nop = 0,
    P(Px) = 1,
    Q { a: u16, b: bool } = 2,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
enum Big {
    S {
        s: String,
    } = 5,
    G(Grow) = 6,
    U = 9,
    #[wire(other)]
    Other {
        tag: u16,
        bytes: Vec<u8>,
    },
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(version = 3)]
struct Hodge {
    id: u32,
    grid: Vec<Vec<Vec<String>>>,
    arr: [Option<Col>; 3],
    fxs: BTreeMap<u8, Fx>,
    bigs: BTreeMap<String, Big>,
    dense: Vec<Fx>,
    nested: Option<Vec<Vec<Fx>>>,
    tup: (u8, Vec<Fx>, String),
    tups: Vec<(Col, Option<String>)>,
    grows: Vec<Grow>,
    gn: Gen<Px>,
    gens: Vec<Gen<Grow>>,
    dec: Option<Decimal<i32, 2>>,
    #[wire(null = 0)]
    nul: Option<u16>,
    fs: [FixedStr<3, 0>; 2],
    wides: BTreeMap<Wide, (u8, bool)>,
    #[wire(max_len = 3)]
    few: Vec<Big>,
    #[wire(reserved)]
    gone: String,
    #[wire(since = 2)]
    later: Vec<Grow>,
    #[wire(since = 3, default = 77)]
    def: u32,
    #[wire(since = 3)]
    tail_str: String,
}

fn sample() -> Hodge {
    let px = Px {
        m: -3,
        live: true,
        col: Col::B,
    };
    Hodge {
        id: 9,
        grid: vec![
            vec![vec!["a".into(), "é".into()], vec![]],
            vec![vec!["zz".into()]],
        ],
        arr: [Some(Col::G), None, Some(Col::R)],
        fxs: [
            (1, Fx::Nop),
            (4, Fx::P(px.clone())),
            (9, Fx::Q { a: 3, b: false }),
        ]
        .into(),
        bigs: [
            ("k".to_string(), Big::S { s: "ß".into() }),
            (
                "m".to_string(),
                Big::G(Grow {
                    a: 1,
                    b: Some("x".into()),
                }),
            ),
            (
                "n".to_string(),
                Big::Other {
                    tag: 77,
                    bytes: vec![1, 2],
                },
            ),
        ]
        .into(),
        dense: vec![
            Fx::Q { a: 1, b: true },
            Fx::Nop,
            Fx::P(px.clone()),
            Fx::Q { a: 2, b: false },
        ],
        nested: Some(vec![vec![Fx::Nop, Fx::P(px.clone())], vec![]]),
        tup: (4, vec![Fx::Q { a: 9, b: true }], "tt".into()),
        tups: vec![(Col::G, Some("o".into())), (Col::B, None)],
        grows: vec![
            Grow { a: 5, b: None },
            Grow {
                a: 6,
                b: Some("g".into()),
            },
        ],
        gn: Gen {
            head: 1,
            items: vec![px.clone(), px.clone()],
            one: Some(px.clone()),
        },
        gens: vec![Gen {
            head: 2,
            items: vec![Grow {
                a: 8,
                b: Some("h".into()),
            }],
            one: None,
        }],
        dec: Some(Decimal::from_mantissa(1234)),
        nul: Some(5),
        fs: [FixedStr::new("ab").unwrap(), FixedStr::new("é").unwrap()],
        wides: [(Wide::A, (1, true)), (Wide::Other(500), (2, false))].into(),
        few: vec![Big::U, Big::S { s: "q".into() }],
        later: vec![Grow { a: 1, b: None }],
        def: 3,
        gone: String::new(),
        tail_str: "end".into(),
    }
}

fn mutate(rng: &mut XorShift, base: &[u8]) -> Vec<u8> {
    let mut b = base.to_vec();
    let n = 1 + rng.index(4);
    for _ in 0..n {
        if b.is_empty() {
            b.push(0);
        }
        match rng.index(9) {
            0 => {
                let i = rng.index(b.len());
                b[i] = rng.next() as u8;
            }
            1 => {
                let i = rng.index(b.len());
                b[i] ^= 1 << rng.index(8);
            }
            2 => {
                let i = rng.index(b.len());
                b[i] = b[i].wrapping_add(1);
            }
            3 => {
                let i = rng.index(b.len());
                b[i] = b[i].wrapping_sub(1);
            }
            4 => {
                let l = rng.index(b.len() + 1);
                b.truncate(l);
            }
            5 => {
                let i = rng.index(b.len() + 1);
                b.insert(i, rng.next() as u8);
            }
            6 => {
                let i = rng.index(b.len());
                b.remove(i);
            }
            7 => {
                let i = rng.index(b.len());
                let v = [0u8, 0xff, 0x80, 1, 2, 4][rng.index(6)];
                b[i] = v;
            }
            _ => {
                // small delta to a u16/u32 at a random place
                let i = rng.index(b.len());
                if i + 4 <= b.len() {
                    let mut w = u32::from_le_bytes(b[i..i + 4].try_into().unwrap());
                    let d = (rng.index(9) as i64 - 4) as i32;
                    w = w.wrapping_add(d as u32);
                    b[i..i + 4].copy_from_slice(&w.to_le_bytes());
                }
            }
        }
    }
    b
}

type Key = (wiremsg::ErrorKind, usize, String);
fn key(e: &wiremsg::Error) -> Key {
    (e.kind().clone(), e.offset(), e.path().to_string())
}

macro_rules! check_all {
    ($ty:ty, $set:expr, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        let set: &SchemaSet = $set;
        let name = <$ty as WireMsg>::SCHEMA.name.as_ref();
        let v = <$ty>::view(bytes);
        let mut copy = bytes.to_vec();
        let vm = <$ty>::view_mut(&mut copy).map(|_| ());
        let dec = <$ty>::decode(bytes);
        let lz = <$ty>::view_lazy(bytes).and_then(|l| l.to_view().map(|_| ()));
        let dv = wiremsg::dynamic::view(set, name, bytes);
        let dl =
            wiremsg::dynamic::view_lazy(set, name, bytes).and_then(|l| l.to_view().map(|_| ()));
        let k0 = v.as_ref().map(|_| ()).map_err(key);
        assert_eq!(k0, vm.map_err(|e| key(&e)), "view_mut {:02x?}", bytes);
        assert_eq!(
            k0,
            dec.as_ref().map(|_| ()).map_err(key),
            "decode {:02x?}",
            bytes
        );
        assert_eq!(k0, lz.map_err(|e| key(&e)), "lazy {:02x?}", bytes);
        assert_eq!(
            k0,
            dv.as_ref().map(|_| ()).map_err(key),
            "dynamic {:02x?}",
            bytes
        );
        assert_eq!(k0, dl.map_err(|e| key(&e)), "dynamic lazy {:02x?}", bytes);
        if let Err(e) = &v {
            assert!(e.offset() <= bytes.len(), "{e} {:02x?}", bytes);
        }
        if let (Ok(v), Ok(dv)) = (&v, &dv) {
            let a = serde_json::to_string(v).unwrap();
            let b = serde_json::to_string(dv).unwrap();
            assert_eq!(a, b, "json {:02x?}", bytes);
            let d = dec.unwrap();
            let again = d.to_bytes().expect("decoded encodes");
            let v2 = <$ty>::view(&again).expect("re-encoded views");
            assert_eq!(format!("{:?}", v2.decode()), format!("{:?}", d));
        }
        v.is_ok()
    }};
}

#[test]
fn the_sample_round_trips_through_every_reader() {
    let h = sample();
    let b = h.to_bytes().unwrap();
    assert_eq!(Hodge::decode(&b).unwrap(), h);
    let set = SchemaSet::of::<Hodge>().unwrap();
    assert!(check_all!(Hodge, &set, &b));
}

#[test]
fn every_reader_agrees_on_mutated_bytes() {
    let set = SchemaSet::of::<Hodge>().unwrap();
    let base = sample().to_bytes().unwrap();
    let iters: usize = std::env::var("READERS_AGREE_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5000);
    let seed: u64 = std::env::var("READERS_AGREE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x9e3779b97f4a7c15);
    let mut rng = XorShift(seed);
    let mut ok = 0;
    let mut pool = vec![base.clone()];
    for _ in 0..iters {
        let src = pool[rng.index(pool.len())].clone();
        let m = mutate(&mut rng, &src);
        if check_all!(Hodge, &set, &m) {
            ok += 1;
            if pool.len() < 200 {
                pool.push(m);
            }
        }
    }
    // The mutations must reach past the first check: some inputs stay valid.
    assert!(ok > iters / 100, "accepted {ok} of {iters}");
}
