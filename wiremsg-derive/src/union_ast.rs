//! Parse, for `#[derive(WireUnion)]`: the enum into a small model of the union, its
//! variants and their payloads. A struct variant's fields become an anonymous
//! message (`{Union}{Variant}`), parsed as a `WireMsg` struct would be, so that the
//! message derive's checks and generators serve it unchanged.

use crate::ast::{self, Relifetime};
use crate::attr;
use crate::ctxt::Ctxt;
use quote::format_ident;
use syn::visit_mut::VisitMut;
use syn::{Attribute, Data, DeriveInput, Expr, Fields, Generics, Ident, Type, Visibility};

/// A tagged union deriving `WireUnion`.
pub(crate) struct Union<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    pub(crate) generics: &'a Generics,
    /// The integer of `#[repr(..)]`: the tag's type.
    pub(crate) repr: Option<Ident>,
    pub(crate) attrs: attr::UnionContainer,
    pub(crate) variants: Vec<Variant<'a>>,
}

/// One variant.
pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) discriminant: Option<&'a Expr>,
    pub(crate) fields: &'a Fields,
    pub(crate) attrs: attr::UnionVariant,
    pub(crate) shape: Shape<'a>,
}

/// What a variant carries after its tag.
pub(crate) enum Shape<'a> {
    /// Nothing.
    Unit,
    /// One message, `Name(M)`: `ty` with `Self` replaced by the union's type.
    Newtype {
        ty: Type,
        /// Written `Name(Box<M>)`: `ty` is `M`, and the variant holds it boxed (the
        /// payload's bytes are `M`'s).
        boxed: bool,
    },
    /// Named fields: the anonymous message they make.
    Struct(ast::Message<'a>),
    /// The catch-all `Other { tag: R, bytes: Vec<u8> }` (or `&[u8]`).
    CatchAll { bytes_ty: Type },
    /// Refused (an error was recorded).
    Invalid,
}

/// What the anonymous message of a struct variant owns: its name, visibility and the
/// union's lifetimes its fields use. Made before the model, which borrows it.
pub(crate) struct Synth {
    pub(crate) ident: Ident,
    pub(crate) vis: Visibility,
    pub(crate) generics: Generics,
    /// The union's name.
    pub(crate) union: Ident,
}

/// One entry per variant: the anonymous message's parts for a struct variant.
pub(crate) fn synths(input: &DeriveInput) -> Vec<Option<Synth>> {
    let Data::Enum(data) = &input.data else {
        return Vec::new();
    };
    let name = input.ident.to_string();
    let name = name.trim_start_matches("r#");
    data.variants
        .iter()
        .map(|v| {
            let Fields::Named(named) = &v.fields else {
                return None;
            };
            let mut used = Lifetimes(Vec::new());
            for f in &named.named {
                used.visit_type_mut(&mut f.ty.clone());
            }
            let mut generics = Generics::default();
            generics.params = input
                .generics
                .lifetimes()
                .filter(|l| used.0.contains(&l.lifetime.ident))
                .map(|l| syn::GenericParam::Lifetime(l.clone()))
                .collect();
            let variant = v.ident.to_string();
            Some(Synth {
                ident: format_ident!(
                    "{}{}",
                    name,
                    variant.trim_start_matches("r#"),
                    span = v.ident.span()
                ),
                vis: input.vis.clone(),
                generics,
                union: input.ident.clone(),
            })
        })
        .collect()
}

/// The lifetimes a type names.
struct Lifetimes(Vec<Ident>);

impl VisitMut for Lifetimes {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        if !self.0.contains(&lifetime.ident) {
            self.0.push(lifetime.ident.clone());
        }
    }
}

