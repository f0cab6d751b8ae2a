//! The schema descriptor constant of a message (`wiremsg::MessageSchema`).

use super::Ctx;
use proc_macro2::TokenStream;

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let name = cx.schema_name();
    let view = &cx.view;
    let vg = &cx.vg;
    let block_length = &cx.block_length;
    let self_static = &cx.self_static;
    let fields = cx.fields.iter().map(|f| {
        let label = &f.name;
        let offset = &f.offset;
        let size = &f.size;
        let wire_ty = &f.layout_ty;
        let since = f.since();
        let reserved = f.reserved();
        // One `const fn` call per field: cheaper to compile than a struct literal.
        if !reserved && f.field.attrs.default.is_none() {
            return quote_m! {
                #wp::field_schema::<#wire_ty>(#label, #view::<'static #vg>::#offset, #since)
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
                    #wp::Some(#wm::DefaultValue::Lazy(|| {
                        #wp::default_bytes::<#ty>(
                            #wp::Option::unwrap_or_else(
                                #wp::None,
                                || #expr,
                            ),
                        )
                    }))
                }
            }
            _ => quote_m!(#wp::None),
        };
        quote_m! {
            #wm::FieldSchema {
                name: #wp::Cow::Borrowed(#label),
                offset: #view::<'static #vg>::#offset,
                size: #view::<'static #vg>::#size,
                ty: #wm::Node::Static(<#wire_ty as #wm::Field>::TYPE),
                since: #since,
                reserved: #reserved,
                default: #default,
            }
        }
    });
    let template_id = match cx.msg.attrs.template_id {
        Some(id) => quote_m!(#wp::Some(#id)),
        None => quote_m!(#wp::None),
    };
    let schema_id = cx.msg.attrs.schema_id.unwrap_or(0);
    quote_m! {
        &#wm::MessageSchema {
            name: #wp::Cow::Borrowed(#name),
            version: <#self_static as #wm::WireMsg>::VERSION,
            block_length: #block_length,
            min_block_length: <#self_static as #wm::WireMsg>::MIN_BLOCK_LENGTH,
            has_block_length: #wp::has_block_length::<#self_static>(),
            has_tail: #wp::has_tail::<#self_static>(),
            template_id: #template_id,
            schema_id: #schema_id,
            // Braced, not `Borrowed(&[..])`: calls are not promoted, and Rust 1.85 (the
            // MSRV) extends a temporary through a braced struct expression's field to
            // the constant, but not through a call's argument. (In a constant item of
            // its own, the slice would not have the impl's guards: see `guards`.)
            fields: #wp::Cow::Borrowed { 0: &[#(#fields),*] },
        }
    }
}
