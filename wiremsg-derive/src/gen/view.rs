//! The validated view `{Name}View<'v>`: a proof of validation and nothing more, with
//! layout constants and one accessor per field, each resolving its own field in O(1).

use super::{Ctx, FieldCtx};
use proc_macro2::{Ident, TokenStream};
use quote::format_ident;

/// The struct and its impls, which [`super::message`] places beside it.
pub(crate) fn generate(cx: &Ctx<'_>) -> (TokenStream, TokenStream) {
    let wp = &cx.wp;
    let ident = cx.msg.ident;
    let vis = cx.msg.vis;
    let view = &cx.view;
    let self_static = &cx.self_static;
    let struct_doc = format!(
        "Validated view of a [`{ident}`] message over borrowed bytes, built by \
         [`WireMsg::view`](::wiremsg::WireMsg::view).\n\nTwo words: the bytes and the \
         proof that they passed validation. Each accessor reads its own field in place \
         (little-endian, any alignment) in O(1) and cannot fail. Layout constants give \
         each field's offset and size in bytes from the start of the message."
    );
    let count = cx.fields.len();
    // Each offset is the previous field's plus its size (the layout's `At::OFFSET`
    // sums the same sizes in the same order): a constant with no proof of a field's
    // place to type-check and evaluate (`benches/README.md`, "Derive cost"). The sizes
    // are the kinds' own (`size_of`), never read off a type's name, which an alias
    // (`type u64 = u8`) could belie.
    let consts = cx.fields.iter().enumerate().map(|(i, f)| {
        let offset = &f.offset;
        let size = &f.size;
        let ty = &f.layout_ty;
        let value = match i.checked_sub(1).map(|p| &cx.fields[p]) {
            None => quote_m!(#wp::first_offset::<#self_static>()),
            Some(prev) => {
                let (prev_offset, prev_size) = (&prev.offset, &prev.size);
                quote_m!(Self::#prev_offset + Self::#prev_size)
            }
        };
        let offset_doc = format!(
            "Offset of field `{}` from the start of the message, in bytes.",
            f.name
        );
        let size_doc = format!(
            "Bytes field `{}` takes in the block (its value, or its slot).",
            f.name
        );
        quote_m! {
            #[doc = #offset_doc]
            pub const #offset: #wp::usize = #value;
            #[doc = #size_doc]
            pub const #size: #wp::usize = #wp::size_of::<#ty>();
        }
    });
    let accessors = cx
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.reserved())
        .map(|(i, f)| accessors(cx, f, i, count, false));
    let version = version_body(cx);
    let view_name = view.to_string();
    let reserved = cx.reserved_indices();
    let eq = partial_eq(cx);
    let (vg, tp) = (&cx.vg, &cx.tp);
    let where_clause = cx.where_clause();
    let view_where = cx.view_where_clause();
    let as_bytes = cx.read("as_bytes", None, quote_m!(self.0));
    let fmt = cx.view_fn("fmt_view", quote_m!(self.0, #view_name, #reserved, f));
    let struct_where = cx.struct_where_clause();
    // A generic view is `Copy` whatever its type arguments are (a derive would ask
    // them to be).
    let (derive, copy) = if cx.generic {
        (
            TokenStream::new(),
            quote_m! {
                #[automatically_derived]
                impl<'v #tp> ::core::clone::Clone for #view<'v #vg> #where_clause {
                    #[inline(always)]
                    fn clone(&self) -> Self {
                        *self
                    }
                }

                #[automatically_derived]
                impl<'v #tp> ::core::marker::Copy for #view<'v #vg> #where_clause {}
            },
        )
    } else {
        (
            quote_m!(#[derive(::core::clone::Clone, ::core::marker::Copy)]),
            TokenStream::new(),
        )
    };
    let item = quote_m! {
        #[doc = #struct_doc]
        #derive
        #vis struct #view<'v #tp>(::wiremsg::__private::Validated<'v, #self_static>) #struct_where;
    };
    // True if the held types have their derives (see `Ctx::stubbed`).
    let held = cx.stubbed().then(|| {
        let probe = &cx.held_probe;
        quote_m!(const __WIREMSG_HELD: #wp::bool = #probe;)
    });
    let impls = quote_m! {
        #copy

        #[automatically_derived]
        #[allow(clippy::all)]
        impl<'v #tp> #view<'v #vg> #where_clause {
            #held
            #(#consts)*
        }

        #[automatically_derived]
        #[allow(clippy::all, unreachable_code)]
        impl<'v #tp> #view<'v #vg> #view_where {
            #(#accessors)*

            /// The message's bytes as far as this reader knows them: its block and the
            /// tail data of the fields it knows (a newer writer's extra tail data is not
            /// included). A fixed-size message without a header has no length of its
            /// own: its block is the bytes it was viewed over, up to this reader's
            /// block length. `None` for an element of a list of messages with a tail
            /// whose block and tail are apart (FORMAT.md §6.3: every element but one
            /// whose tail directly follows its block, such as the only element of a
            /// list): decode a list element instead of relying on its bytes.
            #[inline]
            pub fn as_bytes(&self) -> #wp::Option<&'v [#wp::u8]> {
                #as_bytes
            }

            /// The newest schema version, up to this reader's, whose fields the bytes
            /// hold (older writers leave out the fields added after their version).
            #[inline]
            pub fn version(&self) -> #wp::u16 {
                #version
            }
        }

        #eq

        #[automatically_derived]
        #[allow(unreachable_code)]
        impl<'v #tp> #wp::Debug for #view<'v #vg> #view_where {
            #[inline]
            fn fmt(&self, f: &mut #wp::Formatter<'_>) -> #wp::FmtResult {
                #fmt
            }
        }
    };
    (item, impls)
}

