//! Generate: the items of a derive, from a checked model. Nothing here validates:
//! everything it relies on was checked before.

mod decode;
pub(crate) mod dispatch;
mod encode;
mod schema;
mod view;
mod view_mut;
pub(crate) mod wire_enum;

use crate::ast::{Field, Message, Relifetime};
use crate::layout;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

/// Names and token pieces shared by the generators of one message.
pub(crate) struct Ctx<'a> {
    pub(crate) msg: &'a Message<'a>,
    /// `OrderView`
    pub(crate) view: Ident,
    /// `OrderMut`
    pub(crate) view_mut: Ident,
    /// `Order<'static>`: the type in constant expressions.
    pub(crate) self_static: syn::Type,
    /// `Order<'v>`: the type a view of lifetime `'v` decodes to.
    pub(crate) self_v: syn::Type,
    /// `<Order<'static> as ::wiremsg::WireMsg>::BLOCK_LENGTH`
    pub(crate) block_length: TokenStream,
    /// `<Order<'static> as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH`
    pub(crate) min_block_length: TokenStream,
    /// `<Order<'static> as ::wiremsg::Field>::IN_TAIL`
    pub(crate) in_tail: TokenStream,
    pub(crate) fields: Vec<FieldCtx<'a>>,
}

/// Names of one field.
pub(crate) struct FieldCtx<'a> {
    pub(crate) field: &'a Field<'a>,
    /// The field name without `r#`, as a string.
    pub(crate) name: String,
    /// `ID_OFFSET`
    pub(crate) offset: Ident,
    /// `ID_SIZE`
    pub(crate) size: Ident,
    /// `<ty<'static> as ::wiremsg::Field>`: for constants.
    pub(crate) as_field: TokenStream,
    /// `ty<'v>`: the type as a view of lifetime `'v` sees it.
    pub(crate) v_ty: syn::Type,
    /// `<ty<'v> as ::wiremsg::Field>`: for the view's types.
    pub(crate) as_field_v: TokenStream,
}

impl FieldCtx<'_> {
    /// The version that added the field.
    pub(crate) fn since(&self) -> u16 {
        self.field.attrs.since()
    }

    /// True for a field added after version 1: older bytes may not have it.
    pub(crate) fn later(&self) -> bool {
        self.since() > 1
    }

    /// True for a removed field that keeps its slot.
    pub(crate) fn reserved(&self) -> bool {
        self.field.attrs.reserved
    }
}

