//! `#[wire(...)]` attributes and `#[repr(...)]`. Parsing never aborts: a bad attribute
//! is recorded and the next one is read.

use crate::ctxt::Ctxt;
use syn::meta::ParseNestedMeta;
use syn::{Attribute, Expr, Ident, LitInt, Meta};

/// Attributes of a `WireMsg` struct.
pub(crate) struct Container {
    /// `#[wire(version = N)]`: the message's current schema version (default 1).
    pub(crate) version: u16,
    /// The `version = N` literal, for error spans.
    pub(crate) version_lit: Option<LitInt>,
    /// `#[wire(template_id = N)]`: the id the message header carries.
    pub(crate) template_id: Option<u16>,
    /// `#[wire(schema_id = N)]`: the schema the message belongs to (default 0).
    pub(crate) schema_id: Option<u16>,
    /// `#[wire(block_length)]`: the message starts with its block length even when it
    /// has no variable-size field, so that a later version can add one (FORMAT.md §5).
    pub(crate) block_length: bool,
    /// `#[wire(borrowed = NameRef)]`: generate `NameRef<'a>`, the borrowed twin of the
    /// message (`&'a str` for `String`, `&'a [T]` for `Vec<T>`), which encodes to the
    /// same bytes without allocating.
    pub(crate) borrowed: Option<Ident>,
    /// `#[wire(no_decode)]`: no `DecodeField` impl and no `decode` (for a message
    /// that holds a list, map or box of a message that cannot decode).
    pub(crate) no_decode: bool,
}

/// Attributes of a field.
#[derive(Default)]
pub(crate) struct Field {
    /// `#[wire(since = N)]`: the version that added the field (default 1).
    pub(crate) since: Option<(u16, LitInt)>,
    /// `#[wire(default = expr)]`: the value read when the writer did not know the field.
    pub(crate) default: Option<Expr>,
    /// `#[wire(reserved)]`: a removed field whose slot stays (written as the default
    /// value, not readable).
    pub(crate) reserved: bool,
    /// `#[wire(null = expr)]` on an `Option<T>` of a number: `T`'s bytes alone, the
    /// value `expr` standing for `None` (FORMAT.md §4.9).
    pub(crate) null: Option<Expr>,
    /// `#[wire(max_len = N)]` on a list: at most `N` elements (FORMAT.md §6.5).
    pub(crate) max_len: Option<LitInt>,
    /// `#[wire(borrowed = AllocRef)]` on a field of a message with a borrowed twin:
    /// the twin holds `AllocRef<'a>` (the nested message's own twin) in place of the
    /// nested message, in a list (`&'a [AllocRef<'a>]`) or an option.
    pub(crate) borrowed: Option<Ident>,
}

impl Field {
    pub(crate) fn since(&self) -> u16 {
        self.since.as_ref().map_or(1, |(v, _)| *v)
    }
}

/// Attributes of an enum variant.
#[derive(Default)]
pub(crate) struct Variant {
    /// `#[wire(other)]`: the catch-all variant that keeps unknown values.
    pub(crate) other: bool,
}

/// Where an attribute set applies, and the keys it accepts.
struct Place {
    /// "message types", "fields", ...: how the messages name the place.
    name: &'static str,
    keys: &'static [&'static str],
}

const CONTAINER: Place = Place {
    name: "message types",
    keys: &[
        "version",
        "template_id",
        "schema_id",
        "block_length",
        "borrowed",
        "no_decode",
    ],
};
const FIELD: Place = Place {
    name: "fields",
    keys: &[
        "since", "default", "reserved", "null", "max_len", "borrowed",
    ],
};
const ENUM: Place = Place {
    name: "enums",
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
        [] => format!("{} take no `wire` attributes; remove it", place.name),
        [key] => format!("the only `wire` attribute of {} is {key}", place.name),
        _ => format!(
            "the `wire` attributes of {} are {}",
            place.name,
            list.join(", ")
        ),
    }
}

