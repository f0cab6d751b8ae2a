//! Check: rules across fields and declarations that parsing alone cannot see. Every
//! violation is recorded with the span of the offending token.

use crate::ast::{Enum, Message};
use crate::ctxt::Ctxt;
use quote::ToTokens;
use syn::GenericParam;

pub(crate) fn message(cx: &Ctxt, msg: &Message<'_>, attrs: &[syn::Attribute]) {
    message_generics(cx, msg);
    if let Some(packed) = attrs.iter().find(|a| {
        a.path().is_ident("repr") && a.meta.to_token_stream().to_string().contains("packed")
    }) {
        cx.error_spanned_by(
            packed,
            "`#[repr(packed)]` is not needed: the wire layout is already packed and unaligned; remove it",
        );
    }
    versions(cx, msg);
    if msg.attrs.borrowed.is_none() {
        for field in msg.fields.iter().filter(|f| f.attrs.borrowed.is_some()) {
            if let Some(twin) = &field.attrs.borrowed {
                cx.error_spanned_by(
                    twin,
                    format!(
                        "a field's `borrowed` says what the message's borrowed twin holds; add `#[wire(borrowed = {}Ref)]` to the struct, or remove it",
                        msg.ident
                    ),
                );
            }
        }
    }
    if let Some(twin) = &msg.attrs.borrowed {
        if msg.generics.type_params().next().is_some() {
            cx.error_spanned_by(
                twin,
                "`borrowed` is not supported on a generic message: the twin would borrow its type arguments' fields too; declare the borrowed message with its own lifetimes (`struct BatchRef<'a, T> { items: &'a [T] }`)",
            );
        } else if !msg.generics.params.is_empty() {
            cx.error_spanned_by(
                twin,
                "`borrowed` generates the borrowed twin of a message that owns its fields; this one has lifetimes already: remove `borrowed`",
            );
        } else if twin == msg.ident {
            cx.error_spanned_by(
                twin,
                format!(
                    "the borrowed twin needs its own name, e.g. `borrowed = {}Ref`",
                    msg.ident
                ),
            );
        }
    }
    if msg.attrs.schema_id.is_some() && msg.attrs.template_id.is_none() {
        cx.error_spanned_by(
            msg.ident,
            "`schema_id` goes with `template_id`: add `#[wire(template_id = N)]` to send the message with a header",
        );
    }
    if msg.attrs.template_id == Some(0xFFFF) && msg.attrs.schema_id == Some(0xFFFF) {
        cx.error_spanned_by(
            msg.ident,
            "template id 0xFFFF in schema 0xFFFF is reserved for schema messages (FORMAT.md §11); choose another id",
        );
    }
    let mut seen: Vec<(String, &syn::Ident)> = Vec::new();
    for field in &msg.fields {
        let upper = field
            .ident
            .to_string()
            .trim_start_matches("r#")
            .to_uppercase();
        if let Some((_, first)) = seen.iter().find(|(name, _)| *name == upper) {
            cx.error_spanned_by(
                field.ident,
                format!(
                    "fields `{first}` and `{}` would both have layout constants `{upper}_OFFSET`; rename one",
                    field.ident
                ),
            );
        }
        seen.push((upper, field.ident));
    }
    generated_names(cx, msg);
    for field in &msg.fields {
        field_types(cx, field);
    }
}

