//! Parse: the syn tree into a small model of the message or enum, borrowing the
//! original tokens so that errors keep their spans.

use crate::attr;
use crate::ctxt::Ctxt;
use syn::visit_mut::VisitMut;
use syn::{
    Data, DeriveInput, Expr, Fields, GenericArgument, Generics, Ident, PathArguments, Type,
    Visibility,
};

/// A struct deriving `WireMsg`.
pub(crate) struct Message<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    pub(crate) generics: &'a Generics,
    pub(crate) fields: Vec<Field<'a>>,
    pub(crate) attrs: attr::Container,
    /// The union whose struct variant this anonymous message is (`None` for a struct
    /// deriving `WireMsg`): a field naming it refers back to the message, as one
    /// naming the message does.
    pub(crate) union: Option<&'a Ident>,
}

/// One field of a message.
pub(crate) struct Field<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    /// The field's type, with `Self` replaced by the struct's type.
    pub(crate) ty: Type,
    /// `ty` with the struct's lifetimes replaced by `'static`: the type constant
    /// expressions use, since they cannot name the struct's lifetimes.
    pub(crate) static_ty: Type,
    pub(crate) kind: Kind,
    pub(crate) attrs: attr::Field,
}

impl Field<'_> {
    /// True if the field's type names the struct's lifetimes (`&'a str`, `Name<'a>`):
    /// its `'static` form, the layout's, is another type.
    pub(crate) fn borrows(&self) -> bool {
        let (ty, st) = (&self.ty, &self.static_ty);
        quote::quote!(#ty).to_string() != quote::quote!(#st).to_string()
    }
}

/// What the field's type is, as far as syntax can tell. The layout itself always comes
/// from the type's `Field` impl; this only decides which accessors to generate and
/// catches unsupported types early, with a span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A number, `bool`, `FixedStr`, or an array or option of these: fixed-size,
    /// settable in place.
    Scalar,
    /// `String` or `&str`.
    Text,
    /// `Vec<T>` or `&[T]`.
    List,
    /// `Option` of a type with tail data.
    OptionTail,
    /// A user type (nested message or enum), or an array or option of one.
    Path,
    /// Unsupported (an error was recorded).
    Invalid,
}

impl Kind {
    /// True for the kinds whose data is in the tail by their syntax alone (text, a
    /// list, an option of a tail type): variable-size, never plain, never settable
    /// in place.
    pub(crate) fn in_tail(self) -> bool {
        matches!(self, Kind::Text | Kind::List | Kind::OptionTail)
    }
}

/// An enum deriving `WireEnum`.
pub(crate) struct Enum<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) generics: &'a Generics,
    pub(crate) repr: Option<Ident>,
    pub(crate) variants: Vec<Variant<'a>>,
}

/// An enum deriving `WireDispatch`: one message type per variant.
pub(crate) struct Dispatch<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) vis: &'a Visibility,
    pub(crate) variants: Vec<DispatchVariant<'a>>,
}

/// A variant of a `WireDispatch` enum: `Name(MessageType)`.
pub(crate) struct DispatchVariant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) ty: &'a Type,
}

pub(crate) fn dispatch<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Dispatch<'a>> {
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            "`WireDispatch` derives for an enum with one message type per variant, e.g. `enum Feed { Add(AddOrder) }`",
        );
        return None;
    };
    if !input.generics.params.is_empty() || input.generics.where_clause.is_some() {
        cx.error_spanned_by(
            &input.generics,
            "`WireDispatch` does not support generic parameters; use message types without lifetimes",
        );
    }
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("wire")) {
        cx.error_spanned_by(attr, "`WireDispatch` takes no `wire` attributes; remove it");
    }
    let mut variants = Vec::new();
    for v in &data.variants {
        match &v.fields {
            Fields::Unnamed(f) if f.unnamed.len() == 1 => {
                if let Some((_, d)) = &v.discriminant {
                    cx.error_spanned_by(d, "the template id comes from the message type's `#[wire(template_id = N)]`; remove `= ...`");
                }
                if let Some(field) = f.unnamed.first() {
                    variants.push(DispatchVariant {
                        ident: &v.ident,
                        ty: &field.ty,
                    });
                }
            }
            _ => cx.error_spanned_by(
                v,
                "each `WireDispatch` variant holds one message type: `Name(MessageType)`",
            ),
        }
    }
    if variants.is_empty() && !data.variants.is_empty() {
        return None;
    }
    Some(Dispatch {
        ident: &input.ident,
        vis: &input.vis,
        variants,
    })
}

