//! Parse: map field types, `BTreeMap<K, V>` and `HashMap<K, V, S>` (and borrowed,
//! `&BTreeMap<K, V>`), whose keys must have a wire order (FORMAT.md §6.7).

use crate::ast::{self, Kind};
use crate::ctxt::Ctxt;
use syn::{GenericArgument, PathArguments, Type};

/// The key and value types of a map type, if `ty` is one (by its last path segment).
pub(crate) fn map_args(ty: &Type) -> Option<(&Type, &Type)> {
    let Type::Path(path) = ty else { return None };
    let last = path.path.segments.last()?;
    if path.qself.is_some() || (last.ident != "BTreeMap" && last.ident != "HashMap") {
        return None;
    }
    let PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    Some((types.next()?, types.next()?))
}

/// True if `ty` is a map type, or a reference to one.
pub(crate) fn is_map(ty: &Type) -> bool {
    match ty {
        Type::Group(g) => is_map(&g.elem),
        Type::Paren(p) => is_map(&p.elem),
        Type::Reference(r) => is_map(&r.elem),
        ty => map_args(ty).is_some(),
    }
}

/// Classifies a map type: its value as any field type, its key as a type with a wire
/// order. The key's `MapKey` bound decides for a path the derive cannot see into (an
/// enum, or a message, refused there).
pub(crate) fn classify_map(cx: &Ctxt, ty: &Type) -> Kind {
    classify(cx, ty)
}

fn classify(cx: &Ctxt, ty: &Type) -> Kind {
    let Some((key, value)) = map_args(ty) else {
        cx.error_spanned_by(
            ty,
            "a map field names its key and value types: `BTreeMap<K, V>` or `HashMap<K, V>`",
        );
        return Kind::Invalid;
    };
    let key_kind = ast::classify(cx, key);
    let value_kind = ast::classify(cx, value);
    if key_kind == Kind::Invalid || value_kind == Kind::Invalid {
        return Kind::Invalid;
    }
    if let Some(refusal) = refused_key(key) {
        let name = crate::ast::type_text(key);
        cx.error_spanned_by(
            key,
            format!(
                "`{name}` cannot be a map key: {refusal}; map keys are integers, `String`/`&str`, `FixedStr` or `#[derive(WireEnum)]` enums"
            ),
        );
        return Kind::Invalid;
    }
    Kind::Path
}

/// Classifies `&BTreeMap<K, V>` / `&HashMap<K, V>` (given the referenced type): a
/// borrowed map of owned keys and values (its view cannot name borrowed ones).
pub(crate) fn classify_borrowed_map(cx: &Ctxt, map: &Type) -> Kind {
    let kind = classify(cx, map);
    let borrows = quote::ToTokens::to_token_stream(map)
        .to_string()
        .contains('\'');
    if kind != Kind::Invalid && borrows {
        cx.error_spanned_by(
            map,
            "a borrowed map holds owned keys and values (`&BTreeMap<String, u32>`); for borrowed keys or values use an owned map of them (`BTreeMap<&str, u32>`)",
        );
        return Kind::Invalid;
    }
    kind
}

/// Why a key type the derive can see is not a map key, if it is not.
fn refused_key(key: &Type) -> Option<&'static str> {
    match key {
        Type::Group(g) => refused_key(&g.elem),
        Type::Paren(p) => refused_key(&p.elem),
        Type::Reference(r) => match &*r.elem {
            Type::Path(p) if ast::is_str(p) => None,
            _ => Some("a borrowed key is `&str`"),
        },
        Type::Path(_) => match ast::last_name(key).as_deref() {
            Some("f32" | "f64") => Some("floats have no total order (NaN)"),
            Some("bool") => Some("a `bool` key makes a map of at most two entries; use two fields"),
            Some("Decimal") => Some("use the mantissa's integer type as the key"),
            Some("Option" | "Vec" | "BTreeMap" | "HashMap" | "Box") => {
                Some("options, lists and maps have no wire order")
            }
            _ => None,
        },
        Type::Tuple(_) => {
            Some("tuples have no wire order; use a `#[derive(WireEnum)]` or an integer key")
        }
        _ => Some("arrays and slices have no wire order"),
    }
}
