//! The schema descriptor constant of a message (`wiremsg::MessageSchema`).

use super::Ctx;
use proc_macro2::TokenStream;

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let name = cx.schema_name();
    let view = &cx.view;
    let vg = &cx.vg;
    let block_length = &cx.block_length;
    let self_static = &cx.self_static;
    let fields = cx.fields.iter().map(|f| {
        let label = &f.name;
        let offset = &f.offset;
        let size = &f.size;
        let as_field = &f.as_field;
        let since = f.since();
        let reserved = f.reserved();
        // A declared default is kept as the bytes it encodes to, computed on use (the
        // expression need not be `const`). The expression is returned from a closure,
        // as the accessors' `unwrap_or_else` has it: an expression of the wrong type
        // is then the same error here as there, which rustc reports once.
        let default = match &f.field.attrs.default {
            Some(expr) if f.later() => {
                let ty = &f.field.static_ty;
                quote_m! {
                    ::wiremsg::__private::Some(::wiremsg::DefaultValue::Lazy(|| {
                        ::wiremsg::__private::default_bytes::<#ty>(
                            ::wiremsg::__private::Option::unwrap_or_else(
                                ::wiremsg::__private::None,
                                || #expr,
                            ),
                        )
                    }))
                }
            }
            _ => quote_m!(::wiremsg::__private::None),
        };
        quote_m! {
            ::wiremsg::FieldSchema {
                name: ::wiremsg::__private::Cow::Borrowed(#label),
                offset: #view::<'static #vg>::#offset,
                size: #view::<'static #vg>::#size,
                ty: ::wiremsg::Node::Static(#as_field::TYPE),
                since: #since,
                reserved: #reserved,
                default: #default,
            }
        }
    });
    let template_id = match cx.msg.attrs.template_id {
        Some(id) => quote_m!(::wiremsg::__private::Some(#id)),
        None => quote_m!(::wiremsg::__private::None),
    };
    let schema_id = cx.msg.attrs.schema_id.unwrap_or(0);
    quote_m! {
        &::wiremsg::MessageSchema {
            name: ::wiremsg::__private::Cow::Borrowed(#name),
            version: <#self_static as ::wiremsg::WireMsg>::VERSION,
            block_length: #block_length,
            min_block_length: <#self_static as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH,
            has_block_length: ::wiremsg::__private::has_block_length::<#self_static>(),
            has_tail: ::wiremsg::__private::has_tail::<#self_static>(),
            template_id: #template_id,
            schema_id: #schema_id,
            fields: ::wiremsg::__private::Cow::Borrowed(&[#(#fields),*]),
        }
    }
}
