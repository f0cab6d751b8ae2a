//! `Serialize` for the view (when the runtime has feature `serde`): the view's
//! readable fields as a struct, each serialized by its kind.

use super::Ctx;
use proc_macro2::TokenStream;
use quote::format_ident;

/// `WireMsg::__serialize_view`, inside the `WireMsg` impl.
pub(crate) fn serialize_method(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let name = cx.msg.ident.to_string().trim_start_matches("r#").to_owned();
    let all = cx.fields.len();
    let readable: Vec<_> = cx
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.reserved())
        .collect();
    let count = readable.len();
    let fields = readable.iter().map(|&(i, f)| {
        let label = &f.name;
        let ty = &f.layout_ty;
        let wrap = quote_m!(#wp::SerializeView::<<#ty as #wm::Field>::Kind>);
        // A field holding guarded types of a message whose impls carry none: read
        // through the gate, as its accessor, which carries them, cannot be called
        // here (see `Ctx::stubbed`).
        if f.stub {
            let index = super::index_path(&cx.steps, i, all);
            let read = cx.gate_of(true, "get", Some(&index), quote_m!(view.0));
            return quote_m! {
                #wp::serde::ser::SerializeStruct::serialize_field(&mut out, #label, &#wrap(#read))?;
            };
        }
        if f.later() {
            let try_name = format_ident!("try_{}", f.name);
            quote_m! {
                match view.#try_name() {
                    #wp::Some(value) => {
                        #wp::serde::ser::SerializeStruct::serialize_field(
                            &mut out, #label, &#wrap(value),
                        )?
                    }
                    #wp::None => {
                        #wp::serde::ser::SerializeStruct::skip_field(&mut out, #label)?
                    }
                }
            }
        } else {
            let accessor = f.field.ident;
            quote_m! {
                #wp::serde::ser::SerializeStruct::serialize_field(
                    &mut out, #label, &#wrap(view.#accessor()),
                )?;
            }
        }
    });
    let view = &cx.view;
    let vg = &cx.vg;
    // The gate's stand-ins return `!` where a held type lacks its derive (the one
    // error is that type's: see `Ctx::stubbed`).
    let allow = cx.stubbed().then(|| quote_m!(#[allow(unreachable_code)]));
    quote_m! {
        #wp::serde_if! {
            #allow
            fn __serialize_view<__WiremsgS: #wp::serde::Serializer>(
                view: &#view<'_ #vg>,
                serializer: __WiremsgS,
            ) -> #wp::Result<__WiremsgS::Ok, __WiremsgS::Error> {
                let mut out = serializer.serialize_struct(#name, #count)?;
                #(#fields)*
                #wp::serde::ser::SerializeStruct::end(out)
            }
        }
    }
}

/// `impl Serialize for {Name}View<'_>`, beside the view.
pub(crate) fn serialize_impl(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let view = &cx.view;
    let (vg, tp) = (&cx.vg, &cx.tp);
    let where_clause = cx.where_clause();
    let self_static = &cx.self_static;
    quote_m! {
        #wp::serde_if! {
            #[automatically_derived]
            impl<'v #tp> #wp::serde::Serialize for #view<'v #vg> #where_clause {
                fn serialize<__WiremsgS: #wp::serde::Serializer>(
                    &self,
                    serializer: __WiremsgS,
                ) -> #wp::Result<__WiremsgS::Ok, __WiremsgS::Error> {
                    <#self_static as #wm::WireMsg>::__serialize_view(self, serializer)
                }
            }
        }
    }
}
