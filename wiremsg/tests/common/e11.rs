//! E11's types and value (FORMAT.md §4.10), shared by the tests that check its bytes
//! (`unions.rs`), its schema file (`golden.rs`) and the schema-driven reader
//! (`dynamic.rs`). Included with `#[path]`; each test uses what it needs.
#![allow(dead_code)]

use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Limit {
    pub(crate) price: i64,
    pub(crate) qty: u32,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
pub(crate) enum OrderInstr {
    Market = 0,
    Limit(Limit) = 1,
    Stop {
        trigger: i64,
        note: String,
    } = 2,
    #[wire(other)]
    Other {
        tag: u8,
        bytes: Vec<u8>,
    },
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Order {
    pub(crate) id: u32,
    pub(crate) instr: OrderInstr,
    pub(crate) alt: Option<OrderInstr>,
    pub(crate) history: Vec<OrderInstr>,
}

/// The value of E11.
pub(crate) fn e11() -> Order {
    Order {
        id: 7,
        instr: OrderInstr::Limit(Limit {
            price: 1000,
            qty: 5,
        }),
        alt: Some(OrderInstr::Stop {
            trigger: -1,
            note: "hi".into(),
        }),
        history: vec![
            OrderInstr::Market,
            OrderInstr::Other {
                tag: 9,
                bytes: vec![0xaa, 0xbb],
            },
        ],
    }
}