/// `PartialEq` of two views (field by field), of an owned value and a view, and of a
/// view and an owned value (the owned value is encoded, then viewed).
fn partial_eq(cx: &Ctx<'_>) -> TokenStream {
    let wp = &cx.wp;
    let ident = cx.msg.ident;
    let view = &cx.view;
    let reserved = cx.reserved_indices();
    let lifetimes: Vec<_> = cx.msg.generics.lifetimes().collect();
    let bounded = &cx.bounded;
    let (vg, tp) = (&cx.vg, &cx.tp);
    let where_clause = cx.where_clause();
    let view_where = cx.view_where_clause();
    let eq = cx.view_fn("eq_views", quote_m!(self.0, other.0, #reserved));
    let (_, ty_generics, _) = cx.msg.generics.split_for_impl();
    let view_doc = "Field by field, as the accessors read them: numbers and text by value, enums by \
         their wire value, lists, arrays and nested messages element by element. A field \
         added in a later version compares as its `try_` accessor: a view whose writer had \
         it never equals one whose writer did not.";
    let owned_doc = format!(
        "The view of `self`'s encoding compared with `other`, as two [`{view}`]s are \
         (it encodes `self`, into a new `Vec`)."
    );
    quote_m! {
        #[doc = #view_doc]
        #[automatically_derived]
        #[allow(unreachable_code)]
        impl<'v #tp> ::core::cmp::PartialEq for #view<'v #vg> #view_where {
            #[inline]
            fn eq(&self, other: &Self) -> #wp::bool {
                #eq
            }
        }

        #[doc = #owned_doc]
        #[automatically_derived]
        impl<'__wiremsg_v, #(#lifetimes,)* #(#bounded),*> ::core::cmp::PartialEq<#view<'__wiremsg_v #vg>> for #ident #ty_generics #where_clause {
            #[inline]
            fn eq(&self, other: &#view<'__wiremsg_v #vg>) -> #wp::bool {
                #wp::eq_encoded(self, other.0, #reserved)
            }
        }

        #[doc = #owned_doc]
        #[automatically_derived]
        impl<'__wiremsg_v, #(#lifetimes,)* #(#bounded),*> ::core::cmp::PartialEq<#ident #ty_generics> for #view<'__wiremsg_v #vg> #where_clause {
            #[inline]
            fn eq(&self, other: &#ident #ty_generics) -> #wp::bool {
                other == self
            }
        }
    }
}

