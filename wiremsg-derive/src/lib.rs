//! Derive macros for wiremsg.
use proc_macro::TokenStream;
/// See `wiremsg::WireMsg`.
#[proc_macro_derive(WireMsg, attributes(wire))]
pub fn derive_wire_msg(_input: TokenStream) -> TokenStream { TokenStream::new() }