/// `null` and `max_len` go on the fields whose wire form they change (FORMAT.md §4.9,
/// §6.5).
fn field_types(cx: &Ctxt, field: &crate::ast::Field<'_>) {
    if let Some(null) = &field.attrs.null {
        match crate::ast::option_inner(&field.ty) {
            None => cx.error_spanned_by(
                null,
                format!(
                    "`null` goes on an `Option` of a number, e.g. `#[wire(null = i64::MIN)] {}: Option<i64>`; remove it, or make the field an `Option`",
                    field.ident
                ),
            ),
            Some(inner) => {
                let inner = crate::ast::ungroup(inner);
                let name = crate::ast::last_name(inner).unwrap_or_default();
                if [
                    "f32", "f64", "bool", "u128", "i128", "FixedStr", "String", "Vec", "Option",
                ]
                .contains(&name.as_str())
                    || !matches!(inner, syn::Type::Path(_))
                {
                    let inner = inner.to_token_stream().to_string().replace(' ', "");
                    cx.error_spanned_by(
                        null,
                        format!(
                            "`{inner}` has no null sentinel form: `null` needs an integer of up to 64 bits or a `Decimal` of one; remove `null` to keep the presence byte"
                        ),
                    );
                }
            }
        }
    }
    if let Some(twin) = &field.attrs.borrowed {
        let shape_ok = match &field.ty {
            syn::Type::Path(_) => {
                field.kind == crate::ast::Kind::Path || field.kind == crate::ast::Kind::List
            }
            _ => false,
        };
        if !shape_ok {
            cx.error_spanned_by(
                twin,
                "a field's `borrowed` names the borrowed twin of a nested message: it goes on a field of a message type `M`, `Option<M>` or `Vec<M>`",
            );
        }
    }
    decimal_scales(cx, &field.ty);
    borrowed_type_arguments(cx, &field.ty);
    if let Some(max_len) = &field.attrs.max_len {
        if field.kind != crate::ast::Kind::List {
            cx.error_spanned_by(
                max_len,
                "`max_len` goes on a list field (`Vec<T>` or `&[T]`); remove it",
            );
        }
    }
}

/// A generic message instantiated with a type that borrows (`Wrap<'a, Name<'a>>`,
/// `Wrap<'a, &'a str>`), anywhere in the field's type: an error at the argument. A
/// generic message's impls bound its type parameters `'static` (its views and
/// decoding name them without lifetimes), so the derive's code would otherwise fail
/// with "lifetime may not live long enough".
fn borrowed_type_arguments(cx: &Ctxt, ty: &syn::Type) {
    use syn::visit_mut::VisitMut;
    struct Borrows(bool);
    impl VisitMut for Borrows {
        fn visit_lifetime_mut(&mut self, l: &mut syn::Lifetime) {
            self.0 |= l.ident != "static";
        }
    }
    struct Find<'c>(&'c Ctxt);
    impl VisitMut for Find<'_> {
        fn visit_type_path_mut(&mut self, p: &mut syn::TypePath) {
            let ty = syn::Type::Path(p.clone());
            if let Some(args) = crate::codegen::generic_message_args(&ty) {
                let name = p.path.segments.last().map(|s| s.ident.to_string());
                for arg in args {
                    let syn::GenericArgument::Type(arg) = arg else {
                        continue;
                    };
                    let mut borrows = Borrows(false);
                    borrows.visit_type_mut(&mut arg.clone());
                    if borrows.0 {
                        let text = crate::ast::type_text(arg);
                        let name = name.clone().unwrap_or_default();
                        self.0.error_spanned_by(
                            arg,
                            format!(
                                "`{text}` borrows, but a generic message's type arguments are owned: `{name}`'s type parameters are `'static` (its views and decoding name them without lifetimes); use an owned type here (`String` for `&str`), or make `{name}` hold the borrowed type as a field of its own"
                            ),
                        );
                    }
                }
            }
            syn::visit_mut::visit_type_path_mut(self, p);
        }
    }
    Find(cx).visit_type_mut(&mut ty.clone());
}

/// The most decimal places of a `Decimal` (FORMAT.md §4.8; the runtime's
/// `decimal::MAX_SCALE`).
const MAX_SCALE: u128 = 18;

