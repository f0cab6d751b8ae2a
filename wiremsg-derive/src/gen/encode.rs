//! Encoding: the message's tail length and the writer of its block and tail.

use super::Ctx;
use proc_macro2::TokenStream;
use quote::quote;

/// `Field::tail_len` of the message: its whole encoding when it has a tail.
pub(crate) fn tail_len(cx: &Ctx<'_>) -> TokenStream {
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let terms = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        if f.reserved() {
            let ty = &f.field.ty;
            quote!(::wiremsg::Field::tail_len(&<#ty as ::core::default::Default>::default()))
        } else {
            quote!(::wiremsg::Field::tail_len(&self.#name))
        }
    });
    // Saturating: a sum past `usize::MAX` stays there, and `encode` reports it as
    // `TooLarge` (FORMAT.md §1: a message is at most `u32::MAX` bytes).
    quote! {
        if #in_tail { (#block_length as ::core::primitive::usize) #(.saturating_add(#terms))* } else { 0 }
    }
}

/// The body of `WireMsg::__write`.
pub(crate) fn write_body(cx: &Ctx<'_>) -> TokenStream {
    let view = &cx.view;
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let fields = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        let offset = &f.offset;
        let ty = &f.field.ty;
        // A reserved field keeps its slot with its type's default value in it.
        let value = if f.reserved() {
            quote!(&<#ty as ::core::default::Default>::default())
        } else {
            quote!(&self.#name)
        };
        quote! {
            ::wiremsg::__private::write_field(
                #value, block, #view::<'static>::#offset, tail, &mut cursor, #block_length,
            );
        }
    });
    quote! {
        #[allow(unused_mut, unused_variables)]
        let (block, tail) = ::wiremsg::__private::split_message(out, #block_length, #in_tail);
        #[allow(unused_mut, unused_variables)]
        let mut cursor = 0usize;
        #(#fields)*
    }
}
