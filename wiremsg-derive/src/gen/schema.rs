//! The schema descriptor constant of a message.

use super::Ctx;
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let name = cx.msg.ident.to_string().trim_start_matches("r#").to_owned();
    let view = &cx.view;
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let self_static = &cx.self_static;
    let fields = cx.fields.iter().map(|f| {
        let label = &f.name;
        let offset = &f.offset;
        let size = &f.size;
        let as_field = &f.as_field;
        let since = f.since();
        let reserved = f.reserved();
        quote! {
            ::wiremsg::FieldSchema {
                name: #label,
                offset: #view::<'static>::#offset,
                size: #view::<'static>::#size,
                ty: #as_field::TYPE,
                since: #since,
                reserved: #reserved,
            }
        }
    });
    quote! {
        &::wiremsg::MessageSchema {
            name: #name,
            block_length: #block_length,
            min_block_length: <#self_static as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH,
            version: <#self_static as ::wiremsg::WireMsg>::VERSION,
            has_tail: #in_tail,
            fields: &[#(#fields),*],
        }
    }
}
