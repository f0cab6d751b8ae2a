//! Decoding: `DecodeField` for the message, and the view's `decode()`.

use super::Ctx;
use proc_macro2::TokenStream;

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    // A `'static` borrow can only be decoded from `'static` bytes: no decoding for
    // such messages (they can still be viewed and encoded).
    let static_borrow = cx.fields.iter().any(|f| {
        let ty = &f.field.ty;
        quote_m!(#ty).to_string().contains("'static")
    });
    // Asked for: the lists, maps and boxes below cannot carry a bound (see
    // `bounded`), so a list of a message that cannot decode fails the impl.
    if static_borrow || cx.msg.attrs.no_decode {
        return TokenStream::new();
    }
    let ident = cx.msg.ident;
    let view = &cx.view;
    let self_v = &cx.self_v;
    let field_types: Vec<&syn::Type> = cx.fields.iter().map(|f| &f.v_ty).collect();
    // A field that cannot decode (`&[u32]`, an array of non-`Copy` messages, a nested
    // message holding one) must only make `decode` unavailable, not the derive fail:
    // every field gets a bound, except lists and maps of owned elements and boxes,
    // which is where a recursive message refers to itself (a bound there could never
    // be proven).
    // A field holding a user type in a message whose impls carry no guards (see
    // `Ctx::stubbed`) is bounded through `Held<{ held }>`, as it is decoded: where
    // the type lacks its derive, `Held<false>`'s bound holds and the type's own error
    // is the one, rather than a message holding this one failing to decode it.
    let count = cx.fields.len();
    // The bounded type (`Side`, or `Held<{ held }>`) and the trait it is bounded by.
    let bounded: Vec<(&syn::Type, TokenStream, TokenStream)> = cx
        .fields
        .iter()
        .zip(&field_types)
        .enumerate()
        .filter(|(_, (f, _))| is_bounded(cx, f))
        .map(|(i, (f, ty))| {
            if !f.stub {
                return (*ty, quote_m!(#ty), decode_trait(cx, f));
            }
            let index = super::index_path(&cx.steps, i, count);
            let (held, self_static, wire_ty) = (&cx.held, &cx.self_static, &f.wire_ty);
            (
                *ty,
                quote_m!(::wiremsg::__private::Held<#held>),
                quote_m!(::wiremsg::__private::HeldDecodeAt<'v, #self_static, #index, #wire_ty>),
            )
        })
        .collect();
    let bounded_types = bounded.iter().map(|(_, bounded, _)| bounded);
    let traits2 = bounded.iter().map(|(_, _, tr)| tr);
    // Spanned at the field's type, as in `view_mut`.
    let binder = super::binder();
    let decodes = bounded.iter().map(|(ty, bounded, tr)| {
        quote::quote_spanned!(syn::spanned::Spanned::span(ty)=> #binder #bounded: #tr,)
    });
    // Absent fields (reserved, or added after the writer's version) decode as their
    // declared default or their type's `Default`.
    let defaulted = cx
        .fields
        .iter()
        .zip(&field_types)
        .filter(|(f, _)| f.reserved() || (f.later() && f.field.attrs.default.is_none()))
        .map(|(_, ty)| super::array_leaf(ty));
    let defaulted: Vec<_> = defaulted.collect();
    let defaulted2 = &defaulted;
    // The accessors through a reference to the view, which is a value here: on the
    // value, a field named `into` or `try_into` would find the by-value trait method
    // before the accessor.
    let count = cx.fields.len();
    // A field holding guarded types of a message whose impls carry no guards is
    // decoded through the layout by `Held<{ held }>`, which has stand-ins where a
    // held type lacks its derive (see `Ctx::stubbed`): its accessor carries the
    // guards. Spanned at the field's type: where the type cannot decode (a list of
    // a message with a `&'static str`), the error is there, once for both items.
    let held_decode = |i: usize, item: &str| {
        let f = &cx.fields[i];
        let index = super::index_path(&cx.steps, i, count);
        let (wp, held, self_static, ty) = (&cx.wp, &cx.held, &cx.self_static, &f.wire_ty);
        let item = syn::Ident::new(item, proc_macro2::Span::mixed_site());
        // As `decoding`'s: rustc points at the qualified path's self type.
        let (first, last) = super::type_ends(&f.field.ty);
        let open = quote::quote_spanned!(first=> ::wiremsg::__private::Held<#held);
        let close = quote::quote_spanned!(last=> >);
        quote_m!(<#open #close as #wp::HeldDecodeAt<'v, #self_static, #index, #ty>>::#item(view.0))
    };
    let inits = cx
        .fields
        .iter()
        .zip(&field_types)
        .enumerate()
        .map(|(i, (f, ty))| {
            let name = f.field.ident;
            if f.stub && !f.reserved() {
                let decode = held_decode(i, "decode");
                return quote_m!(#name: #decode);
            }
            let decode = relifetime_view(f, decoding(cx, f, ty, "decode_view"));
            let type_default = super::default_expr(
                ty,
                &|t| quote_m!(<#t as #wp::DefaultFor<'v>>::default_for()),
            );
            if f.reserved() {
                quote_m!(#name: #type_default)
            } else if f.later() && f.field.attrs.default.is_some() {
                // The accessor reads the declared default when the field is absent. (The
                // default expression is not passed here: under this impl's bounds the
                // view type of a borrowed field, `&'v str`, stays an unnormalized
                // projection that a literal does not match.)
                quote_m!(#name: #decode((&view).#name()))
            } else if f.later() {
                let try_name = quote::format_ident!("try_{}", f.name);
                quote_m! {
                    #name: match (&view).#try_name() {
                        #wp::Some(value) => #decode(value),
                        #wp::None => #type_default,
                    }
                }
            } else if crate::ast::is_primitive_or_option(&f.field.ty) {
                // A number decodes as its view, which is the number (`decode_view` is the
                // identity for numbers, `bool` and options of these).
                quote_m!(#name: (&view).#name())
            } else {
                quote_m!(#name: #decode((&view).#name()))
            }
        });
    // The heap the decoded value takes: the fields present, through their views.
    // (Numbers, `bool` and options of these take none: `decoded_size` is 0 for them.)
    let sizes = cx
        .fields
        .iter()
        .zip(&field_types)
        .enumerate()
        .filter(|(_, (f, _))| !f.reserved() && !crate::ast::is_primitive_or_option(&f.field.ty))
        .map(|(i, (f, ty))| {
            let name = f.field.ident;
            if f.stub {
                return held_decode(i, "decoded_size");
            }
            let size = relifetime_view(f, decoding(cx, f, ty, "decoded_size"));
            if f.later() {
                let try_name = quote::format_ident!("try_{}", f.name);
                quote_m!(match (&view).#try_name() { #wp::Some(v) => #size(v), #wp::None => 0 })
            } else {
                quote_m!(#size((&view).#name()))
            }
        });
    let doc = format!(
        "Decodes the owned [`{ident}`] (strings and byte strings borrowed from the same \
         bytes where its fields are `&str` / `&[u8]`). Unlike `WireMsg::decode`, with no \
         heap budget: the view was already validated, and its size is the caller's."
    );
    let (vg, tp, wh, guards) = (&cx.vg, &cx.tp, &cx.wh, &cx.guards);
    // Each type parameter decodes (the lists and boxes of it, unbounded above, need
    // it to).
    let params: Vec<&syn::Ident> = cx.msg.generics.type_params().map(|p| &p.ident).collect();
    let where_clause = cx.where_clause();
    // Where a held type lacks its derive, `Held<false>`'s stand-ins return nothing
    // (the missing derive is the one error, reported elsewhere: see `Ctx::stubbed`).
    let allow = cx.stubbed().then(|| quote_m!(#[allow(unreachable_code)]));
    quote_m! {
        #[automatically_derived]
        #allow
        impl<'v #tp> #wm::DecodeField<'v> for #self_v
        where
            #wh
            #guards
            #(#params: #wm::DecodeField<'v>,)*
            #(for<'__wiremsg_g> #bounded_types: #traits2,)*
            #(#defaulted: #wp::DefaultFor<'v>,)*
        {
            #[inline]
            fn decode_view(view: #view<'v #vg>) -> Self {
                #ident { #(#inits,)* }
            }

            #[inline]
            fn decoded_size(view: #view<'v #vg>) -> #wp::usize {
                (0 as #wp::usize) #(.saturating_add(#sizes))*
            }
        }

        #[automatically_derived]
        impl<'v #tp> #view<'v #vg> #where_clause {
            #[doc = #doc]
            #[inline]
            pub fn decode(&self) -> #self_v
            where
                #(#params: #wm::DecodeField<'v>,)*
                #(#decodes)*
                #(#defaulted2: #wp::DefaultFor<'v>,)*
            {
                <#self_v as #wm::DecodeField<'v>>::decode_view(*self)
            }
        }
    }
}

/// True for a field that decoding bounds ([`is_bounded`]) whose type has the
/// message's lifetimes (`n: Name<'a>`, `o: Option<Name<'a>>`, `s: &'a str`): it is
/// bounded by `DecodesAt`, which does not imply `Field` (see the trait).
fn borrowing_bounded(cx: &Ctx<'_>, f: &super::FieldCtx<'_>) -> bool {
    is_bounded(cx, f) && f.field.borrows()
}

/// The trait decoding bounds field `f` by, if [`is_bounded`].
fn decode_trait(cx: &Ctx<'_>, f: &super::FieldCtx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    if borrowing_bounded(cx, f) {
        quote_m!(#wp::DecodesAt<'v>)
    } else {
        quote_m!(#wm::DecodeField<'v>)
    }
}

/// True if decoding bounds field `f` by its type's `DecodeField` (see `generate`).
fn is_bounded(cx: &Ctx<'_>, f: &super::FieldCtx<'_>) -> bool {
    let ty = &f.field.ty;
    let borrows = f.field.borrows();
    let unwrapped = crate::ast::option_inner(ty).unwrap_or(ty);
    // Lists, maps and boxes, where a recursive message refers to itself, get no bound;
    // nor a generic message (`Seq<B>`), which may hold its arguments in lists
    // (`A { b: Seq<B> }` and `B { a: Seq<A> }` were a cycle, E0275), or an alias of
    // one with const arguments (`Group<8>`).
    // A map of borrowed keys or values gets none either: a bound naming its key or
    // value type with the bytes' lifetime makes the view's `'static` names unusable in
    // this impl (a map that cannot decode, such as one of `&[u32]` values, fails to
    // compile, saying so).
    let refers_to_itself = f.field.kind == crate::ast::Kind::List
        || crate::map_ast::is_map(&f.field.ty)
        || crate::ast::holds_box(&f.field.ty)
        || super::generic_message_args(unwrapped).is_some()
        || super::const_instantiation(unwrapped)
        || (matches!(f.field.ty, syn::Type::Tuple(_)) && crate::ast::holds_list(&f.field.ty));
    // Nor a number, `bool`, `String` or an option of these, which always decode: a
    // bound that can only hold still costs trait solving.
    let builtin =
        crate::ast::is_primitive_or_option(ty) || unwrapped.eq(&syn::parse_quote!(String));
    // Of the lists and boxes, one that borrows gets a bound (`&'a [u32]`, or a list of
    // a message holding one, which cannot decode: `decode` is then not available,
    // rather than the derive failing), unless it is an owned list or box that names
    // the message itself, or the union a struct variant's message belongs to
    // (`Box<Expr<'a>>` in a variant of `Expr<'a>`): through it a recursive type with
    // lifetimes refers to itself, and a bound there is a cycle (E0275). (A borrowed
    // `&'a [Self]` cannot decode: it keeps its bound.)
    let borrowed = matches!(crate::ast::ungroup(unwrapped), syn::Type::Reference(_));
    let names_itself = crate::ast::names_type(ty, cx.msg.ident)
        || cx.msg.union.is_some_and(|u| crate::ast::names_type(ty, u));
    let recursion = names_itself && !borrowed;
    let bounded_borrow = borrows && !recursion && crate::map_ast::map_args(ty).is_none();
    // Nor any other owned field that names the message or its union: a generic
    // message instantiated with it (`s: Seq<Expr>` in a variant of `Expr`) decodes
    // through it, so a bound there is the same cycle.
    !builtin && !recursion && (bounded_borrow || !refers_to_itself)
}

/// `<ty as DecodeField<'v>>::item` for field `f` of view type `ty`. An unbounded field
/// that holds a type the derive guards (see `gen::Guards::held`) decodes through the
/// gate instead: its decoding needs that type to be a wire type, and with one without
/// its derive would repeat the guard's error.
fn decoding(cx: &Ctx<'_>, f: &super::FieldCtx<'_>, ty: &syn::Type, item: &str) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    if borrowing_bounded(cx, f) {
        let item = proc_macro2::Ident::new(&format!("{item}_at"), proc_macro2::Span::mixed_site());
        return quote_m!(<#ty as #wp::DecodesAt<'v>>::#item);
    }
    let item = proc_macro2::Ident::new(item, proc_macro2::Span::mixed_site());
    if !f.held || is_bounded(cx, f) {
        return quote_m!(<#ty as #wm::DecodeField<'v>>::#item);
    }
    // The gate's first and last tokens spanned at the type's first and last, so that
    // the error of a field that cannot decode (rustc points at the qualified path's
    // self type) points at the field's type, as it does without the gate.
    let (first, last) = super::type_ends(ty);
    let open = quote::quote_spanned!(first=> ::wiremsg::__private::Held<{ __WIREMSG_HELD });
    let close = quote::quote_spanned!(last=> >);
    quote_m!(<#open #close as #wp::HeldDecode<'v, #ty>>::#item)
}

/// `call`, taking the field's view as the view of its type with the bytes' lifetime:
/// the accessor returns the view of its `'static` form (`MapView<'v, &'static str,
/// V>`, `List<'v, BTreeMap<&'static str, u32>>`), and maps and lists are invariant,
/// so each map, and each list of a type with the message's lifetimes, the field's
/// view holds is converted ([`conversion`]). Other views are the same type in both
/// forms.
fn relifetime_view(f: &super::FieldCtx<'_>, call: TokenStream) -> TokenStream {
    match conversion(&f.field.ty).filter(|_| f.field.attrs.null.is_none()) {
        Some(convert) => quote_m!((|__wiremsg_view| #call((#convert)(__wiremsg_view)))),
        None => call,
    }
}

/// A closure from the view of `ty`'s `'static` form to the view of `ty` with the
/// bytes' lifetime, or `None` where they are one type: `MapView::same_kinds` for a
/// map, `List::same_kinds` for a list of a type with lifetimes (both relate only
/// types whose kinds read alike), and through options, boxes (a box's view is its
/// value's) and tuples to what they hold.
fn conversion(ty: &syn::Type) -> Option<TokenStream> {
    let borrows = |t: &syn::Type| quote_m!(#t).to_string().contains('\'');
    if !borrows(ty) {
        return None;
    }
    if crate::map_ast::map_args(ty).is_some() {
        return Some(quote_m!(::wiremsg::MapView::same_kinds));
    }
    if crate::ast::vec_inner(ty).is_some() {
        return Some(quote_m!(::wiremsg::List::same_kinds));
    }
    if let Some(inner) = crate::ast::option_inner(ty) {
        let inner = conversion(inner)?;
        return Some(quote_m!(|__wiremsg_o: ::core::option::Option<_>| __wiremsg_o.map(#inner)));
    }
    if let Some(inner) = crate::ast::box_inner(ty) {
        return conversion(inner);
    }
    match crate::ast::ungroup(ty) {
        syn::Type::Tuple(t) if !t.elems.is_empty() => {
            let parts: Vec<Option<TokenStream>> = t.elems.iter().map(conversion).collect();
            if parts.iter().all(Option::is_none) {
                return None;
            }
            let names: Vec<syn::Ident> = (0..parts.len())
                .map(|i| quote::format_ident!("__wiremsg_{}", i))
                .collect();
            let converted = names.iter().zip(&parts).map(|(n, c)| match c {
                Some(c) => quote_m!((#c)(#n)),
                None => quote_m!(#n),
            });
            Some(quote_m!(|(#(#names,)*)| (#(#converted,)*)))
        }
        _ => None,
    }
}