pub(crate) fn union<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    synths: &'a [Option<Synth>],
) -> Option<Union<'a>> {
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            "`WireUnion` derives only for enums whose variants carry data (tagged unions); for a struct use `#[derive(WireMsg)]`",
        );
        return None;
    };
    let ident = &input.ident;
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let self_ty: Type = syn::parse_quote!(#ident #ty_generics);
    let repr = attr::repr(&input.attrs);
    let container = attr::union_container(cx, &input.attrs);
    let variants = data
        .variants
        .iter()
        .zip(synths)
        .map(|(v, synth)| {
            let attrs = attr::union_variant(cx, &v.attrs);
            let shape = shape(
                cx,
                v,
                &attrs,
                synth.as_ref(),
                &self_ty,
                repr.as_ref(),
                &container,
            );
            Variant {
                ident: &v.ident,
                discriminant: v.discriminant.as_ref().map(|(_, e)| e),
                fields: &v.fields,
                attrs,
                shape,
            }
        })
        .collect();
    Some(Union {
        ident,
        vis: &input.vis,
        generics: &input.generics,
        repr,
        attrs: container,
        variants,
    })
}

fn shape<'a>(
    cx: &Ctxt,
    v: &'a syn::Variant,
    attrs: &attr::UnionVariant,
    synth: Option<&'a Synth>,
    self_ty: &Type,
    repr: Option<&Ident>,
    container: &attr::UnionContainer,
) -> Shape<'a> {
    match (&v.fields, synth) {
        (Fields::Unit, _) => {
            if attrs.other {
                cx.error_spanned_by(
                    &v.ident,
                    format!(
                        "the `#[wire(other)]` variant keeps the unknown tag and the bytes after it: write it `{} {{ tag: {}, bytes: Vec<u8> }}`",
                        v.ident,
                        repr.map_or_else(|| "u8".to_owned(), ToString::to_string)
                    ),
                );
                return Shape::Invalid;
            }
            Shape::Unit
        }
        (Fields::Unnamed(fields), _) => {
            let mut iter = fields.unnamed.iter();
            let (Some(field), None) = (iter.next(), iter.next()) else {
                cx.error_spanned_by(
                    fields,
                    format!(
                        "a tuple variant holds one `#[derive(WireMsg)]` message, `{}(Message)`; for several fields write a struct variant `{} {{ a: A, b: B }}`",
                        v.ident, v.ident
                    ),
                );
                return Shape::Invalid;
            };
            if attrs.other {
                cx.error_spanned_by(
                    fields,
                    format!(
                        "the `#[wire(other)]` variant keeps the unknown tag and the bytes after it: write it `{} {{ tag: {}, bytes: Vec<u8> }}`",
                        v.ident,
                        repr.map_or_else(|| "u8".to_owned(), ToString::to_string)
                    ),
                );
                return Shape::Invalid;
            }
            let probe = Ctxt::new();
            let kind = ast::classify(&probe, &field.ty);
            let refused = probe.check().is_err();
            // Only a path names a message: a tuple, an array or a reference (boxed or
            // not) never is one, and would be one error per generated item.
            let unboxed = ast::box_inner(&field.ty).unwrap_or(&field.ty);
            let not_a_path = !matches!(ast::ungroup(unboxed), syn::Type::Path(_));
            if refused
                || not_a_path
                || !matches!(kind, ast::Kind::Path)
                || ast::option_inner(&field.ty).is_some()
            {
                let ty = ast::type_text(&field.ty);
                let name = &v.ident;
                // The fix that compiles: a borrowed message is held by value, and `()`
                // is a unit variant; anything else is a struct variant's field.
                let fix = match ast::ungroup(&field.ty) {
                    syn::Type::Reference(r)
                        if matches!(ast::ungroup(&r.elem), syn::Type::Path(_)) =>
                    {
                        let elem = ast::type_text(&r.elem);
                        format!("hold the message by value, `{name}({elem})`")
                    }
                    syn::Type::Tuple(t) if t.elems.is_empty() => {
                        format!("a variant without data is a unit variant, `{name}`")
                    }
                    _ => format!(
                        "to carry `{ty}`, write a struct variant `{name} {{ value: {ty} }}`"
                    ),
                };
                cx.error_spanned_by(
                    &field.ty,
                    format!("a tuple variant holds one `#[derive(WireMsg)]` message; {fix}"),
                );
                return Shape::Invalid;
            }
            let (inner, boxed) = match ast::box_inner(&field.ty) {
                Some(inner) => (inner, true),
                None => (&field.ty, false),
            };
            let mut ty = inner.clone();
            ReplaceSelf { with: self_ty }.visit_type_mut(&mut ty);
            Shape::Newtype { ty, boxed }
        }
        (Fields::Named(named), Some(synth)) => {
            if attrs.other {
                return catch_all(cx, v, named, repr);
            }
            let fields = named
                .named
                .iter()
                .filter_map(|f| {
                    let ident = f.ident.as_ref()?;
                    let mut ty = f.ty.clone();
                    ReplaceSelf { with: self_ty }.visit_type_mut(&mut ty);
                    let static_ty = Relifetime {
                        generics: &synth.generics,
                        to: "'static",
                    }
                    .apply(&ty);
                    Some(ast::Field {
                        ident,
                        vis: &synth.vis,
                        ty,
                        static_ty,
                        kind: ast::classify(cx, &f.ty),
                        attrs: attr::field(cx, &f.attrs),
                    })
                })
                .collect();
            Shape::Struct(ast::Message {
                union: Some(&synth.union),
                ident: &synth.ident,
                vis: &synth.vis,
                generics: &synth.generics,
                fields,
                // The anonymous message has the union's version: its fields may be
                // added in later ones (FORMAT.md §5).
                attrs: attr::Container {
                    version: container.version(),
                    version_lit: None,
                    template_id: None,
                    schema_id: None,
                    block_length: false,
                    borrowed: None,
                    no_decode: container.no_decode,
                },
            })
        }
        (Fields::Named(_), None) => Shape::Invalid,
    }
}

