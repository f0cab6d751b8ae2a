//! Issue 33: a `pub` message whose field types are private (a `WireEnum`, a nested
//! `WireMsg`, a `WireUnion` at the crate root) compiles, as with serde and rkyv:
//! no generated public item names the private types in a way rustc rejects (E0446).
#![deny(warnings)]

use wiremsg::{WireEnum, WireMsg, WireUnion};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Px {
    mantissa: i64,
    exponent: i8,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Note {
    text: String,
}

#[derive(WireUnion, Debug, PartialEq)]
#[repr(u8)]
enum Instr {
    Market = 0,
    Limit(Px) = 1,
    Stop { trigger: i64 } = 2,
}

/// Private fields: rustc has nothing to say about the struct, so neither may the
/// derive (`deny(warnings)` above).
pub mod v1 {
    use super::{Instr, Note, Px, Side};
    use wiremsg::WireMsg;

    /// An order whose field types are private to the crate.
    #[derive(WireMsg, Debug, PartialEq)]
    pub struct Order {
        pub(crate) side: Side,
        pub(crate) px: Px,
        pub(crate) instr: Instr,
        pub(crate) note: Note,
        pub(crate) alt: Option<Side>,
        pub(crate) legs: Vec<Px>,
    }
}

/// The shape: `pub` fields of private types, which rustc itself flags with
/// its `private_interfaces` lint (allowed here on the struct, as a user would).
pub mod v2 {
    use super::{Instr, Px, Side};
    use wiremsg::WireMsg;

    /// An order whose field types are private to the crate.
    #[allow(private_interfaces)]
    #[derive(WireMsg, Debug, PartialEq)]
    pub struct Order {
        /// Buy or sell.
        pub side: Side,
        /// Price.
        pub px: Px,
        /// How to execute.
        pub instr: Instr,
    }

    /// A public union whose payload type is private.
    #[allow(private_interfaces)]
    #[derive(wiremsg::WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    pub enum Quote {
        /// No price.
        Empty = 0,
        /// A price.
        Priced(Px) = 1,
        /// A side.
        Sided {
            /// The side.
            side: Side,
        } = 2,
    }
}

#[test]
fn pub_message_with_private_field_types_round_trips() {
    let order = v1::Order {
        side: Side::Sell,
        px: Px {
            mantissa: 12345,
            exponent: -2,
        },
        instr: Instr::Limit(Px {
            mantissa: 1,
            exponent: 0,
        }),
        note: Note { text: "hi".into() },
        alt: Some(Side::Buy),
        legs: vec![Px {
            mantissa: 7,
            exponent: 1,
        }],
    };
    let mut bytes = Vec::new();
    order.encode(&mut bytes).unwrap();
    let view = v1::Order::view(&bytes).unwrap();
    assert_eq!(view.side(), Side::Sell);
    assert_eq!(v1::Order::decode(&bytes).unwrap(), order);
}

#[test]
fn pub_fields_and_pub_union_with_private_types() {
    let order = v2::Order {
        side: Side::Buy,
        px: Px {
            mantissa: -5,
            exponent: 3,
        },
        instr: Instr::Stop { trigger: 9 },
    };
    let mut bytes = Vec::new();
    order.encode(&mut bytes).unwrap();
    assert_eq!(v2::Order::view(&bytes).unwrap().side(), Side::Buy);
    assert_eq!(v2::Order::decode(&bytes).unwrap(), order);
    for quote in [
        v2::Quote::Empty,
        v2::Quote::Priced(Px {
            mantissa: 1,
            exponent: 2,
        }),
        v2::Quote::Sided { side: Side::Sell },
    ] {
        let mut bytes = Vec::new();
        quote.encode(&mut bytes).unwrap();
        assert_eq!(v2::Quote::decode(&bytes).unwrap(), quote);
    }
}
