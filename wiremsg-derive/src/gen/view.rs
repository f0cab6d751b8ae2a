//! The validated view `{Name}View<'v>`: its struct, layout constants, accessors,
//! `Debug`, and the validation routine that builds it.

use super::{Ctx, FieldCtx};
use crate::layout;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The offset of the first field: after the 2-byte block length of a message with a
/// tail.
pub(crate) fn prefix(cx: &Ctx<'_>) -> TokenStream {
    let in_tail = &cx.in_tail;
    quote!(if #in_tail { 2 } else { 0 })
}

/// What the view keeps for a field: for a field added in a later version, `None`
/// when the writer did not know it.
fn stored_type(f: &FieldCtx<'_>) -> TokenStream {
    let as_field = &f.as_field_v;
    if f.later() {
        quote!(::wiremsg::__private::Option<#as_field::Stored<'v>>)
    } else {
        quote!(#as_field::Stored<'v>)
    }
}

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let ident = cx.msg.ident;
    let vis = cx.msg.vis;
    let view = &cx.view;
    let min_block_length = &cx.min_block_length;
    let struct_doc = format!(
        "Validated view of a [`{ident}`] message over borrowed bytes, built by \
         [`WireMsg::view`](::wiremsg::WireMsg::view).\n\nAccessors read the wire bytes in \
         place (little-endian, any alignment) and cannot fail. Layout constants give each \
         field's offset and size in bytes from the start of the message."
    );
    let stored = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        let ty = stored_type(f);
        quote!(#name: #ty)
    });
    let names = cx.layout_names();
    let offsets = layout::offset_exprs(&prefix(cx), &names);
    let consts = cx.fields.iter().zip(offsets).map(|(f, offset_expr)| {
        let offset = &f.offset;
        let size = &f.size;
        let as_field = &f.as_field;
        let offset_doc = format!(
            "Offset of field `{}` from the start of the message, in bytes.",
            f.name
        );
        let size_doc = format!(
            "Bytes field `{}` takes in the block (its value, or its slot).",
            f.name
        );
        quote! {
            #[doc = #offset_doc]
            pub const #offset: usize = #offset_expr;
            #[doc = #size_doc]
            pub const #size: usize = #as_field::BLOCK_SIZE;
        }
    });
    let accessors = cx.fields.iter().filter(|f| !f.reserved()).map(accessor);
    let debug_fields = cx.fields.iter().filter(|f| !f.reserved()).map(|f| {
        let label = &f.name;
        if f.later() {
            let try_name = format_ident!("try_{}", f.name);
            quote!(.field(#label, &self.#try_name()))
        } else {
            let name = f.field.ident;
            quote!(.field(#label, &self.#name()))
        }
    });
    let version_terms = cx.fields.iter().filter(|f| f.later()).map(|f| {
        let name = f.field.ident;
        let since = f.since();
        quote!(if self.#name.is_some() { version = #since; })
    });
    let view_name = view.to_string();
    quote! {
        #[doc = #struct_doc]
        #[derive(::core::clone::Clone, ::core::marker::Copy)]
        #vis struct #view<'v> {
            __block: &'v [u8; #min_block_length],
            __msg: &'v [u8],
            #(#stored,)*
        }

        #[automatically_derived]
        #[allow(clippy::all)]
        impl #view<'_> {
            #(#consts)*
        }

        #[automatically_derived]
        #[allow(clippy::all)]
        impl<'v> #view<'v> {
            #(#accessors)*

            /// The message's bytes as far as this reader knows them: its block and the
            /// tail data of the fields it knows (a newer writer's extra tail data is not
            /// included). `as_bytes().len()` is where a message written by this
            /// version ends.
            #[inline]
            pub fn as_bytes(&self) -> &'v [u8] {
                self.__msg
            }

            /// The newest schema version, up to this reader's, whose fields the bytes
            /// hold (older writers leave out the fields added after their version).
            #[inline]
            pub fn version(&self) -> u16 {
                #[allow(unused_mut)]
                let mut version = 1;
                #(#version_terms)*
                version
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #view<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#view_name)
                    #(#debug_fields)*
                    .finish()
            }
        }
    }
}

/// The accessors of one field: `name()`, and for a field added in a later version
/// also `try_name()` and `has_name()`.
fn accessor(f: &FieldCtx<'_>) -> TokenStream {
    let name = f.field.ident;
    let offset = &f.offset;
    let size = &f.size;
    let as_field = &f.as_field_v;
    let ty = &f.field.ty;
    let ty_text = quote!(#ty).to_string().replace(' ', "");
    let mut doc = format!(
        "Field `{}` (`{ty_text}`): block bytes at [`Self::{offset}`], [`Self::{size}`] long.",
        f.name
    );
    if !f.later() {
        return quote! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self) -> #as_field::View<'v> {
                #as_field::get(&self.__block[Self::#offset..Self::#offset + Self::#size], self.#name)
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
            (quote!(#expr), quote!())
        }
        None => {
            doc.push_str(&format!(
                " Added in version {since}: bytes of older writers read as `Default::default()`."
            ));
            (
                quote!(::core::default::Default::default()),
                quote!(where #as_field::View<'v>: ::core::default::Default),
            )
        }
    };
    let try_doc = format!(
        "Field `{}`, or `None` if the writer's version (older than {since}) did not have it.",
        f.name
    );
    let has_doc = format!(
        "True if the writer's version had field `{}` (added in version {since}).",
        f.name
    );
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(&self) -> #as_field::View<'v> #bound {
            match self.#try_name() {
                ::wiremsg::__private::Some(value) => value,
                ::wiremsg::__private::None => #default,
            }
        }

        #[doc = #try_doc]
        #[inline]
        pub fn #try_name(&self) -> ::wiremsg::__private::Option<#as_field::View<'v>> {
            match self.#name {
                ::wiremsg::__private::Some(stored) => ::wiremsg::__private::Some(#as_field::get(
                    self.__msg.get(Self::#offset..Self::#offset + Self::#size).unwrap_or_default(),
                    stored,
                )),
                ::wiremsg::__private::None => ::wiremsg::__private::None,
            }
        }

        #[doc = #has_doc]
        #[inline]
        pub fn #has_name(&self) -> bool {
            self.#name.is_some()
        }
    }
}