/// A `Decimal<M, SCALE>` with a literal `SCALE` over 18, anywhere in `ty` (`Vec<..>`,
/// `Option<..>`, arrays, tuples): an error at the scale. The runtime's assertion
/// catches a scale given by a constant too, but rustc reports it inside the runtime.
fn decimal_scales(cx: &Ctxt, ty: &syn::Type) {
    crate::ast::each_type(ty, &mut |t| {
        let syn::Type::Path(p) = t else { return };
        let Some(last) = p.path.segments.last().filter(|s| s.ident == "Decimal") else {
            return;
        };
        let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
            return;
        };
        if let Some(syn::GenericArgument::Const(scale)) = args.args.iter().nth(1) {
            if let Some(n) = literal(scale).filter(|&n| n > MAX_SCALE) {
                cx.error_spanned_by(
                    scale,
                    format!(
                        "a `Decimal` has at most {MAX_SCALE} decimal places (FORMAT.md §4.8: 10^{n} is past a 64-bit mantissa's range); use a scale of 0 to {MAX_SCALE}"
                    ),
                );
            }
        }
    });
}

/// Names the generated view and mutable view use for their own methods.
const RESERVED_FIELD_NAMES: &[&str] = &["decode", "as_bytes", "version", "as_view"];

/// Every method name the derive generates must be unique: a field may not be named
/// like the views' own methods, like the accessors generated for another field
/// (`has_x`, `try_x`, `set_x`, `x_mut`), or with the `__` prefix of generated items.
fn generated_names(cx: &Ctxt, msg: &Message<'_>) {
    // (method name, what generates it)
    let mut taken: Vec<(String, String)> = Vec::new();
    for field in &msg.fields {
        // `r#decode` is the same method name as `decode`.
        let ident = field.ident.to_string();
        let name = ident.trim_start_matches("r#");
        if name.starts_with("__") {
            cx.error_spanned_by(
                field.ident,
                format!("field names starting with `__` are reserved for generated items; rename `{name}`"),
            );
            continue;
        }
        if RESERVED_FIELD_NAMES.contains(&name) {
            cx.error_spanned_by(
                field.ident,
                format!("a field named `{name}` would clash with the view's `{name}()` method; rename the field"),
            );
            continue;
        }
        if field.attrs.reserved {
            continue;
        }
        let mut names = vec![
            name.to_owned(),
            format!("set_{name}"),
            format!("{name}_mut"),
        ];
        if field.attrs.since() > 1 {
            names.push(format!("try_{name}"));
            names.push(format!("has_{name}"));
        }
        for generated in names {
            if let Some((_, owner)) = taken.iter().find(|(n, _)| *n == generated) {
                cx.error_spanned_by(
                    field.ident,
                    format!("field `{name}` would generate `{generated}()`, which the views already have for {owner}; rename the field"),
                );
            } else {
                taken.push((generated, format!("field `{name}`")));
            }
        }
    }
}

/// The versioning rules (FORMAT.md §5): fields are appended in version order, no
/// field is newer than the message, defaults only for fields that can be absent.
fn versions(cx: &Ctxt, msg: &Message<'_>) {
    let version = msg.attrs.version;
    let mut newest: Option<(u16, &syn::Ident)> = None;
    for field in &msg.fields {
        let since = field.attrs.since();
        if let Some((_, lit)) = &field.attrs.since {
            if since > version {
                let fix = match &msg.attrs.version_lit {
                    Some(_) => format!("raise `#[wire(version = {version})]` to {since}"),
                    None => format!("add `#[wire(version = {since})]` to the struct"),
                };
                cx.error_spanned_by(
                    lit,
                    format!(
                        "`since = {since}` is newer than the message's version {version}: {fix}"
                    ),
                );
            }
        }
        match newest {
            Some((newer, newer_field)) if since < newer => cx.error_spanned_by(
                field.ident,
                format!(
                    "field `{}` (since {since}) comes after `{newer_field}` (since {newer}): \
                     fields of later versions are appended after older ones; move it before `{newer_field}`",
                    field.ident
                ),
            ),
            _ => newest = Some((since, field.ident)),
        }
        if let Some(default) = &field.attrs.default {
            if field.attrs.reserved {
                cx.error_spanned_by(
                    default,
                    "a `reserved` field is not read, so it takes no `default`; remove it",
                );
            } else if since == 1 {
                cx.error_spanned_by(
                    default,
                    "`default` is the value of a field that older bytes do not have; it needs `since = N` with N > 1",
                );
            }
        }
    }
}