impl<'a> Ctx<'a> {
    fn new(msg: &'a Message<'a>) -> Self {
        let ident = msg.ident;
        let (_, ty_generics, _) = msg.generics.split_for_impl();
        let self_ty: syn::Type = syn::parse_quote!(#ident #ty_generics);
        let self_static = Relifetime {
            generics: msg.generics,
            to: "'static",
        }
        .apply(&self_ty);
        let self_v = Relifetime {
            generics: msg.generics,
            to: "'v",
        }
        .apply(&self_ty);
        let fields = msg
            .fields
            .iter()
            .map(|field| {
                let ty = &field.static_ty;
                let v_ty = Relifetime {
                    generics: msg.generics,
                    to: "'v",
                }
                .apply(&field.ty);
                FieldCtx {
                    as_field_v: quote!(<#v_ty as ::wiremsg::Field>),
                    v_ty,
                    field,
                    name: field.ident.to_string().trim_start_matches("r#").to_owned(),
                    offset: layout::const_name(field.ident, "OFFSET"),
                    size: layout::const_name(field.ident, "SIZE"),
                    as_field: quote!(<#ty as ::wiremsg::Field>),
                }
            })
            .collect();
        Ctx {
            msg,
            view: format_ident!("{}View", ident, span = ident.span()),
            view_mut: format_ident!("{}Mut", ident, span = ident.span()),
            block_length: quote!(<#self_static as ::wiremsg::WireMsg>::BLOCK_LENGTH),
            min_block_length: quote!(<#self_static as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH),
            in_tail: quote!(<#self_static as ::wiremsg::Field>::IN_TAIL),
            self_static,
            self_v,
            fields,
        }
    }

    /// `(OFFSET, SIZE)` constant names of every field, in order.
    pub(crate) fn layout_names(&self) -> Vec<(Ident, Ident)> {
        self.fields
            .iter()
            .map(|f| (f.offset.clone(), f.size.clone()))
            .collect()
    }
}

/// Everything `#[derive(WireMsg)]` generates.
pub(crate) fn message(msg: &Message<'_>) -> TokenStream {
    let cx = Ctx::new(msg);
    let view = view::generate(&cx);
    let view_mut = view_mut::generate(&cx);
    let field_impl = field_impl(&cx);
    let wire_msg = wire_msg_impl(&cx);
    let decode = decode::generate(&cx);
    let asserts = assertions(&cx);
    let template = template_impl(&cx);
    quote! {
        #view
        #view_mut
        #[allow(non_local_definitions, clippy::all)]
        const _: () = {
            #field_impl
            #wire_msg
            #decode
            #template
            #asserts
        };
    }
}

/// `Field` and `Element` for the message type, so that it nests in other messages and
/// lists.
fn field_impl(cx: &Ctx<'_>) -> TokenStream {
    let ident = cx.msg.ident;
    let (impl_generics, ty_generics, _) = cx.msg.generics.split_for_impl();
    let view = &cx.view;
    let self_static = &cx.self_static;
    let block_length = &cx.block_length;
    let in_tail_terms: Vec<TokenStream> = cx
        .fields
        .iter()
        .map(|f| {
            let as_field = &f.as_field;
            quote!(#as_field::IN_TAIL)
        })
        .collect();
    let checks_terms: Vec<TokenStream> = cx
        .fields
        .iter()
        .map(|f| {
            let as_field = &f.as_field;
            quote!(#as_field::CHECKS)
        })
        .collect();
    let tail_len = encode::tail_len(cx);
    let element = element_impl(
        quote!(impl #impl_generics ::wiremsg::Element for #ident #ty_generics),
        quote! {
            if <Self as ::wiremsg::Field>::IN_TAIL {
                ::wiremsg::ListEncoding::Table
            } else {
                ::wiremsg::ListEncoding::Strided
            }
        },
        quote! {
            const MIN_ELEMENT_SIZE: usize = if <Self as ::wiremsg::Field>::IN_TAIL {
                4
            } else {
                <#self_static as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH
            };
        },
    );
    quote! {
        #[automatically_derived]
        impl #impl_generics ::wiremsg::Field for #ident #ty_generics {
            const BLOCK_SIZE: usize = if <Self as ::wiremsg::Field>::IN_TAIL { 4 } else { #block_length };
            const IN_TAIL: bool = false #(|| #in_tail_terms)*;
            const CHECKS: bool = <Self as ::wiremsg::Field>::IN_TAIL #(|| #checks_terms)*;
            const EVOLVES: bool = !<Self as ::wiremsg::Field>::IN_TAIL
                && <#self_static as ::wiremsg::WireMsg>::MIN_BLOCK_LENGTH
                    != <#self_static as ::wiremsg::WireMsg>::BLOCK_LENGTH;
            const TYPE: &'static ::wiremsg::TypeSchema = &::wiremsg::TypeSchema::Message(|| {
                <#self_static as ::wiremsg::WireMsg>::SCHEMA
            });
            type View<'v> = #view<'v>;
            type Stored<'v> = #view<'v>;

            #[inline]
            fn validate<'v, M: ::wiremsg::Mode>(
                s: ::wiremsg::Slots<'v>,
                mode: &M,
                depth: u32,
            ) -> ::wiremsg::__private::Result<#view<'v>, ::wiremsg::Error> {
                ::wiremsg::__private::validate_message::<Self, M>(s, mode, depth)
            }

            #[inline(always)]
            fn get<'v>(_: &'v [u8], stored: #view<'v>) -> #view<'v> {
                stored
            }

            #[inline]
            fn tail_len(&self) -> usize {
                #tail_len
            }

            #[inline]
            fn write(&self, block: &mut [u8], tail: &mut [u8]) {
                ::wiremsg::__private::write_message(self, block, tail)
            }
        }

        #element
    }
}

/// `Template` for a message with `#[wire(template_id = N)]`.
fn template_impl(cx: &Ctx<'_>) -> TokenStream {
    let Some(template_id) = cx.msg.attrs.template_id else {
        return TokenStream::new();
    };
    let schema_id = cx.msg.attrs.schema_id.unwrap_or(0);
    let ident = cx.msg.ident;
    let (impl_generics, ty_generics, _) = cx.msg.generics.split_for_impl();
    quote! {
        #[automatically_derived]
        impl #impl_generics ::wiremsg::Template for #ident #ty_generics {
            const TEMPLATE_ID: u16 = #template_id;
            const SCHEMA_ID: u16 = #schema_id;
        }
    }
}

/// `Element` for a derived type: its lists are viewed as `wiremsg::List`.
pub(crate) fn element_impl(
    impl_head: TokenStream,
    encoding: TokenStream,
    extra: TokenStream,
) -> TokenStream {
    quote! {
        #[automatically_derived]
        #impl_head {
            const LIST_ENCODING: ::wiremsg::ListEncoding = #encoding;
            #extra
            type ListView<'v> = ::wiremsg::List<'v, Self>;

            #[inline(always)]
            fn list_view<'v>(list: ::wiremsg::List<'v, Self>) -> ::wiremsg::List<'v, Self> {
                list
            }

            #[inline(always)]
            fn list_of<'v>(view: ::wiremsg::List<'v, Self>) -> ::wiremsg::List<'v, Self>
            where
                Self: 'v,
            {
                view
            }
        }
    }
}

