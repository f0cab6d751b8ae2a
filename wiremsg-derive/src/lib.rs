//! Derive macros of wiremsg: `#[derive(WireMsg)]`, `#[derive(WireEnum)]`,
//! `#[derive(WireUnion)]` and `#[derive(WireDispatch)]`.
//!
//! Use them through the `wiremsg` crate, which re-exports both and documents them. Each
//! derive runs the same pipeline: **parse** (`ast`, `attr`) into a small model,
//! **check** (`check`) the rules with every error collected (`ctxt`), compute the
//! **layout** (`layout`) as constant expressions, and **generate** (`codegen`, in `gen/`).

#![forbid(unsafe_code)]

/// `quote!` for generated code: every token the template writes is spanned at
/// `Span::mixed_site()`, so that the locals and labels the derives declare (`value`,
/// `out`, `depth`) are hygienic. A user's constant of the same name cannot turn a
/// generated binding into a constant pattern, and a user's expression copied into
/// generated code (a `default`, a `null`) cannot name a generated local (issue 30).
/// Items and paths resolve at the call site as before; interpolated tokens keep their
/// own spans.
macro_rules! quote_m {
    ($($tt:tt)*) => {
        ::quote::quote_spanned!(::proc_macro2::Span::mixed_site()=> $($tt)*)
    };
}

mod ast;
mod attr;
mod check;
#[path = "gen/mod.rs"]
mod codegen; // `gen` is a reserved word in edition 2024
mod ctxt;
mod layout;
mod lifetimes;
mod map_ast;
mod union_ast;
mod union_check;

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

/// Derives `wiremsg::WireMsg`; documented on the re-export `wiremsg::WireMsg`.
#[proc_macro_derive(WireMsg, attributes(wire))]
pub fn derive_wire_msg(input: TokenStream) -> TokenStream {
    let mut input = parse_macro_input!(input as DeriveInput);
    if lifetimes::unresolved(&input) {
        return TokenStream::new();
    }
    lifetimes::rename_generated(&mut input);
    let cx = ctxt::Ctxt::new();
    let msg = ast::message(&cx, &input);
    if let Some(msg) = &msg {
        check::message(&cx, msg, &input.attrs);
    }
    match cx.check() {
        Ok(()) => {
            let t = msg.map(|m| codegen::message(&m)).unwrap_or_default();
            if std::env::var_os("WIREMSG_DEBUG").is_some() {
                eprintln!("{t}");
            }
            t.into()
        }
        Err(errors) => errors.into(),
    }
}

/// Derives `wiremsg::WireEnum`; documented on the re-export `wiremsg::WireEnum`.
#[proc_macro_derive(WireEnum, attributes(wire))]
pub fn derive_wire_enum(input: TokenStream) -> TokenStream {
    let mut input = parse_macro_input!(input as DeriveInput);
    lifetimes::rename_generated(&mut input);
    let cx = ctxt::Ctxt::new();
    let e = ast::enumeration(&cx, &input);
    if let Some(e) = &e {
        check::enumeration(&cx, e);
    }
    match cx.check() {
        Ok(()) => e
            .map(|e| codegen::wire_enum::generate(&e))
            .unwrap_or_default()
            .into(),
        Err(errors) => {
            // An enum whose only mistake is a missing or unsupported `#[repr]` (`i8`):
            // its error, and the items of a stand-in width, so that a message with a
            // field of the enum adds no error of its own (which would say to derive
            // `WireEnum`, which the enum already has). Not for an unsupported width
            // with a catch-all: its values are the user's expressions, which the
            // stand-in width would type anew (`-1` as a `u64` is an error of its own).
            let stand_in = e
                .filter(|e| match &e.repr {
                    None => true,
                    Some(r) => !check::is_enum_repr(r) && !e.variants.iter().any(|v| v.attrs.other),
                })
                .and_then(|mut e| {
                    e.repr = Some(proc_macro2::Ident::new("u64", e.ident.span()));
                    let cx = ctxt::Ctxt::new();
                    check::enumeration(&cx, &e);
                    let _ = ast::enumeration(&cx, &input);
                    cx.check().ok().map(|()| codegen::wire_enum::generate(&e))
                })
                .unwrap_or_default();
            quote::quote!(#errors #stand_in).into()
        }
    }
}

/// Derives message dispatch by template id; documented on the re-export
/// `wiremsg::WireDispatch`.
#[proc_macro_derive(WireDispatch, attributes(wire))]
pub fn derive_wire_dispatch(input: TokenStream) -> TokenStream {
    let mut input = parse_macro_input!(input as DeriveInput);
    if lifetimes::unresolved(&input) {
        return TokenStream::new();
    }
    lifetimes::rename_generated(&mut input);
    let cx = ctxt::Ctxt::new();
    let d = ast::dispatch(&cx, &input);
    match cx.check() {
        Ok(()) => d
            .map(|d| codegen::dispatch::generate(&d))
            .unwrap_or_default()
            .into(),
        Err(errors) => errors.into(),
    }
}

/// Derives `wiremsg::WireUnion` for a tagged union; documented on the re-export
/// `wiremsg::WireUnion`.
#[proc_macro_derive(WireUnion, attributes(wire))]
pub fn derive_wire_union(input: TokenStream) -> TokenStream {
    let mut input = parse_macro_input!(input as DeriveInput);
    if lifetimes::unresolved(&input) {
        return TokenStream::new();
    }
    lifetimes::rename_generated(&mut input);
    let cx = ctxt::Ctxt::new();
    let synths = union_ast::synths(&input);
    let u = union_ast::union(&cx, &input, &synths);
    if let Some(u) = &u {
        union_check::union(&cx, u);
    }
    match cx.check() {
        Ok(()) => {
            let t = u.map(|u| codegen::union::generate(&u)).unwrap_or_default();
            if std::env::var_os("WIREMSG_DEBUG").is_some() {
                eprintln!("{t}");
            }
            t.into()
        }
        Err(errors) => {
            // A union whose only mistake is a missing or unsupported `#[repr]`: its
            // error, and the items of a stand-in width, as for `WireEnum`, so that a
            // message holding the union adds no errors of its own (a dozen with
            // lifetimes, each saying the union is not a wire type). Only where the
            // union passes its checks at the stand-in width.
            let stand_in = u
                .filter(|u| u.repr.as_ref().is_none_or(|r| !check::is_enum_repr(r)))
                .and_then(|mut u| {
                    u.repr = Some(proc_macro2::Ident::new("u64", u.ident.span()));
                    let cx = ctxt::Ctxt::new();
                    union_check::union(&cx, &u);
                    cx.check().ok().map(|()| codegen::union::generate(&u))
                })
                .unwrap_or_default();
            quote::quote!(#errors #stand_in).into()
        }
    }
}
