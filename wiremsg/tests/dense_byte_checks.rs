//! Up-front validation of a dense list (FORMAT.md §6.8) checks the first element of
//! each variant-table entry in full, then each later element of the entry by the
//! one byte that decides it (an enum's or a `bool`'s), or by none (a payload of
//! numbers). These tests pin what decides each payload kind (`ByteCheck`), and that
//! every reader refuses the same bytes, with the same error, at the same element:
//! up front, decoding, and on demand element by element.

#[path = "common/cases.rs"]
mod cases;
use proptest::prelude::*;
use wiremsg::__private::ByteCheck;
use wiremsg::{ErrorKind, Field, Kind, WireEnum, WireMsg, WireUnion};

#[path = "common/side.rs"]
mod side;
use side::{Add, Side};

/// Values with a gap: no single range decides it.
#[derive(WireEnum, Debug, PartialEq, Clone, Copy)]
#[repr(u8)]
pub(crate) enum Gappy {
    One = 1,
    Three = 3,
}

/// Letters, out of declaration order, without a gap: `b'A'..=b'C'`.
#[derive(WireEnum, Debug, PartialEq, Clone, Copy)]
#[repr(u8)]
pub(crate) enum Letter {
    C = b'C',
    A = b'A',
    B = b'B',
}

/// A catch-all takes every byte.
#[derive(WireEnum, Debug, PartialEq, Clone, Copy)]
#[repr(u8)]
pub(crate) enum Open {
    Known = 4,
    #[wire(other)]
    Other(u8),
}

