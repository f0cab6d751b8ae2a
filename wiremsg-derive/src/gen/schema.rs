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
        let wire_ty = &f.wire_ty;
        let since = f.since();
        let reserved = f.reserved();
        if !reserved && f.field.attrs.default.is_none() {
            return quote_m! {
                __wiremsg_p::field_schema::<#wire_ty>(#label, #view::<'static #vg>::#offset, #since)
            };
        }
        // A declared default is kept as the bytes it encodes to, computed on use (the
        // expression need not be `const`). The expression is returned from a closure,
        // as the accessors' `unwrap_or_else` has it: an expression of the wrong type
        // is then the same error here as there, which rustc reports once.
        let default = match &f.field.attrs.default {
            Some(expr) if f.later() => {
                let ty = &f.field.static_ty;
                quote_m! {
                    __wiremsg_p::Some(__wiremsg::DefaultValue::Lazy(|| {
                        __wiremsg_p::default_bytes::<#ty>(
                            __wiremsg_p::Option::unwrap_or_else(
                                __wiremsg_p::None,
                                || #expr,
                            ),
                        )
                    }))
                }
            }
            _ => quote_m!(__wiremsg_p::None),
        };
        quote_m! {
            __wiremsg::FieldSchema {
                name: __wiremsg_p::Cow::Borrowed(#label),
                offset: #view::<'static #vg>::#offset,
                size: #view::<'static #vg>::#size,
                ty: __wiremsg::Node::Static(<#wire_ty as __wiremsg::Field>::TYPE),
                since: #since,
                reserved: #reserved,
                default: #default,
            }
        }
    });
    let template_id = match cx.msg.attrs.template_id {
        Some(id) => quote_m!(__wiremsg_p::Some(#id)),
        None => quote_m!(__wiremsg_p::None),
    };
    let schema_id = cx.msg.attrs.schema_id.unwrap_or(0);
    quote_m! {
        &__wiremsg::MessageSchema {
            name: __wiremsg_p::Cow::Borrowed(#name),
            version: <#self_static as __wiremsg::WireMsg>::VERSION,
            block_length: #block_length,
            min_block_length: <#self_static as __wiremsg::WireMsg>::MIN_BLOCK_LENGTH,
            has_block_length: __wiremsg_p::has_block_length::<#self_static>(),
            has_tail: __wiremsg_p::has_tail::<#self_static>(),
            template_id: #template_id,
            schema_id: #schema_id,
            fields: __wiremsg_p::Cow::Borrowed(&[#(#fields),*]),
        }
    }
}