/// A variant of a `WireEnum`.
pub(crate) struct Variant<'a> {
    pub(crate) ident: &'a Ident,
    pub(crate) discriminant: Option<&'a Expr>,
    /// The field type of a tuple variant with one field.
    pub(crate) field: Option<&'a Type>,
    pub(crate) fields: &'a Fields,
    pub(crate) attrs: attr::Variant,
}

pub(crate) fn message<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Message<'a>> {
    let data = match &input.data {
        Data::Struct(data) => data,
        Data::Enum(data) => {
            cx.error_spanned_by(
                data.enum_token,
                "`WireMsg` derives only for structs with named fields; for a C-like enum use `#[derive(WireEnum)]`, for an enum whose variants carry data `#[derive(WireUnion)]`",
            );
            return None;
        }
        Data::Union(data) => {
            cx.error_spanned_by(
                data.union_token,
                "`WireMsg` derives only for structs with named fields, not unions",
            );
            return None;
        }
    };
    let named = match &data.fields {
        Fields::Named(named) => named,
        Fields::Unnamed(fields) => {
            cx.error_spanned_by(
                fields,
                "`WireMsg` needs named fields: tuple structs are not supported; name the fields (`struct Name { a: u32 }`)",
            );
            return None;
        }
        Fields::Unit => {
            cx.error_spanned_by(
                input,
                "`WireMsg` needs named fields: write a message without fields as `struct Name {}`",
            );
            return None;
        }
    };
    let ident = &input.ident;
    let (_, ty_generics, _) = input.generics.split_for_impl();
    let self_ty: Type = syn::parse_quote!(#ident #ty_generics);
    let fields = named
        .named
        .iter()
        .filter_map(|f| {
            let ident = f.ident.as_ref()?;
            let mut ty = f.ty.clone();
            ReplaceSelf { with: &self_ty }.visit_type_mut(&mut ty);
            let static_ty = Relifetime {
                generics: &input.generics,
                to: "'static",
            }
            .apply(&ty);
            Some(Field {
                ident,
                vis: &f.vis,
                ty,
                static_ty,
                kind: classify(cx, &f.ty),
                attrs: attr::field(cx, &f.attrs),
            })
        })
        .collect();
    Some(Message {
        ident: &input.ident,
        vis: &input.vis,
        generics: &input.generics,
        fields,
        attrs: attr::container(cx, &input.attrs),
        union: None,
    })
}

pub(crate) fn enumeration<'a>(cx: &Ctxt, input: &'a DeriveInput) -> Option<Enum<'a>> {
    let Data::Enum(data) = &input.data else {
        cx.error_spanned_by(
            &input.ident,
            "`WireEnum` derives only for C-like enums; for a struct use `#[derive(WireMsg)]`",
        );
        return None;
    };
    attr::enumeration(cx, &input.attrs);
    let variants = data
        .variants
        .iter()
        .map(|v| Variant {
            ident: &v.ident,
            discriminant: v.discriminant.as_ref().map(|(_, e)| e),
            field: match &v.fields {
                Fields::Unnamed(f) if f.unnamed.len() == 1 => f.unnamed.first().map(|f| &f.ty),
                _ => None,
            },
            fields: &v.fields,
            attrs: attr::variant(cx, &v.attrs),
        })
        .collect();
    Some(Enum {
        ident: &input.ident,
        generics: &input.generics,
        repr: attr::repr(&input.attrs),
        variants,
    })
}

