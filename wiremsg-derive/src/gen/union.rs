//! Everything `#[derive(WireUnion)]` generates (FORMAT.md §4.10): the view and
//! mutable view enums, the anonymous message of each struct variant (with the items
//! `#[derive(WireMsg)]` gives a struct), and, inside `const _`, the tags, one marker
//! per variant for the runtime's variant list, `UnionLayout`, `WireUnion`, `Field`
//! (its items from a `FieldBody`), `Element`, `DecodeField`, and `Serialize` of the
//! view (feature `serde` of the runtime). Every item but `Field` and `Element` carries
//! the union's guards (see `guards`), so that a payload without its derive is one
//! error.

use super::{Ctx, FieldCtx};
use crate::ast::Relifetime;
use crate::union_ast::{Shape, Union, Variant};
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote_spanned};

/// Names shared by the pieces of one union.
struct Names<'a> {
    u: &'a Union<'a>,
    /// `OrderInstr` as a string, without `r#`.
    name: String,
    view: Ident,
    view_mut: Ident,
    lazy: Ident,
    /// `OrderInstr<'static>`.
    self_static: syn::Type,
    /// The tag's integer type, `::core::primitive::u8`.
    repr: TokenStream,
    /// Bytes of the tag.
    tag_size: TokenStream,
    /// `for<'__wiremsg_g> Payload: WireMsg,` for each payload message, and the
    /// anonymous messages' own guards (see [`guards`]).
    guards: TokenStream,
}

/// The generated pieces of one variant.
struct Piece {
    view_variant: TokenStream,
    mut_variant: TokenStream,
    lazy_variant: TokenStream,
    marker: TokenStream,
    pattern: TokenStream,
    tail_len: TokenStream,
    check: TokenStream,
    write: TokenStream,
    decode: TokenStream,
    decoded_size: TokenStream,
    serialize: TokenStream,
    schema: Option<TokenStream>,
    /// A payload type that must decode for the union to decode.
    decode_bound: Option<TokenStream>,
    /// The anonymous message of a struct variant, and its derived items.
    items: TokenStream,
}

