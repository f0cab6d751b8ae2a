//! Peers and data sets for the comparison.
//!
//! The `compare` binary prints, for each reference message (R1, R2, R6 of
//! `benches/reference.md`), one row per format: encoded size, encode, validated
//! read, unchecked read and decode times, then wiremsg's figures divided by
//! rkyv's and FlatBuffers' ([`report::ratios`]). Formats plug in through
//! [`format::Format`]; [`format::FormatSet::add`] adds a column, and
//! [`format::FormatSet::all`] is the set `compare` runs (wiremsg first).
//!
//! The criterion benches (`benches/datasets.rs`, issue 4) measure more data
//! sets and metrics through [`datasets::Codec`]; [`bench_table`] turns their
//! output into the README's table (`--bin bench_table`).

pub mod bench_table;
pub mod checksum;
pub mod datasets;
pub mod format;
pub mod formats;
pub mod model;
pub mod report;
pub mod timing;

pub use format::{Format, FormatSet};
pub use model::Message;
pub use timing::Timer;