/// Replaces the struct's own lifetimes (not `'static`) with one lifetime: `'static`
/// for constant expressions, `'v` for the types a view of lifetime `'v` sees.
pub(crate) struct Relifetime<'g> {
    pub(crate) generics: &'g Generics,
    pub(crate) to: &'static str,
}

impl Relifetime<'_> {
    pub(crate) fn apply(&mut self, ty: &Type) -> Type {
        let mut ty = ty.clone();
        self.visit_type_mut(&mut ty);
        ty
    }
}

impl VisitMut for Relifetime<'_> {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        if self
            .generics
            .lifetimes()
            .any(|l| l.lifetime.ident == lifetime.ident)
        {
            *lifetime = syn::Lifetime::new(self.to, lifetime.span());
        }
    }
}

/// Replaces `Self` in a field type with the struct's type: generated code uses field
/// types inside impls of other types, where `Self` means something else.
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

/// True if `ty` names the type `ident` anywhere as a path of that one segment
/// (`Option<Box<Node>>` names `Node`; `Self` was replaced by the type): a field
/// through which a message holds itself. (`other::Node` is another type.)
pub(crate) fn names_type(ty: &Type, ident: &Ident) -> bool {
    struct Finder<'i> {
        ident: &'i Ident,
        found: bool,
    }
    impl VisitMut for Finder<'_> {
        fn visit_path_mut(&mut self, path: &mut syn::Path) {
            self.found |= path.leading_colon.is_none()
                && path.segments.len() == 1
                && path.segments[0].ident == *self.ident;
            syn::visit_mut::visit_path_mut(self, path);
        }
    }
    let mut finder = Finder {
        ident,
        found: false,
    };
    finder.visit_type_mut(&mut ty.clone());
    finder.found
}

