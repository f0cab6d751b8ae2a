//! The on-demand view `{Name}Lazy<'v>`: a checked header, and one accessor per field
//! that checks the bytes it reads and returns a `Result`.

use super::{Ctx, FieldCtx};
use proc_macro2::TokenStream;
use quote::format_ident;

/// The struct and its impls, which [`super::message`] places beside it.
pub(crate) fn generate(cx: &Ctx<'_>) -> (TokenStream, TokenStream) {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let ident = cx.msg.ident;
    let vis = cx.msg.vis;
    let lazy = &cx.lazy;
    let view = &cx.view;
    let self_static = &cx.self_static;
    let struct_doc = format!(
        "On-demand view of a [`{ident}`] message over borrowed bytes, built by \
         [`WireMsg::view_lazy`](::wiremsg::WireMsg::view_lazy), which checks the \
         header alone. Each accessor checks the bytes it reads, as \
         [`WireMsg::view`](::wiremsg::WireMsg::view) checks them, and returns a \
         `Result`; a nested message or list is an on-demand view too. `to_view()` checks \
         the rest and returns the [`{view}`]. `Clone` and `Send`, not `Copy` or \
         `Sync`: an element of a split list keeps its tail's bounds once a read checked \
         them."
    );
    let count = cx.fields.len();
    let accessors = cx
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.reserved())
        .map(|(i, f)| accessors(cx, f, i, count));
    let lazy_name = lazy.to_string();
    let reserved = cx.reserved_indices();
    let (vg, tp) = (&cx.vg, &cx.tp);
    let where_clause = cx.where_clause();
    let view_where = cx.view_where_clause();
    let struct_where = cx.struct_where_clause();
    let fmt = cx.view_fn("fmt_lazy", quote_m!(&self.0, #lazy_name, #reserved, f));
    let to_view = if cx.gated() {
        cx.gate("lazy_to_view", None, quote_m!(&self.0))
    } else {
        quote_m!(self.0.validate().map(<#self_static as #wm::WireMsg>::__view_of))
    };
    let item = quote_m! {
        #[doc = #struct_doc]
        #vis struct #lazy<'v #tp>(::wiremsg::__private::LazyMsg<'v, #self_static>) #struct_where;
    };
    let impls = quote_m! {

        #[automatically_derived]
        impl<'v #tp> ::core::clone::Clone for #lazy<'v #vg> #view_where {
            #[inline(always)]
            fn clone(&self) -> Self {
                #lazy(::core::clone::Clone::clone(&self.0))
            }
        }

        #[automatically_derived]
        #[allow(clippy::all, unreachable_code)]
        impl<'v #tp> #lazy<'v #vg> #view_where {
            #(#accessors)*

            /// Checks the rest of the message as
            /// [`WireMsg::view`](::wiremsg::WireMsg::view) does, and returns its
            /// up-front view, whose accessors then cannot fail.
            ///
            /// # Errors
            ///
            /// Any error of up-front validation of the message's bytes.
            #[inline]
            pub fn to_view(&self) -> #wp::Result<#view<'v #vg>, #wm::Error> {
                #to_view
            }
        }

        /// The messages' up-front views compared (`to_view()` of both): bytes that
        /// fail validation equal nothing, themselves included.
        #[automatically_derived]
        impl<'v #tp> ::core::cmp::PartialEq for #lazy<'v #vg> #view_where {
            // Inline, as every method here: only a crate that compares, prints or
            // serializes a message's on-demand views compiles the code for it.
            #[inline]
            fn eq(&self, other: &Self) -> #wp::bool {
                match (self.to_view(), other.to_view()) {
                    (#wp::Result::Ok(a), #wp::Result::Ok(b)) => a == b,
                    _ => false,
                }
            }
        }

        #wp::serde_if! {
            /// As the up-front view serializes, after `to_view()`: serializing reads
            /// every field, which validation up front checks fastest. A validation
            /// error is the serializer's error (`serde::ser::Error::custom`), before
            /// anything is written.
            #[automatically_derived]
            impl<'v #tp> #wp::serde::Serialize for #lazy<'v #vg> #where_clause {
                #[inline]
                fn serialize<__WiremsgS: #wp::serde::Serializer>(
                    &self,
                    serializer: __WiremsgS,
                ) -> #wp::Result<__WiremsgS::Ok, __WiremsgS::Error> {
                    match self.to_view() {
                        #wp::Ok(view) => {
                            <#self_static as #wm::WireMsg>::__serialize_view(&view, serializer)
                        }
                        #wp::Err(err) => #wp::Err(
                            <__WiremsgS::Error as #wp::serde::ser::Error>::custom(err),
                        ),
                    }
                }
            }
        }

        /// Each field as read on demand: `Ok(value)`, or `Err(error)` where its bytes
        /// fail (a field added in a later version as an `Option`, `None` where the
        /// writer did not have it).
        #[automatically_derived]
        #[allow(unreachable_code)]
        impl<'v #tp> #wp::Debug for #lazy<'v #vg> #view_where {
            #[inline]
            fn fmt(&self, f: &mut #wp::Formatter<'_>) -> #wp::FmtResult {
                #fmt
            }
        }
    };
    (item, impls)
}