pub(crate) fn generate(u: &Union<'_>) -> TokenStream {
    let Some(repr_ident) = &u.repr else {
        return TokenStream::new();
    };
    let ident = u.ident;
    let (impl_generics, ty_generics, _) = u.generics.split_for_impl();
    let self_ty: syn::Type = syn::parse_quote!(#ident #ty_generics);
    let relifetime = |to| Relifetime {
        generics: u.generics,
        to,
    };
    let repr = quote_m!(::core::primitive::#repr_ident);
    let names = Names {
        u,
        name: ident.to_string().trim_start_matches("r#").to_owned(),
        view: format_ident!("{}View", ident, span = ident.span()),
        view_mut: format_ident!("{}Mut", ident, span = ident.span()),
        lazy: format_ident!("{}Lazy", ident, span = ident.span()),
        self_static: relifetime("'static").apply(&self_ty),
        tag_size: quote_m!(::wiremsg::__private::size_of::<#repr>()),
        repr,
        guards: TokenStream::new(),
    };
    let UnionGuards {
        all: guards,
        item: guard_item,
        kind_span,
        field: field_guards,
    } = guards(u);
    let names = Names { guards, ..names };
    let self_v = relifetime("'v").apply(&self_ty);
    let Names {
        view,
        view_mut,
        lazy,
        self_static,
        repr,
        name,
        guards,
        ..
    } = &names;

    // A later variant must keep a fixed-size union fixed-size (FORMAT.md §4.10):
    // checked where one exists.
    let list_shape = if u.variants.iter().any(|v| v.attrs.since() > 1) {
        // Through `Probe`: a payload without its derive is the guards' error alone.
        quote_m!(
            const _: () = {
                use ::wiremsg::__private::ProbeFallback as _;
                ::core::assert!(
                    ::wiremsg::__private::Probe::<#self_static>::KEEPS_ITS_LIST_SHAPE,
                    "wiremsg: a variant added after version 1 to a union whose version-1 variants are all fixed-size must be fixed-size too: its lists are dense (FORMAT.md §6.8) and would change shape; to let the union gain variants with a tail, give it a `#[wire(other)]` catch-all from version 1"
                );
            };
        )
    } else {
        TokenStream::new()
    };

    // Tags by Rust's rule: explicit, else the previous variant's plus one (the
    // catch-all counts, as in Rust, but has no tag of its own).
    let tags: Vec<Ident> = (0..u.variants.len())
        .map(|i| format_ident!("__WIREMSG_T{}", i))
        .collect();
    let exprs: Vec<Option<&syn::Expr>> = u
        .variants
        .iter()
        .map(|v| v.attrs.tag.as_ref().or(v.discriminant))
        .collect();
    let (values_block, values) =
        super::variant_values(&quote_m!(#self_static), &quote_m!(#repr), &exprs);
    let consts: Vec<TokenStream> = tags
        .iter()
        .zip(&values)
        .map(|(t, value)| quote_m!(#[allow(dead_code)] const #t: #repr = #value;))
        .collect();
    let tagged: Vec<usize> = (0..u.variants.len())
        .filter(|&i| !u.variants[i].attrs.other)
        .collect();
    // Two variants with one tag could never both be read: checked by the derive
    // where every tag is a literal (`union_check`), else by the compiler, pair by pair.
    let mut distinct = Vec::new();
    let by_compiler = crate::union_check::literal_tags(u).is_none();
    for (k, &i) in tagged.iter().enumerate().filter(|_| by_compiler) {
        for &j in &tagged[..k] {
            let (a, b) = (u.variants[j].ident, u.variants[i].ident);
            let (ta, tb) = (&tags[j], &tags[i]);
            let msg = format!(
                "wiremsg: variants `{a}` and `{b}` of `{name}` have the same tag; give `{b}` another (`= N` or `#[wire(tag = N)]`)"
            );
            distinct.push(quote_spanned! {b.span()=>
                const _: () = ::core::assert!(#ta != #tb, #msg);
            });
        }
    }

    let pieces: Vec<Piece> = u
        .variants
        .iter()
        .enumerate()
        .map(|(i, v)| piece(&names, v, i, &tags[i]))
        .collect();
    let markers = pieces.iter().map(|p| &p.marker);
    // The runtime's variant list: tagged variants in order, the catch-all last.
    let order: Vec<usize> = tagged
        .iter()
        .copied()
        .chain((0..u.variants.len()).filter(|&i| u.variants[i].attrs.other))
        .collect();
    let variant_list = variant_tree(&order);

    // A union of unit variants alone (which later versions may give data variants)
    // holds no borrow: an uninhabited hidden variant keeps the views' lifetime used
    // and needs no match arm.
    let no_borrow = u
        .variants
        .iter()
        .all(|v| matches!(v.shape, Shape::Unit | Shape::Invalid) && !v.attrs.other);
    let lifetime_variant = no_borrow.then(|| {
        quote_m! {
            #[doc(hidden)]
            __WiremsgLifetime(::core::marker::PhantomData<&'v ()>, ::core::convert::Infallible),
        }
    });
    // Behind a reference the hidden variant is not known to be empty: one arm for it.
    let lifetime_arm = no_borrow.then(
        || quote_m!(#view::__WiremsgLifetime(_, __wiremsg_never) => match __wiremsg_never {},),
    );
    let view_variants = pieces
        .iter()
        .map(|p| &p.view_variant)
        .chain(lifetime_variant.iter());
    let mut_variants = pieces
        .iter()
        .map(|p| &p.mut_variant)
        .chain(lifetime_variant.iter());
    let lazy_variants = pieces
        .iter()
        .map(|p| &p.lazy_variant)
        .chain(lifetime_variant.iter());
    let patterns: Vec<&TokenStream> = pieces.iter().map(|p| &p.pattern).collect();
    let tail_lens = pieces.iter().map(|p| &p.tail_len);
    let checks = pieces.iter().map(|p| &p.check);
    let writes = pieces.iter().map(|p| &p.write);
    let decodes = pieces.iter().map(|p| &p.decode);
    let sizes = pieces.iter().map(|p| &p.decoded_size);
    let serializes = pieces.iter().map(|p| &p.serialize);
    let schemas = pieces.iter().filter_map(|p| p.schema.as_ref());
    // Each bound states the payload's kind: under a bound on `T: DecodeField<'v>`
    // alone, the compiler no longer normalizes `T`'s view type to the view the enum
    // holds.
    let bounds: Vec<TokenStream> = pieces
        .iter()
        .filter_map(|p| p.decode_bound.as_ref())
        .map(|ty| quote_m!(for<'__wiremsg_g> #ty: ::wiremsg::DecodeField<'v, Kind = ::wiremsg::__private::Msg<#ty>>))
        .collect();
    let items = pieces.iter().map(|p| &p.items);
    // `#[wire(no_decode)]`: a payload that cannot decode, held in a list, map or box
    // (which the bounds cannot make conditional), leaves the union without decoding.
    let catch_all = match u.variants.iter().find(|v| v.attrs.other) {
        Some(v) => {
            let name = v.ident.to_string().trim_start_matches("r#").to_owned();
            quote_m!(::wiremsg::__private::Some(::wiremsg::__private::Cow::Borrowed(#name)))
        }
        None => quote_m!(::wiremsg::__private::None),
    };
    // Without lifetimes the union is its own `'static` form: its lists need no
    // retyping (which asks for `WireUnion`, and so for the guards, where `Element`
    // cannot carry them). With them, the retyping goes through the `Held` gate of
    // `Probe`'s `UNION`, so that a payload without its derive is the guards' error
    // alone.
    let (retype_list, retype_view) = if u.generics.params.is_empty() {
        (quote_m!(list), quote_m!(view))
    } else {
        let gate = quote_m!(::wiremsg::__private::Held::<{
            use ::wiremsg::__private::ProbeFallback as _;
            ::wiremsg::__private::Probe::<#self_static>::UNION
        }>);
        (
            quote_m!(#gate::same_union_layout(list)),
            quote_m!(#gate::same_union_layout(view)),
        )
    };
    // The kind is spanned at the one payload message a guard bounds, if one: its
    // missing derive is then this one error, at the payload (see `guards`).
    let kind = match kind_span {
        Some(span) => quote_spanned!(span=> ::wiremsg::__private::UnionOf<#self_static>),
        None => quote_m!(::wiremsg::__private::UnionOf<#self_static>),
    };
    let version = u.attrs.version();
    let vis = u.vis;
    let tag_size = &names.tag_size;
    let view_doc = format!(
        "Validated view of a [`{name}`] union value: the present variant, holding its \
         payload's view (a unit variant holds nothing; the catch-all, the unknown tag and \
         the bytes after it). Built by [`WireUnion::view`](::wiremsg::WireUnion::view) \
         or read from a message field; `Copy`, two or three words."
    );
    let mut_doc = format!(
        "Mutable view of a [`{name}`] union value: the present variant's mutable view, \
         whose fixed-size fields can be set in place. The variant itself cannot change \
         in place (its payload's size would): encode a new value instead."
    );
    let lazy_doc = format!(
        "On-demand view of a [`{name}`] union value: the present variant, its tag checked, \
         holding its payload's on-demand view (whose accessors check what they read). Built \
         by [`WireUnion::view_lazy`](::wiremsg::WireUnion::view_lazy) or read from a field \
         of an on-demand view."
    );
    let decode_doc = format!(
        "Decodes the owned [`{name}`] (strings and byte strings borrowed from the same \
         bytes where its fields are `&str` / `&[u8]`), with no heap budget."
    );
    let decoding = if u.attrs.no_decode {
        TokenStream::new()
    } else {
        quote_m! {
            #[automatically_derived]
            impl<'v> ::wiremsg::DecodeField<'v> for #self_v
            where
                #guards
                #(#bounds,)*
            {
                #[inline]
                fn decode_view(view: #view<'v>) -> Self {
                    match view {
                        #(#decodes)*
                    }
                }

                #[inline]
                fn decoded_size(view: #view<'v>) -> ::core::primitive::usize {
                    match view {
                        #(#sizes)*
                    }
                }
            }

            #[automatically_derived]
            impl<'v> #view<'v> where #guards {
                #[doc = #decode_doc]
                #[inline]
                pub fn decode(&self) -> #self_v
                where
                    #(#bounds,)*
                {
                    <#self_v as ::wiremsg::DecodeField<'v>>::decode_view(*self)
                }
            }
        }
    };
    quote_m! {
        #[doc = #view_doc]
        #[derive(::core::clone::Clone, ::core::marker::Copy, ::core::fmt::Debug, ::core::cmp::PartialEq)]
        #vis enum #view<'v> where #guards {
            #(#view_variants)*
        }

        #[doc = #mut_doc]
        #[derive(::core::fmt::Debug)]
        #vis enum #view_mut<'v> where #guards {
            #(#mut_variants)*
        }

        #[doc = #lazy_doc]
        #[derive(::core::clone::Clone, ::core::fmt::Debug)]
        #vis enum #lazy<'v> where #guards {
            #(#lazy_variants)*
        }

        #(#items)*

        #values_block

        #guard_item

        #[allow(non_local_definitions, non_camel_case_types, clippy::all)]
        const _: () = {
            #(#consts)*
            #(#distinct)*
            #list_shape
            #(#markers)*
            struct __WireMsgVariant;

            #[automatically_derived]
            impl ::wiremsg::__private::UnionLayout for #self_static where #guards {
                type Tag = #repr;
                type Variants = #variant_list;
                const NAME: &'static ::core::primitive::str = #name;
                type View<'v> = #view<'v>;
                type Mut<'v> = #view_mut<'v>;
                type Lazy<'v> = #lazy<'v>;

                ::wiremsg::__private::serde_if! {
                    fn __serialize_view<__WiremsgS: ::wiremsg::__private::serde::Serializer>(
                        view: &#view<'_>,
                        serializer: __WiremsgS,
                    ) -> ::wiremsg::__private::Result<__WiremsgS::Ok, __WiremsgS::Error> {
                        match *view {
                            #(#serializes)*
                            #lifetime_arm
                        }
                    }
                }
            }

            // The variants' schemas in a constant of their own: a reference at the top
            // of a constant lives for 'static on every compiler the crate supports,
            // where one inside `Cow::Borrowed(..)` needs Rust 1.89's lifetime extension
            // (a variant's `MessageRef::of` is not promotable).
            #[automatically_derived]
            impl #impl_generics #ident #ty_generics where #guards {
                const __WIREMSG_VARIANTS: &'static [::wiremsg::UnionVariantSchema] =
                    &[#(#schemas),*];
            }

            #[automatically_derived]
            impl #impl_generics ::wiremsg::WireUnion for #ident #ty_generics where #guards {
                const VERSION: ::core::primitive::u16 = #version;
                const UNION_SCHEMA: &'static ::wiremsg::UnionSchema = &::wiremsg::UnionSchema {
                    name: ::wiremsg::__private::Cow::Borrowed(#name),
                    version: #version,
                    tag: ::wiremsg::Node::Static(<#repr as ::wiremsg::Field>::TYPE),
                    variants: ::wiremsg::__private::Cow::Borrowed(Self::__WIREMSG_VARIANTS),
                    catch_all: #catch_all,
                };
                type Layout = #self_static;
            }

            // `Field` carries only the payloads' `Field` guards (see `guards`: a
            // payload may hold the union in a list, a trait cycle through `WireMsg`,
            // E0275); its items are `FieldBody`'s, which carries them all, read
            // through `Probe` as a message's are.
            #[automatically_derived]
            impl #impl_generics ::wiremsg::Field for #ident #ty_generics where #field_guards {
                type Kind = #kind;
                const TYPE: &'static ::wiremsg::TypeSchema = {
                    use ::wiremsg::__private::FieldBodyFallback as _;
                    ::wiremsg::__private::Probe::<Self>::FIELD_TYPE
                };
                // Its name without its variants (see `Field::__NAME_TYPE`).
                const __NAME_TYPE: &'static ::wiremsg::TypeSchema = &::wiremsg::TypeSchema::Union(
                    ::wiremsg::Node::Static(&::wiremsg::UnionSchema {
                        name: ::wiremsg::__private::Cow::Borrowed(#name),
                        version: #version,
                        tag: ::wiremsg::Node::Static(<#repr as ::wiremsg::Field>::TYPE),
                        variants: ::wiremsg::__private::Cow::Borrowed(&[]),
                        catch_all: ::wiremsg::__private::None,
                    }),
                );

                #[inline]
                fn tail_len(&self) -> ::core::primitive::usize {
                    use ::wiremsg::__private::FieldBodyFallback as _;
                    ::wiremsg::__private::Probe::<Self>::tail_len(self)
                }

                #[inline]
                fn check_value(&self, depth: ::core::primitive::u32) -> ::core::result::Result<(), ::wiremsg::Error> {
                    use ::wiremsg::__private::FieldBodyFallback as _;
                    ::wiremsg::__private::Probe::<Self>::check_value(self, depth)
                }

                #[inline]
                fn write(&self, block: &mut [::core::primitive::u8], tail: &mut [::core::primitive::u8]) {
                    use ::wiremsg::__private::FieldBodyFallback as _;
                    ::wiremsg::__private::Probe::<Self>::write(self, block, tail)
                }
            }

            #[automatically_derived]
            impl #impl_generics ::wiremsg::__private::FieldBody for #ident #ty_generics where #guards {
                const TYPE: &'static ::wiremsg::TypeSchema = &::wiremsg::TypeSchema::Union(
                    ::wiremsg::Node::Static(<#self_static as ::wiremsg::WireUnion>::UNION_SCHEMA),
                );
                const PLAIN: ::wiremsg::__private::Plain<Self> = ::wiremsg::__private::Plain::NO;

                #[inline(always)]
                fn append_tail(&self, block: &mut [::core::primitive::u8], tail: &mut ::wiremsg::__private::Out<'_>) {
                    ::wiremsg::Field::append_tail(self, block, tail)
                }

                #[inline]
                fn append_split(&self, block: &mut [::core::primitive::u8], tail: &mut ::wiremsg::__private::Out<'_>) {
                    ::wiremsg::Field::append_split(self, block, tail)
                }

                #[inline(always)]
                fn tail_len(&self) -> ::core::primitive::usize {
                    match self {
                        #(#patterns => #tail_lens,)*
                    }
                }

                #[inline(always)]
                fn check_value(&self, depth: ::core::primitive::u32) -> ::core::result::Result<(), ::wiremsg::Error> {
                    // A payload is one nesting level below the union (FORMAT.md §4.10).
                    #[allow(unused_variables)]
                    let __wiremsg_depth = depth.saturating_add(1);
                    match self {
                        #(#patterns => #checks,)*
                    }
                }

                #[inline(always)]
                fn write(&self, _: &mut [::core::primitive::u8], __wiremsg_out: &mut [::core::primitive::u8]) {
                    let __wiremsg_at = ::core::cmp::min(#tag_size, __wiremsg_out.len());
                    #[allow(unused_variables)]
                    let (__wiremsg_tag, __wiremsg_payload) = __wiremsg_out.split_at_mut(__wiremsg_at);
                    match self {
                        #(#patterns => #writes)*
                    }
                }
            }

            // `Field`'s guards, which its supertrait needs (no more: see `guards`).
            #[automatically_derived]
            impl #impl_generics ::wiremsg::Element for #ident #ty_generics where #field_guards {
                type ListView<'v> = ::wiremsg::List<'v, #self_static>;

                #[inline(always)]
                fn list_view<'v>(list: ::wiremsg::List<'v, Self>) -> ::wiremsg::List<'v, #self_static> {
                    #retype_list
                }

                #[inline(always)]
                fn list_of<'v>(view: ::wiremsg::List<'v, #self_static>) -> ::wiremsg::List<'v, Self>
                where
                    Self: 'v,
                {
                    #retype_view
                }
            }

            #decoding

            ::wiremsg::__private::serde_if! {
                #[automatically_derived]
                impl ::wiremsg::__private::serde::Serialize for #view<'_> where #guards {
                    fn serialize<__WiremsgS: ::wiremsg::__private::serde::Serializer>(
                        &self,
                        serializer: __WiremsgS,
                    ) -> ::wiremsg::__private::Result<__WiremsgS::Ok, __WiremsgS::Error> {
                        <#self_static as ::wiremsg::__private::UnionLayout>::__serialize_view(self, serializer)
                    }
                }
            }
        };
    }
}

/// The guards of a union (see [`guards`]).
struct UnionGuards {
    /// A bound `for<'__wiremsg_g> M: WireMsg` for each payload message `M`, and the
    /// anonymous messages' own guards: carried by every generated item but `Field`
    /// and `Element`.
    all: TokenStream,
    /// One item per payload type naming its missing derive, where more than one
    /// payload has a guard (empty otherwise).
    item: TokenStream,
    /// Where `Field`'s kind is spanned: at the payload type where exactly one payload
    /// has a guard, its missing derive then being this one error.
    kind_span: Option<proc_macro2::Span>,
    /// `Field`'s and `Element`'s own guards: `for<'__wiremsg_g> M: Field` for each
    /// unboxed payload and each struct variant's inline guards.
    field: TokenStream,
}

/// The guards of a union, as a message's (issue 33, see the message derive's
/// `guards`): a bound `for<'__wiremsg_g> M: WireMsg` for each payload message `M`
/// named by a path without generic arguments, and the guards of each struct variant's
/// anonymous message, which every generated item but `Field` and `Element` carries, so
/// that a payload without `#[derive(WireMsg)]` is one error naming the derive to add,
/// not one per item: `Field`'s kind spanned at the payload type where there is one
/// such payload ([`UnionGuards::kind_span`]), else one item per payload type
/// ([`UnionGuards::item`]) before the kind's error at the derive. An anonymous message
/// reports its own fields' missing derives (its guard items).
///
/// `Field`'s own guards ([`UnionGuards::field`]) fail where a payload lacks its
/// derive, so that a message holding the union (whose guard is the union's `Field`)
/// drops its impls and adds one error, not one per item that uses the union.
/// `Field`, not `WireMsg`: a message's `Field` carries only the bounds of the types it
/// holds inline, and no payload held unboxed holds the union inline (its size would be
/// infinite), so the bound leads back to no impl of the union (a payload holding the
/// union in a list would be a cycle through `WireMsg`, E0275). A boxed payload may
/// hold it inline (`tests/boxes.rs`' `Branch`), so it has no `Field` guard.
fn guards(u: &Union<'_>) -> UnionGuards {
    let (mut bounds, mut checks, mut spans) = (TokenStream::new(), Vec::new(), Vec::new());
    let mut field_bounds = TokenStream::new();
    for v in &u.variants {
        match &v.shape {
            Shape::Newtype { ty, boxed }
                if super::guardable(ty, u.generics, u.ident)
                    || super::instantiation(ty, u.generics, [u.ident]) =>
            {
                let span = syn::spanned::Spanned::span(ty);
                let binder = super::binder();
                bounds.extend(quote_spanned!(span=> #binder #ty: ::wiremsg::WireMsg,));
                // A boxed payload may hold the union inline: no `Field` guard. Nor an
                // instantiation (`Seq<Holder>`), whose `Field` asks for its arguments
                // as it holds them (`Holder: Element`), which may hold the union; nor
                // a path with const arguments, which may alias one.
                if !boxed
                    && super::guardable(ty, u.generics, u.ident)
                    && !super::const_instantiation(ty)
                {
                    field_bounds.extend(quote_spanned!(span=> #binder #ty: ::wiremsg::Field,));
                }
                checks.push(quote_spanned!(span=> let _ = <#ty as ::wiremsg::WireMsg>::VERSION;));
                spans.push(span);
            }
            // The anonymous message's own guards (the types its fields hold), not a
            // bound on the message: its `WireMsg` then comes from its impl, whose view
            // types normalize (a bound would shadow them), and a bound on the `'static`
            // form of one with lifetimes would be a second candidate beside its impl
            // (E0283).
            Shape::Struct(msg) => {
                let cx = Ctx::new(msg);
                bounds.extend(cx.guards);
                field_bounds.extend(cx.inline_guards);
            }
            _ => {}
        }
    }
    // With one payload message, `Field`'s kind, spanned at it, is the one error (the
    // kind is a kind only if the guards hold); with more, each type's item names it.
    let (item, kind_span) = match spans.as_slice() {
        [] => (TokenStream::new(), None),
        [one] => (TokenStream::new(), Some(*one)),
        _ => (quote_m!(const _: () = { #(#checks)* };), None),
    };
    UnionGuards {
        all: bounds,
        item,
        kind_span,
        field: field_bounds,
    }
}

/// `Field `a` of variant `Stop``-style docs of a variant for the view enums.
fn variant_doc(n: &Names<'_>, v: &Variant<'_>, what: &str) -> String {
    let mut doc = format!("Variant `{}` of [`{}`]: {what}.", v.ident, n.name);
    if v.attrs.since() > 1 {
        doc.push_str(&format!(" Added in version {}.", v.attrs.since()));
    }
    doc
}

fn piece(n: &Names<'_>, v: &Variant<'_>, i: usize, tag: &Ident) -> Piece {
    let Names {
        view,
        view_mut,
        lazy,
        self_static,
        repr,
        tag_size,
        name: union_name,
        guards,
        ..
    } = n;
    let vi = v.ident;
    let vname = vi.to_string().trim_start_matches("r#").to_owned();
    let index = i as u32;
    let marker = format_ident!("__WireMsgVariant{}", i);
    let since = v.attrs.since();
    let write_tag = quote_m!(::wiremsg::Field::write(&#tag, __wiremsg_tag, &mut []););
    let marker_impl = |payload: TokenStream,
                       [view_ty, mut_ty, lazy_ty]: [TokenStream; 3],
                       [wrap, wrap_mut, wrap_lazy]: [TokenStream; 3]| {
        quote_m! {
            #[doc(hidden)]
            pub struct #marker;

            // The payload may name a type more private than the union (a private
            // struct in a `pub` union): named by an impl keyed by a marker private to
            // this module, to which the public impl forwards (E0446; see the message
            // derive's `Layout`).
            #[automatically_derived]
            impl ::wiremsg::__private::VariantOf<#self_static, __WireMsgVariant> for #marker where #guards {
                type Payload = #payload;

                // The signatures name the payload's views as the trait does, through
                // the payload kind, so that `'v` is bound alike; they are `view_ty`
                // and `mut_ty`.
                #[inline(always)]
                #[allow(unused_variables)]
                fn wrap<'v>(
                    tag: ::core::primitive::u64,
                    payload: <#payload as ::wiremsg::__private::Payload>::View<'v>,
                ) -> <#self_static as ::wiremsg::__private::UnionLayout>::View<'v> {
                    let payload: #view_ty = payload;
                    #wrap
                }

                #[inline(always)]
                #[allow(unused_variables)]
                fn wrap_mut<'v>(
                    tag: ::core::primitive::u64,
                    payload: <#payload as ::wiremsg::__private::Payload>::Mut<'v>,
                ) -> <#self_static as ::wiremsg::__private::UnionLayout>::Mut<'v> {
                    let payload: #mut_ty = payload;
                    #wrap_mut
                }

                #[inline(always)]
                #[allow(unused_variables)]
                fn wrap_lazy<'v>(
                    tag: ::core::primitive::u64,
                    payload: <#payload as ::wiremsg::__private::Payload>::Lazy<'v>,
                ) -> <#self_static as ::wiremsg::__private::UnionLayout>::Lazy<'v> {
                    let payload: #lazy_ty = payload;
                    #wrap_lazy
                }
            }

            #[automatically_derived]
            impl<__WiremsgP: ::wiremsg::__private::Payload> ::wiremsg::__private::Variant<#self_static> for #marker
            where
                // The union's layout in place of its guards (it holds where they all
                // do): two bounds instead of one per payload, in each of `n` impls.
                // The signatures keep the projections the trait declares, and the
                // bodies only forward, so nothing needs them normalized.
                for<'__wiremsg_g> #self_static: ::wiremsg::__private::UnionLayout,
                // With a binder, like the guards: without one this bound is global and
                // checked where the impl is declared, where the guards do not hold.
                for<'__wiremsg_g> #marker: ::wiremsg::__private::VariantOf<#self_static, __WireMsgVariant, Payload = __WiremsgP>,
            {
                type Payload = __WiremsgP;
                const TAG: ::core::primitive::u64 = #tag as ::core::primitive::u64;
                const NAME: &'static ::core::primitive::str = #vname;
                const SINCE: ::core::primitive::u16 = #since;

                #[inline(always)]
                fn wrap<'v>(
                    tag: ::core::primitive::u64,
                    payload: <__WiremsgP as ::wiremsg::__private::Payload>::View<'v>,
                ) -> <#self_static as ::wiremsg::__private::UnionLayout>::View<'v> {
                    <#marker as ::wiremsg::__private::VariantOf<#self_static, __WireMsgVariant>>::wrap(tag, payload)
                }

                #[inline(always)]
                fn wrap_mut<'v>(
                    tag: ::core::primitive::u64,
                    payload: <__WiremsgP as ::wiremsg::__private::Payload>::Mut<'v>,
                ) -> <#self_static as ::wiremsg::__private::UnionLayout>::Mut<'v> {
                    <#marker as ::wiremsg::__private::VariantOf<#self_static, __WireMsgVariant>>::wrap_mut(tag, payload)
                }

                #[inline(always)]
                fn wrap_lazy<'v>(
                    tag: ::core::primitive::u64,
                    payload: <__WiremsgP as ::wiremsg::__private::Payload>::Lazy<'v>,
                ) -> <#self_static as ::wiremsg::__private::UnionLayout>::Lazy<'v> {
                    <#marker as ::wiremsg::__private::VariantOf<#self_static, __WireMsgVariant>>::wrap_lazy(tag, payload)
                }
            }
        }
    };
    let schema = |payload: TokenStream| {
        quote_m! {
            ::wiremsg::UnionVariantSchema {
                name: ::wiremsg::__private::Cow::Borrowed(#vname),
                tag: #tag as ::core::primitive::u64,
                payload: #payload,
                since: #since,
            }
        }
    };
    let message_ref = |ty: &syn::Type, msg_name: &str| {
        quote_m! {
            ::wiremsg::__private::Some(::wiremsg::MessageRef::of(#msg_name, || {
                <#ty as ::wiremsg::WireMsg>::SCHEMA
            }))
        }
    };
    let serialize_newtype = quote_m! {
        #view::#vi(ref __wiremsg_v) => ::wiremsg::__private::serde::Serializer::serialize_newtype_variant(
            serializer, #union_name, #index, #vname, __wiremsg_v,
        ),
    };
    match &v.shape {
        Shape::Unit | Shape::Invalid => Piece {
            view_variant: {
                let doc = variant_doc(n, v, "no payload");
                quote_m!(#[doc = #doc] #vi,)
            },
            mut_variant: {
                let doc = variant_doc(n, v, "no payload");
                quote_m!(#[doc = #doc] #vi,)
            },
            lazy_variant: {
                let doc = variant_doc(n, v, "no payload");
                quote_m!(#[doc = #doc] #vi,)
            },
            marker: marker_impl(
                quote_m!(::wiremsg::__private::Unit),
                [quote_m!(()), quote_m!(()), quote_m!(())],
                [
                    quote_m!(#view::#vi),
                    quote_m!(#view_mut::#vi),
                    quote_m!(#lazy::#vi),
                ],
            ),
            pattern: quote_m!(Self::#vi { .. }),
            tail_len: quote_m!(#tag_size),
            check: quote_m!(::core::result::Result::Ok(())),
            write: quote_m!({ #write_tag }),
            decode: quote_m!(#view::#vi => Self::#vi,),
            decoded_size: quote_m!(#view::#vi => 0,),
            serialize: quote_m! {
                #view::#vi => ::wiremsg::__private::serde::Serializer::serialize_unit_variant(
                    serializer, #union_name, #index, #vname,
                ),
            },
            schema: Some(schema(quote_m!(::wiremsg::__private::None))),
            decode_bound: None,
            items: TokenStream::new(),
        },
        Shape::Newtype { ty, boxed } => {
            // A boxed payload is the message behind the box; decoding boxes it, and
            // takes no bound on it (a payload that holds the union would make the
            // bound recursive).
            let payload = if *boxed {
                quote_m!(&**__wiremsg_payload_value)
            } else {
                quote_m!(__wiremsg_payload_value)
            };
            let wrap = |decoded: TokenStream| {
                if *boxed {
                    quote_m!(::wiremsg::__private::Box::new(#decoded))
                } else {
                    decoded
                }
            };
            let static_ty = Relifetime {
                generics: n.u.generics,
                to: "'static",
            }
            .apply(ty);
            let v_ty = Relifetime {
                generics: n.u.generics,
                to: "'v",
            }
            .apply(ty);
            let msg_name = crate::ast::last_name(ty).unwrap_or_default();
            let msg_name = msg_name.trim_start_matches("r#").to_owned();
            // An instantiation of a generic message is named by its schema
            // (`Batch_Tick`), which syntax cannot tell: its reference takes that name.
            let instantiated = matches!(crate::ast::ungroup(ty), syn::Type::Path(p)
                if p.path.segments.last().is_some_and(|s| matches!(&s.arguments,
                    syn::PathArguments::AngleBracketed(a)
                        if a.args.iter().any(|a| matches!(a, syn::GenericArgument::Type(_))))));
            // Decoding takes no bound on a boxed payload, nor on a generic message
            // (`Seq<Expr>`, `Seq<Holder>`): it may hold the union, through its
            // arguments, and its decoding then asks for the union's, which would ask
            // for it again (E0275; with two such payloads a search rustc did not
            // finish). Unbounded, it decodes through the `Held` gate of its `Field`,
            // which a payload without its derive (the guards' error) does not have.
            let bounded = !*boxed && !instantiated;
            let decoder = if bounded {
                quote_m!(<#v_ty as ::wiremsg::DecodeField<'v>>)
            } else {
                quote_m!(<::wiremsg::__private::Held<{
                    use ::wiremsg::__private::ProbeFallback as _;
                    ::wiremsg::__private::Probe::<#static_ty>::FIELD
                }> as ::wiremsg::__private::HeldDecode<'v, #v_ty>>)
            };
            let view_ty = quote_m!(<#static_ty as ::wiremsg::WireMsg>::View<'v>);
            let mut_ty = quote_m!(<#static_ty as ::wiremsg::WireMsg>::Mut<'v>);
            let lazy_ty = quote_m!(<#static_ty as ::wiremsg::WireMsg>::Lazy<'v>);
            let doc = variant_doc(n, v, "the view of its message");
            let mut_doc = variant_doc(n, v, "the mutable view of its message");
            let lazy_doc = variant_doc(n, v, "the on-demand view of its message");
            let name_check = format!(
                "wiremsg: the payload of variant `{vname}` of `{union_name}` must be named by its message's own name `{msg_name}` (not an alias)"
            );
            Piece {
                view_variant: quote_m!(#[doc = #doc] #vi(#view_ty),),
                mut_variant: quote_m!(#[doc = #mut_doc] #vi(#mut_ty),),
                lazy_variant: quote_m!(#[doc = #lazy_doc] #vi(#lazy_ty),),
                marker: {
                    let m = marker_impl(
                        quote_m!(::wiremsg::__private::Carries<#static_ty>),
                        [view_ty.clone(), mut_ty.clone(), lazy_ty.clone()],
                        [
                            quote_m!(#view::#vi(payload)),
                            quote_m!(#view_mut::#vi(payload)),
                            quote_m!(#lazy::#vi(payload)),
                        ],
                    );
                    let name_assert = if instantiated {
                        TokenStream::new()
                    } else {
                        // Through `Probe`: a payload without a wire derive is the
                        // guard's error alone. (The import at the derive's span: where
                        // `Probe`'s inherent constant is found, it is unused.)
                        let fallback = quote_m!(
                            use ::wiremsg::__private::ProbeFallback as _;
                        );
                        quote_spanned! {syn::spanned::Spanned::span(ty)=>
                            const _: () = {
                                #fallback
                                ::core::assert!(
                                    match ::wiremsg::__private::Probe::<#static_ty>::MESSAGE_NAME {
                                        ::core::option::Option::Some(name) => ::wiremsg::__private::str_eq(name, #msg_name),
                                        ::core::option::Option::None => true,
                                    },
                                    #name_check
                                );
                            };
                        }
                    };
                    quote_spanned! {syn::spanned::Spanned::span(ty)=>
                        #m
                        #name_assert
                    }
                },
                pattern: quote_m!(Self::#vi(__wiremsg_payload_value)),
                tail_len: quote_m! {
                    (#tag_size).saturating_add(::wiremsg::WireMsg::encoded_len(#payload))
                },
                check: quote_m! {
                    ::wiremsg::WireMsg::__check(#payload, __wiremsg_depth)
                        .map_err(|e| e.shift(#tag_size).in_field(#vname))
                },
                write: quote_m!({
                    #write_tag
                    ::wiremsg::WireMsg::__write(#payload, __wiremsg_payload);
                }),
                decode: {
                    let decoded = wrap(quote_m!(#decoder::decode_view(__wiremsg_v)));
                    quote_m!(#view::#vi(__wiremsg_v) => Self::#vi(#decoded),)
                },
                decoded_size: quote_m! {
                    #view::#vi(__wiremsg_v) => #decoder::decoded_size(__wiremsg_v),
                },
                // Through the payload's kind, which asks only for `WireMsg` (what the
                // guards give), not for `Serialize` of its view type.
                serialize: quote_m! {
                    #view::#vi(__wiremsg_v) => ::wiremsg::__private::serde::Serializer::serialize_newtype_variant(
                        serializer, #union_name, #index, #vname,
                        &::wiremsg::__private::SerializeView::<::wiremsg::__private::Msg<#static_ty>>(__wiremsg_v),
                    ),
                },
                // Named by its `Field::TYPE` (its name), not by its schema, whose
                // fields may hold this union: a cycle of constants (E0391).
                schema: Some(schema(if instantiated {
                    quote_m! {
                        ::wiremsg::__private::Some(::wiremsg::MessageRef::of(
                            ::wiremsg::__private::type_name(<#static_ty as ::wiremsg::Field>::TYPE),
                            || <#static_ty as ::wiremsg::WireMsg>::SCHEMA,
                        ))
                    }
                } else {
                    message_ref(&static_ty, &msg_name)
                })),
                decode_bound: bounded.then(|| quote_m!(#v_ty)),
                items: TokenStream::new(),
            }
        }
        Shape::Struct(msg) => {
            let cx = Ctx::new(msg);
            let synth = msg.ident;
            let synth_view = &cx.view;
            let synth_mut = &cx.view_mut;
            let synth_lazy = &cx.lazy;
            let synth_static = &cx.self_static;
            let synth_v = &cx.self_v;
            let bl = quote_m!(<#synth_static as ::wiremsg::WireMsg>::BLOCK_LENGTH);
            let in_tail = quote_m!(<#synth_static as ::wiremsg::Field>::IN_TAIL);
            let field_names: Vec<&Ident> = cx.fields.iter().map(|f| f.field.ident).collect();
            let binds = cx.fields.iter().map(|f| {
                let name = f.field.ident;
                if f.reserved() {
                    quote_m!(#name: _)
                } else {
                    quote_m!(#name)
                }
            });
            let pattern = quote_m!(Self::#vi { #(#binds),* });
            let value = |f: &FieldCtx<'_>| {
                let name = f.field.ident;
                if f.reserved() {
                    f.wire_value(super::std_default(&f.field.ty))
                } else {
                    f.wire_value(quote_m!((*#name)))
                }
            };
            let lens = cx.fields.iter().map(|f| {
                let value = value(f);
                quote_m!(::wiremsg::Field::tail_len(#value))
            });
            let field_checks = cx.fields.iter().filter(|f| !f.reserved()).map(|f| {
                let value = value(f);
                let offset = &f.offset;
                let label = &f.name;
                quote_m! {
                    ::wiremsg::__private::check_field(#value, __wiremsg_depth, #synth_view::<'static>::#offset, #label)
                        .map_err(|e| e.shift(#tag_size).in_field(#vname))?;
                }
            });
            let field_writes = cx.fields.iter().map(|f| {
                let value = value(f);
                let offset = &f.offset;
                quote_m! {
                    ::wiremsg::__private::write_field(
                        #value, __wiremsg_block, #synth_view::<'static>::#offset,
                        __wiremsg_tail, &mut __wiremsg_cursor, #bl,
                    );
                }
            });
            let doc = variant_doc(
                n,
                v,
                &format!("the view of its fields, the anonymous message [`{synth}`]"),
            );
            let mut_doc = variant_doc(n, v, "the mutable view of its fields");
            let lazy_doc = variant_doc(n, v, "the on-demand view of its fields");
            Piece {
                view_variant: quote_m!(#[doc = #doc] #vi(#synth_view<'v>),),
                mut_variant: quote_m!(#[doc = #mut_doc] #vi(#synth_mut<'v>),),
                lazy_variant: quote_m!(#[doc = #lazy_doc] #vi(#synth_lazy<'v>),),
                marker: marker_impl(
                    quote_m!(::wiremsg::__private::Carries<#synth_static>),
                    [
                        quote_m!(#synth_view<'v>),
                        quote_m!(#synth_mut<'v>),
                        quote_m!(#synth_lazy<'v>),
                    ],
                    [
                        quote_m!(#view::#vi(payload)),
                        quote_m!(#view_mut::#vi(payload)),
                        quote_m!(#lazy::#vi(payload)),
                    ],
                ),
                pattern,
                tail_len: quote_m! {
                    (#tag_size).saturating_add(if #in_tail {
                        (#bl as ::core::primitive::usize) #(.saturating_add(#lens))*
                    } else {
                        #bl
                    })
                },
                check: quote_m!({
                    if let ::core::result::Result::Err(e) = ::wiremsg::__private::check_depth(__wiremsg_depth) {
                        return ::core::result::Result::Err(e.shift(#tag_size).in_field(#vname));
                    }
                    #(#field_checks)*
                    ::core::result::Result::Ok(())
                }),
                write: quote_m!({
                    #write_tag
                    let (__wiremsg_block, __wiremsg_tail) =
                        ::wiremsg::__private::split_message(__wiremsg_payload, #bl, #in_tail);
                    #[allow(unused_mut)]
                    let mut __wiremsg_cursor = 0usize;
                    #(#field_writes)*
                }),
                decode: quote_m! {
                    #view::#vi(__wiremsg_v) => {
                        let #synth { #(#field_names),* } =
                            <#synth_v as ::wiremsg::DecodeField<'v>>::decode_view(__wiremsg_v);
                        Self::#vi { #(#field_names),* }
                    }
                },
                decoded_size: quote_m! {
                    #view::#vi(__wiremsg_v) => <#synth_v as ::wiremsg::DecodeField<'v>>::decoded_size(__wiremsg_v),
                },
                serialize: serialize_newtype,
                schema: Some(schema(message_ref(
                    synth_static,
                    synth.to_string().trim_start_matches("r#"),
                ))),
                decode_bound: Some(quote_m!(#synth_v)),
                items: synthetic_message(n, v, msg),
            }
        }
        Shape::CatchAll { bytes_ty } => {
            let bytes_v = Relifetime {
                generics: n.u.generics,
                to: "'v",
            }
            .apply(bytes_ty);
            let doc = variant_doc(
                n,
                v,
                "the catch-all: a tag no other variant has, and the payload bytes after it, kept as they are",
            );
            Piece {
                view_variant: quote_m! {
                    #[doc = #doc]
                    #vi {
                        /// The tag.
                        tag: #repr,
                        /// The payload bytes: the rest of the union's bytes.
                        bytes: &'v [::core::primitive::u8],
                    },
                },
                mut_variant: quote_m! {
                    #[doc = #doc]
                    #vi {
                        /// The tag.
                        tag: #repr,
                        /// The payload bytes, which this reader does not check: any
                        /// bytes written here stay valid to it.
                        bytes: &'v mut [::core::primitive::u8],
                    },
                },
                lazy_variant: quote_m! {
                    #[doc = #doc]
                    #vi {
                        /// The tag.
                        tag: #repr,
                        /// The payload bytes: the rest of the union's bytes.
                        bytes: &'v [::core::primitive::u8],
                    },
                },
                marker: marker_impl(
                    quote_m!(::wiremsg::__private::Raw),
                    [
                        quote_m!(&'v [::core::primitive::u8]),
                        quote_m!(&'v mut [::core::primitive::u8]),
                        quote_m!(&'v [::core::primitive::u8]),
                    ],
                    [
                        quote_m!(#view::#vi { tag: tag as #repr, bytes: payload }),
                        quote_m!(#view_mut::#vi { tag: tag as #repr, bytes: payload }),
                        quote_m!(#lazy::#vi { tag: tag as #repr, bytes: payload }),
                    ],
                ),
                pattern: quote_m!(Self::#vi { tag, bytes }),
                tail_len: quote_m!((#tag_size).saturating_add(::wiremsg::Field::tail_len(bytes))),
                check: quote_m! {
                    ::wiremsg::__private::UnionOf::<#self_static>::check_catch_all(*tag as ::core::primitive::u64)
                },
                write: quote_m!({
                    ::wiremsg::Field::write(tag, __wiremsg_tag, &mut []);
                    let __wiremsg_bytes: &[::core::primitive::u8] = &bytes[..];
                    if let ::core::option::Option::Some(out) =
                        __wiremsg_payload.get_mut(..__wiremsg_bytes.len())
                    {
                        out.copy_from_slice(__wiremsg_bytes);
                    }
                }),
                decode: quote_m! {
                    #view::#vi { tag, bytes } => Self::#vi {
                        tag,
                        bytes: <#bytes_v as ::wiremsg::DecodeField<'v>>::decode_view(bytes),
                    },
                },
                decoded_size: quote_m! {
                    #view::#vi { bytes, .. } => <#bytes_v as ::wiremsg::DecodeField<'v>>::decoded_size(bytes),
                },
                serialize: quote_m! {
                    #view::#vi { tag, bytes } => {
                        let mut out = ::wiremsg::__private::serde::Serializer::serialize_struct_variant(
                            serializer, #union_name, #index, #vname, 2,
                        )?;
                        ::wiremsg::__private::serde::ser::SerializeStructVariant::serialize_field(&mut out, "tag", &tag)?;
                        ::wiremsg::__private::serde::ser::SerializeStructVariant::serialize_field(&mut out, "bytes", bytes)?;
                        ::wiremsg::__private::serde::ser::SerializeStructVariant::end(out)
                    }
                },
                schema: None,
                decode_bound: None,
                items: TokenStream::new(),
            }
        }
    }
}

/// The struct of a struct variant's anonymous message, and what `#[derive(WireMsg)]`
/// gives it.
fn synthetic_message(n: &Names<'_>, v: &Variant<'_>, msg: &crate::ast::Message<'_>) -> TokenStream {
    let synth = msg.ident;
    let vis = msg.vis;
    let generics = msg.generics;
    let doc = format!(
        "The payload of variant [`{0}::{1}`] as a message (FORMAT.md §4.10): its fields, in \
         order, encoded as a `#[derive(WireMsg)]` struct's. Viewed as [`{0}View::{1}`].",
        n.name, v.ident
    );
    let originals: Vec<&syn::Field> = match v.fields {
        syn::Fields::Named(named) => named.named.iter().collect(),
        _ => Vec::new(),
    };
    let fields = msg.fields.iter().map(|f| {
        let ident = f.ident;
        let ty = &f.ty;
        let docs: Vec<&syn::Attribute> = originals
            .iter()
            .find(|o| o.ident.as_ref() == Some(ident))
            .map(|o| crate::union_ast::docs(&o.attrs).collect())
            .unwrap_or_default();
        let default_doc = (docs.is_empty()).then(|| {
            let text = format!("Field `{ident}` of variant `{}`.", v.ident);
            quote_m!(#[doc = #text])
        });
        quote_m! {
            #(#docs)*
            #default_doc
            #vis #ident: #ty
        }
    });
    let derived = super::message(msg);
    // Its fields are as visible as the union's variant's, whose types may be more
    // private: rustc flags the user's variant already, if at all.
    quote_m! {
        #[doc = #doc]
        #[allow(private_interfaces)]
        #vis struct #synth #generics {
            #(#fields,)*
        }

        #derived
    }
}

/// The runtime's variant list of the variants at `order`, in that order, as a
/// balanced tree (`VPair` of halves, `VOne` leaves): its depth, log2 of the variant
/// count, bounds the trait solver's recursion and the size of the types it builds,
/// where a list one variant deep per variant failed past 120 variants (E0275) and
/// took time quadratic in their number.
fn variant_tree(order: &[usize]) -> TokenStream {
    match order {
        [] => TokenStream::new(),
        [i] => {
            let marker = format_ident!("__WireMsgVariant{}", i);
            quote_m!(::wiremsg::__private::VOne<#marker>)
        }
        _ => {
            let (a, b) = order.split_at(order.len() / 2);
            let (a, b) = (variant_tree(a), variant_tree(b));
            quote_m!(::wiremsg::__private::VPair<#a, #b>)
        }
    }
}