/// True for a `#[repr]` a `WireEnum` takes: its wire width, an unsigned integer of
/// 8 to 64 bits.
pub(crate) fn is_enum_repr(repr: &proc_macro2::Ident) -> bool {
    ["u8", "u16", "u32", "u64"].iter().any(|w| repr == w)
}

pub(crate) fn enumeration(cx: &Ctxt, e: &Enum<'_>) {
    if !e.generics.params.is_empty() {
        cx.error_spanned_by(
            e.generics,
            "`WireEnum` does not support generic parameters; remove them",
        );
    } else if let Some(w) = &e.generics.where_clause {
        cx.error_spanned_by(w, "`WireEnum` does not support `where` clauses; remove it");
    }
    match &e.repr {
        None => cx.error_spanned_by(
            e.ident,
            "`WireEnum` needs the wire width: add `#[repr(u8)]` (or `u16`, `u32`, `u64`)",
        ),
        Some(repr) if !is_enum_repr(repr) => cx.error_spanned_by(
            repr,
            format!(
                "`#[repr({repr})]` is not supported by `WireEnum`; use `u8`, `u16`, `u32` or `u64`"
            ),
        ),
        Some(_) => {}
    }
    let mut catch_all = None;
    let mut units = 0;
    for v in &e.variants {
        if v.attrs.other {
            let field_ok = match (v.field, &e.repr) {
                (Some(syn::Type::Path(p)), Some(repr)) => p.path.is_ident(repr),
                _ => false,
            };
            if !field_ok {
                let repr = e
                    .repr
                    .as_ref()
                    .map_or_else(|| "u8".to_owned(), ToString::to_string);
                let span: &dyn quote::ToTokens = match v.fields {
                    syn::Fields::Unit => v.ident,
                    fields => fields,
                };
                cx.error_spanned_by(
                    span,
                    format!(
                        "the `#[wire(other)]` variant keeps the unknown value: give it one field of the repr type, `{}({repr})`",
                        v.ident
                    ),
                );
            }
            match catch_all {
                None => catch_all = Some(v.ident),
                Some(first) => cx.error_spanned_by(
                    v.ident,
                    format!("only one variant can be `#[wire(other)]`, and `{first}` already is; remove the attribute from this one"),
                ),
            }
            if let Some(d) = v.discriminant {
                cx.error_spanned_by(
                    d,
                    "the `#[wire(other)]` variant has no value of its own; remove `= ...`",
                );
            }
        } else if !matches!(v.fields, syn::Fields::Unit) {
            cx.error_spanned_by(
                v.fields,
                format!(
                    "`WireEnum` variants carry no data; mark `{}` `#[wire(other)]` to make it the catch-all that keeps unknown values, or remove its fields (for variants that carry data, derive `WireUnion`)",
                    v.ident
                ),
            );
        } else {
            units += 1;
        }
    }
    if units == 0 {
        cx.error_spanned_by(e.ident, "`WireEnum` needs at least one unit variant");
    }
    if let Some(repr) = &e.repr {
        let variants = e.variants.iter();
        catch_all_numbering(
            cx,
            repr,
            variants.map(|v| (v.ident, v.discriminant, v.attrs.other)),
        );
    }
}

