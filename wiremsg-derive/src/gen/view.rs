//! The validated view `{Name}View<'v>`: its struct, layout constants, accessors,
//! `Debug`, and the validation routine that builds it.

use super::Ctx;
use crate::layout;
use proc_macro2::TokenStream;
use quote::quote;

/// The offset of the first field: after the 2-byte block length of a message with a
/// tail.
pub(crate) fn prefix(cx: &Ctx<'_>) -> TokenStream {
    let in_tail = &cx.in_tail;
    quote!(if #in_tail { 2 } else { 0 })
}

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let ident = cx.msg.ident;
    let vis = cx.msg.vis;
    let view = &cx.view;
    let block_length = &cx.block_length;
    let struct_doc = format!(
        "Validated view of a [`{ident}`] message over borrowed bytes, built by \
         [`WireMsg::view`](::wiremsg::WireMsg::view).\n\nAccessors read the wire bytes in \
         place (little-endian, any alignment) and cannot fail. Layout constants give each \
         field's offset and size in bytes from the start of the message."
    );
    let stored = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        let as_field = &f.as_field_v;
        quote!(#name: #as_field::Stored<'v>)
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
    let accessors = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        let offset = &f.offset;
        let size = &f.size;
        let as_field = &f.as_field_v;
        let ty = &f.field.ty;
        let doc = format!(
            "Field `{}` (`{}`): block bytes at [`Self::{offset}`], [`Self::{size}`] long.",
            f.name,
            quote!(#ty).to_string().replace(' ', "")
        );
        quote! {
            #[doc = #doc]
            #[inline]
            pub fn #name(&self) -> #as_field::View<'v> {
                #as_field::get(&self.__block[Self::#offset..Self::#offset + Self::#size], self.#name)
            }
        }
    });
    let debug_fields = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        let label = &f.name;
        quote!(.field(#label, &self.#name()))
    });
    let view_name = view.to_string();
    quote! {
        #[doc = #struct_doc]
        #[derive(::core::clone::Clone, ::core::marker::Copy)]
        #vis struct #view<'v> {
            __block: &'v [u8; #block_length],
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

/// The body of `WireMsg::__view`: the block, then each field in order. Locals are
/// prefixed so that no field name can shadow them.
pub(crate) fn validate_body(cx: &Ctx<'_>) -> TokenStream {
    let view = &cx.view;
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let locals: Vec<_> = (0..cx.fields.len())
        .map(|i| quote::format_ident!("__wiremsg_field_{}", i))
        .collect();
    let fields = cx.fields.iter().zip(&locals).map(|(f, local)| {
        let ty = &f.v_ty;
        let offset = &f.offset;
        let label = &f.name;
        quote! {
            let #local = ::wiremsg::__private::field::<#ty, __WireMode>(
                __wiremsg_block, #view::#offset, bytes, &mut __wiremsg_prev_end, mode, depth, #label,
            )?;
        }
    });
    let names = cx.fields.iter().map(|f| f.field.ident);
    quote! {
        let (__wiremsg_block, __wiremsg_tail_start) =
            ::wiremsg::__private::message_block::<{ #block_length }, __WireMode>(bytes, #in_tail, mode, depth)?;
        #[allow(unused_mut, unused_variables)]
        let mut __wiremsg_prev_end = __wiremsg_tail_start;
        #(#fields)*
        let __wiremsg_end = if #in_tail { __wiremsg_prev_end } else { #block_length };
        ::wiremsg::__private::Ok(#view {
            __block: __wiremsg_block,
            __msg: bytes.get(..__wiremsg_end).unwrap_or(bytes),
            #(#names: #locals,)*
        })
    }
}
