//! The library half of the `wiremsg` tool: the exporters behind `wiremsg export`,
//! usable from Rust (a build script, a test that keeps a committed schema current).
//!
//! ```
//! use wiremsg::{SchemaSet, WireMsg};
//! use wiremsg_cli::export::sbe;
//!
//! #[derive(WireMsg)]
//! #[wire(template_id = 1, schema_id = 7)]
//! struct Ping {
//!     seq: u32,
//! }
//!
//! let xml = sbe::export(&SchemaSet::of::<Ping>()?, &sbe::Options::new("pings"))?;
//! assert!(xml.contains(r#"<field name="seq" id="1" type="uint32" offset="0"/>"#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![deny(missing_docs, unreachable_pub)]

pub mod export;
