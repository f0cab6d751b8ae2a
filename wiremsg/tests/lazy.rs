//! On-demand views (`WireMsg::view_lazy`, issue 32): each accessor checks what it
//! reads. Over valid bytes every field reads as the up-front view reads it; over
//! changed bytes a read of every field, in field order, fails exactly when `view`
//! fails, with the same error (kind, offset, path), and never panics; a field whose
//! path `view` would not refuse reads on demand whatever is wrong elsewhere.

use proptest::prelude::*;
use std::collections::BTreeMap;
use wiremsg::{Error, ErrorKind, FixedStr, WireEnum, WireMsg, WireUnion};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Level {
    px: i64,
    qty: u32,
    live: bool,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    venue: String,
    qty: u32,
    flags: Vec<bool>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Inner {
    id: u32,
    note: String,
    levels: Vec<Level>,
}

mod v1 {
    use super::*;

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) side: Side,
        pub(crate) sym: FixedStr<4>,
        pub(crate) note: String,
        pub(crate) tag: Option<String>,
        pub(crate) inner: Inner,
        pub(crate) top: Level,
        pub(crate) legs: Vec<Leg>,
        pub(crate) words: Vec<String>,
        pub(crate) grid: Vec<Vec<u16>>,
        pub(crate) limits: BTreeMap<String, u32>,
        pub(crate) pairs: Vec<(u8, String)>,
    }
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(version = 2)]
struct Order {
    id: u64,
    side: Side,
    sym: FixedStr<4>,
    note: String,
    tag: Option<String>,
    inner: Inner,
    top: Level,
    legs: Vec<Leg>,
    words: Vec<String>,
    grid: Vec<Vec<u16>>,
    limits: BTreeMap<String, u32>,
    pairs: Vec<(u8, String)>,
    #[wire(since = 2)]
    extra: u32,
    #[wire(since = 2)]
    more: Vec<Leg>,
}

/// What an error reports: kind, offset and path.
fn parts(err: &Error) -> (String, usize, String) {
    (format!("{:?}", err.kind()), err.offset(), err.path())
}

fn leg(venue: &str, qty: u32, flags: &[bool]) -> Leg {
    Leg {
        venue: venue.into(),
        qty,
        flags: flags.to_vec(),
    }
}

fn order() -> Order {
    Order {
        id: 0x0102_0304_0506_0708,
        side: Side::Sell,
        sym: FixedStr::new("AAPL").unwrap(),
        note: "first".into(),
        tag: Some("t".into()),
        inner: Inner {
            id: 9,
            note: "inside".into(),
            levels: vec![
                Level {
                    px: -5,
                    qty: 1,
                    live: true,
                },
                Level {
                    px: 7,
                    qty: 2,
                    live: false,
                },
            ],
        },
        top: Level {
            px: 100,
            qty: 3,
            live: true,
        },
        legs: vec![
            leg("XNAS", 5, &[true]),
            leg("ARCX", 6, &[]),
            leg("BATS", 7, &[false, true]),
        ],
        words: vec!["a".into(), "".into(), "ccc".into()],
        grid: vec![vec![1, 2], vec![], vec![3]],
        limits: BTreeMap::from([("x".to_string(), 1), ("yy".to_string(), 2)]),
        pairs: vec![(1, "one".into()), (2, "two".into())],
        extra: 77,
        more: vec![leg("IEX", 8, &[true, true])],
    }
}

/// Reads every field of a `Leg` on demand, in field order.
fn read_leg(leg: LegLazy<'_>) -> Result<Leg, Error> {
    Ok(Leg {
        venue: leg.venue()?.into(),
        qty: leg.qty()?,
        flags: leg.flags()?.iter().collect::<Result<_, _>>()?,
    })
}

fn read_level(level: LevelLazy<'_>) -> Result<Level, Error> {
    Ok(Level {
        px: level.px()?,
        qty: level.qty()?,
        live: level.live()?,
    })
}

