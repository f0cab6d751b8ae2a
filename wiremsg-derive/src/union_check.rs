//! Check, for `#[derive(WireUnion)]`: the rules of FORMAT.md §4.10 that parsing alone
//! cannot see. Tags that collide are found here where every tag is a literal (the
//! usual case), else by the compiler (generated constant assertions, one per pair),
//! since tags may be constant expressions.

use crate::ctxt::Ctxt;
use crate::union_ast::{Shape, Union};
use syn::GenericParam;

pub(crate) fn union(cx: &Ctxt, u: &Union<'_>) {
    for param in &u.generics.params {
        match param {
            GenericParam::Lifetime(_) => {}
            _ => cx.error_spanned_by(
                param,
                "`WireUnion` does not support type or const parameters; use concrete payload types",
            ),
        }
    }
    if let Some(w) = &u.generics.where_clause {
        cx.error_spanned_by(w, "`WireUnion` does not support `where` clauses; remove it");
    }
    match &u.repr {
        None => cx.error_spanned_by(
            u.ident,
            "`WireUnion` needs the tag's wire width: add `#[repr(u8)]` (or `u16`, `u32`, `u64`)",
        ),
        Some(repr) if !["u8", "u16", "u32", "u64"].contains(&repr.to_string().as_str()) => cx
            .error_spanned_by(
                repr,
                format!("`#[repr({repr})]` is not a tag width of `WireUnion`; use `u8`, `u16`, `u32` or `u64`"),
            ),
        Some(_) => {}
    }
    let version = u.attrs.version();
    let mut catch_all = None;
    let mut tagged = 0;
    for v in &u.variants {
        if let (Some(tag), Some(d)) = (&v.attrs.tag, v.discriminant) {
            cx.error_spanned_by(
                tag,
                format!(
                    "variant `{}` has a discriminant and `#[wire(tag)]`; keep one (`= {}`)",
                    v.ident,
                    quote::ToTokens::to_token_stream(d)
                ),
            );
        }
        if let Some((since, lit)) = &v.attrs.since {
            if *since > version {
                let fix = match &u.attrs.version {
                    Some(_) => format!("raise `#[wire(version = {version})]` to {since}"),
                    None => format!("add `#[wire(version = {since})]` to the union"),
                };
                cx.error_spanned_by(
                    lit,
                    format!("`since = {since}` is newer than the union's version {version}: {fix}"),
                );
            }
        }
        if v.attrs.other {
            if let Some(first) = catch_all {
                cx.error_spanned_by(
                    v.ident,
                    format!("only one variant can be `#[wire(other)]`, and `{first}` already is; remove the attribute from this one"),
                );
            }
            catch_all = Some(v.ident);
            if let Some(d) = v.discriminant {
                cx.error_spanned_by(d, "the `#[wire(other)]` variant keeps any tag no other variant has, so it has none of its own; remove `= ...`");
            }
            if let Some(tag) = &v.attrs.tag {
                cx.error_spanned_by(tag, "the `#[wire(other)]` variant keeps any tag no other variant has, so it has none of its own; remove `tag`");
            }
            if let Some((_, lit)) = &v.attrs.since {
                cx.error_spanned_by(
                    lit,
                    "the `#[wire(other)]` variant belongs to no version; remove `since`",
                );
            }
        } else {
            tagged += 1;
        }
        if let Shape::Struct(msg) = &v.shape {
            crate::check::message(cx, msg, &[]);
        }
    }
    if tagged == 0 {
        cx.error_spanned_by(u.ident, "`WireUnion` needs at least one variant with a tag");
    }
    if let Some(tags) = literal_tags(u) {
        // Two that Rust numbers alike too are its error (E0081), not a second one.
        let rust = numbered(u, |_| None);
        let name = u.ident.to_string();
        let name = name.trim_start_matches("r#");
        let mut first = std::collections::HashMap::new();
        for (i, (v, tag)) in u.variants.iter().zip(tags).enumerate() {
            if v.attrs.other {
                continue;
            }
            let Some(&j) = first.get(&tag) else {
                first.insert(tag, i);
                continue;
            };
            if rust.as_ref().is_some_and(|r| r[i] == r[j]) {
                continue;
            }
            let (a, b) = (u.variants[j].ident, v.ident);
            cx.error_spanned_by(
                b,
                format!("wiremsg: variants `{a}` and `{b}` of `{name}` have the same tag; give `{b}` another (`= N` or `#[wire(tag = N)]`)"),
            );
        }
    }
    if let Some(repr) = &u.repr {
        let variants = u.variants.iter();
        crate::check::catch_all_numbering(
            cx,
            repr,
            variants.map(|v| (v.ident, v.discriminant, v.attrs.other)),
        );
    }
}

/// Every variant's tag by Rust's rule (explicit, else the previous variant's plus
/// one, the first 0; the catch-all counts), if every explicit one is an integer or
/// byte literal; `None` if one is another expression, which only the compiler can
/// evaluate.
pub(crate) fn literal_tags(u: &Union<'_>) -> Option<Vec<u128>> {
    numbered(u, |v| v.attrs.tag.as_ref())
}

/// The variants' values by Rust's rule, from each one's `tag` if it has one, else its
/// discriminant; `None` where one is not a literal.
fn numbered<'a>(
    u: &'a Union<'_>,
    tag: impl Fn(&'a crate::union_ast::Variant<'_>) -> Option<&'a syn::Expr>,
) -> Option<Vec<u128>> {
    let mut next = 0u128;
    u.variants
        .iter()
        .map(|v| {
            let value = match tag(v).or(v.discriminant) {
                Some(expr) => crate::check::literal(expr)?,
                None => next,
            };
            next = value.checked_add(1)?;
            Some(value)
        })
        .collect()
}
