//! The mutable view `{Name}Mut<'v>`: setters for fixed-size fields, and mutable views
//! of nested messages and lists, all in place.

use super::Ctx;
use crate::ast::Kind;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{GenericArgument, PathArguments, Type};

/// The element type of `Vec<T>` or `&[T]`.
pub(super) fn list_element(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Reference(r) => match &*r.elem {
            Type::Slice(s) => Some(&s.elem),
            _ => None,
        },
        Type::Path(p) => match &p.path.segments.last()?.arguments {
            PathArguments::AngleBracketed(args) => match args.args.first()? {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            },
            _ => None,
        },
        Type::Group(g) => list_element(&g.elem),
        Type::Paren(p) => list_element(&p.elem),
        _ => None,
    }
}

/// True for a plain path type other than `Option` (a nested message, or an enum).
fn is_plain_path(ty: &Type) -> bool {
    match ty {
        Type::Path(p) => p.path.segments.last().is_some_and(|s| s.ident != "Option"),
        _ => false,
    }
}

pub(crate) fn generate(cx: &Ctx<'_>) -> TokenStream {
    let ident = cx.msg.ident;
    let vis = cx.msg.vis;
    let view = &cx.view;
    let view_mut = &cx.view_mut;
    let doc = format!(
        "Mutable view of a [`{ident}`] message, built by \
         [`WireMsg::view_mut`](::wiremsg::WireMsg::view_mut): overwrites fixed-size fields \
         in place (one store each). Variable-size fields keep their length: they cannot be \
         resized in place; encode a new message instead."
    );
    let end_slots = cx.fields.iter().map(|f| {
        let as_field = &f.as_field;
        let offset = &f.offset;
        let size = &f.size;
        quote! {
            if #as_field::IN_TAIL {
                ::wiremsg::__private::Some(#view::<'static>::#offset + #view::<'static>::#size - 4)
            } else {
                ::wiremsg::__private::None
            }
        }
    });
    let count = cx.fields.len();
    let min_block_length = &cx.min_block_length;
    let methods = cx.fields.iter().enumerate().filter(|(_, f)| !f.reserved()).map(|(index, f)| {
        let offset = &f.offset;
        let size = &f.size;
        let static_ty = &f.field.static_ty;
        let ty = &f.field.ty;
        let has_lifetime = quote!(#ty).to_string() != quote!(#static_ty).to_string();
        let region = quote! {
            ::wiremsg::__private::tail_region(
                &self.__block[..], &self.__rest[..], self.__known_end, self.__tail_start, &Self::__END_SLOTS, #index,
            )
        };
        // `set_<field>`: for every fixed-size candidate; the `Scalar` bound makes it
        // uncallable (with a message saying why) where the type is a nested message.
        let setter = (matches!(f.field.kind, Kind::Scalar | Kind::Path) && !has_lifetime).then(|| {
            let setter = format_ident!("set_{}", f.name, span = f.field.ident.span());
            if f.later() {
                let doc = format!(
                    "Overwrites field `{}` in place; returns false (and writes nothing) if the \
                     writer's version did not have it (it was added in version {}).",
                    f.name,
                    f.since()
                );
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #setter(&mut self, value: #ty) -> bool
                    where
                        #ty: ::wiremsg::Scalar<'v>,
                    {
                        match ::wiremsg::__private::field_mut(
                            &mut self.__block[..], &mut *self.__rest, self.__known_end,
                            #view::<'static>::#offset, #view::<'static>::#size,
                        ) {
                            ::wiremsg::__private::Some(part) => {
                                ::wiremsg::Field::write(&value, part, &mut []);
                                true
                            }
                            ::wiremsg::__private::None => false,
                        }
                    }
                }
            } else {
                let doc = format!("Overwrites field `{}` in place.", f.name);
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #setter(&mut self, value: #ty)
                    where
                        #ty: ::wiremsg::Scalar<'v>,
                    {
                        ::wiremsg::Field::write(
                            &value,
                            &mut self.__block[#view::<'static>::#offset..#view::<'static>::#offset + #view::<'static>::#size],
                            &mut [],
                        )
                    }
                }
            }
        });
        let getter_name = format_ident!("{}_mut", f.name, span = f.field.ident.span());
        let getter = match f.field.kind {
            Kind::Path if is_plain_path(ty) => {
                let doc = format!(
                    "The mutable view of nested message `{}` (`None` only if the writer's version did not have the field).",
                    f.name
                );
                Some(quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #getter_name(&mut self) -> ::wiremsg::__private::Option<<#static_ty as ::wiremsg::__private::MsgField<'v>>::Mut<'_>>
                    where
                        #static_ty: ::wiremsg::__private::MsgField<'v>,
                    {
                        let region = #region;
                        let bytes = ::wiremsg::__private::nested_mut::<#static_ty>(
                            &mut self.__block[..], &mut *self.__rest, self.__known_end,
                            #view::<'static>::#offset, region,
                        )?;
                        <#static_ty as ::wiremsg::__private::MsgField<'v>>::mut_of(bytes)
                    }
                })
            }
            Kind::List => list_element(static_ty).map(|elem| {
                let doc = format!("The mutable view of list `{}`: elements can be overwritten, not added.", f.name);
                quote! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #getter_name(&mut self) -> ::wiremsg::ListMut<'_, #elem> {
                        let region = #region;
                        ::wiremsg::__private::list_mut::<#elem>(&mut *self.__rest, region, #min_block_length)
                    }
                }
            }),
            _ => None,
        };
        let _ = size;
        quote!(#setter #getter)
    });
    let debug_name = view_mut.to_string();
    quote! {
        #[doc = #doc]
        #vis struct #view_mut<'v> {
            __block: &'v mut [u8; #min_block_length],
            __rest: &'v mut [u8],
            __known_end: usize,
            __tail_start: usize,
        }

        #[automatically_derived]
        #[allow(clippy::all)]
        impl<'v> #view_mut<'v> {
            #[doc(hidden)]
            pub const __END_SLOTS: [::wiremsg::__private::Option<usize>; #count] = [#(#end_slots),*];

            #(#methods)*

            /// The block of version 1 of the message, as on the wire.
            #[inline]
            pub fn as_bytes(&self) -> &[u8] {
                &self.__block[..]
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #view_mut<'_> {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.debug_struct(#debug_name)
                    .field("block", &&self.__block[..])
                    .field("tail_len", &self.__rest.len())
                    .finish()
            }
        }
    }
}