/// The last path segment's name and its single type argument, if any.
fn path_parts(ty: &Type) -> Option<(&Ident, Option<&Type>)> {
    let Type::Path(path) = ungroup(ty) else {
        return None;
    };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    let arg = match &last.arguments {
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first() {
            Some(GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    };
    Some((&last.ident, arg))
}

/// How the derive's errors and docs write a type: its tokens without the spaces
/// `quote` puts between them, but one between two words and after a lifetime
/// (`&'a Fill`, `&'static [u8]`, `dyn Trait`).
pub(crate) fn type_text(ty: &impl quote::ToTokens) -> String {
    let text = quote::ToTokens::to_token_stream(ty).to_string();
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = String::with_capacity(text.len());
    let mut words = text.split(' ').peekable();
    while let Some(token) = words.next() {
        out.push_str(token);
        let lifetime = token.starts_with('\'') && token.len() > 1;
        if let Some(next) = words.peek() {
            let closes = next.starts_with(['>', ',', ')', ']', ';']);
            if (lifetime && !closes) || (word(token.chars().last()) && word(next.chars().next())) {
                out.push(' ');
            }
        }
    }
    out
}

/// `ty` without the invisible group a `macro_rules!` `$t:ty` puts around it and
/// without parentheses: `($t)` and `(Tick)` name what `Tick` does.
pub(crate) fn ungroup(mut ty: &Type) -> &Type {
    while let Type::Group(syn::TypeGroup { elem, .. }) | Type::Paren(syn::TypeParen { elem, .. }) =
        ty
    {
        ty = elem;
    }
    ty
}

/// Calls `f` on `ty` and on every type inside it that the derive reads as a wire shape:
/// type arguments, array, slice and reference elements, tuple elements, through groups
/// and parentheses. Not into function pointers, trait objects or `Fn(..)` arguments,
/// which have their own lifetime rules and are never wire types.
pub(crate) fn each_type<'t>(ty: &'t Type, f: &mut dyn FnMut(&'t Type)) {
    f(ty);
    match ty {
        Type::Path(p) => {
            if let Some(q) = &p.qself {
                each_type(&q.ty, f);
            }
            for segment in &p.path.segments {
                if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
                    for arg in &args.args {
                        if let syn::GenericArgument::Type(t) = arg {
                            each_type(t, f);
                        }
                    }
                }
            }
        }
        Type::Array(a) => each_type(&a.elem, f),
        Type::Slice(s) => each_type(&s.elem, f),
        Type::Reference(r) => each_type(&r.elem, f),
        Type::Ptr(p) => each_type(&p.elem, f),
        Type::Group(g) => each_type(&g.elem, f),
        Type::Paren(p) => each_type(&p.elem, f),
        Type::Tuple(t) => t.elems.iter().for_each(|t| each_type(t, f)),
        _ => {}
    }
}

/// True for `str` as a borrowed field, key or element names it: bare, or by the
/// primitive's full path (`::core::primitive::str`, `std::primitive::str`), which
/// is how the borrowed twin writes it (a module's own `type str` cannot shadow it).
pub(crate) fn is_str(p: &syn::TypePath) -> bool {
    if p.qself.is_some() {
        return false;
    }
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let plain = p.path.segments.iter().all(|s| s.arguments.is_none());
    plain
        && match names.as_slice() {
            [name] => name == "str" && p.path.leading_colon.is_none(),
            [root, primitive, name] => {
                (root == "core" || root == "std") && primitive == "primitive" && name == "str"
            }
            _ => false,
        }
}

/// True for a number or `bool` named by its bare primitive name (`u64`, not a path):
/// what `classify` already takes for the primitive of that name. Such a type is a
/// field, a list element and settable, so the derive bounds nothing on it (see
/// `gen::guards`): every bound it leaves out is one fewer predicate in each generated
/// impl's `where` clause, which is what the compiler's trait solving costs in
/// proportion to.
pub(crate) fn is_primitive(ty: &Type) -> bool {
    match ty {
        Type::Group(g) => is_primitive(&g.elem),
        Type::Paren(p) => is_primitive(&p.elem),
        Type::Path(p) if p.qself.is_none() => p.path.get_ident().is_some_and(|ident| {
            matches!(
                ident.to_string().as_str(),
                "bool"
                    | "u8"
                    | "u16"
                    | "u32"
                    | "u64"
                    | "u128"
                    | "i8"
                    | "i16"
                    | "i32"
                    | "i64"
                    | "i128"
                    | "f32"
                    | "f64"
            )
        }),
        _ => false,
    }
}

/// True for a primitive (see [`is_primitive`]) or an option of one: a fixed-size type
/// whose view is the value, which the runtime can set and update in place.
pub(crate) fn is_primitive_or_option(ty: &Type) -> bool {
    option_inner(ty).map_or_else(|| is_primitive(ty), is_primitive)
}

/// The `T` of `Option<T>`.
pub(crate) fn option_inner(ty: &Type) -> Option<&Type> {
    match path_parts(ty)? {
        (ident, Some(inner)) if ident == "Option" => Some(inner),
        _ => None,
    }
}

/// The `T` of `Vec<T>`.
pub(crate) fn vec_inner(ty: &Type) -> Option<&Type> {
    match path_parts(ty)? {
        (ident, Some(inner)) if ident == "Vec" => Some(inner),
        _ => None,
    }
}

/// The `T` of `Box<T>`.
pub(crate) fn box_inner(ty: &Type) -> Option<&Type> {
    match path_parts(ty)? {
        (ident, Some(inner)) if ident == "Box" => Some(inner),
        _ => None,
    }
}

/// The name of a path type's last segment (`i64`, `Decimal`), through groups and
/// parentheses.
pub(crate) fn last_name(ty: &Type) -> Option<String> {
    path_parts(ty).map(|(ident, _)| ident.to_string())
}

/// Classifies a field type, recording an error for unsupported ones.
pub(crate) fn classify(cx: &Ctxt, ty: &Type) -> Kind {
    match ty {
        Type::Group(g) => classify(cx, &g.elem),
        Type::Paren(p) => classify(cx, &p.elem),
        Type::Reference(r) => {
            if r.mutability.is_some() {
                cx.error_spanned_by(
                    ty,
                    "`&mut` fields are not supported; use `&str`, `&[T]` or an owned type",
                );
                return Kind::Invalid;
            }
            match &*r.elem {
                Type::Path(p) if is_str(p) => Kind::Text,
                Type::Slice(s) => list_element(cx, &s.elem),
                // A borrowed map encodes without a copy (FORMAT.md §6.7).
                elem if crate::map_ast::is_map(elem) => {
                    crate::map_ast::classify_borrowed_map(cx, elem)
                }
                elem => {
                    let owned = type_text(elem);
                    cx.error_spanned_by(
                        ty,
                        format!("unsupported borrowed type: borrowed fields are `&str` and `&[T]`; use the owned type `{owned}`"),
                    );
                    Kind::Invalid
                }
            }
        }
        Type::Array(a) => match classify(cx, &a.elem) {
            Kind::Scalar => Kind::Scalar,
            Kind::Path => Kind::Path,
            Kind::Invalid => Kind::Invalid,
            _ => {
                cx.error_spanned_by(
                    &a.elem,
                    "array elements must be fixed-size; use `Vec<T>` for variable-size elements",
                );
                Kind::Invalid
            }
        },
        Type::Tuple(tuple) => classify_tuple(cx, ty, tuple),
        Type::Path(_) => classify_path(cx, ty),
        _ => {
            cx.error_spanned_by(
                ty,
                "unsupported field type; see the `wiremsg` docs for the supported types",
            );
            Kind::Invalid
        }
    }
}

/// A tuple of 1 to 12 wire types (FORMAT.md §4.11): `Scalar` when every element is,
/// so that it is set in place as a whole; otherwise `Path`, whose setter and decoding
/// the runtime's bounds decide, as for a nested message.
fn classify_tuple(cx: &Ctxt, ty: &Type, tuple: &syn::TypeTuple) -> Kind {
    if tuple.elems.is_empty() {
        cx.error_spanned_by(
            ty,
            "the unit type `()` has no bytes on the wire; remove the field",
        );
        return Kind::Invalid;
    }
    if tuple.elems.len() > 12 {
        cx.error_spanned_by(
            ty,
            "tuples of more than 12 elements are not supported; use a nested `#[derive(WireMsg)]` struct with named fields",
        );
        return Kind::Invalid;
    }
    let kinds: Vec<Kind> = tuple.elems.iter().map(|e| classify(cx, e)).collect();
    if kinds.contains(&Kind::Invalid) {
        Kind::Invalid
    } else if kinds.iter().all(|k| *k == Kind::Scalar) {
        Kind::Scalar
    } else {
        Kind::Path
    }
}

/// True if `ty`, a list, has elements whose type holds a lifetime.
fn inner_elements_borrow(ty: &Type) -> bool {
    let inner = match ty {
        Type::Reference(r) => match &*r.elem {
            Type::Slice(s) => Some(&*s.elem),
            _ => None,
        },
        _ => path_parts(ty).and_then(|(_, arg)| arg),
    };
    inner.is_some_and(|inner| {
        quote::ToTokens::to_token_stream(inner)
            .to_string()
            .contains('\'')
    })
}

/// True if `ty` holds a list anywhere (`Vec`, a slice): a field through which a
/// message may refer to itself, so that decoding cannot bound it on its own type.
pub(crate) fn holds_list(ty: &Type) -> bool {
    match ty {
        Type::Slice(_) => true,
        Type::Group(g) => holds_list(&g.elem),
        Type::Paren(p) => holds_list(&p.elem),
        Type::Reference(r) => holds_list(&r.elem),
        Type::Array(a) => holds_list(&a.elem),
        Type::Tuple(t) => t.elems.iter().any(holds_list),
        Type::Path(p) => p.path.segments.iter().any(|segment| {
            segment.ident == "Vec"
                || match &segment.arguments {
                    PathArguments::AngleBracketed(args) => args.args.iter().any(|arg| match arg {
                        GenericArgument::Type(t) => holds_list(t),
                        _ => false,
                    }),
                    _ => false,
                }
        }),
        _ => false,
    }
}

/// True if `ty` holds a `Box` anywhere: like a list, a field through which a message
/// may refer to itself.
pub(crate) fn holds_box(ty: &Type) -> bool {
    struct Finder(bool);
    impl VisitMut for Finder {
        fn visit_path_segment_mut(&mut self, segment: &mut syn::PathSegment) {
            self.0 |= segment.ident == "Box";
            syn::visit_mut::visit_path_segment_mut(self, segment);
        }
    }
    let mut finder = Finder(false);
    finder.visit_type_mut(&mut ty.clone());
    finder.0
}

fn classify_path(cx: &Ctxt, ty: &Type) -> Kind {
    let Some((ident, arg)) = path_parts(ty) else {
        return Kind::Path;
    };
    let name = ident.to_string();
    match name.as_str() {
        "bool" | "u8" | "u16" | "u32" | "u64" | "u128" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "f32" | "f64" | "FixedStr" | "Decimal" => Kind::Scalar,
        "usize" | "isize" => {
            cx.error_spanned_by(
                ty,
                format!("`{name}` has no fixed width on the wire; use `u32`/`u64` (or `i32`/`i64`) instead"),
            );
            Kind::Invalid
        }
        "char" => {
            cx.error_spanned_by(ty, "`char` is not supported; use `u32` or `FixedStr<4>`");
            Kind::Invalid
        }
        "String" => Kind::Text,
        "Vec" => match arg {
            Some(elem) => list_element(cx, elem),
            None => Kind::Path,
        },
        "Option" => match arg.map(|t| (t, classify(cx, t))) {
            Some((_, Kind::Scalar)) => Kind::Scalar,
            Some((_, Kind::Path)) => Kind::Path,
            Some((_, Kind::Text | Kind::List)) => Kind::OptionTail,
            Some((inner, Kind::OptionTail)) => {
                cx.error_spanned_by(inner, "an `Option` of an `Option` of a string or list is not supported; use one `Option`");
                Kind::Invalid
            }
            Some((_, Kind::Invalid)) => Kind::Invalid,
            None => Kind::Path,
        },
        "BTreeMap" | "HashMap" => crate::map_ast::classify_map(cx, ty),
        // An ownership detail, not a wire shape: a box has its contents' bytes. It is
        // how a message holds itself (`Option<Box<Self>>`), so it boxes a message,
        // union or tuple; boxing a number, text or a list gains nothing on the wire.
        "Box" => match arg.map(|t| (t, classify(cx, t))) {
            Some((_, Kind::Path)) | None => Kind::Path,
            Some((_, Kind::Invalid)) => Kind::Invalid,
            Some((inner, _)) => {
                let inner = type_text(inner);
                cx.error_spanned_by(
                    ty,
                    format!("`Box<{inner}>` is not supported: a box is for a message, union or tuple (`Option<Box<Self>>` makes a recursive message), and `{inner}` gains nothing from one on the wire; use `{inner}`"),
                );
                Kind::Invalid
            }
        },
        "Rc" | "Arc" | "Cow" | "HashSet" | "BTreeSet" | "VecDeque" => {
            let advice = match (name.as_str(), arg) {
                ("Rc" | "Arc", Some(inner)) => {
                    let inner = type_text(inner);
                    format!(
                        "shared ownership has no wire form (decoding makes a new value for each field); use `{inner}` (a message that holds itself uses `Box`: `Option<Box<Self>>`)"
                    )
                }
                ("Cow", _) => "use `&str`, `&[u8]` or an owned type".to_owned(),
                _ => "use `Vec<T>`".to_owned(),
            };
            cx.error_spanned_by(ty, format!("`{name}` is not supported; {advice}"));
            Kind::Invalid
        }
        _ => Kind::Path,
    }
}

fn list_element(cx: &Ctxt, elem: &Type) -> Kind {
    let kind = classify(cx, elem);
    let arrays = matches!(elem, Type::Array(_));
    let options = path_parts(elem).is_some_and(|(i, _)| i == "Option");
    match kind {
        Kind::Invalid => Kind::Invalid,
        Kind::OptionTail => {
            cx.error_spanned_by(
                elem,
                "lists of options are not supported: a list element has no presence byte; wrap the element in a `#[derive(WireMsg)]` struct",
            );
            Kind::Invalid
        }
        // A list's view names its element type, and lists are invariant in it: the
        // views of a struct with lifetimes name them `'static`, which an inner
        // element with its own lifetime cannot match.
        Kind::List if inner_elements_borrow(elem) => {
            cx.error_spanned_by(
                elem,
                "lists of lists of borrowed elements are not supported; use owned inner elements (`Vec<Vec<String>>`)",
            );
            Kind::Invalid
        }
        _ if arrays || options => {
            cx.error_spanned_by(
                elem,
                "lists of arrays or options are not supported; wrap the element in a `#[derive(WireMsg)]` struct",
            );
            Kind::Invalid
        }
        _ => Kind::List,
    }
}

#[cfg(test)]
mod tests {
    use super::{box_inner, holds_box, names_type, type_text};
    use syn::{Ident, Type};

    #[test]
    fn types_are_written_without_spaces_but_between_words() {
        assert_eq!(type_text(&ty("&'a Fill")), "&'a Fill");
        assert_eq!(type_text(&ty("(u8, Seq<Expr>)")), "(u8,Seq<Expr>)");
        assert_eq!(
            type_text(&ty("Vec < Box < dyn Send > >")),
            "Vec<Box<dyn Send>>"
        );
        assert_eq!(type_text(&ty("[Fill; 2]")), "[Fill;2]");
        assert_eq!(type_text(&ty("&'static [u8]")), "&'static [u8]");
        assert_eq!(type_text(&ty("&'a Inner<'a>")), "&'a Inner<'a>");
        assert_eq!(type_text(&ty("Foo<'a, T>")), "Foo<'a,T>");
    }

    fn ty(text: &str) -> Type {
        syn::parse_str(text).unwrap()
    }

    #[test]
    fn a_field_names_its_message_as_a_one_segment_path() {
        let node = Ident::new("Node", proc_macro2::Span::call_site());
        for holds in [
            "Option<Box<Node>>",
            "Vec<Node>",
            "Vec<Vec<Node>>",
            "(u8, Box<Node>)",
            "Batch<Node>",
            "Node<'a>",
        ] {
            assert!(names_type(&ty(holds), &node), "{holds}");
        }
        for other in ["other::Node", "::Node", "Option<Box<Nodes>>", "u64"] {
            assert!(!names_type(&ty(other), &node), "{other}");
        }
    }

    #[test]
    fn boxes_are_found_anywhere_and_unwrapped_at_the_top() {
        assert!(holds_box(&ty("Option<Box<Node>>")));
        assert!(holds_box(&ty("std::boxed::Box<Node>")));
        assert!(!holds_box(&ty("Vec<Node>")));
        let inner = box_inner(&ty("Box<Leaf>")).map(|t| quote::quote!(#t).to_string());
        assert_eq!(inner.as_deref(), Some("Leaf"));
        assert!(box_inner(&ty("Option<Box<Leaf>>")).is_none());
    }
}
