//! A feed's add-order payload, whose validity is decided by one byte (its `side`):
//! shared by the tests of dense lists' one-byte checks (`dense_byte_checks.rs`) and
//! of large unions (`large_union.rs`). Included with `#[path]`.
#![allow(dead_code)]

use wiremsg::{WireEnum, WireMsg};

#[derive(WireEnum, Debug, PartialEq, Clone, Copy)]
#[repr(u8)]
pub(crate) enum Side {
    Buy = 0,
    Sell = 1,
}

/// An order added to the book: a price, then its side.
#[derive(WireMsg, Debug, PartialEq, Clone)]
pub(crate) struct Add {
    pub(crate) px: i64,
    pub(crate) side: Side,
}
