//! The borrowed twin of a message (`#[wire(borrowed = NameRef)]`): the same fields
//! with `&'a str` for `String` and `&'a [T]` for `Vec<T>`, derived with the same
//! attributes, so that it encodes to the same bytes without allocating.

use super::Ctx;
use crate::ast::Field;
use proc_macro2::TokenStream;
use syn::{GenericArgument, PathArguments, Type};

/// How a field's owned type maps to its borrowed twin's.
enum Borrow {
    /// `String` -> `&'a str`, `Vec<T>` -> `&'a [T]`: `&value.field`.
    Ref(TokenStream),
    /// `Option<String>` -> `Option<&'a str>`, `Option<Vec<T>>` -> `Option<&'a [T]>`:
    /// `value.field.as_deref()`.
    OptionRef(TokenStream),
    /// Any other type stays as it is: `value.field.clone()`.
    Same,
    /// A nested message replaced by its own twin (`#[wire(borrowed = AllocRef)]` on
    /// the field).
    Nested(TokenStream, Nest),
}

/// Where the nested twin is.
enum Nest {
    /// `M` -> `MRef<'a>`: `MRef::from(&value.field)`.
    Plain,
    /// `Option<M>` -> `Option<MRef<'a>>`: `value.field.as_ref().map(MRef::from)`.
    Option,
    /// `Vec<M>` -> `&'a [MRef<'a>]`: no borrowing conversion (it would allocate), so
    /// no `From<&Owned>`.
    List,
}

/// The last segment of a path type and its single type argument.
fn segment(ty: &Type) -> Option<(String, Option<&Type>)> {
    let Type::Path(p) = ty else { return None };
    if p.qself.is_some() {
        return None;
    }
    let last = p.path.segments.last()?;
    let arg = match &last.arguments {
        PathArguments::AngleBracketed(args) if args.args.len() == 1 => match args.args.first() {
            Some(GenericArgument::Type(t)) => Some(t),
            _ => None,
        },
        _ => None,
    };
    Some((last.ident.to_string(), arg))
}

