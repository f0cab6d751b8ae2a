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

/// Where an attribute set applies, and the keys it accepts.
struct Place {
    /// "types", "fields", "enum variants": how the messages name the place.
    name: &'static str,
    keys: &'static [&'static str],
}

const CONTAINER: Place = Place {
    name: "types",
    keys: &[],
};
const FIELD: Place = Place {
    name: "fields",
    keys: &[],
};
const VARIANT: Place = Place {
    name: "enum variants",
    keys: &["other"],
};

/// What the user can write instead, for an error message.
fn expected(place: &Place) -> String {
    let list: Vec<String> = place.keys.iter().map(|k| format!("`{k}`")).collect();
    match list.as_slice() {
        [] => format!("{} take no `wire` attributes yet; remove it", place.name),
        [key] => format!("the only `wire` attribute of {} is {key}", place.name),
        _ => format!(
            "the `wire` attributes of {} are {}",
            place.name,
            list.join(", ")
        ),
    }
}

/// Calls `f` with each key of each `#[wire(...)]` attribute; reports malformed ones.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    mut f: impl FnMut(&syn::Path) -> bool,
    place: &Place,
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
                        "unknown `wire` attribute `{name}`: {}",
                        expected(place)
                    )));
                }
                Ok(())
            });
            if let Err(err) = result {
                cx.syn_error(err);
            }
        } else {
            cx.error_spanned_by(
                attr,
                format!(
                    "malformed `wire` attribute: the form is `#[wire(...)]`, and {}",
                    expected(place)
                ),
            );
        }
    }
}

pub(crate) fn container(cx: &Ctxt, attrs: &[Attribute]) -> Container {
    for_each_key(cx, attrs, |_| false, &CONTAINER);
    Container
}

pub(crate) fn field(cx: &Ctxt, attrs: &[Attribute]) -> Field {
    for_each_key(cx, attrs, |_| false, &FIELD);
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
        &VARIANT,
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