/// Rust numbers a `#[wire(other)]` variant like any other (the previous variant's
/// discriminant plus one, and the next variant without `= N` counts on from it)
/// though it has no value on the wire. Where that gives two variants one number, or
/// passes the repr's maximum, rustc refuses the enum (E0081, E0370) without a word
/// about the catch-all; this says it first, with the fix. Only when every
/// discriminant is a literal (otherwise rustc alone reports).
pub(crate) fn catch_all_numbering<'a>(
    cx: &Ctxt,
    repr: &syn::Ident,
    variants: impl Iterator<Item = (&'a syn::Ident, Option<&'a syn::Expr>, bool)>,
) {
    let max = match repr.to_string().as_str() {
        "u8" => u128::from(u8::MAX),
        "u16" => u128::from(u16::MAX),
        "u32" => u128::from(u32::MAX),
        "u64" => u128::from(u64::MAX),
        _ => return,
    };
    let variants: Vec<_> = variants.collect();
    let Some(catch_all) = variants.iter().find(|v| v.2).map(|v| v.0) else {
        return;
    };
    let fix = format!(
        "declare `{catch_all}` last, after the highest value (it has none on the wire, but Rust numbers it the previous variant's plus one)"
    );
    // Each variant's number, and whether the catch-all's numbering gave it (the
    // catch-all, and the variants without `= N` that count on from it).
    let mut numbered: Vec<(&syn::Ident, u128, bool)> = Vec::new();
    for &(ident, discriminant, other) in &variants {
        let (number, counted) = match discriminant {
            Some(expr) => match literal(expr) {
                Some(n) => (n, false),
                None => return,
            },
            None => match numbered.last() {
                None => (0, other),
                Some(&(prev, n, counted)) if n >= max => {
                    if other || counted {
                        cx.error_spanned_by(
                            ident,
                            format!("Rust numbers `{ident}` one past `{prev}`'s {n}, the most `{repr}` holds; {fix}"),
                        );
                    }
                    return;
                }
                Some(&(_, n, counted)) => (n + 1, other || counted),
            },
        };
        let clash = numbered.iter().find(|v| v.1 == number);
        if let Some(&(prev, _, prev_counted)) = clash {
            if counted || prev_counted {
                cx.error_spanned_by(
                    ident,
                    format!("Rust numbers `{ident}` {number}, as it numbers `{prev}`; {fix}"),
                );
            }
            return;
        }
        numbered.push((ident, number, counted));
    }
}

/// The value of an integer or byte literal (a discriminant or a union's tag), through
/// groups and parentheses.
pub(crate) fn literal(expr: &syn::Expr) -> Option<u128> {
    match expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) => int.base10_parse().ok(),
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Byte(byte),
            ..
        }) => Some(byte.value().into()),
        syn::Expr::Group(g) => literal(&g.expr),
        syn::Expr::Paren(p) => literal(&p.expr),
        _ => None,
    }
}

/// A message may have lifetimes and type parameters (their bounds and `where`
/// predicates pass through to every generated impl); const parameters, and `where`
/// predicates that name the message's lifetimes (the generated code renames those),
/// are refused. A generic message has no template id: its instantiations would share
/// it.
fn message_generics(cx: &Ctxt, msg: &Message<'_>) {
    let generics = msg.generics;
    for param in &generics.params {
        if let GenericParam::Const(c) = param {
            cx.error_spanned_by(
                c,
                "`WireMsg` does not support const parameters: a message has one layout, and each value of the parameter would make another; use a concrete length, or a `Vec` for a length known at run time",
            );
        }
    }
    if let Some(w) = &generics.where_clause {
        for predicate in &w.predicates {
            let text = predicate.to_token_stream().to_string();
            let names_lifetime = generics
                .lifetimes()
                .any(|l| text.contains(&l.lifetime.to_string()));
            if names_lifetime {
                cx.error_spanned_by(
                    predicate,
                    "`where` predicates on the message's lifetimes are not supported (the views rename them); bound the type parameters alone, or remove it",
                );
            }
        }
    }
    if let (Some(_), Some(param)) = (msg.attrs.template_id, generics.type_params().next()) {
        cx.error_spanned_by(
            param,
            "a generic message cannot have a `template_id`: every instantiation would share it; wrap each instantiation in a message of its own with its own template id (`struct TickBatch { batch: Batch<Tick> }`)",
        );
    }
}
