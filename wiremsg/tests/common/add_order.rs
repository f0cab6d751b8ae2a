//! An order of a market-data feed in two versions behind a message header (template
//! id 1, schema 7): version 2 adds `shares`. Shared by the header tests.
#![allow(dead_code)]

use wiremsg::{FixedStr, WireMsg};

/// Version 1, as an older writer or reader has it.
pub(crate) mod v1 {
    use wiremsg::{FixedStr, WireMsg};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 1, schema_id = 7)]
    pub(crate) struct AddOrder {
        pub(crate) order: u64,
        pub(crate) symbol: FixedStr<8>,
        pub(crate) price: i64,
    }
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1, schema_id = 7, version = 2)]
pub(crate) struct AddOrder {
    pub(crate) order: u64,
    pub(crate) symbol: FixedStr<8>,
    pub(crate) price: i64,
    #[wire(since = 2)]
    pub(crate) shares: u32,
}

/// A version-2 order.
pub(crate) fn add() -> AddOrder {
    AddOrder {
        order: 5,
        symbol: FixedStr::new("MSFT").unwrap(),
        price: 4_200_000,
        shares: 100,
    }
}