/// `WireMsg`: layout constants, the validation routine, the mutable view and the
/// writer.
fn wire_msg_impl(cx: &Ctx<'_>) -> TokenStream {
    let ident = cx.msg.ident;
    let (impl_generics, ty_generics, _) = cx.msg.generics.split_for_impl();
    let view = &cx.view;
    let view_mut = &cx.view_mut;
    let block_length = &cx.block_length;
    let min_block_length = &cx.min_block_length;
    let in_tail = &cx.in_tail;
    let names = cx.layout_names();
    let min_names: Vec<_> = cx
        .fields
        .iter()
        .filter(|f| !f.later())
        .map(|f| (f.offset.clone(), f.size.clone()))
        .collect();
    let min_block_length_value =
        layout::block_length_expr(&quote!(#view::<'static>), &view::prefix(cx), &min_names);
    let version = cx.msg.attrs.version;
    let block_length_value =
        layout::block_length_expr(&quote!(#view::<'static>), &view::prefix(cx), &names);
    let schema = schema::generate(cx);
    let validate = view::validate_body(cx);
    let write = encode::write_body(cx);
    quote! {
        #[automatically_derived]
        impl #impl_generics ::wiremsg::WireMsg for #ident #ty_generics {
            const BLOCK_LENGTH: usize = #block_length_value;
            const MIN_BLOCK_LENGTH: usize = #min_block_length_value;
            const VERSION: u16 = #version;
            const SCHEMA: &'static ::wiremsg::MessageSchema = #schema;
            type Mut<'v> = #view_mut<'v>;

            #[inline]
            fn __view<'v, __WireMode: ::wiremsg::Mode>(
                bytes: &'v [u8],
                mode: &__WireMode,
                depth: u32,
            ) -> ::wiremsg::__private::Result<#view<'v>, ::wiremsg::Error> {
                #validate
            }

            #[inline]
            fn __mut(bytes: &mut [u8]) -> ::wiremsg::__private::Option<#view_mut<'_>> {
                match ::wiremsg::__private::split_mut::<{ #min_block_length }>(bytes, #in_tail, #block_length) {
                    ::wiremsg::__private::Some((block, rest, known_end, tail_start)) => {
                        ::wiremsg::__private::Some(#view_mut {
                            __block: block,
                            __rest: rest,
                            __known_end: known_end,
                            __tail_start: tail_start,
                        })
                    }
                    ::wiremsg::__private::None => ::wiremsg::__private::None,
                }
            }

            #[inline]
            fn __write(&self, out: &mut [u8]) {
                #write
            }
        }
    }
}

