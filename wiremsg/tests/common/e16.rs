//! E16's types and value (FORMAT.md §6.8: a list of a fixed-size union), shared by
//! the tests that check its bytes (`dense.rs`), its schema file (`golden.rs`) and the
//! schema-driven reader (`dynamic.rs`). Included with `#[path]`; each test uses what
//! it needs.
#![allow(dead_code)]

use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Fill {
    pub(crate) qty: u32,
    pub(crate) px: i64,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
pub(crate) enum Event {
    Heartbeat = 0,
    Fill(Fill) = 1,
    Cancel { id: u16 } = 5,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Batch {
    pub(crate) seq: u32,
    pub(crate) events: Vec<Event>,
}

/// E16's value.
pub(crate) fn e16() -> Batch {
    Batch {
        seq: 1,
        events: vec![
            Event::Fill(Fill { qty: 3, px: 100 }),
            Event::Heartbeat,
            Event::Cancel { id: 9 },
        ],
    }
}