/// A two-byte enum: not one byte.
#[derive(WireEnum, Debug, PartialEq, Clone, Copy)]
#[repr(u16)]
pub(crate) enum Wide {
    X = 0,
    Y = 1,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Gap {
    pub(crate) n: u32,
    pub(crate) g: Gappy,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Two {
    pub(crate) flag: bool,
    pub(crate) side: Side,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Lettered {
    pub(crate) n: u16,
    pub(crate) letter: Letter,
    pub(crate) m: u8,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Opened {
    pub(crate) open: Open,
    pub(crate) n: u8,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Widened {
    pub(crate) w: Wide,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Num {
    pub(crate) id: u64,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
pub(crate) enum Ev {
    Add(Add) = 0,
    Gap(Gap) = 1,
    Two(Two) = 2,
    Lettered(Lettered) = 3,
    Opened(Opened) = 4,
    Widened(Widened) = 5,
    Num(Num) = 6,
    Beat = 7,
    Flag { value: bool } = 8,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Evs {
    pub(crate) events: Vec<Ev>,
}

fn check_of<F: Field>() -> ByteCheck {
    if <F::Kind as Kind>::CHECKS {
        <F::Kind as Kind>::BYTE_CHECK
    } else {
        ByteCheck::Free
    }
}

#[test]
fn what_decides_each_payload() {
    assert_eq!(<Side as WireEnum>::__VALUES.get(), Some((0, 1)));
    assert_eq!(<Gappy as WireEnum>::__VALUES.get(), None);
    assert_eq!(<Letter as WireEnum>::__VALUES.get(), Some((65, 67)));
    assert_eq!(<Open as WireEnum>::__VALUES.get(), Some((0, u64::MAX)));
    let range = |at, lo, span| ByteCheck::Range { at, lo, span };
    assert_eq!(check_of::<bool>(), range(0, 0, 2));
    assert_eq!(check_of::<Side>(), range(0, 0, 2));
    assert_eq!(check_of::<Gappy>(), ByteCheck::Other);
    assert_eq!(check_of::<Letter>(), range(0, b'A', 3));
    assert_eq!(check_of::<Open>(), ByteCheck::Free);
    assert_eq!(check_of::<Wide>(), ByteCheck::Other);
    // Messages: the one checked byte at its offset in the block.
    assert_eq!(check_of::<Add>(), range(8, 0, 2));
    assert_eq!(check_of::<Gap>(), ByteCheck::Other);
    assert_eq!(check_of::<Two>(), ByteCheck::Other);
    assert_eq!(check_of::<Lettered>(), range(2, b'A', 3));
    assert_eq!(check_of::<Opened>(), ByteCheck::Free);
    assert_eq!(check_of::<Widened>(), ByteCheck::Other);
    assert_eq!(check_of::<Num>(), ByteCheck::Free);
    // A message with a tail is decided by its validation alone.
    assert_eq!(check_of::<Evs>(), ByteCheck::Other);
}

fn ev() -> impl Strategy<Value = Ev> {
    let side = prop_oneof![Just(Side::Buy), Just(Side::Sell)];
    let letter = prop_oneof![Just(Letter::A), Just(Letter::B), Just(Letter::C)];
    prop_oneof![
        (any::<i64>(), side.clone()).prop_map(|(px, side)| Ev::Add(Add { px, side })),
        (any::<u32>(), any::<bool>()).prop_map(|(n, three)| Ev::Gap(Gap {
            n,
            g: if three { Gappy::Three } else { Gappy::One },
        })),
        (any::<bool>(), side).prop_map(|(flag, side)| Ev::Two(Two { flag, side })),
        (any::<u16>(), letter, any::<u8>()).prop_map(|(n, letter, m)| Ev::Lettered(Lettered {
            n,
            letter,
            m
        })),
        (any::<u8>(), any::<u8>()).prop_map(|(o, n)| Ev::Opened(Opened {
            open: if o == 4 { Open::Known } else { Open::Other(o) },
            n,
        })),
        any::<bool>().prop_map(|y| Ev::Widened(Widened {
            w: if y { Wide::Y } else { Wide::X },
        })),
        any::<u64>().prop_map(|id| Ev::Num(Num { id })),
        Just(Ev::Beat),
        any::<bool>().prop_map(|value| Ev::Flag { value }),
    ]
}

/// An element read on demand, checked whole: its tag and header by the list's
/// `iter`, its payload by the payload's `to_view`.
fn decode_lazy(e: EvLazy<'_>) -> wiremsg::Result<Ev> {
    Ok(match e {
        EvLazy::Add(p) => Ev::Add(p.to_view()?.decode()),
        EvLazy::Gap(p) => Ev::Gap(p.to_view()?.decode()),
        EvLazy::Two(p) => Ev::Two(p.to_view()?.decode()),
        EvLazy::Lettered(p) => Ev::Lettered(p.to_view()?.decode()),
        EvLazy::Opened(p) => Ev::Opened(p.to_view()?.decode()),
        EvLazy::Widened(p) => Ev::Widened(p.to_view()?.decode()),
        EvLazy::Num(p) => Ev::Num(p.to_view()?.decode()),
        EvLazy::Beat => Ev::Beat,
        EvLazy::Flag(p) => Ev::Flag { value: p.value()? },
    })
}

/// Every reader's answer for `bytes`, which must agree: up front (`view`, the
/// dense loop), decoding, and on demand element by element (each element checked
/// alone, with no memory of the others).
fn agree(bytes: &[u8]) -> Result<Evs, wiremsg::Error> {
    let same = |e: &wiremsg::Error| (e.kind().clone(), e.offset(), e.path().to_string());
    let up_front = Evs::view(bytes).map(|v| v.decode());
    let decoded = Evs::decode(bytes);
    let lazy = Evs::view_lazy(bytes).and_then(|l| {
        l.events()?
            .iter()
            .map(|e| e.and_then(decode_lazy))
            .collect::<Result<Vec<_>, _>>()
    });
    match (&up_front, &decoded, &lazy) {
        (Ok(a), Ok(b), Ok(c)) => {
            assert_eq!(a, b);
            assert_eq!(&a.events, c);
        }
        (Err(a), Err(b), Err(c)) => {
            assert_eq!(same(a), same(b), "up front and decoding disagree");
            assert_eq!(same(a), same(c), "up front and on demand disagree");
        }
        _ => panic!("readers disagree: {up_front:?} / {decoded:?} / {lazy:?}"),
    }
    up_front
}

/// Elements of the property tests' lists (fewer under Miri).
const MAX_EVENTS: usize = if cfg!(miri) { 12 } else { 60 };

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    #[test]
    fn lists_round_trip(events in proptest::collection::vec(ev(), 0..MAX_EVENTS)) {
        let value = Evs { events };
        let bytes = value.to_bytes().unwrap();
        prop_assert_eq!(agree(&bytes).unwrap(), value);
    }

    /// Bytes set anywhere in the elements: the later elements of an entry, whose
    /// check is one byte compare, fail exactly where the full check fails.
    #[test]
    fn set_bytes_fail_alike_every_way(
        events in proptest::collection::vec(ev(), 2..MAX_EVENTS),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = Evs { events }.to_bytes().unwrap();
        // The list's region: after the block (an end offset) and the list's header
        // (stride, entry count, nine entries of a tag and a `u16` block length).
        let first = 6 + 4 + 9 * 3;
        for (at, byte) in edits {
            let i = first + at.index(bytes.len() - first);
            bytes[i] = byte;
        }
        let _ = agree(&bytes);
    }
}

/// Elements in the lists of `refused_at` (fewer under Miri, which runs this file).
const N: usize = if cfg!(miri) { 12 } else { 300 };
/// The middle and the last element of the marked kind (every third).
const MID: usize = N / 6 * 3;
const LAST: usize = N - 3;

/// Element `marked` of `N` gets `byte` at `offset` of its payload: refused at that
/// element, after earlier elements of the same entry passed by their one byte.
fn refused_at(
    make: impl Fn(usize) -> Ev,
    marked: usize,
    offset: usize,
    byte: u8,
) -> wiremsg::Error {
    let value = Evs {
        events: (0..N)
            .map(|i| {
                if i % 3 == 0 {
                    make(i)
                } else {
                    Ev::Num(Num { id: i as u64 })
                }
            })
            .collect(),
    };
    let mut bytes = value.to_bytes().unwrap();
    let d = Evs::view(&bytes).unwrap();
    assert_eq!(d.events().len(), N);
    // The list starts after the 6-byte block and its 4-byte header and table.
    let stride = usize::from(u16::from_le_bytes([bytes[6], bytes[7]]));
    let entries = usize::from(u16::from_le_bytes([bytes[8], bytes[9]]));
    let element = 6 + 4 + entries * 3 + marked * stride;
    bytes[element + 1 + offset] = byte;
    let err = agree(&bytes).unwrap_err();
    assert!(
        err.path()
            .to_string()
            .starts_with(&format!("events[{marked}].")),
        "{err}"
    );
    assert_eq!(err.offset(), element + 1 + offset);
    err
}

#[test]
fn a_later_element_is_refused_by_its_byte() {
    let add = |i: usize| {
        Ev::Add(Add {
            px: i as i64,
            side: Side::Sell,
        })
    };
    for marked in [3, MID, LAST] {
        let err = refused_at(add, marked, 8, 2);
        assert!(
            matches!(err.kind(), ErrorKind::UnknownEnumValue { value: 2, .. }),
            "{err}"
        );
    }
    let lettered = |i: usize| {
        Ev::Lettered(Lettered {
            n: i as u16,
            letter: Letter::C,
            m: 0,
        })
    };
    for (byte, marked) in [(b'D', 3), (b'@', MID), (0, LAST)] {
        let err = refused_at(lettered, marked, 2, byte);
        assert!(
            matches!(err.kind(), ErrorKind::UnknownEnumValue { .. }),
            "{err}"
        );
    }
    // Two checked bytes, or values with a gap: each element checked in full.
    let two = |_| {
        Ev::Two(Two {
            flag: true,
            side: Side::Buy,
        })
    };
    assert!(matches!(
        refused_at(two, MID, 0, 2).kind(),
        ErrorKind::InvalidBool { value: 2 }
    ));
    assert!(matches!(
        refused_at(two, MID, 1, 2).kind(),
        ErrorKind::UnknownEnumValue { .. }
    ));
    let gap = |_| {
        Ev::Gap(Gap {
            n: 1,
            g: Gappy::Three,
        })
    };
    let err = refused_at(gap, LAST, 4, 2);
    assert!(
        matches!(err.kind(), ErrorKind::UnknownEnumValue { value: 2, .. }),
        "{err}"
    );
    let flag = |_| Ev::Flag { value: true };
    assert!(matches!(
        refused_at(flag, MID, 0, 9).kind(),
        ErrorKind::InvalidBool { value: 9 }
    ));
}

/// Older and newer writers of a payload that gained its checked byte in version 2.
mod versions {
    use super::Side;
    use wiremsg::{WireMsg, WireUnion};

    /// The union of each version's `Add` and its list.
    macro_rules! union_of_add {
        () => {
            #[derive(WireUnion, Debug, PartialEq, Clone)]
            #[repr(u8)]
            pub(crate) enum Ev {
                Add(Add) = 0,
                Beat = 1,
            }

            #[derive(WireMsg, Debug, PartialEq, Clone)]
            pub(crate) struct Evs {
                pub(crate) events: Vec<Ev>,
            }
        };
    }

    pub(crate) mod old {
        use super::*;

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        pub(crate) struct Add {
            pub(crate) px: i64,
        }

        union_of_add!();
    }

    pub(crate) mod new {
        use super::*;

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        #[wire(version = 2)]
        pub(crate) struct Add {
            pub(crate) px: i64,
            #[wire(since = 2, default = Side::Sell)]
            pub(crate) side: Side,
        }

        union_of_add!();
    }
}

#[test]
fn a_block_without_the_checked_byte_passes_and_one_with_it_is_checked() {
    use versions::{new, old};
    let n = 100;
    // An older writer's blocks lack `side`: the newer reader's test of it is moot.
    let older = old::Evs {
        events: (0..n).map(|i| old::Ev::Add(old::Add { px: i })).collect(),
    };
    let bytes = older.to_bytes().unwrap();
    let read = new::Evs::view(&bytes).unwrap();
    assert!(
        read.events()
            .iter()
            .all(|e| matches!(e, new::EvView::Add(a) if a.side() == Side::Sell))
    );
    // A newer writer's blocks carry it: an older reader skips the byte, a newer
    // one refuses a bad one in any element.
    let newer = new::Evs {
        events: (0..n)
            .map(|i| {
                new::Ev::Add(new::Add {
                    px: i,
                    side: Side::Buy,
                })
            })
            .collect(),
    };
    let mut bytes = newer.to_bytes().unwrap();
    let stride = usize::from(u16::from_le_bytes([bytes[6], bytes[7]]));
    assert_eq!(stride, 10);
    let side_of_last = bytes.len() - 1;
    bytes[side_of_last] = 5;
    assert_eq!(old::Evs::view(&bytes).unwrap().events().len(), n as usize);
    let err = new::Evs::view(&bytes).unwrap_err();
    assert_eq!(err.offset(), side_of_last);
    assert_eq!(
        err.path().to_string(),
        format!("events[{}].Add.side", n - 1)
    );
    assert_eq!((err.offset(), err.path().to_string()), {
        let d = new::Evs::decode(&bytes).unwrap_err();
        (d.offset(), d.path().to_string())
    });
}