/// The catch-all variant: exactly `tag: R` and `bytes: Vec<u8>` (or `&[u8]`).
fn catch_all<'a>(
    cx: &Ctxt,
    v: &'a syn::Variant,
    named: &'a syn::FieldsNamed,
    repr: Option<&Ident>,
) -> Shape<'a> {
    let repr_name = repr.map_or_else(|| "u8".to_owned(), ToString::to_string);
    let field = |name: &str| {
        named
            .named
            .iter()
            .find(|f| f.ident.as_ref().is_some_and(|i| i == name))
    };
    let tag_ok = field("tag").is_some_and(|f| match &f.ty {
        Type::Path(p) => repr.is_some_and(|r| p.path.is_ident(r)),
        _ => false,
    });
    let bytes = field("bytes").filter(|f| is_bytes(&f.ty));
    match (tag_ok, bytes, named.named.len()) {
        (true, Some(bytes), 2) => Shape::CatchAll {
            bytes_ty: bytes.ty.clone(),
        },
        _ => {
            cx.error_spanned_by(
                named,
                format!(
                    "the `#[wire(other)]` variant keeps the unknown tag and the bytes after it: give it exactly the fields `tag: {repr_name}` and `bytes: Vec<u8>` (or `&[u8]`), `{} {{ tag: {repr_name}, bytes: Vec<u8> }}`",
                    v.ident
                ),
            );
            Shape::Invalid
        }
    }
}

/// `Vec<u8>` or `&[u8]`, as written.
fn is_bytes(ty: &Type) -> bool {
    let is_u8 = |t: &Type| matches!(t, Type::Path(p) if p.path.is_ident("u8"));
    match ty {
        Type::Reference(r) if r.mutability.is_none() => {
            matches!(&*r.elem, Type::Slice(s) if is_u8(&s.elem))
        }
        Type::Path(p) => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return false;
            };
            last.ident == "Vec"
                && args.args.len() == 1
                && matches!(args.args.first(), Some(syn::GenericArgument::Type(t)) if is_u8(t))
        }
        _ => false,
    }
}

/// The doc attributes of a variant's field, to keep on the anonymous message's field.
pub(crate) fn docs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("doc"))
}

/// Replaces `Self` in a variant's field type with the union's type: the anonymous
/// message and the generated impls use it where `Self` means something else.
struct ReplaceSelf<'t> {
    with: &'t Type,
}

impl VisitMut for ReplaceSelf<'_> {
    fn visit_type_mut(&mut self, ty: &mut Type) {
        if let Type::Path(p) = ty {
            if p.qself.is_none() && p.path.is_ident("Self") {
                *ty = self.with.clone();
                return;
            }
        }
        syn::visit_mut::visit_type_mut(self, ty);
    }
}