/// Reads every field on demand, in field order (the order `view` checks them), and
/// builds the value: the first error is the one a read of everything meets first.
fn read_all(o: OrderLazy<'_>) -> Result<Order, Error> {
    let id = o.id()?;
    let side = o.side()?;
    let sym = FixedStr::new(o.sym()?).unwrap();
    let note = o.note()?.into();
    let tag = o.tag()?.map(Into::into);
    let inner = o.inner()?;
    let inner = Inner {
        id: inner.id()?,
        note: inner.note()?.into(),
        levels: inner
            .levels()?
            .iter()
            .map(|l| read_level(l?))
            .collect::<Result<_, _>>()?,
    };
    let top = read_level(o.top()?)?;
    let legs = o
        .legs()?
        .iter()
        .map(|l| read_leg(l?))
        .collect::<Result<_, _>>()?;
    let words = o
        .words()?
        .iter()
        .map(|w| w.map(String::from))
        .collect::<Result<_, _>>()?;
    let grid = o
        .grid()?
        .iter()
        .map(|row| row?.iter().collect::<Result<Vec<u16>, _>>())
        .collect::<Result<_, _>>()?;
    let limits = o
        .limits()?
        .iter()
        .map(|e| e.map(|(k, v)| (k.to_string(), v)))
        .collect::<Result<_, _>>()?;
    let pairs = o
        .pairs()?
        .iter()
        .map(|p| p.map(|(n, s)| (n, s.to_string())))
        .collect::<Result<_, _>>()?;
    let extra = o.extra()?;
    let more = match o.try_more()? {
        Some(more) => more
            .iter()
            .map(|l| read_leg(l?))
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    Ok(Order {
        id,
        side,
        sym,
        note,
        tag,
        inner,
        top,
        legs,
        words,
        grid,
        limits,
        pairs,
        extra,
        more,
    })
}

#[test]
fn every_field_reads_on_demand_as_the_view_reads_it() {
    let value = order();
    let bytes = value.to_bytes().unwrap();
    let lazy = Order::view_lazy(&bytes).unwrap();
    assert_eq!(read_all(lazy.clone()).unwrap(), value);
    let view = Order::view(&bytes).unwrap();
    assert_eq!(lazy.to_view().unwrap(), view);
    assert_eq!(lazy.inner().unwrap().to_view().unwrap(), view.inner());
    let leg = lazy.legs().unwrap().get(2).unwrap().unwrap();
    assert_eq!(leg.to_view().unwrap(), view.legs().get(2).unwrap());
    assert_eq!(lazy.legs().unwrap().to_view().unwrap(), view.legs());
    assert_eq!(lazy.legs().unwrap().len(), 3);
    assert!(lazy.legs().unwrap().get(3).is_none());
    assert_eq!(lazy.words().unwrap().get(2).unwrap().unwrap(), "ccc");
    assert!(
        format!("{lazy:?}").starts_with("OrderLazy { id: Ok(72623859790382856), side: Ok(Sell)")
    );
}

#[test]
fn on_demand_views_compare_and_serialize_as_their_up_front_views() {
    let bytes = order().to_bytes().unwrap();
    let lazy = Order::view_lazy(&bytes).unwrap();
    assert_eq!(lazy, Order::view_lazy(&bytes).unwrap());
    let mut other = order();
    other.legs[1].qty += 1;
    let other = other.to_bytes().unwrap();
    assert_ne!(lazy, Order::view_lazy(&other).unwrap());
    let view = Order::view(&bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&lazy).unwrap(),
        serde_json::to_string(&view).unwrap()
    );
    // Bytes that fail validation: no JSON, the error as serde's; equal to nothing.
    let at = bytes.windows(4).position(|w| w == b"ARCX").unwrap();
    let mut bad = bytes.clone();
    bad[at] = 0xFF;
    let broken = Order::view_lazy(&bad).unwrap();
    let err = serde_json::to_string(&broken).unwrap_err();
    assert!(err.to_string().contains("legs[1].venue"), "{err}");
    assert_ne!(broken, broken);
}

