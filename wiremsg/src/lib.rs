//! Zero-copy wire messages from ordinary Rust structs.
//!
//! Add `#[derive(WireMsg)]` to a struct and get an explicit wire layout (the same bytes
//! on every target), a validated view over any `&[u8]` at any alignment, in-place
//! setters, and encoding that needs no allocation.
//!
//! ```
//! use wiremsg::{FixedStr, WireEnum, WireMsg};
//!
//! #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
//! #[repr(u8)]
//! enum Side {
//!     Buy = 0,
//!     Sell = 1,
//! }
//!
//! #[derive(WireMsg, Debug, PartialEq)]
//! struct Quote {
//!     symbol: FixedStr<8>,
//!     price: i64, // fixed point, 4 decimal places
//!     size: u32,
//!     side: Side,
//!     venue: String,
//! }
//!
//! let quote = Quote {
//!     symbol: FixedStr::new("AAPL").unwrap(),
//!     price: 2_345_600,
//!     size: 300,
//!     side: Side::Buy,
//!     venue: "XNAS".into(),
//! };
//! let mut bytes = quote.to_bytes().unwrap();
//!
//! let view = Quote::view(&bytes).unwrap(); // validates once
//! assert_eq!(view.symbol(), "AAPL");
//! assert_eq!(view.price(), 2_345_600);
//! assert_eq!(view.venue(), "XNAS");
//!
//! let mut edit = Quote::view_mut(&mut bytes).unwrap();
//! edit.set_size(500); // one store, in place
//! assert_eq!(Quote::decode(&bytes).unwrap().size, 500);
//! ```
//!
//! # Layout in five lines
//!
//! 1. Every number is little-endian; there is no padding and no alignment.
//! 2. A message is a **block** (fixed-size fields at constant offsets, in declaration
//!    order) followed by a **tail** (variable-size data).
//! 3. A message with a tail starts with its `u16` **block length**; each
//!    variable-size field has a 4-byte slot holding the `u32` **end offset** of its
//!    data, and its data starts where the previous one ended.
//! 4. Offsets are relative to the start of the message that holds them, so a nested
//!    message is position-independent.
//! 5. Lists of fixed-size elements are packed (messages after a `u16` stride); lists
//!    of variable-size elements have a `u32` count and a table of end offsets.
//!
//! The byte-level specification, with worked examples, is `FORMAT.md` at the root of
//! the repository.
//!
//! # Validation
//!
//! [`WireMsg::view`] checks everything once (lengths, offsets, UTF-8, `bool` and
//! enum values, list shapes, nesting depth up to [`MAX_DEPTH`]); after that the
//! accessors cannot fail and never panic. Every failure is an [`Error`] naming the
//! field path and byte offset. [`view_unchecked`] skips the checks for trusted bytes.
#![no_std]
#![deny(
    missing_docs,
    missing_debug_implementations,
    rust_2018_idioms,
    unreachable_pub
)]

extern crate alloc;
#[cfg(test)]
extern crate std;

mod array;
mod error;
mod field;
mod fixed_str;
mod list;
mod message;
mod mode;
mod option;
mod primitives;
mod primitives_le;
mod schema;
mod text;

#[doc(hidden)]
pub mod __private;

pub use array::{ArrayIter, ArrayView};
pub use error::{Error, ErrorKind};
pub use field::{DecodeField, Element, Field, ListEncoding, Scalar, Slots};
pub use fixed_str::FixedStr;
pub use list::{List, ListIter, ListMut};
pub use message::{EnumRepr, MAX_DEPTH, WireEnum, WireMsg};
pub use mode::{Checked, Mode, Trusted, view_unchecked};
pub use schema::{EnumSchema, FieldSchema, MessageSchema, TypeSchema};

/// Derives [`WireMsg`](trait@WireMsg) for a struct with named fields.
///
/// See the crate docs; the full reference is in the derive crate's documentation
/// (`# Attributes`, `# Generated items`, `# Layout`, `# Compile errors`), reproduced
/// in `wiremsg-derive`'s docs.
pub use wiremsg_derive::WireMsg;

/// Derives [`WireEnum`](trait@WireEnum) and [`Field`] for a C-like enum with
/// `#[repr(u8|u16|u32|u64)]`.
pub use wiremsg_derive::WireEnum;
