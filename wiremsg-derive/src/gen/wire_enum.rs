//! Everything `#[derive(WireEnum)]` generates: `WireEnum`, and `Field`, `Element`,
//! `DecodeField`, `Scalar` so that the enum can be a field and a list element.

use crate::ast::Enum;
use proc_macro2::TokenStream;
use quote::format_ident;

pub(crate) fn generate(e: &Enum<'_>) -> TokenStream {
    let ident = e.ident;
    let Some(repr) = &e.repr else {
        return TokenStream::new();
    };
    // `#[repr(u8)]` names the primitive even where the user's scope shadows `u8`.
    let repr = &quote_m!(::core::primitive::#repr);
    // Rust's rule: a variant without `= value` takes the previous variant's value
    // plus one (the first: 0). The catch-all variant takes a value too, as in Rust,
    // but never goes on the wire as itself.
    let catch_all = e.variants.iter().find(|v| v.attrs.other);
    // A fieldless enum's values are Rust's own (`Side::Buy as u8`): the user's
    // expressions are never copied. An enum with a catch-all cannot be cast: its
    // values follow Rust's rule over the copied expressions, resolved apart from every
    // generated name (`variant_values`).
    let (values_block, values) = if catch_all.is_some() {
        let exprs: Vec<Option<&syn::Expr>> = e.variants.iter().map(|v| v.discriminant).collect();
        super::variant_values(&quote_m!(#ident), repr, &exprs)
    } else {
        let values = e
            .variants
            .iter()
            .map(|v| {
                let v = v.ident;
                quote_m!(#ident::#v as #repr)
            })
            .collect();
        (TokenStream::new(), values)
    };
    let mut units = Vec::new();
    let mut names = Vec::new();
    let mut consts = Vec::new();
    for (i, (v, value)) in e.variants.iter().zip(&values).enumerate() {
        let name = format_ident!("__WIREMSG_D{}", i);
        consts.push(quote_m!(#[allow(dead_code)] const #name: #repr = #value;));
        if !v.attrs.other {
            units.push(v);
            names.push(name);
        }
    }
    let from_arms = units.iter().zip(&names).map(|(v, d)| {
        let v = v.ident;
        quote_m!(#d => ::wiremsg::__private::Some(#ident::#v),)
    });
    let to_arms = units.iter().zip(&names).map(|(v, d)| {
        let v = v.ident;
        quote_m!(#ident::#v => #d,)
    });
    let (from_default, to_catch_all, catch_all_name, fallback) = match catch_all {
        Some(v) => {
            let vi = v.ident;
            let name = vi.to_string();
            (
                quote_m!(raw => ::wiremsg::__private::Some(#ident::#vi(raw)),),
                quote_m!(#ident::#vi(raw) => raw,),
                quote_m!(::wiremsg::__private::Some(::wiremsg::__private::Cow::Borrowed(#name))),
                quote_m!(#ident::#vi(0)),
            )
        }
        None => {
            let first = units.first().map(|v| v.ident);
            (
                quote_m!(_ => ::wiremsg::__private::None,),
                quote_m!(),
                quote_m!(::wiremsg::__private::None),
                quote_m!(#ident::#first),
            )
        }
    };
    let variant_entries = units.iter().zip(&names).map(|(v, d)| {
        let name = v.ident.to_string().trim_start_matches("r#").to_owned();
        quote_m!(::wiremsg::VariantSchema {
            name: ::wiremsg::__private::Cow::Borrowed(#name),
            value: #d as ::core::primitive::u64,
        })
    });
    let has_catch_all = catch_all.is_some();
    let name = ident.to_string().trim_start_matches("r#").to_owned();
    let element = super::element_impl(quote_m!(impl ::wiremsg::Element for #ident));
    quote_m! {
        #values_block

        #[allow(non_local_definitions, clippy::all)]
        const _: () = {
            #(#consts)*

            #[automatically_derived]
            impl ::wiremsg::WireEnum for #ident {
                type Repr = #repr;
                const ENUM_SCHEMA: &'static ::wiremsg::EnumSchema = &::wiremsg::EnumSchema {
                    name: ::wiremsg::__private::Cow::Borrowed(#name),
                    repr: ::wiremsg::Node::Static(<#repr as ::wiremsg::Field>::TYPE),
                    variants: ::wiremsg::__private::Cow::Borrowed(&[#(#variant_entries),*]),
                    catch_all: #catch_all_name,
                };
                const __FALLBACK: Self = #fallback;
                // SAFETY: `from_raw` below accepts exactly these values (the
                // variants' distinct values, or every value with a catch-all). Without
                // a catch-all the enum is field-less, under the `#[repr]` whose integer
                // is `Repr`, and each value is its variant's own `Variant as Repr`.
                const __VALUES: ::wiremsg::__private::EnumValues<Self> = unsafe {
                    ::wiremsg::__private::EnumValues::promise(
                        ::wiremsg::__private::enum_values(&[#(#names as ::core::primitive::u64),*], #has_catch_all),
                        !#has_catch_all,
                    )
                };

                #[inline]
                fn from_raw(raw: #repr) -> ::wiremsg::__private::Option<Self> {
                    #[allow(unreachable_patterns)]
                    match raw {
                        #(#from_arms)*
                        #from_default
                    }
                }

                #[inline]
                fn to_raw(self) -> #repr {
                    match self {
                        #(#to_arms)*
                        #to_catch_all
                    }
                }
            }

            #[automatically_derived]
            impl ::wiremsg::Field for #ident {
                type Kind = ::wiremsg::__private::EnumOf<Self>;
                const TYPE: &'static ::wiremsg::TypeSchema =
                    &::wiremsg::TypeSchema::Enum(::wiremsg::Node::Static(<Self as ::wiremsg::WireEnum>::ENUM_SCHEMA));

                #[inline(always)]
                fn tail_len(&self) -> ::core::primitive::usize {
                    0
                }

                #[inline(always)]
                fn write(&self, block: &mut [::core::primitive::u8], _: &mut [::core::primitive::u8]) {
                    ::wiremsg::__private::write_enum(*self, block)
                }
            }

            #element

            /// A map key, ordered by its wire value (FORMAT.md §6.7).
            #[automatically_derived]
            impl ::wiremsg::MapKey for #ident {
                #[inline(always)]
                fn key_view(&self) -> Self {
                    *self
                }
            }

            #[automatically_derived]
            impl<'v> ::wiremsg::DecodeField<'v> for #ident {
                #[inline(always)]
                fn decode_view(view: Self) -> Self {
                    view
                }
            }
        };
    }
}