/// The borrowed form of `String` or `Vec<T>`, if `ty` is one.
fn borrowed(ty: &Type) -> Option<TokenStream> {
    match segment(ty)? {
        // By its full path: a module's `type str` would take the bare name.
        (name, None) if name == "String" => Some(quote_m!(&'a ::core::primitive::str)),
        (name, Some(elem)) if name == "Vec" => Some(quote_m!(&'a [#elem])),
        _ => None,
    }
}

fn borrow(field: &Field<'_>) -> Borrow {
    if let Some(twin) = &field.attrs.borrowed {
        // The nested message's own twin, in place of the message.
        return match segment(&field.ty) {
            Some((name, Some(_))) if name == "Vec" => {
                Borrow::Nested(quote_m!(&'a [#twin<'a>]), Nest::List)
            }
            Some((name, Some(_))) if name == "Option" => {
                Borrow::Nested(quote_m!(::core::option::Option<#twin<'a>>), Nest::Option)
            }
            _ => Borrow::Nested(quote_m!(#twin<'a>), Nest::Plain),
        };
    }
    if let Some(ty) = borrowed(&field.ty) {
        return Borrow::Ref(ty);
    }
    match segment(&field.ty) {
        Some((name, Some(inner))) if name == "Option" => match borrowed(inner) {
            Some(ty) => Borrow::OptionRef(quote_m!(::core::option::Option<#ty>)),
            None => Borrow::Same,
        },
        _ => Borrow::Same,
    }
}

/// The field's `#[wire(...)]` keys, as the twin declares them.
fn wire_attrs(field: &Field<'_>) -> TokenStream {
    let attrs = &field.attrs;
    let mut keys = Vec::new();
    if let Some((_, lit)) = &attrs.since {
        keys.push(quote_m!(since = #lit));
    }
    if let Some(expr) = &attrs.default {
        keys.push(quote_m!(default = #expr));
    }
    if attrs.reserved {
        keys.push(quote_m!(reserved));
    }
    if let Some(expr) = &attrs.null {
        keys.push(quote_m!(null = #expr));
    }
    if let Some(lit) = &attrs.max_len {
        keys.push(quote_m!(max_len = #lit));
    }
    if keys.is_empty() {
        TokenStream::new()
    } else {
        quote_m!(#[wire(#(#keys),*)])
    }
}

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let Some(twin) = &cx.msg.attrs.borrowed else {
        return TokenStream::new();
    };
    let owned = cx.msg.ident;
    let vis = cx.msg.vis;
    let container = &cx.msg.attrs;
    let mut keys = Vec::new();
    if let Some(lit) = &container.version_lit {
        keys.push(quote_m!(version = #lit));
    }
    if let Some(id) = container.template_id {
        keys.push(quote_m!(template_id = #id));
    }
    if let Some(id) = container.schema_id {
        keys.push(quote_m!(schema_id = #id));
    }
    if container.block_length {
        keys.push(quote_m!(block_length));
    }
    if container.no_decode {
        keys.push(quote_m!(no_decode));
    }
    let container_attrs = if keys.is_empty() {
        TokenStream::new()
    } else {
        quote_m!(#[wire(#(#keys),*)])
    };
    let mut fields = Vec::new();
    let mut inits = Vec::new();
    let mut bounds = Vec::new();
    let mut from = true;
    for f in &cx.fields {
        let field = f.field;
        let name = field.ident;
        let fvis = field.vis;
        let attrs = wire_attrs(field);
        let (ty, init) = match borrow(field) {
            Borrow::Ref(ty) => (ty, quote_m!(&value.#name)),
            Borrow::OptionRef(ty) => (ty, quote_m!(::core::option::Option::as_deref(&value.#name))),
            Borrow::Nested(ty, nest) => {
                let init = match nest {
                    Nest::Plain => quote_m!(::core::convert::From::from(&value.#name)),
                    Nest::Option => quote_m!(::core::option::Option::map(
                        ::core::option::Option::as_ref(&value.#name),
                        ::core::convert::From::from
                    )),
                    Nest::List => {
                        from = false;
                        TokenStream::new()
                    }
                };
                (ty, init)
            }
            Borrow::Same => {
                let ty = &field.ty;
                bounds.push(quote_m!(#ty: ::wiremsg::__private::CloneFor<'a>));
                (
                    quote_m!(#ty),
                    quote_m!(::wiremsg::__private::CloneFor::clone_for(&value.#name)),
                )
            }
        };
        let doc = format!(
            "Field `{}` of [`{owned}`], borrowed where it is text or a list.",
            f.name
        );
        fields.push(quote_m! {
            #[doc = #doc]
            #attrs
            #fvis #name: #ty
        });
        inits.push(quote_m!(#name: #init));
    }
    let doc = format!(
        "The borrowed twin of [`{owned}`] (`#[wire(borrowed = {twin})]`): the same fields \
         and attributes, with `&'a str` for `String` and `&'a [T]` for `Vec<T>`, so it \
         encodes to the same bytes as `{owned}` without allocating. `From<&{owned}>` \
         borrows one (when the other fields are `Clone`, and no list holds nested twins)."
    );
    let same = format!(
        "wiremsg: `{twin}` must have the layout of `{owned}` (the borrowed twin encodes to the same bytes)"
    );
    let from = from.then(|| {
        quote_m! {
            #[automatically_derived]
            impl<'a> ::core::convert::From<&'a #owned> for #twin<'a>
            where
                #(#bounds,)*
            {
                #[inline]
                fn from(value: &'a #owned) -> Self {
                    #twin { #(#inits,)* }
                }
            }
        }
    });
    quote_m! {
        #[doc = #doc]
        #[allow(dead_code)] // a reserved field is written, never read
        #[derive(::wiremsg::WireMsg)]
        #container_attrs
        #vis struct #twin<'a> {
            #(#fields,)*
        }

        #from

        const _: () = ::core::assert!(
            <#owned as ::wiremsg::WireMsg>::BLOCK_LENGTH
                == <#twin<'static> as ::wiremsg::WireMsg>::BLOCK_LENGTH
                && <#owned as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH
                    == <#twin<'static> as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH
                && <#owned as ::wiremsg::Field>::IN_TAIL
                    == <#twin<'static> as ::wiremsg::Field>::IN_TAIL,
            #same
        );
    }
}