#[test]
fn an_older_writers_bytes_read_on_demand_with_the_defaults() {
    let old = v1::Order {
        id: 1,
        side: Side::Buy,
        sym: FixedStr::new("MSFT").unwrap(),
        note: "n".into(),
        tag: None,
        inner: Inner {
            id: 2,
            note: String::new(),
            levels: vec![],
        },
        top: Level {
            px: 1,
            qty: 1,
            live: false,
        },
        legs: vec![leg("A", 1, &[true])],
        words: vec![],
        grid: vec![],
        limits: BTreeMap::new(),
        pairs: vec![],
    };
    let bytes = old.to_bytes().unwrap();
    let lazy = Order::view_lazy(&bytes).unwrap();
    assert!(!lazy.has_extra());
    assert_eq!(lazy.try_extra().unwrap(), None);
    assert_eq!(lazy.extra().unwrap(), 0);
    assert!(lazy.try_more().unwrap().is_none());
    let read = read_all(lazy).unwrap();
    assert_eq!(
        (read.id, read.legs, read.extra),
        (1, vec![leg("A", 1, &[true])], 0)
    );
    // And the newer writer's bytes through the older reader's on-demand view.
    let new = order().to_bytes().unwrap();
    let lazy = v1::Order::view_lazy(&new).unwrap();
    assert_eq!(lazy.legs().unwrap().len(), 3);
    assert_eq!(lazy.to_view().unwrap(), v1::Order::view(&new).unwrap());
}

#[test]
fn a_field_off_the_broken_path_reads_and_one_on_it_fails_as_view_does() {
    let bytes = order().to_bytes().unwrap();
    let view = Order::view(&bytes).unwrap();
    // Break the text of legs[1].venue ("ARCX"): find it in the bytes.
    let at = bytes.windows(4).position(|w| w == b"ARCX").unwrap();
    let mut bad = bytes.clone();
    bad[at] = 0xFF;
    let expected = Order::view(&bad).unwrap_err();
    assert_eq!(expected.path(), "legs[1].venue");
    let lazy = Order::view_lazy(&bad).unwrap();
    // Off the path: read.
    assert_eq!(lazy.id().unwrap(), view.id());
    assert_eq!(lazy.note().unwrap(), "first");
    let legs = lazy.legs().unwrap();
    assert_eq!(legs.get(0).unwrap().unwrap().venue().unwrap(), "XNAS");
    assert_eq!(legs.get(1).unwrap().unwrap().qty().unwrap(), 6);
    // On it: the error `view` reports.
    let err = legs.get(1).unwrap().unwrap().venue().unwrap_err();
    assert_eq!(parts(&err), parts(&expected));
    assert_eq!(err.offset(), at);
    assert_eq!(parts(&lazy.to_view().unwrap_err()), parts(&expected));
}

