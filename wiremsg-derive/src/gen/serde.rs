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
    let readable: Vec<_> = cx.fields.iter().filter(|f| !f.reserved()).collect();
    let count = readable.len();
    let fields = readable.iter().map(|f| {
        let label = &f.name;
        let ty = &f.field.static_ty;
        let wrap = quote_m!(#wp::SerializeView::<<#ty as #wm::Field>::Kind>);
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
    quote_m! {
        #wp::serde_if! {
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