/// The body of `version()`: the newest `since` among the fields present.
fn version_body(cx: &Ctx<'_>) -> TokenStream {
    let count = cx.fields.len();
    let terms = cx
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| f.later())
        .map(|(i, f)| {
            let since = f.since();
            // A reserved field has no accessors: its presence is read from the layout.
            let has = if f.reserved() {
                let index = super::index_path(&cx.steps, i, count);
                cx.read("has", Some(&index), quote_m!(self.0))
            } else {
                let has_name = format_ident!("has_{}", f.name);
                quote_m!(self.#has_name())
            };
            quote_m!(if #has { version = #since; })
        });
    quote_m! {
        #[allow(unused_mut)]
        let mut version = 1;
        #(#terms)*
        version
    }
}

/// The accessors of field `f` (index `i` of `count`): `name()`, and for a field added in a later
/// version also `try_name()` and `has_name()`. Shared by the view (values of the
/// bytes' lifetime `'v`) and the mutable view's getters (`in_mut`: values borrowed
/// from the view, `'m`).
pub(crate) fn accessors(
    cx: &Ctx<'_>,
    f: &FieldCtx<'_>,
    i: usize,
    count: usize,
    in_mut: bool,
) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let (lt, generics, receiver, proof) = if in_mut {
        (
            quote_m!('m),
            quote_m!(<'m>),
            quote_m!(&'m self),
            quote_m!(self.0.as_ref()),
        )
    } else {
        (quote_m!('v), quote_m!(), quote_m!(&self), quote_m!(self.0))
    };
    let name = f.field.ident;
    let offset = &f.offset;
    let size = &f.size;
    let ty = &f.field.ty;
    let static_ty = &f.field.static_ty;
    let index = super::index_path(&cx.steps, i, count);
    // The view's accessors name the type with the bytes' lifetime, as the decoding of
    // a borrowed message names it in its bounds.
    let concrete = if f.generic {
        None
    } else {
        concrete_view(static_ty, &lt)
    };
    // Every type `concrete_view` names has a `Default`: no bound to show.
    let known_default = concrete.is_some();
    let view_ty = if let Some(concrete) = concrete {
        // The type the docs show. The accessor's body returns the kind's view type,
        // so a name that is not what it seems (a shadowed `u64`, an alias of `u8` in
        // a `Vec`) fails to compile here instead of reading as something else.
        concrete
    } else if in_mut || f.field.borrows() {
        // A type with the message's lifetimes is named in its `'static` form, the
        // layout's, as the read returns it. Where the view names the type's parts (a
        // map's `MapView<'v, &'static str, V>`, a list of maps `List<'v, BTreeMap<
        // &'static str, u32>>`), decoding converts it to the bytes' lifetime
        // (`MapView::same_kinds`, `List::same_kinds`; both are invariant); elsewhere
        // the two forms name one view type (`NameView<'v>`, `&'v str`).
        quote_m!(#wm::ViewOf<#lt, #static_ty>)
    } else {
        let v_ty = &f.v_ty;
        quote_m!(#wm::ViewOf<#lt, #v_ty>)
    };
    // The mutable view's getters call the view's (`self.as_view()` borrows `self`,
    // so the view has the getter's lifetime): a body with one method call, where
    // finding the field through the layout costs the compiler trait solving in every
    // getter. Not where the field's type has a lifetime, whose view type the view
    // names with the bytes' lifetime and the mutable view with `'static`.
    // Through a reference to the temporary view: on the view itself, a field named
    // `into` (`try_into`) would find `Into::into`, which takes the view by value,
    // before the accessor, which takes it by reference.
    let forward = in_mut && !f.field.borrows();
    let ty_text = crate::ast::type_text(ty);
    let mut doc = format!(
        "Field `{}` (`{ty_text}`): block bytes at `{offset}`, `{size}` long.",
        f.name
    );
    // The views of a gated message read through the gate (see `Ctx::gated`), and an
    // accessor whose signature names a guarded type carries its field's guards.
    let gated = cx.gated();
    let read = |method: &str| {
        if gated {
            let proof = if in_mut {
                quote_m!(self.as_view().0)
            } else {
                proof.clone()
            };
            cx.read_of(f.stub, method, Some(&index), proof)
        } else {
            let method = Ident::new(method, proc_macro2::Span::mixed_site());
            quote_m!(#proof.#method::<#index>())
        }
    };
    let guards = if gated {
        f.guards.clone()
    } else {
        TokenStream::new()
    };
    if !f.later() {
        let body = if forward {
            quote_m!((&self.as_view()).#name())
        } else {
            read("get")
        };
        let wh = (!guards.is_empty()).then(|| quote_m!(where #guards));
        return quote_m! {
            #[doc = #doc]
            #[inline]
            pub fn #name #generics (#receiver) -> #view_ty #wh {
                #body
            }
        };
    }
    let try_name = format_ident!("try_{}", f.name, span = f.field.ident.span());
    let has_name = format_ident!("has_{}", f.name, span = f.field.ident.span());
    let since = f.since();
    let (default, bound) = match &f.field.attrs.default {
        Some(expr) => {
            doc.push_str(&format!(
                " Added in version {since}: bytes of older writers read as the declared default."
            ));
            (quote_m!(#expr), quote_m!())
        }
        None => {
            doc.push_str(&format!(
                " Added in version {since}: bytes of older writers read as `Default::default()`."
            ));
            let bound = if known_default {
                quote_m!()
            } else {
                quote_m!(#view_ty: ::core::default::Default)
            };
            (quote_m!(::core::default::Default::default()), bound)
        }
    };
    let bound = (!guards.is_empty() || !bound.is_empty()).then(|| quote_m!(where #guards #bound));
    let try_where = (!guards.is_empty()).then(|| quote_m!(where #guards));
    let try_doc = format!(
        "Field `{}`, or `None` if the writer's version (older than {since}) did not have it.",
        f.name
    );
    let has_doc = format!(
        "True if the writer's version had field `{}` (added in version {since}).",
        f.name
    );
    if forward {
        return quote_m! {
            #[doc = #doc]
            #[inline]
            pub fn #name #generics (#receiver) -> #view_ty #bound {
                (&self.as_view()).#name()
            }

            #[doc = #try_doc]
            #[inline]
            pub fn #try_name #generics (#receiver) -> #wp::Option<#view_ty> #try_where {
                (&self.as_view()).#try_name()
            }

            #[doc = #has_doc]
            #[inline]
            pub fn #has_name(&self) -> #wp::bool {
                (&self.as_view()).#has_name()
            }
        };
    }
    let (try_get, has) = (read("try_get"), read("has"));
    quote_m! {
        #[doc = #doc]
        #[inline]
        pub fn #name #generics (#receiver) -> #view_ty #bound {
            // No binding beside the user's `default` expression (issue 30).
            #wp::Option::unwrap_or_else(#try_get, || #default)
        }

        #[doc = #try_doc]
        #[inline]
        pub fn #try_name #generics (#receiver) -> #wp::Option<#view_ty> #try_where {
            #try_get
        }

        #[doc = #has_doc]
        #[inline]
        pub fn #has_name(&self) -> #wp::bool {
            #has
        }
    }
}

/// The view type of a field type that syntax alone can tell, written out so that the
/// docs show it: the type itself for a number or `bool` (as the user wrote it, so that
/// a shadowing alias such as `type u64 = u8` still names the right type), `&'v str`
/// for `String` and `FixedStr<N>`, `List<'v, T>` for a `Vec` of `String` or
/// `FixedStr<N>`, `ArrayView<'v, T, N>` for an array of a lifetime-free `T`, and
/// `Option<_>` of these. `None` for anything else (a user type, an alias, a borrowed
/// type, a list of numbers, whose element may be an alias of `u8`): the accessor then
/// names `ViewOf<'v, T>`. The accessor's body returns the kind's own view type, so a
/// name that is not what it seems fails to compile rather than read as another type.
fn concrete_view(ty: &syn::Type, lt: &TokenStream) -> Option<TokenStream> {
    use syn::{GenericArgument, PathArguments, Type};
    const NUMBERS: [&str; 13] = [
        "u8", "u16", "u32", "u64", "u128", "i8", "i16", "i32", "i64", "i128", "f32", "f64", "bool",
    ];
    let lifetime_free = |t: &Type| !quote_m!(#t).to_string().contains('\'');
    let last_segment = |t: &Type| match t {
        Type::Path(p) if p.qself.is_none() => p.path.segments.last().cloned(),
        _ => None,
    };
    let is_text = |t: &Type| {
        last_segment(t).is_some_and(|s| {
            (s.ident == "String" && s.arguments.is_none())
                || (s.ident == "FixedStr" && !s.arguments.is_none())
        })
    };
    match ty {
        Type::Group(g) => concrete_view(&g.elem, lt),
        Type::Paren(p) => concrete_view(&p.elem, lt),
        Type::Array(array) if lifetime_free(&array.elem) => {
            let (elem, len) = (&array.elem, &array.len);
            Some(quote_m!(::wiremsg::ArrayView<#lt, #elem, #len>))
        }
        Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            let first_type = match &last.arguments {
                PathArguments::AngleBracketed(args) => args.args.first().and_then(|a| match a {
                    GenericArgument::Type(t) => Some(t),
                    _ => None,
                }),
                _ => None,
            };
            match name.as_str() {
                n if p.path.segments.len() == 1
                    && last.arguments.is_none()
                    && NUMBERS.contains(&n) =>
                {
                    Some(quote_m!(#ty))
                }
                _ if is_text(ty) => Some(quote_m!(&#lt ::core::primitive::str)),
                "Vec" => {
                    let elem = first_type?;
                    is_text(elem).then(|| quote_m!(::wiremsg::List<#lt, #elem>))
                }
                "Option" => {
                    let inner = concrete_view(first_type?, lt)?;
                    Some(quote_m!(::core::option::Option<#inner>))
                }
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::concrete_view;

    /// The view type an accessor's signature names for a field type, as text.
    fn named(ty: &str) -> Option<String> {
        let ty: syn::Type = syn::parse_str(ty).unwrap();
        concrete_view(&ty, &quote_m!('v)).map(|t| t.to_string().replace(' ', ""))
    }

    #[test]
    fn types_the_syntax_tells_are_named() {
        assert_eq!(named("u64").as_deref(), Some("u64"));
        assert_eq!(named("bool").as_deref(), Some("bool"));
        assert_eq!(
            named("String").as_deref(),
            Some("&'v::core::primitive::str")
        );
        assert_eq!(
            named("::std::string::String").as_deref(),
            Some("&'v::core::primitive::str")
        );
        assert_eq!(
            named("FixedStr<8>").as_deref(),
            Some("&'v::core::primitive::str")
        );
        assert_eq!(
            named("Vec<String>").as_deref(),
            Some("::wiremsg::List<'v,String>")
        );
        assert_eq!(
            named("[i16; 3]").as_deref(),
            Some("::wiremsg::ArrayView<'v,i16,3>")
        );
        assert_eq!(
            named("Option<u32>").as_deref(),
            Some("::core::option::Option<u32>")
        );
        assert_eq!(
            named("Option<FixedStr<4>>").as_deref(),
            Some("::core::option::Option<&'v::core::primitive::str>")
        );
    }

    #[test]
    fn types_the_syntax_cannot_tell_keep_the_kinds_view() {
        // A user type (message, enum or alias), a list of numbers (its element may be
        // an alias of `u8`), borrowed types, qualified paths, types with lifetimes.
        for ty in [
            "Px",
            "Price",
            "Vec<u8>",
            "Vec<u32>",
            "Vec<Level>",
            "&'a str",
            "&'a [u8]",
            "core::primitive::u64",
            "[Item<'static>; 2]",
            "Option<Px>",
            "<T as Trait>::Out",
        ] {
            assert_eq!(named(ty), None, "{ty}");
        }
    }
}