/// Layout facts the compiler proves at build time.
fn assertions(cx: &Ctx<'_>) -> TokenStream {
    let self_static = &cx.self_static;
    let name = cx.msg.ident.to_string();
    let too_long = format!(
        "wiremsg: the block of `{name}` is longer than 65535 bytes (its u16 block length); move large arrays into a `Vec`"
    );
    // One constant per array element type, spanned on the element type, so that the
    // compile error points at the field rather than at the derive.
    let arrays = cx.fields.iter().flat_map(|f| {
        let mut elems = Vec::new();
        array_elements(&f.field.static_ty, &mut elems);
        elems.into_iter().map(move |elem| {
            let elem_name = quote!(#elem).to_string().replace(' ', "");
            let msg = format!(
                "wiremsg: the elements of array field `{}` must be fixed-size, and `{elem_name}` \
                 has variable-size data; use `Vec<{elem_name}>` instead of the array",
                f.name
            );
            quote_spanned! {syn::spanned::Spanned::span(elem)=>
                const _: () = ::core::assert!(!<#elem as ::wiremsg::Field>::IN_TAIL, #msg);
            }
        })
    });
    // A list of zero-size elements would have no count on the wire.
    let lists = cx.fields.iter().filter(|f| f.field.kind == crate::ast::Kind::List).filter_map(|f| {
        let elem = view_mut::list_element(&f.field.static_ty)?;
        let msg = format!(
            "wiremsg: the elements of list field `{}` must not be zero-size (a message without fields, `FixedStr<0>`)",
            f.name
        );
        Some(quote_spanned! {syn::spanned::Spanned::span(elem)=>
            const _: () = ::core::assert!(
                ::core::matches!(<#elem as ::wiremsg::Element>::LIST_ENCODING, ::wiremsg::ListEncoding::Table)
                    || <#elem as ::wiremsg::Field>::BLOCK_SIZE > 0,
                #msg
            );
        })
    });
    // Inline blocks are frozen: a fixed-size message with `since` fields must not nest
    // inline (FORMAT.md §4.7), or older readers would misplace every later field.
    let frozen = cx.fields.iter().map(|f| {
        let ty = &f.field.static_ty;
        let msg = format!(
            "wiremsg: field `{}` nests a fixed-size message with fields added in later versions inline, \
             and inline blocks are frozen; put it in a `Vec` (whose stride carries its block length) \
             or give it a variable-size field",
            f.name
        );
        quote_spanned! {syn::spanned::Spanned::span(ty)=>
            const _: () = ::core::assert!(
                !<#ty as ::wiremsg::Field>::EVOLVES || <#ty as ::wiremsg::Field>::IN_TAIL,
                #msg
            );
        }
    });
    quote! {
        const _: () = ::core::assert!(<#self_static as ::wiremsg::WireMsg>::BLOCK_LENGTH <= 65535, #too_long);
        #(#frozen)*
        #(#arrays)*
        #(#lists)*
    }
}

/// The element type of every array in `ty`, through nested arrays and options (the
/// derive accepts `[T; N]`, `Option<[T; N]>` and `[[T; N]; M]` syntactically).
fn array_elements<'t>(ty: &'t syn::Type, out: &mut Vec<&'t syn::Type>) {
    match ty {
        syn::Type::Array(array) => {
            out.push(&array.elem);
            array_elements(&array.elem, out);
        }
        syn::Type::Group(g) => array_elements(&g.elem, out),
        syn::Type::Paren(p) => array_elements(&p.elem, out),
        syn::Type::Path(p) => {
            let Some(last) = p.path.segments.last() else {
                return;
            };
            if last.ident != "Option" {
                return;
            }
            if let syn::PathArguments::AngleBracketed(args) = &last.arguments {
                if let Some(syn::GenericArgument::Type(inner)) = args.args.first() {
                    array_elements(inner, out);
                }
            }
        }
        _ => {}
    }
}
