//! Types held in lists, boxes and maps (issue 33): the derive guards each one, and
//! what needs them without carrying the guard (the kind of a message, the lists of a
//! message with lifetimes, the decoding of the fields that hold them) goes through a
//! gate. Mutually recursive messages through each container must still compile (no
//! trait cycle), and every path through the gate must read and decode as before.
#![deny(warnings)]

use std::collections::BTreeMap;
use wiremsg::{WireEnum, WireMsg};

/// Two messages that hold each other through lists only.
#[derive(WireMsg, Debug, PartialEq, Default)]
struct Left {
    n: u32,
    rights: Vec<Right>,
}

#[derive(WireMsg, Debug, PartialEq, Default)]
struct Right {
    lefts: Vec<Left>,
    name: String,
}

/// Two messages that hold each other through map values only.
#[derive(WireMsg, Debug, PartialEq, Default)]
struct Up {
    downs: BTreeMap<String, Down>,
}

#[derive(WireMsg, Debug, PartialEq, Default)]
struct Down {
    ups: BTreeMap<u32, Up>,
    depth: u8,
}

/// Two messages that hold each other through boxes, a list and a map at once (one of
/// them declares its block length field, as messages that hold each other through
/// boxes must: see `boxes.rs`).
#[derive(WireMsg, Debug, PartialEq)]
#[wire(block_length)]
struct Head {
    tail: Option<Box<Tail>>,
    tails: Vec<Tail>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Tail {
    heads: BTreeMap<Venue, Head>,
    head: Option<Box<Head>>,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Venue {
    Xnas = 1,
    Xlon = 2,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Leg {
    qty: u32,
    venue: Venue,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Fee {
    cents: i64,
    label: String,
}

/// A message with lifetimes that holds a list: its own lists are retyped through the
/// gate.
#[derive(WireMsg, Debug, PartialEq)]
struct Ticket<'a> {
    name: &'a str,
    legs: Vec<Leg>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Tickets<'a> {
    all: Vec<Ticket<'a>>,
}

/// A generic message that holds a guarded type: the gate in a generic impl.
#[derive(WireMsg, Debug, PartialEq)]
struct Batch<T> {
    items: Vec<T>,
    legs: Vec<Leg>,
    by_venue: BTreeMap<Venue, Fee>,
}

/// Several held types in one message (the guards' item, rather than the kind, is
/// where a missing derive would be reported).
#[derive(WireMsg, Debug, PartialEq)]
struct Order {
    legs: Vec<Leg>,
    fees: Vec<Fee>,
    first: Option<Box<Fee>>,
    limits: BTreeMap<Venue, u64>,
}

#[test]
fn messages_that_hold_each_other_through_lists_round_trip() {
    let value = Left {
        n: 1,
        rights: vec![Right {
            lefts: vec![Left {
                n: 2,
                rights: vec![Right::default()],
            }],
            name: "r".into(),
        }],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Left::decode(&bytes).unwrap(), value);
    let view = Left::view(&bytes).unwrap();
    assert_eq!(view.rights().get(0).unwrap().name(), "r");
}

#[test]
fn messages_that_hold_each_other_through_maps_round_trip() {
    let value = Up {
        downs: BTreeMap::from([(
            "a".to_owned(),
            Down {
                ups: BTreeMap::from([(7, Up::default())]),
                depth: 3,
            },
        )]),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Up::decode(&bytes).unwrap(), value);
}

#[test]
fn messages_that_hold_each_other_through_boxes_lists_and_maps_round_trip() {
    let leaf = || Head {
        tail: None,
        tails: vec![],
    };
    let value = Head {
        tail: Some(Box::new(Tail {
            heads: BTreeMap::from([(Venue::Xlon, leaf())]),
            head: Some(Box::new(leaf())),
        })),
        tails: vec![Tail {
            heads: BTreeMap::new(),
            head: None,
        }],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Head::decode(&bytes).unwrap(), value);
}

#[test]
fn a_list_of_a_message_with_lifetimes_reads_through_the_gate() {
    let legs = vec![Leg {
        qty: 5,
        venue: Venue::Xnas,
    }];
    let value = Tickets {
        all: vec![
            Ticket {
                name: "a",
                legs: legs.clone(),
            },
            Ticket {
                name: "b",
                legs: vec![],
            },
        ],
    };
    let bytes = value.to_bytes().unwrap();
    let view = Tickets::view(&bytes).unwrap();
    let names: Vec<&str> = view.all().iter().map(|t| t.name()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(view.all().get(0).unwrap().legs().get(0).unwrap().qty(), 5);
    assert_eq!(Tickets::decode(&bytes).unwrap(), value);
}

#[test]
fn a_generic_message_decodes_its_held_types_through_the_gate() {
    let value = Batch {
        items: vec![1u16, 2, 3],
        legs: vec![Leg {
            qty: 9,
            venue: Venue::Xlon,
        }],
        by_venue: BTreeMap::from([(
            Venue::Xnas,
            Fee {
                cents: -4,
                label: "rebate".into(),
            },
        )]),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Batch::<u16>::decode(&bytes).unwrap(), value);
}

#[test]
fn a_message_with_several_held_types_round_trips() {
    let value = Order {
        legs: vec![Leg {
            qty: 1,
            venue: Venue::Xnas,
        }],
        fees: vec![Fee {
            cents: 10,
            label: "x".into(),
        }],
        first: Some(Box::new(Fee {
            cents: 3,
            label: String::new(),
        })),
        limits: BTreeMap::from([(Venue::Xlon, 100)]),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Order::decode(&bytes).unwrap(), value);
    assert_eq!(
        Order::view(&bytes).unwrap().fees().get(0).unwrap().label(),
        "x"
    );
}