/// The body of `WireMsg::__view`: the block, then each field in order. Locals are
/// prefixed so that no field name can shadow them.
pub(crate) fn validate_body(cx: &Ctx<'_>) -> TokenStream {
    let view = &cx.view;
    let block_length = &cx.block_length;
    let min_block_length = &cx.min_block_length;
    let in_tail = &cx.in_tail;
    let locals: Vec<_> = (0..cx.fields.len())
        .map(|i| format_ident!("__wiremsg_field_{}", i))
        .collect();
    let fields = cx.fields.iter().zip(&locals).map(|(f, local)| {
        let ty = &f.v_ty;
        let offset = &f.offset;
        let label = &f.name;
        if f.later() {
            quote! {
                let #local = ::wiremsg::__private::field_since::<#ty, __WireMode>(
                    bytes, __wiremsg_block.known_end, #view::#offset, &mut __wiremsg_prev_end, mode, depth, #label,
                )?;
            }
        } else {
            quote! {
                let #local = ::wiremsg::__private::field::<#ty, __WireMode>(
                    __wiremsg_block.min, #view::#offset, bytes, &mut __wiremsg_prev_end, mode, depth, #label,
                )?;
            }
        }
    });
    let names = cx.fields.iter().map(|f| f.field.ident);
    quote! {
        let __wiremsg_block = ::wiremsg::__private::message_block::<{ #min_block_length }, __WireMode>(
            bytes, #in_tail, #block_length, mode, depth,
        )?;
        #[allow(unused_mut, unused_variables)]
        let mut __wiremsg_prev_end = __wiremsg_block.tail_start;
        #(#fields)*
        let __wiremsg_end = if #in_tail { __wiremsg_prev_end } else { __wiremsg_block.known_end };
        ::wiremsg::__private::Ok(#view {
            __block: __wiremsg_block.min,
            __msg: bytes.get(..__wiremsg_end).unwrap_or(bytes),
            #(#names: #locals,)*
        })
    }
}