/// The accessors of field `f` (index `i` of `count`): `name()`, and for a field added
/// in a later version `try_name()` and `has_name()` (`name()` only where the default
/// of an older writer's bytes has the type read on demand: numbers, `bool`, text and
/// options of these).
fn accessors(cx: &Ctx<'_>, f: &FieldCtx<'_>, i: usize, count: usize) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let name = f.field.ident;
    let wire_ty = &f.wire_ty;
    let index = super::index_path(&cx.steps, i, count);
    let lazy_ty = quote_m!(#wm::LazyOf<'v, #wire_ty>);
    let result = |ty: TokenStream| quote_m!(#wp::Result<#ty, #wm::Error>);
    let ty_text = crate::ast::type_text(&f.field.ty);
    let mut doc = format!(
        "Field `{}` (`{ty_text}`), checked as it is read.\n\n# Errors\n\nWhat \
         [`WireMsg::view`](::wiremsg::WireMsg::view) reports for the field's bytes.",
        f.name
    );
    // As the view's (see `Ctx::gated`): through the gate, the guards of the field
    // on the accessors whose signatures name its types.
    let read = |method: &str| cx.read_of(f.stub, method, Some(&index), quote_m!(&self.0));
    let wh = (cx.gated() && !f.guards.is_empty()).then(|| {
        let guards = &f.guards;
        quote_m!(where #guards)
    });
    if !f.later() {
        let ret = result(lazy_ty);
        let get = read("lazy_get");
        return quote_m! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self) -> #ret #wh {
                #get
            }
        };
    }
    let try_name = format_ident!("try_{}", f.name, span = f.field.ident.span());
    let has_name = format_ident!("has_{}", f.name, span = f.field.ident.span());
    let since = f.since();
    let try_doc = format!(
        "Field `{}`, checked as it is read; `None` if the writer's version (older than \
         {since}) did not have it.\n\n# Errors\n\nWhat \
         [`WireMsg::view`](::wiremsg::WireMsg::view) reports for the field's bytes.",
        f.name
    );
    let has_doc = format!(
        "True if the writer's version had field `{}` (added in version {since}).",
        f.name
    );
    let try_ret = result(quote_m!(#wp::Option<#lazy_ty>));
    let (try_get, has) = (read("lazy_try_get"), read("lazy_has"));
    let defaulted = crate::ast::is_primitive_or_option(&f.field.ty).then(|| {
        let default = match &f.field.attrs.default {
            Some(expr) => quote_m!(#expr),
            None => quote_m!(::core::default::Default::default()),
        };
        doc.push_str(&format!(
            " Added in version {since}: bytes of older writers read as its default."
        ));
        let ret = result(lazy_ty.clone());
        quote_m! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self) -> #ret #wh {
                // (`map` rather than `?`: the gate's stand-in is `!`, which has no `?`.)
                #wp::Result::map(#try_get, |read: #wp::Option<#lazy_ty>| {
                    #wp::Option::unwrap_or_else(read, || #default)
                })
            }
        }
    });
    quote_m! {
        #defaulted

        #[doc = #try_doc]
        #[inline]
        pub fn #try_name(&self) -> #try_ret #wh {
            #try_get
        }

        #[doc = #has_doc]
        #[inline]
        pub fn #has_name(&self) -> #wp::bool {
            #has
        }
    }
}
