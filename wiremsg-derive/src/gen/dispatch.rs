//! Everything `#[derive(WireDispatch)]` generates: the enum of views, and viewing,
//! decoding and encoding by template id (FORMAT.md §8).

use crate::ast::Dispatch;
use proc_macro2::TokenStream;
use quote::{format_ident, quote_spanned};

pub(crate) fn generate(d: &Dispatch<'_>) -> TokenStream {
    let ident = d.ident;
    let vis = d.vis;
    let view = format_ident!("{}View", ident, span = ident.span());
    let view_mut = format_ident!("{}Mut", ident, span = ident.span());
    let lazy = format_ident!("{}Lazy", ident, span = ident.span());
    let variants: Vec<_> = d.variants.iter().map(|v| v.ident).collect();
    let types: Vec<_> = d.variants.iter().map(|v| v.ty).collect();
    let ids: Vec<_> = (0..types.len())
        .map(|i| format_ident!("__WIREMSG_TEMPLATE_{}", i))
        .collect();
    let sids: Vec<_> = (0..types.len())
        .map(|i| format_ident!("__WIREMSG_SCHEMA_{}", i))
        .collect();
    let view_doc =
        format!("The view of one message of [`{ident}`], chosen by the template id of its header.");
    let view_mut_doc = format!(
        "The mutable view of one message of [`{ident}`], chosen by the template id of its \
         header: a received message updated in place."
    );
    let lazy_doc = format!(
        "The on-demand view of one message of [`{ident}`], chosen by the template id of \
         its header: each accessor checks what it reads."
    );
    let names: Vec<String> = variants.iter().map(|v| v.to_string()).collect();
    // `Ty: Template`, spanned at each variant's type, required once by an item of its
    // own (the one error of a message without a template id) and carried by both
    // impls, whose bodies assume it, with a `for<'_>` binder so that they are not
    // checked where the impls are declared (see `gen::guards`).
    let binder = super::binder();
    let guards: Vec<TokenStream> = types
        .iter()
        .map(|ty| quote_spanned!(syn::spanned::Spanned::span(ty)=> #binder #ty: ::wiremsg::Template,))
        .collect();
    let guard_checks = types.iter().map(|ty| {
        quote_spanned!(syn::spanned::Spanned::span(ty)=> let _ = <#ty as ::wiremsg::Template>::TEMPLATE_ID;)
    });
    let guard_item = quote_m!(const _: () = { #(#guard_checks)* };);
    let where_clause = quote_m!(where #(#guards)*);
    // Two variants with one template id (and schema id) could never both be read.
    // Read through `Probe`, so that a variant without a template id (reported by the
    // guards) adds no error here.
    // (Mixed-site, not the variant's span: unused when both types have ids, which
    // must not be a lint in the user's crate.)
    let fallback = quote_m!(
        use ::wiremsg::__private::ProbeFallback as _;
    );
    // One check per variant, against the earlier ones (`same_template_before`), its
    // message composed with the other's name at compile time.
    let type_names: Vec<String> = types.iter().map(crate::ast::type_text).collect();
    let n = types.len();
    let id_table = quote_m! {
        const __WIREMSG_IDS: [(::core::primitive::bool, ::core::primitive::u16, ::core::primitive::u16); #n] = {
            #fallback
            [#((
                ::wiremsg::__private::Probe::<#types>::IS_TEMPLATE,
                ::wiremsg::__private::Probe::<#types>::TEMPLATE_ID,
                ::wiremsg::__private::Probe::<#types>::SCHEMA_ID,
            )),*]
        };
        const __WIREMSG_NAMES: [&::core::primitive::str; #n] = [#(#type_names),*];
    };
    let distinct = types.iter().enumerate().skip(1).map(|(k, b)| {
        quote_spanned! {syn::spanned::Spanned::span(b)=>
            const _: () = {
                if let ::core::option::Option::Some(a) =
                    ::wiremsg::__private::same_template_before(&__WIREMSG_IDS, #k)
                {
                    let m = ::wiremsg::__private::ConstMessage::of(&[
                        "wiremsg: `",
                        __WIREMSG_NAMES[a],
                        "` and `",
                        __WIREMSG_NAMES[#k],
                        "` have the same template id and schema id; a dispatch enum needs distinct ones",
                    ]);
                    ::core::panic!("{}", m.as_str());
                }
            };
        }
    });
    // Each variant's (template id, schema id), as constants for the match patterns.
    let id_consts = quote_m! {
        #(const #ids: ::core::primitive::u16 = <#types as ::wiremsg::Template>::TEMPLATE_ID;)*
        #(const #sids: ::core::primitive::u16 = <#types as ::wiremsg::Template>::SCHEMA_ID;)*
    };
    // The body of `view`, `view_lazy` and `view_mut`: the header read, then the
    // message of the variant it names, as `out`'s variant, by `__private::#body`.
    // A message type is its (template id, schema id) pair (FORMAT.md §8).
    // `read(T)` views the message of variant type `T` after `header`, from `bytes`.
    let select = |out: &syn::Ident, read: &dyn Fn(&syn::Type) -> TokenStream| {
        let reads = types.iter().map(|ty| read(ty));
        quote_m! {
            let header = ::wiremsg::MessageHeader::read(bytes)?;
            #id_consts
            #[allow(unreachable_patterns)]
            let view = match (header.template_id, header.schema_id) {
                #((#ids, #sids) => #out::#variants(#reads),)*
                _ => return ::wiremsg::__private::Err(Self::__wiremsg_unknown(header)),
            };
            ::wiremsg::__private::Ok((header, view))
        }
    };
    let by = |body: &str| {
        let body = format_ident!("{}", body);
        move |ty: &syn::Type| quote_m!(::wiremsg::__private::#body::<#ty>(header, bytes)?)
    };
    let select_view = select(&view, &by("view_body"));
    let select_lazy = select(&lazy, &by("view_body_lazy"));
    let select_mut = select(&view_mut, &by("view_body_mut"));
    // The trusted path forwards the caller's promise (the methods' `# Safety`) to the
    // runtime's for one type, which checks the header again (O(1)) and trusts the
    // message after it.
    let select_view_unchecked = select(
        &view,
        &|ty: &syn::Type| quote_m!(unsafe { ::wiremsg::view_unchecked_with_header::<#ty>(bytes) }?.1),
    );
    let select_mut_unchecked = select(
        &view_mut,
        &|ty: &syn::Type| quote_m!(unsafe { ::wiremsg::view_mut_unchecked_with_header::<#ty>(bytes) }?.1),
    );
    quote_m! {
        #[doc = #view_doc]
        #[derive(::core::clone::Clone, ::core::marker::Copy, ::core::cmp::PartialEq)]
        #vis enum #view<'v> {
            #(
                #[doc = concat!("A [`", stringify!(#types), "`].")]
                #variants(<#types as ::wiremsg::WireMsg>::View<'v>),
            )*
        }

        #[doc = #view_mut_doc]
        #vis enum #view_mut<'v> {
            #(
                #[doc = concat!("A [`", stringify!(#types), "`].")]
                #variants(<#types as ::wiremsg::WireMsg>::Mut<'v>),
            )*
        }

        #[doc = #lazy_doc]
        #[derive(::core::clone::Clone)]
        #vis enum #lazy<'v> {
            #(
                #[doc = concat!("A [`", stringify!(#types), "`].")]
                #variants(<#types as ::wiremsg::WireMsg>::Lazy<'v>),
            )*
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #lazy<'_> {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    #(Self::#variants(v) => f.debug_tuple(#names).field(v).finish(),)*
                }
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #view_mut<'_> {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    #(Self::#variants(v) => f.debug_tuple(#names).field(v).finish(),)*
                }
            }
        }

        #[automatically_derived]
        impl ::core::fmt::Debug for #view<'_> {
            #[inline]
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                match self {
                    #(Self::#variants(v) => f.debug_tuple(#names).field(v).finish(),)*
                }
            }
        }

        // Its functions (and the views' `Debug`) are `#[inline]`: their bodies reach
        // every variant's validation, which rustc otherwise compiles to machine code
        // in the crate that declares the enum, called or not (200 variants: 11.5 of
        // that crate's 15 s, `-Z time-passes`); inline, each is compiled where it is
        // called, as the messages' own functions are.
        #[automatically_derived]
        #[allow(clippy::all)]
        impl #ident #where_clause {
            /// Reads the message header at the start of `bytes` and views the message
            /// of the variant whose template id and schema id it names.
            ///
            /// # Errors
            ///
            /// [`ErrorKind::UnexpectedTemplate`](::wiremsg::ErrorKind::UnexpectedTemplate)
            /// for a template id no variant has;
            /// [`ErrorKind::SchemaMismatch`](::wiremsg::ErrorKind::SchemaMismatch) for a
            /// known template id under a schema id no variant has it with; otherwise as
            /// [`Template::view_with_header`](::wiremsg::Template::view_with_header).
            #[inline]
            pub fn view(
                bytes: &[::core::primitive::u8],
            ) -> ::wiremsg::__private::Result<(::wiremsg::MessageHeader, #view<'_>), ::wiremsg::Error> {
                #select_view
            }

            /// Reads and checks the message header at the start of `bytes` like
            /// [`view`](Self::view) and returns the on-demand view of the message of
            /// the variant it names: O(1), the header and the message's block length
            /// checked; each accessor checks what it reads, with the path and offset
            /// (from the header's start) that [`view`](Self::view) reports.
            ///
            /// # Errors
            ///
            /// As [`view`](Self::view) for the header;
            /// [`Template::view_lazy_with_header`](::wiremsg::Template::view_lazy_with_header)
            /// for the message.
            #[inline]
            pub fn view_lazy(
                bytes: &[::core::primitive::u8],
            ) -> ::wiremsg::__private::Result<(::wiremsg::MessageHeader, #lazy<'_>), ::wiremsg::Error> {
                #select_lazy
            }

            /// Reads the message header at the start of `bytes` like
            /// [`view`](Self::view) and returns the mutable view of the message of the
            /// variant it names: a received frame updated in place.
            ///
            /// # Errors
            ///
            /// As [`view`](Self::view).
            #[inline]
            pub fn view_mut(
                bytes: &mut [::core::primitive::u8],
            ) -> ::wiremsg::__private::Result<(::wiremsg::MessageHeader, #view_mut<'_>), ::wiremsg::Error> {
                #select_mut
            }

            /// The trusted path: reads and checks the message header at the start of
            /// `bytes` like [`view`](Self::view) (O(1)), and trusts the message of
            /// the variant it names, as
            /// [`view_unchecked_with_header`](::wiremsg::view_unchecked_with_header)
            /// does for one type.
            ///
            /// # Errors
            ///
            /// The header's errors of [`view`](Self::view): a template id no variant
            /// has; a schema id, block length or version its variant's type refuses;
            /// bytes shorter than the header, or, for a variant type without a block
            /// length field (no tail, no `#[wire(block_length)]`), than the block the
            /// header announces.
            ///
            /// # Safety
            ///
            /// Wherever this function returns `Ok`, [`view`](Self::view) of the same
            /// bytes returns `Ok`: the message after the header passes the
            /// validation of the variant type's layout, as
            /// [`view_unchecked_with_header`](::wiremsg::view_unchecked_with_header)
            /// states it for that type. Reading other bytes through it is undefined
            /// behaviour.
            #[inline]
            pub unsafe fn view_unchecked(
                bytes: &[::core::primitive::u8],
            ) -> ::wiremsg::__private::Result<(::wiremsg::MessageHeader, #view<'_>), ::wiremsg::Error> {
                #select_view_unchecked
            }

            /// [`view_unchecked`](Self::view_unchecked) for the mutable view: a frame
            /// of a trusted stream updated in place.
            ///
            /// # Errors
            ///
            /// As [`view_unchecked`](Self::view_unchecked).
            ///
            /// # Safety
            ///
            /// As [`view_unchecked`](Self::view_unchecked).
            #[inline]
            pub unsafe fn view_mut_unchecked(
                bytes: &mut [::core::primitive::u8],
            ) -> ::wiremsg::__private::Result<(::wiremsg::MessageHeader, #view_mut<'_>), ::wiremsg::Error> {
                #select_mut_unchecked
            }

            /// The error for a header that names no variant.
            #[cold]
            fn __wiremsg_unknown(header: ::wiremsg::MessageHeader) -> ::wiremsg::Error {
                #id_consts
                let (template_id, schema_id) = (header.template_id, header.schema_id);
                #(
                    if template_id == #ids {
                        return ::wiremsg::Error::new(
                            ::wiremsg::ErrorKind::SchemaMismatch { schema_id, expected: #sids },
                            4,
                        );
                    }
                )*
                ::wiremsg::Error::new(
                    ::wiremsg::ErrorKind::UnexpectedTemplate {
                        template_id,
                        schema_id,
                        expected: ::core::primitive::u16::MAX,
                    },
                    2,
                )
            }

            /// Decodes the message after the header to the owned variant, within the
            /// heap budget of [`WireMsg::decode`](::wiremsg::WireMsg::decode).
            ///
            /// # Errors
            ///
            /// As [`view`](Self::view), and
            /// [`ErrorKind::DecodeBudgetExceeded`](::wiremsg::ErrorKind::DecodeBudgetExceeded).
            #[inline]
            pub fn decode<'v>(bytes: &'v [::core::primitive::u8]) -> ::wiremsg::__private::Result<Self, ::wiremsg::Error>
            where
                #(#types: ::wiremsg::DecodeField<'v>,)*
            {
                let (_, view) = Self::view(bytes)?;
                let needed = match view {
                    #(#view::#variants(v) => <#types as ::wiremsg::DecodeField<'v>>::decoded_size(v),)*
                };
                ::wiremsg::__private::check_budget(needed, ::wiremsg::decode_budget(bytes.len()))?;
                ::wiremsg::__private::Ok(match view {
                    #(#view::#variants(v) => Self::#variants(
                        <#types as ::wiremsg::DecodeField<'v>>::decode_view(v),
                    ),)*
                })
            }

            /// Appends the variant's header and message to `out`; returns the bytes
            /// appended.
            ///
            /// # Errors
            ///
            /// As [`WireMsg::encode`](::wiremsg::WireMsg::encode).
            #[inline]
            pub fn encode_with_header(
                &self,
                out: &mut ::wiremsg::__private::Vec<::core::primitive::u8>,
            ) -> ::wiremsg::__private::Result<::core::primitive::usize, ::wiremsg::Error> {
                match self {
                    #(Self::#variants(m) => ::wiremsg::Template::encode_with_header(m, out),)*
                }
            }

            /// The header the variant is sent with.
            #[inline]
            pub fn header(&self) -> ::wiremsg::MessageHeader {
                match self {
                    #(Self::#variants(m) => ::wiremsg::Template::header(m),)*
                }
            }

            /// The schema set of every variant's message and the messages they nest:
            /// what a reader without the Rust types (the `wiremsg` tool) needs to read
            /// a stream of these messages. Write it to a file with
            /// [`SchemaSet::write_file`](::wiremsg::SchemaSet::write_file).
            ///
            /// # Errors
            ///
            /// `InvalidSchema` if two different messages reached have one name.
            #[inline]
            pub fn schema_set() -> ::wiremsg::__private::Result<::wiremsg::SchemaSet, ::wiremsg::Error> {
                let mut set = ::wiremsg::SchemaSet::new();
                #(set.add::<#types>()?;)*
                ::wiremsg::__private::Ok(set)
            }
        }

        /// The header and message of the variant: what `FrameWriter::write`,
        /// `WireCodec` and `put_frame` send.
        #[automatically_derived]
        impl ::wiremsg::WithHeader for #ident #where_clause {
            #[inline]
            fn len_with_header(&self) -> ::core::primitive::usize {
                match self {
                    #(Self::#variants(m) => ::wiremsg::Template::encoded_len_with_header(m),)*
                }
            }

            #[inline]
            fn checked_len_with_header(
                &self,
            ) -> ::wiremsg::__private::Result<::core::primitive::usize, ::wiremsg::Error> {
                match self {
                    #(Self::#variants(m) => ::wiremsg::WithHeader::checked_len_with_header(m),)*
                }
            }

            #[inline]
            fn write_with_header(
                &self,
                out: &mut [::core::primitive::u8],
            ) -> ::wiremsg::__private::Result<::core::primitive::usize, ::wiremsg::Error> {
                match self {
                    #(Self::#variants(m) => ::wiremsg::Template::encode_with_header_into(m, out),)*
                }
            }

            #[inline]
            fn message_schema(
                &self,
            ) -> ::wiremsg::__private::Option<&'static ::wiremsg::MessageSchema> {
                match self {
                    #(Self::#variants(m) => ::wiremsg::WithHeader::message_schema(m),)*
                }
            }
        }

        const _: () = {
            #id_table
            #(#distinct)*
            #guard_item
        };
    }
}