/// Calls `f` with each key of each `#[wire(...)]` attribute; `f` returns false for an
/// unknown key. Reports malformed attributes and goes on.
fn for_each_key(
    cx: &Ctxt,
    attrs: &[Attribute],
    place: &Place,
    mut f: impl FnMut(&ParseNestedMeta<'_>) -> syn::Result<bool>,
) {
    for attr in attrs.iter().filter(|a| a.path().is_ident("wire")) {
        if let Meta::List(_) = &attr.meta {
            let result = attr.parse_nested_meta(|meta| {
                if !f(&meta)? {
                    let name = meta
                        .path
                        .get_ident()
                        .map(Ident::to_string)
                        .unwrap_or_default();
                    let hint = match misplaced(place, &name) {
                        Some(home) => {
                            format!("it is an attribute of {home}, not of {}; ", place.name)
                        }
                        None => suggestion(place, &name)
                            .map(|k| format!("did you mean `{k}`? "))
                            .unwrap_or_default(),
                    };
                    return Err(meta.error(format!(
                        "unknown `wire` attribute `{name}`: {hint}{}",
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

/// Where `name` belongs, when it is a key of another place than `place` (`since` on a
/// message type: "fields").
fn misplaced(place: &Place, name: &str) -> Option<&'static str> {
    [&CONTAINER, &FIELD, &VARIANT]
        .into_iter()
        .find(|other| other.name != place.name && other.keys.contains(&name))
        .map(|other| other.name)
}

/// The key of `place` a misspelled `name` most likely meant (`sinse`: `since`,
/// `max_length`: `max_len`): at most two edits away, or one is the start of the other.
fn suggestion(place: &Place, name: &str) -> Option<&'static str> {
    place
        .keys
        .iter()
        .map(|&key| (strsim::damerau_levenshtein(key, name), key))
        .filter(|&(edits, key)| {
            (edits <= 2 && edits < key.len())
                || (name.len() >= 3 && (name.starts_with(key) || key.starts_with(name)))
        })
        .min_by_key(|&(edits, _)| edits)
        .map(|(_, key)| key)
}

/// The value after `key =`, or an error that shows the form (`#[wire(since)]` was
/// syn's bare "expected `=`").
fn value<'m>(
    meta: &'m ParseNestedMeta<'_>,
    key: &str,
    example: &str,
) -> syn::Result<syn::parse::ParseStream<'m>> {
    meta.value().map_err(|_| {
        meta.error(format!(
            "`{key}` takes a value: `#[wire({key} = {example})]`"
        ))
    })
}

/// `key = <integer from 1 (or 0) to 65535>`.
fn u16_value(meta: &ParseNestedMeta<'_>, key: &str, min: u16) -> syn::Result<(u16, LitInt)> {
    let example = if min == 0 { "0" } else { "2" };
    // syn's own error is a bare "expected integer literal" (for `since = "2"`, say).
    let lit: LitInt = value(meta, key, example)?
        .parse()
        .map_err(|e: syn::Error| {
            syn::Error::new(
                e.span(),
                format!("`{key}` takes an integer literal: `#[wire({key} = {example})]`"),
            )
        })?;
    match lit.base10_parse::<u16>() {
        Ok(v) if v >= min => Ok((v, lit)),
        _ => Err(syn::Error::new(
            lit.span(),
            format!("`{key}` is a number from {min} to 65535"),
        )),
    }
}

pub(crate) fn container(cx: &Ctxt, attrs: &[Attribute]) -> Container {
    let mut out = Container {
        version: 1,
        version_lit: None,
        template_id: None,
        schema_id: None,
        block_length: false,
        borrowed: None,
        no_decode: false,
    };
    for_each_key(cx, attrs, &CONTAINER, |meta| {
        if meta.path.is_ident("version") {
            let (v, lit) = u16_value(meta, "version", 1)?;
            out.version = v;
            out.version_lit = Some(lit);
        } else if meta.path.is_ident("template_id") {
            out.template_id = Some(u16_value(meta, "template_id", 0)?.0);
        } else if meta.path.is_ident("schema_id") {
            out.schema_id = Some(u16_value(meta, "schema_id", 0)?.0);
        } else if meta.path.is_ident("block_length") {
            out.block_length = true;
        } else if meta.path.is_ident("borrowed") {
            out.borrowed = Some(value(meta, "borrowed", "NameRef")?.parse()?);
        } else if meta.path.is_ident("no_decode") {
            out.no_decode = true;
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    out
}

pub(crate) fn field(cx: &Ctxt, attrs: &[Attribute]) -> Field {
    let mut out = Field::default();
    for_each_key(cx, attrs, &FIELD, |meta| {
        if meta.path.is_ident("since") {
            out.since = Some(u16_value(meta, "since", 1)?);
        } else if meta.path.is_ident("default") {
            out.default = Some(value(meta, "default", "0")?.parse()?);
        } else if meta.path.is_ident("reserved") {
            out.reserved = true;
        } else if meta.path.is_ident("null") {
            out.null = Some(value(meta, "null", "i64::MIN")?.parse()?);
        } else if meta.path.is_ident("borrowed") {
            out.borrowed = Some(value(meta, "borrowed", "QuoteRef")?.parse()?);
        } else if meta.path.is_ident("max_len") {
            let lit: LitInt = value(meta, "max_len", "64")?.parse()?;
            if lit.base10_parse::<u32>().is_err() {
                return Err(syn::Error::new(
                    lit.span(),
                    "`max_len` is a number of elements, from 0 to 4294967295",
                ));
            }
            out.max_len = Some(lit);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    out
}

pub(crate) fn enumeration(cx: &Ctxt, attrs: &[Attribute]) {
    for_each_key(cx, attrs, &ENUM, |_| Ok(false));
}

pub(crate) fn variant(cx: &Ctxt, attrs: &[Attribute]) -> Variant {
    let mut out = Variant::default();
    for_each_key(cx, attrs, &VARIANT, |meta| {
        if meta.path.is_ident("other") {
            out.other = true;
            Ok(true)
        } else {
            Ok(false)
        }
    });
    out
}

/// The integer type of `#[repr(..)]`, if there is one; else its last other hint
/// (`C`, `align`), which the checks refuse by name.
pub(crate) fn repr(attrs: &[Attribute]) -> Option<Ident> {
    const INTEGERS: [&str; 12] = [
        "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
    ];
    let (mut integer, mut other) = (None, None);
    for attr in attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let _ = attr.parse_nested_meta(|meta| {
            // `align(8)`, `packed(2)`: their argument, so that the hints after them
            // are read too (`#[repr(align(8), u8)]`).
            if meta.input.peek(syn::token::Paren) {
                let content;
                syn::parenthesized!(content in meta.input);
                let _: proc_macro2::TokenStream = content.parse()?;
            }
            if let Some(ident) = meta.path.get_ident() {
                let slot = if INTEGERS.iter().any(|i| ident == i) {
                    &mut integer
                } else {
                    &mut other
                };
                *slot = Some(ident.clone());
            }
            Ok(())
        });
    }
    integer.or(other)
}

/// Attributes of a `WireUnion` enum.
#[derive(Default)]
pub(crate) struct UnionContainer {
    /// `#[wire(version = N)]`: the union's current schema version (default 1).
    pub(crate) version: Option<(u16, LitInt)>,
    /// `#[wire(no_decode)]`: as on a message (no `DecodeField`, no `decode`), passed
    /// on to the anonymous messages of struct variants.
    pub(crate) no_decode: bool,
}

impl UnionContainer {
    pub(crate) fn version(&self) -> u16 {
        self.version.as_ref().map_or(1, |(v, _)| *v)
    }
}

/// Attributes of a `WireUnion` variant.
#[derive(Default)]
pub(crate) struct UnionVariant {
    /// `#[wire(other)]`: the catch-all variant that keeps unknown tags and their bytes.
    pub(crate) other: bool,
    /// `#[wire(tag = N)]`: the variant's tag, in place of a discriminant.
    pub(crate) tag: Option<Expr>,
    /// `#[wire(since = N)]`: the union version that added the variant (default 1).
    pub(crate) since: Option<(u16, LitInt)>,
}

impl UnionVariant {
    pub(crate) fn since(&self) -> u16 {
        self.since.as_ref().map_or(1, |(v, _)| *v)
    }
}

const UNION: Place = Place {
    name: "unions",
    keys: &["version", "no_decode"],
};
const UNION_VARIANT: Place = Place {
    name: "union variants",
    keys: &["tag", "since", "other"],
};

pub(crate) fn union_container(cx: &Ctxt, attrs: &[Attribute]) -> UnionContainer {
    let mut out = UnionContainer::default();
    for_each_key(cx, attrs, &UNION, |meta| {
        if meta.path.is_ident("version") {
            out.version = Some(u16_value(meta, "version", 1)?);
            Ok(true)
        } else if meta.path.is_ident("no_decode") {
            out.no_decode = true;
            Ok(true)
        } else {
            Ok(false)
        }
    });
    out
}

pub(crate) fn union_variant(cx: &Ctxt, attrs: &[Attribute]) -> UnionVariant {
    let mut out = UnionVariant::default();
    for_each_key(cx, attrs, &UNION_VARIANT, |meta| {
        if meta.path.is_ident("other") {
            out.other = true;
        } else if meta.path.is_ident("tag") {
            out.tag = Some(value(meta, "tag", "1")?.parse()?);
        } else if meta.path.is_ident("since") {
            out.since = Some(u16_value(meta, "since", 1)?);
        } else {
            return Ok(false);
        }
        Ok(true)
    });
    out
}
