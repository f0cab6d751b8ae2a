//! `#[wire(...)]` attributes and `#[repr(...)]`. Parsing never aborts: a bad attribute
//! is recorded and the next one is read.

use crate::ctxt::Ctxt;
use syn::{Attribute, Ident, Meta};

/// Attributes of a `WireMsg` struct. None are defined yet: the next format features
/// (versions, template ids) add them here.
#[derive(Default)]
pub(crate) struct Container;

/// Attributes of a field. None are defined yet.
#[derive(Default)]
pub(crate) struct Field;

/// Attributes of an enum variant.
#[derive(Default)]
pub(crate) struct Variant {
    /// `#[wire(other)]`: the catch-all variant that keeps unknown values.
    pub(crate) other: bool,
}

const CONTAINER_KEYS: &[&str] = &[];
const FIELD_KEYS: &[&str] = &[];
const VARIANT_KEYS: &[&str] = &["other"];

fn expected(keys: &[&str]) -> String {
    if keys.is_empty() {
        "no `wire` attributes are defined here yet".to_owned()
    } else {
        let list: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        format!("expected one of: {}", list.join(", "))
    }
}

/// Calls `f` with each key of each `#[wire(...)]` attribute; reports malformed ones.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&syn::Path) -> bool,
    keys: &[&str],
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("wire")) {
        if let Meta::List(_) = &attr.meta {
            let result = attr.parse_nested_meta(|meta| {
                if !f(&meta.path) {
                    let name = meta
                        .path
                        .get_ident()
                        .map(Ident::to_string)
                        .unwrap_or_default();
                    return Err(meta.error(format!(
                        "unknown `wire` attribute `{name}`; {}",
                        expected(keys)
                    )));
                }
                Ok(())
            });
            if let Err(err) = result {
                cx.syn_error(err);
            }
        } else {
            cx.error_spanned_by(attr, format!("expected `#[wire(...)]`; {}", expected(keys)));
        }
    }
}

pub(crate) fn container(cx: &Ctxt, attrs: &[Attribute]) -> Container {
    for_each_key(cx, attrs, |_| false, CONTAINER_KEYS);
    Container
}

pub(crate) fn field(cx: &Ctxt, attrs: &[Attribute]) -> Field {
    for_each_key(cx, attrs, |_| false, FIELD_KEYS);
    Field
}

pub(crate) fn variant(cx: &Ctxt, attrs: &[Attribute]) -> Variant {
    let mut out = Variant::default();
    for_each_key(
        cx,
        attrs,
        |path| {
            if path.is_ident("other") {
                out.other = true;
                true
            } else {
                false
            }
        },
        VARIANT_KEYS,
    );
    out
}

/// The integer type of `#[repr(..)]`, if there is one.
pub(crate) fn repr(attrs: &[Attribute]) -> Option<Ident> {
    let mut found = None;
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|meta| {
            if let Some(ident) = meta.path.get_ident() {
                found = Some(ident.clone());
            }
            Ok(())
        });
    }
    found
}
