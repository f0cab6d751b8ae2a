//! Reads of derived enums: a field-less enum's value is read as the enum's memory
//! (the derive promises its discriminants are the wire values, `EnumValues`), an
//! enum with a catch-all through `from_raw`. Every value validation accepts must read
//! as the variant `from_raw` gives, through every view and every place an enum sits
//! (field, option, list, array, union payload), with gaps, values far from zero and
//! every repr width. Run under Miri in CI (`.ci/run`).

use wiremsg::{ErrorKind, WireEnum, WireMsg, WireUnion};

/// `Default` for decoding the array.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Default)]
#[repr(u8)]
enum Side {
    #[default]
    Buy = b'B',
    Sell = b'S',
    Short = b'T',
}

/// Values with gaps, not in declaration order.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u16)]
enum Venue {
    Xnas = 0x0203,
    Arcx = 7,
    Bats = 0x0101,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u32)]
enum Wide {
    Low = 1,
    High = 70_000,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u64)]
enum Huge {
    Zero = 0,
    Max = u64::MAX,
}

/// A catch-all: read through `from_raw`, never as memory.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Status {
    New = 0,
    Filled = 2,
    #[wire(other)]
    Other(u8),
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    side: Side,
    venue: Venue,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Event {
    Side { side: Side } = 1,
    Venue { venue: Venue, wide: Wide } = 2,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Order {
    side: Side,
    venue: Venue,
    wide: Wide,
    huge: Huge,
    status: Status,
    maybe: Option<Venue>,
    pair: [Side; 2],
    sides: Vec<Side>,
    legs: Vec<Leg>,
    events: Vec<Event>,
}

fn order() -> Order {
    Order {
        side: Side::Sell,
        venue: Venue::Xnas,
        wide: Wide::High,
        huge: Huge::Max,
        status: Status::Other(9),
        maybe: Some(Venue::Bats),
        pair: [Side::Short, Side::Buy],
        sides: vec![Side::Buy, Side::Short, Side::Sell],
        legs: vec![
            Leg {
                side: Side::Buy,
                venue: Venue::Arcx,
            },
            Leg {
                side: Side::Short,
                venue: Venue::Bats,
            },
        ],
        events: vec![
            Event::Venue {
                venue: Venue::Xnas,
                wide: Wide::Low,
            },
            Event::Side { side: Side::Sell },
        ],
    }
}

fn check(view: OrderView<'_>, want: &Order) {
    assert_eq!(view.side(), want.side);
    assert_eq!(view.venue(), want.venue);
    assert_eq!(view.wide(), want.wide);
    assert_eq!(view.huge(), want.huge);
    assert_eq!(view.status(), want.status);
    assert_eq!(view.maybe(), want.maybe);
    assert_eq!(view.pair().iter().collect::<Vec<_>>(), want.pair);
    assert_eq!(view.sides().iter().collect::<Vec<_>>(), want.sides);
    let legs: Vec<(Side, Venue)> = view.legs().iter().map(|l| (l.side(), l.venue())).collect();
    let want_legs: Vec<(Side, Venue)> = want.legs.iter().map(|l| (l.side, l.venue)).collect();
    assert_eq!(legs, want_legs);
    assert!(*want == view, "owned == view");
}

#[test]
fn the_derive_promises_discriminants_only_for_field_less_enums() {
    assert!(<Side as WireEnum>::__VALUES.discriminants());
    assert!(<Venue as WireEnum>::__VALUES.discriminants());
    assert!(<Wide as WireEnum>::__VALUES.discriminants());
    assert!(<Huge as WireEnum>::__VALUES.discriminants());
    assert!(!<Status as WireEnum>::__VALUES.discriminants());
}

#[test]
fn every_place_of_an_enum_reads_its_variant_through_every_view() {
    let want = order();
    let bytes = want.to_bytes().unwrap();
    check(Order::view(&bytes).unwrap(), &want);
    // SAFETY: `view` accepted these bytes just above.
    check(unsafe { Order::view_unchecked(&bytes) }, &want);
    assert_eq!(Order::decode(&bytes).unwrap(), want);
    let lazy = Order::view_lazy(&bytes).unwrap();
    assert_eq!(lazy.side().unwrap(), want.side);
    assert_eq!(lazy.venue().unwrap(), want.venue);
    assert_eq!(lazy.huge().unwrap(), want.huge);
    assert_eq!(lazy.maybe().unwrap(), want.maybe);
    let events: Vec<Event> = Order::view(&bytes)
        .unwrap()
        .events()
        .iter()
        .map(|e| match e {
            EventView::Side(s) => Event::Side { side: s.side() },
            EventView::Venue(v) => Event::Venue {
                venue: v.venue(),
                wide: v.wide(),
            },
        })
        .collect();
    assert_eq!(events, want.events);
}

#[test]
fn an_enum_set_in_place_reads_back_as_its_variant() {
    let mut bytes = order().to_bytes().unwrap();
    let mut view = Order::view_mut(&mut bytes).unwrap();
    view.set_side(Side::Short);
    view.update_venue(|v| match v {
        Venue::Xnas => Venue::Arcx,
        other => other,
    });
    view.set_huge(Huge::Zero);
    let mut sides = view.sides_mut();
    assert!(sides.set(0, &Side::Sell));
    let mut want = order();
    want.side = Side::Short;
    want.venue = Venue::Arcx;
    want.huge = Huge::Zero;
    want.sides[0] = Side::Sell;
    check(Order::view(&bytes).unwrap(), &want);
    // SAFETY: `view` accepted these bytes just above.
    check(unsafe { Order::view_unchecked(&bytes) }, &want);
}

/// Every byte at the `side` slot: validation accepts exactly `from_raw`'s values,
/// and each reads as `from_raw`'s variant, validated and unchecked.
#[test]
fn every_byte_of_a_one_byte_enum_reads_as_from_raw_says_or_is_refused() {
    let bytes = order().to_bytes().unwrap();
    // The block: block length (2), then `side` at 2.
    let at = 2;
    assert_eq!(bytes[at], b'S');
    for value in 0..=u8::MAX {
        let mut b = bytes.clone();
        b[at] = value;
        match (Order::view(&b), Side::from_raw(value)) {
            (Ok(view), Some(side)) => {
                assert_eq!(view.side(), side);
                // SAFETY: `view` accepted these bytes.
                assert_eq!(unsafe { Order::view_unchecked(&b) }.side(), side);
            }
            (Err(e), None) => {
                assert!(
                    matches!(e.kind(), ErrorKind::UnknownEnumValue { value: v, .. } if *v == u64::from(value)),
                    "{e}"
                );
                assert_eq!(e.offset(), at);
            }
            (view, side) => panic!("byte {value}: {view:?} against from_raw {side:?}"),
        }
    }
}

/// The same for a two-byte enum with gaps, at values around each variant's.
#[test]
fn values_around_a_two_byte_enums_variants_read_as_from_raw_says_or_are_refused() {
    let bytes = order().to_bytes().unwrap();
    let at = 3;
    assert_eq!(u16::from_le_bytes([bytes[at], bytes[at + 1]]), 0x0203);
    for base in [0u16, 7, 0x0101, 0x0203, u16::MAX - 1] {
        for value in base.saturating_sub(1)..=base.saturating_add(1) {
            let mut b = bytes.clone();
            b[at..at + 2].copy_from_slice(&value.to_le_bytes());
            match (Order::view(&b), Venue::from_raw(value)) {
                (Ok(view), Some(venue)) => {
                    assert_eq!(view.venue(), venue);
                    // SAFETY: `view` accepted these bytes.
                    assert_eq!(unsafe { Order::view_unchecked(&b) }.venue(), venue);
                }
                (Err(e), None) => assert_eq!(e.offset(), at, "{e}"),
                (view, venue) => panic!("value {value}: {view:?} against from_raw {venue:?}"),
            }
        }
    }
}

/// `#[repr(u8, align(8))]`: the width is the integer hint, wherever it stands among
/// the others (it was read as `align`, and refused). The enum's memory is 8 bytes,
/// not its wire byte, so a read goes through `from_raw`.
#[test]
fn an_aligned_enum_is_its_integer_on_the_wire() {
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8, align(8))]
    enum Aligned {
        A = 1,
        B = 2,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    struct Holds {
        a: Aligned,
        n: u8,
    }
    let value = Holds {
        a: Aligned::B,
        n: 7,
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(bytes, [2, 7]);
    assert_eq!(Holds::view(&bytes).unwrap().a(), Aligned::B);
    assert_eq!(Holds::decode(&bytes).unwrap(), value);
    let err = Holds::view(&[3, 7]).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnknownEnumValue { value: 3, .. }
    ));
}