#[test]
fn an_elements_block_fields_read_without_its_tail() {
    let bytes = order().to_bytes().unwrap();
    let view = Order::view(&bytes).unwrap();
    // Element 1's tail start (FORMAT.md §6.3): the first word of its slot.
    let legs_at = bytes.windows(4).position(|w| w == b"XNAS").unwrap();
    let lazy = Order::view_lazy(&bytes).unwrap();
    let legs = lazy.legs().unwrap();
    let count = legs.len();
    let block = Leg::BLOCK_LENGTH;
    // The list's region starts with element 0's slot; its tails start after the blocks.
    let list_at = legs_at - count * (block + 4);
    let mut bad = bytes.clone();
    let slot = list_at + block + 4;
    bad[slot..slot + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let expected = Order::view(&bad).unwrap_err();
    let lazy = Order::view_lazy(&bad).unwrap();
    let leg = lazy.legs().unwrap().get(1).unwrap().unwrap();
    // Its block: read, as the broken tail start is not on the field's path.
    assert_eq!(leg.qty().unwrap(), view.legs().get(1).unwrap().qty());
    // Its tail: the list's error, as view reports it.
    let err = leg.venue().unwrap_err();
    assert_eq!(parts(&err), parts(&expected));
    assert!(expected.path().starts_with("legs["), "{}", expected.path());
    // Element 0's tail ends where element 1's starts: its text is on that path too.
    let first = lazy.legs().unwrap().get(0).unwrap().unwrap();
    assert_eq!(first.qty().unwrap(), 5);
    assert!(first.venue().is_err());
}

#[test]
fn the_header_alone_is_checked_up_front() {
    let bytes = order().to_bytes().unwrap();
    let err = Order::view_lazy(&bytes[..1]).unwrap_err();
    assert_eq!(parts(&err), parts(&Order::view(&bytes[..1]).unwrap_err()));
    let err = Order::view_lazy(&bytes[..10]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: Order::BLOCK_LENGTH,
            available: 10
        }
    );
    // A buffer cut inside the tail: the header passes, and the fields whose regions
    // are inside the bytes read.
    let cut = &bytes[..Order::BLOCK_LENGTH + 5]; // "first", then nothing of "t"
    let lazy = Order::view_lazy(cut).unwrap();
    assert_eq!(lazy.id().unwrap(), order().id);
    assert_eq!(lazy.note().unwrap(), "first");
    assert_eq!(
        parts(&lazy.tag().unwrap_err()),
        parts(&Order::view(cut).unwrap_err())
    );
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Maybe {
    inner: Option<Inner>,
    level: Option<Level>,
}

#[test]
fn an_optional_message_is_an_on_demand_view_too() {
    let value = Maybe {
        inner: Some(Inner {
            id: 4,
            note: "abc".into(),
            levels: vec![],
        }),
        level: None,
    };
    let mut bytes = value.to_bytes().unwrap();
    let at = bytes.windows(3).position(|w| w == b"abc").unwrap();
    bytes[at] = 0xFF;
    let expected = Maybe::view(&bytes).unwrap_err();
    let lazy = Maybe::view_lazy(&bytes).unwrap();
    let inner = lazy.inner().unwrap().expect("present");
    assert_eq!(inner.id().unwrap(), 4); // the broken text is not read
    assert_eq!(parts(&inner.note().unwrap_err()), parts(&expected));
    assert_eq!(expected.path(), "inner.note");
    assert!(lazy.level().unwrap().is_none());
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Instr {
    Market = 0,
    Limit(Level) = 1,
    Peg {
        offset: i32,
        venue: String,
    } = 2,
    #[wire(other)]
    Other {
        tag: u8,
        bytes: Vec<u8>,
    },
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Routed {
    id: u32,
    instr: Instr,
    instrs: Vec<Instr>,
}

fn read_instr(i: InstrLazy<'_>) -> Result<Instr, Error> {
    Ok(match i {
        InstrLazy::Market => Instr::Market,
        InstrLazy::Limit(l) => Instr::Limit(read_level(l)?),
        InstrLazy::Peg(p) => Instr::Peg {
            offset: p.offset()?,
            venue: p.venue()?.into(),
        },
        InstrLazy::Other { tag, bytes } => Instr::Other {
            tag,
            bytes: bytes.to_vec(),
        },
    })
}

fn read_routed(r: RoutedLazy<'_>) -> Result<Routed, Error> {
    Ok(Routed {
        id: r.id()?,
        instr: read_instr(r.instr()?)?,
        instrs: r
            .instrs()?
            .iter()
            .map(|i| read_instr(i?))
            .collect::<Result<_, _>>()?,
    })
}

fn routed() -> Routed {
    Routed {
        id: 3,
        instr: Instr::Peg {
            offset: -2,
            venue: "BATS".into(),
        },
        instrs: vec![
            Instr::Market,
            Instr::Limit(Level {
                px: 9,
                qty: 8,
                live: true,
            }),
            Instr::Peg {
                offset: 1,
                venue: "XNAS".into(),
            },
            Instr::Other {
                tag: 9,
                bytes: vec![1, 2],
            },
        ],
    }
}

#[test]
fn a_union_payload_is_an_on_demand_view() {
    let value = routed();
    let bytes = value.to_bytes().unwrap();
    assert_eq!(
        read_routed(Routed::view_lazy(&bytes).unwrap()).unwrap(),
        value
    );
    let mut bad = bytes.clone();
    let at = bad.windows(4).position(|w| w == b"BATS").unwrap();
    bad[at] = 0xC0;
    let expected = Routed::view(&bad).unwrap_err();
    assert_eq!(expected.path(), "instr.Peg.venue");
    let InstrLazy::Peg(peg) = Routed::view_lazy(&bad).unwrap().instr().unwrap() else {
        panic!("a Peg");
    };
    assert_eq!(peg.offset().unwrap(), -2); // the broken text is not read
    assert_eq!(parts(&peg.venue().unwrap_err()), parts(&expected));
    // A union value on its own.
    let alone = Instr::Peg {
        offset: 5,
        venue: "IEX".into(),
    }
    .to_bytes()
    .unwrap();
    let InstrLazy::Peg(peg) = Instr::view_lazy(&alone).unwrap() else {
        panic!("a Peg");
    };
    assert_eq!((peg.offset().unwrap(), peg.venue().unwrap()), (5, "IEX"));
}

fn arb_instr() -> impl Strategy<Value = Instr> {
    prop_oneof![
        Just(Instr::Market),
        (any::<i64>(), any::<u32>(), any::<bool>())
            .prop_map(|(px, qty, live)| Instr::Limit(Level { px, qty, live })),
        (any::<i32>(), "[a-z]{0,4}").prop_map(|(offset, venue)| Instr::Peg { offset, venue }),
        (3u8..200, prop::collection::vec(any::<u8>(), 0..3))
            .prop_map(|(tag, bytes)| Instr::Other { tag, bytes }),
    ]
}

/// A message with a block length on the wire, so that a union's variant carrying it
/// has a header with its own block length (FORMAT.md §5).
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(block_length)]
struct Stamp {
    at: u64,
    seq: u16,
}

/// A union without a catch-all whose tags are all within 64 of the least: its on-demand read
/// checks the payload's header by a table of the variants' headers before it
/// dispatches on the tag (`union::lazy_union`); `Instr`, with a catch-all, does not.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
enum Dense {
    Market = 0,
    Limit(Level) = 1,
    Peg { offset: i32, venue: String } = 2,
    Stamped(Stamp) = 7,
    Last(Level) = 15,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct DenseRouted {
    id: u32,
    instr: Dense,
    instrs: Vec<Dense>,
}

fn read_dense(d: DenseLazy<'_>) -> Result<Dense, Error> {
    let stamp = |s: StampLazy<'_>| -> Result<Stamp, Error> {
        Ok(Stamp {
            at: s.at()?,
            seq: s.seq()?,
        })
    };
    Ok(match d {
        DenseLazy::Market => Dense::Market,
        DenseLazy::Limit(l) => Dense::Limit(read_level(l)?),
        DenseLazy::Peg(p) => Dense::Peg {
            offset: p.offset()?,
            venue: p.venue()?.into(),
        },
        DenseLazy::Stamped(s) => Dense::Stamped(stamp(s)?),
        DenseLazy::Last(l) => Dense::Last(read_level(l)?),
    })
}

fn read_dense_routed(r: DenseRoutedLazy<'_>) -> Result<DenseRouted, Error> {
    Ok(DenseRouted {
        id: r.id()?,
        instr: read_dense(r.instr()?)?,
        instrs: r
            .instrs()?
            .iter()
            .map(|i| read_dense(i?))
            .collect::<Result<_, _>>()?,
    })
}

fn arb_dense() -> impl Strategy<Value = Dense> {
    let level = (any::<i64>(), any::<u32>(), any::<bool>()).prop_map(|(px, qty, live)| Level {
        px,
        qty,
        live,
    });
    prop_oneof![
        Just(Dense::Market),
        level.clone().prop_map(Dense::Limit),
        (any::<i32>(), "[a-z]{0,4}").prop_map(|(offset, venue)| Dense::Peg { offset, venue }),
        (any::<u64>(), any::<u16>()).prop_map(|(at, seq)| Dense::Stamped(Stamp { at, seq })),
        level.prop_map(Dense::Last),
    ]
}

#[test]
fn a_dense_union_reads_on_demand_as_view_does() {
    let level = Level {
        px: -4,
        qty: 2,
        live: false,
    };
    let value = DenseRouted {
        id: 9,
        instr: Dense::Stamped(Stamp { at: 77, seq: 5 }),
        instrs: vec![
            Dense::Market,
            Dense::Limit(level.clone()),
            Dense::Peg {
                offset: 3,
                venue: "ARCA".into(),
            },
            Dense::Stamped(Stamp { at: 1, seq: 2 }),
            Dense::Last(level),
        ],
    };
    let bytes = value.to_bytes().unwrap();
    let read = read_dense_routed(DenseRouted::view_lazy(&bytes).unwrap()).unwrap();
    assert_eq!(read, value);
    // Each way a payload's header fails, on the root's union field (whose region is
    // the tail's last but the list's): as `view` reports it.
    let stamp_at = bytes
        .windows(8)
        .position(|w| w == 77u64.to_le_bytes())
        .unwrap();
    let block_length_at = stamp_at - 2;
    for (what, at, value) in [
        ("a block length below the variant's", block_length_at, 3),
        ("a block length past the payload", block_length_at, 200),
        ("a tag no variant has", block_length_at - 2, 9),
        ("a tag past the table", block_length_at - 2, 16),
    ] {
        let mut bad = bytes.clone();
        bad[at] = value;
        let expected = DenseRouted::view(&bad).unwrap_err();
        let err = DenseRouted::view_lazy(&bad)
            .unwrap()
            .instr()
            .expect_err(what);
        assert_eq!(parts(&err), parts(&expected), "{what}");
    }
}

/// Reads every field of `bytes` changed by `changes` on demand (`read`) and up
/// front: both succeed with the same value, or both fail with the same error.
fn unions_agree<T: WireMsg + for<'a> wiremsg::DecodeField<'a> + PartialEq + std::fmt::Debug>(
    bytes: &[u8],
    changes: Vec<(usize, u8)>,
    small: bool,
    read: impl for<'v> Fn(T::Lazy<'v>) -> Result<T, Error>,
) -> Result<(), TestCaseError> {
    let changes: Vec<_> = changes
        .into_iter()
        .map(|(at, v)| (at, if small { v % 3 } else { v }))
        .collect();
    let bad = changed(bytes, &changes);
    let upfront = T::view(&bad);
    let on_demand = T::view_lazy(&bad).and_then(read);
    match (upfront, on_demand) {
        (Ok(_), Ok(read)) => prop_assert_eq!(T::decode(&bad).unwrap(), read),
        (Err(expected), Err(err)) => prop_assert_eq!(parts(&err), parts(&expected)),
        (upfront, on_demand) => {
            prop_assert!(
                false,
                "view: {:?}, on demand: {:?}",
                upfront.err(),
                on_demand.err()
            )
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn unions_read_on_demand_fail_exactly_as_view_does(
        instr in arb_instr(),
        instrs in prop::collection::vec(arb_instr(), 0..4),
        changes in prop::collection::vec((any::<usize>(), any::<u8>()), 1..3),
        small in any::<bool>(),
    ) {
        let bytes = Routed { id: 1, instr, instrs }.to_bytes().unwrap();
        unions_agree(&bytes, changes, small, read_routed)?;
    }

    #[test]
    fn dense_unions_read_on_demand_fail_exactly_as_view_does(
        instr in arb_dense(),
        instrs in prop::collection::vec(arb_dense(), 0..4),
        changes in prop::collection::vec((any::<usize>(), any::<u8>()), 1..3),
        small in any::<bool>(),
    ) {
        let bytes = DenseRouted { id: 1, instr, instrs }.to_bytes().unwrap();
        unions_agree(&bytes, changes, small, read_dense_routed)?;
    }
}

#[derive(WireMsg, Debug, Clone, PartialEq, Default)]
struct Node {
    id: u32,
    kids: Vec<Node>,
}

#[test]
fn the_nesting_limit_holds_along_any_path() {
    let mut node = Node::default();
    for id in 0..wiremsg::MAX_DEPTH {
        node = Node {
            id,
            kids: vec![node],
        };
    }
    let ok = node.to_bytes().unwrap();
    // One level more than any writer writes: wrap the valid bytes by hand in a list
    // element of one more node (a split list of one element, FORMAT.md §6.3).
    let block = Node::BLOCK_LENGTH;
    let mut deep = Vec::new();
    deep.extend_from_slice(&(block as u16).to_le_bytes());
    deep.extend_from_slice(&0u32.to_le_bytes());
    let kids_len = 4 + ok.len();
    deep.extend_from_slice(&((block + kids_len) as u32).to_le_bytes());
    deep.extend_from_slice(&((4 + block) as u32).to_le_bytes()); // element 0's tail start
    deep.extend_from_slice(&ok[..block]);
    deep.extend_from_slice(&ok[block..]);
    let expected = Node::view(&deep).unwrap_err();
    assert_eq!(
        expected.kind(),
        &ErrorKind::DepthLimitExceeded { limit: 64 }
    );
    let mut lazy = Node::view_lazy(&deep).unwrap();
    let err = loop {
        match lazy.kids().and_then(|kids| kids.get(0).expect("a child")) {
            Ok(kid) => lazy = kid,
            Err(err) => break err,
        }
    };
    assert_eq!(parts(&err), parts(&expected));
    assert!(
        err.path().starts_with("kids[0].kids[0] … 1"),
        "{}",
        err.path()
    );
}

fn arb_leg() -> impl Strategy<Value = Leg> {
    (
        "[a-z]{0,6}",
        any::<u32>(),
        prop::collection::vec(any::<bool>(), 0..4),
    )
        .prop_map(|(venue, qty, flags)| Leg { venue, qty, flags })
}

fn arb_order() -> impl Strategy<Value = Order> {
    (
        any::<u64>(),
        prop::collection::vec(arb_leg(), 0..4),
        prop::collection::vec("[a-z]{0,3}", 0..3),
        prop::collection::vec(prop::collection::vec(any::<u16>(), 0..3), 0..3),
        prop::collection::btree_map("[a-z]{1,3}", any::<u32>(), 0..3),
        prop::collection::vec(arb_leg(), 0..2),
        proptest::option::of("[a-z]{0,4}"),
    )
        .prop_map(|(id, legs, words, grid, limits, more, tag)| Order {
            id,
            legs,
            words,
            grid,
            limits,
            more,
            tag,
            ..order()
        })
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn reading_everything_on_demand_fails_exactly_as_view_does(
        value in arb_order(),
        changes in prop::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        small in any::<bool>(),
    ) {
        let bytes = value.to_bytes().unwrap();
        // Small values (0-2 and a few near the lengths) hit offsets and counts.
        let changes: Vec<_> = changes
            .into_iter()
            .map(|(at, v)| (at, if small { v % 3 } else { v }))
            .collect();
        let bad = changed(&bytes, &changes);
        let upfront = Order::view(&bad);
        let on_demand = Order::view_lazy(&bad).and_then(read_all);
        match (upfront, on_demand) {
            (Ok(view), Ok(read)) => {
                prop_assert_eq!(Order::decode(&bad).unwrap(), read);
                prop_assert_eq!(Order::view_lazy(&bad).unwrap().to_view().unwrap(), view);
            }
            (Err(expected), Err(err)) => prop_assert_eq!(parts(&err), parts(&expected)),
            (upfront, on_demand) => {
                prop_assert!(false, "view: {:?}, on demand: {:?}", upfront.err(), on_demand.err())
            }
        }
    }

    #[test]
    fn any_bytes_read_on_demand_without_a_panic(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let upfront = Order::view(&bytes);
        let on_demand = Order::view_lazy(&bytes).and_then(read_all);
        prop_assert_eq!(upfront.is_ok(), on_demand.is_ok());
        if let Ok(lazy) = Order::view_lazy(&bytes) {
            let _ = format!("{lazy:?}");
        }
    }
}
