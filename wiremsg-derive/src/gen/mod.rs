//! Generate: the items of a derive, from a checked model. Nothing here validates:
//! everything it relies on was checked before.

mod decode;
pub(crate) mod dispatch;
mod encode;
mod lazy;
mod schema;
mod serde;
mod twin;
pub(crate) mod union;
mod view;
mod view_mut;
pub(crate) mod wire_enum;

use crate::ast::{Field, Message, Relifetime, option_inner};
use crate::layout;
use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote_spanned};

/// Names and token pieces shared by the generators of one message.
pub(crate) struct Ctx<'a> {
    pub(crate) msg: &'a Message<'a>,
    /// `OrderView`
    pub(crate) view: Ident,
    /// `OrderMut`
    pub(crate) view_mut: Ident,
    /// `__wiremsg_p_{Name}`: the message's alias of `::wiremsg::__private`, imported
    /// beside it (see [`message`]).
    pub(crate) wp: Ident,
    /// `__wiremsg_{Name}`: its alias of `::wiremsg`.
    pub(crate) wm: Ident,
    /// Its aliases of the field indices `Left`, `Right` and `Here` (see [`index_path`]).
    pub(crate) steps: [Ident; 3],
    /// `OrderLazy`
    pub(crate) lazy: Ident,
    /// `Order<'static>`: the type in constant expressions.
    pub(crate) self_static: syn::Type,
    /// `Order<'v>`: the type a view of lifetime `'v` decodes to.
    pub(crate) self_v: syn::Type,
    /// `<Order<'static> as ::wiremsg::WireMsg>::BLOCK_LENGTH`
    pub(crate) block_length: TokenStream,
    /// `<Order<'static> as ::wiremsg::Field>::IN_TAIL`
    pub(crate) in_tail: TokenStream,
    pub(crate) fields: Vec<FieldCtx<'a>>,
    /// The type parameters of a generic message (`, T, U`: after a lifetime), empty
    /// for a message without: the views are generic the same way (`BatchView<'v, T>`).
    pub(crate) vg: TokenStream,
    /// The type parameters with their bounds, `Element` and `'static` (views are keyed
    /// by the `'static` form of the message), to declare them after a lifetime.
    pub(crate) tp: TokenStream,
    /// Predicates every generated impl of a generic message carries, each followed by
    /// a comma: the struct's own `where` clause. (Type parameters are bounded by
    /// `Element`, which every wire type is, rather than their fields' types by
    /// `Field`: a bound on `Vec<T>` would hide its `Field` impl, and with it its kind.)
    pub(crate) wh: TokenStream,
    /// `for<'_> Held: Trait,` for each type a field holds that the derive cannot see
    /// into (`Side`, `std::time::Duration`, the `Leg` of `Vec<Leg>`), spanned at the
    /// type (see [`guards`]). Every generated impl but `Field` and `Element` carries
    /// them: its body, which assumes them, adds no error of its own.
    pub(crate) guards: TokenStream,
    /// The guards of the types held inline, which `Field` and `Element` carry (see
    /// [`guards`]).
    pub(crate) inline_guards: TokenStream,
    /// The items that require the guards where `Field`'s kind does not (see
    /// [`Guards::item`]).
    pub(crate) guard_item: TokenStream,
    /// `const __WIREMSG_HELD` (see [`Guards::held`]), or nothing.
    pub(crate) held_const: TokenStream,
    /// Where `Field`'s kind is spanned (see [`Guards::kind_span`]).
    pub(crate) kind_span: Option<proc_macro2::Span>,
    /// True if no impl carries guards: the layout takes a stand-in for the fields
    /// that hold guarded types where one lacks its derive (see [`Ctx::stubbed`]).
    pub(crate) stubbed: bool,
    /// `{ OrderView::<'static>::__WIREMSG_HELD }`: the view's constant that says
    /// whether the held types have their derives, as a const argument (`Held<..>`);
    /// for a [`Ctx::stubbed`] message only.
    pub(crate) held: TokenStream,
    /// The constant's value (see [`Guards::held_probe`]).
    pub(crate) held_probe: TokenStream,
    /// True if the message has type parameters.
    pub(crate) generic: bool,
    /// `T: Bounds + 'static`, one per type parameter.
    pub(crate) bounded: Vec<TokenStream>,
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
    /// `ty<'v>`: the type as a view of lifetime `'v` sees it.
    pub(crate) v_ty: syn::Type,
    /// True if the field's type names a type parameter of the message: its view type
    /// is then named through its kind (`ViewOf<'v, [T; 2]>`), as decoding's bounds
    /// name it.
    pub(crate) generic: bool,
    /// The wire type, lifetimes `'static`: the field's type, or the type that
    /// `#[wire(null)]` or `#[wire(max_len)]` give it (the layout's leaf).
    pub(crate) wire_ty: TokenStream,
    /// True if the field holds a type the derive guards in a list, box or map (see
    /// [`Guards::held`]).
    pub(crate) held: bool,
    /// The guards of the types the field holds (see [`Ctx::gated`]).
    pub(crate) guards: TokenStream,
    /// True if the field holds guarded types (inline or not) in a [`Ctx::stubbed`]
    /// message: its layout type is [`FieldCtx::layout_ty`], and its reads go through
    /// the gate of [`Ctx::held`].
    pub(crate) stub: bool,
    /// The field's type in the layout: [`FieldCtx::wire_ty`], or for a
    /// [`FieldCtx::stub`] field `HeldTy<{ held }, wire_ty>` (the stand-in `u8` where a
    /// held type lacks its derive).
    pub(crate) layout_ty: TokenStream,
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

    /// True for a number, `bool` or option of one, written as it is (no
    /// `#[wire(null)]`): `Field`'s defaults give it no tail and a check that always
    /// passes, so the message's `tail_len` and `__check` leave it out. Each call left
    /// out is a call fewer for rustc to type-check and, in a release build, to
    /// inline (`benches/README.md`, "Derive cost").
    pub(crate) fn plain_number(&self) -> bool {
        // Not a type parameter named `u64` either: its argument may be anything.
        !self.generic
            && crate::ast::is_primitive_or_option(&self.field.ty)
            && self.field.attrs.null.is_none()
    }

    /// A reference to the wire value of `value` (a place or a value of the field's
    /// type): `value` itself, or the wrapper `null` / `max_len` make of it.
    pub(crate) fn wire_value(&self, value: TokenStream) -> TokenStream {
        let attrs = &self.field.attrs;
        if let (Some(null), Some(inner)) = (&attrs.null, option_inner(&self.field.ty)) {
            let sentinel = sentinel(inner, null);
            quote_m!(&::wiremsg::__private::NullAs::<_, #sentinel>(#value))
        } else if let Some(max) = &attrs.max_len {
            let max = max_literal(max);
            quote_m!(&::wiremsg::__private::Bounded::<_, #max>(&(#value)[..]))
        } else {
            quote_m!(&#value)
        }
    }
}

/// The const argument of a null sentinel: `expr` type-checked as the number's
/// sentinel type (`i64`, or a decimal's mantissa), widened to `i128`.
fn sentinel(inner: &syn::Type, null: &syn::Expr) -> TokenStream {
    // No binding: a user's constant of any name could turn one into a pattern.
    quote_spanned! {syn::spanned::Spanned::span(null)=>
        {
            ::core::convert::identity::<<#inner as ::wiremsg::__private::NullRepr>::Raw>(#null)
                as ::core::primitive::i128
        }
    }
}

/// `max_len` as an unsuffixed literal (a `usize` const argument).
fn max_literal(max: &syn::LitInt) -> proc_macro2::Literal {
    let mut lit = proc_macro2::Literal::usize_unsuffixed(max.base10_parse::<usize>().unwrap_or(0));
    lit.set_span(max.span());
    lit
}

/// The wire type of a field, lifetimes `'static` (see [`FieldCtx::wire_ty`]).
fn wire_type(field: &Field<'_>) -> TokenStream {
    let ty = &field.static_ty;
    if let (Some(null), Some(inner)) = (&field.attrs.null, option_inner(ty)) {
        let sentinel = sentinel(inner, null);
        quote_m!(::wiremsg::__private::NullAs<#inner, #sentinel>)
    } else if let (Some(max), Some(elem)) = (&field.attrs.max_len, view_mut::list_element(ty)) {
        let max = max_literal(max);
        quote_m!(::wiremsg::__private::Bounded<'static, #elem, #max>)
    } else {
        quote_m!(#ty)
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
        let guards = guards(msg);
        let view = format_ident!("{}View", ident, span = ident.span());
        let held_arg = if guards.stubbed {
            quote_m!({ #view::<'static>::__WIREMSG_HELD })
        } else {
            TokenStream::new()
        };
        let fields = msg
            .fields
            .iter()
            .zip(&guards.held_fields)
            .zip(&guards.field_guards)
            .zip(&guards.stub_fields)
            .map(|(((field, &held), field_guards), &stub)| {
                let wire_ty = wire_type(field);
                let layout_ty = if stub {
                    quote_m!(::wiremsg::__private::HeldTy<#held_arg, #wire_ty>)
                } else {
                    wire_ty.clone()
                };
                let v_ty = Relifetime {
                    generics: msg.generics,
                    to: "'v",
                }
                .apply(&field.ty);
                FieldCtx {
                    v_ty,
                    generic: msg
                        .generics
                        .type_params()
                        .any(|p| crate::ast::names_type(&field.ty, &p.ident)),
                    field,
                    name: field.ident.to_string().trim_start_matches("r#").to_owned(),
                    offset: layout::const_name(field.ident, "OFFSET"),
                    size: layout::const_name(field.ident, "SIZE"),
                    wire_ty,
                    held,
                    guards: field_guards.clone(),
                    stub,
                    layout_ty,
                }
            })
            .collect();
        let params: Vec<&syn::TypeParam> = msg.generics.type_params().collect();
        let names: Vec<&syn::Ident> = params.iter().map(|p| &p.ident).collect();
        let bounded: Vec<TokenStream> = params
            .iter()
            .map(|p| {
                let name = &p.ident;
                let bounds = p.bounds.iter();
                quote_m!(#name: #(#bounds +)* ::wiremsg::Element + 'static)
            })
            .collect();
        let own = msg
            .generics
            .where_clause
            .iter()
            .flat_map(|w| w.predicates.iter())
            .map(|p| quote_m!(#p,));
        let wh = quote_m!(#(#own)*);
        // A name of the message's own for each of its imports (see [`message`]).
        let alias = |prefix: &str| {
            format_ident!("{prefix}{}", ident, span = proc_macro2::Span::mixed_site())
        };
        Ctx {
            guards: guards.all,
            inline_guards: guards.inline,
            guard_item: guards.item,
            held_const: guards.held,
            kind_span: guards.kind_span,
            stubbed: guards.stubbed,
            held: held_arg,
            held_probe: guards.held_probe,
            msg,
            vg: quote_m!(#(, #names)*),
            tp: quote_m!(#(, #bounded)*),
            bounded,
            wh,
            generic: !names.is_empty(),
            view,
            view_mut: format_ident!("{}Mut", ident, span = ident.span()),
            wp: alias("__wiremsg_p_"),
            wm: alias("__wiremsg_"),
            steps: ["__WiremsgL_", "__WiremsgR_", "__WiremsgH_"].map(alias),
            lazy: format_ident!("{}Lazy", ident, span = ident.span()),
            block_length: quote_m!(<#self_static as ::wiremsg::WireMsg>::BLOCK_LENGTH),
            in_tail: quote_m!(<#self_static as ::wiremsg::Field>::IN_TAIL),
            self_static,
            self_v,
            fields,
        }
    }
}

impl Ctx<'_> {
    /// The gate of what needs the types the message holds in lists, boxes and maps
    /// without carrying their guards (`Held<{ __WIREMSG_HELD }>`, see
    /// [`Guards::held`]), or `None` if it holds none that the derive guards.
    pub(crate) fn held_gate(&self) -> Option<TokenStream> {
        (!self.held_const.is_empty())
            .then(|| quote_m!(::wiremsg::__private::Held::<{ __WIREMSG_HELD }>))
    }

    /// True if the views' impls carry no guards and read through
    /// `Gate<Self>` instead (`__private::Gate`): a message without type parameters
    /// that has guards. Each accessor whose signature names a guarded type carries
    /// that field's guards itself ([`FieldCtx::guards`]). (A generic message keeps
    /// them on its impls: its layout may hold only under its impls' predicates, where
    /// a gate would pick the stand-in rather than report it.)
    pub(crate) fn gated(&self) -> bool {
        !self.generic && (!self.guards.is_empty() || self.stubbed)
    }

    /// True if the message's impls carry no guards, not even `Layout`, `WireMsg`,
    /// `FieldBody` and `DecodeField`: its layout gives each field that holds guarded
    /// types `HeldTy<{ held }, ..>` (`__private::HeldType`), the field's type where
    /// the held types have their derives and a stand-in where one does not, so that
    /// the impls hold either way; what reads or writes such a field goes through
    /// `Held<{ held }>` or the gate `Gate<HeldTy<{ held }, Self>>`, whose stand-ins
    /// no program that compiles contains; the one error of a missing derive is the
    /// guard's item ([`Guards::item`]). For a message without type parameters or
    /// lifetimes, not a union's variant, whose fields holding guarded types (inline
    /// or in lists, boxes and maps) are encoded as they are (see [`guards`]). The
    /// guards' `where` clauses were most of the derive's compile time
    /// (`benches/README.md`, "Derive cost").
    pub(crate) fn stubbed(&self) -> bool {
        self.stubbed
    }

    /// `where` and the predicates of the views' impls: none for a gated message (see
    /// [`Ctx::gated`]), else [`Ctx::where_clause`].
    pub(crate) fn view_where_clause(&self) -> TokenStream {
        if self.gated() {
            TokenStream::new()
        } else {
            self.where_clause()
        }
    }

    /// `Gate::<Self>::name::<index>(args)`, with `GateFallback` in scope: a read of
    /// a gated message's views (see [`Ctx::gated`]).
    pub(crate) fn gate(
        &self,
        name: &str,
        index: Option<&TokenStream>,
        args: TokenStream,
    ) -> TokenStream {
        self.gate_of(false, name, index, args)
    }

    /// [`Ctx::gate`], or for a [`FieldCtx::stub`] field (`stub`) through
    /// `Gate<HeldTy<{ held }, Self>>`: `Gate<u8>`, whose stand-ins are chosen, where a
    /// held type lacks its derive (see [`Ctx::stubbed`]).
    pub(crate) fn gate_of(
        &self,
        stub: bool,
        name: &str,
        index: Option<&TokenStream>,
        args: TokenStream,
    ) -> TokenStream {
        let wp = &self.wp;
        let name = Ident::new(name, proc_macro2::Span::mixed_site());
        let self_static = &self.self_static;
        let gate = if stub {
            let held = &self.held;
            quote_m!(#wp::Gate::<#wp::HeldTy<#held, #self_static>>)
        } else {
            quote_m!(#wp::Gate::<#self_static>)
        };
        // `GateFallback` is in scope beside the message (see [`message`]).
        match index {
            Some(i) => quote_m!(#gate::#name::<#i>(#args)),
            None => quote_m!(#gate::#name(#args)),
        }
    }

    /// `proof.method::<index>()`, or its call through the gate for a gated message
    /// ([`Ctx::gate`]; the on-demand view's are named `lazy_` there).
    pub(crate) fn read(
        &self,
        method: &str,
        index: Option<&TokenStream>,
        proof: TokenStream,
    ) -> TokenStream {
        self.read_of(false, method, index, proof)
    }

    /// [`Ctx::read`] of a field, through [`Ctx::gate_of`] for a [`FieldCtx::stub`].
    pub(crate) fn read_of(
        &self,
        stub: bool,
        method: &str,
        index: Option<&TokenStream>,
        proof: TokenStream,
    ) -> TokenStream {
        if self.gated() {
            return self.gate_of(stub, method, index, proof);
        }
        let direct = Ident::new(
            method.trim_start_matches("lazy_"),
            proc_macro2::Span::mixed_site(),
        );
        let turbofish = index.map(|i| quote_m!(::<#i>));
        quote_m!((#proof).#direct #turbofish())
    }

    /// `::wiremsg::__private::name(args)` (`fmt_view`, `eq_views`, `fmt_lazy`), or its
    /// call through the gate for a gated message ([`Ctx::gate`]).
    pub(crate) fn view_fn(&self, name: &str, args: TokenStream) -> TokenStream {
        let wp = &self.wp;
        if self.gated() {
            return self.gate(name, None, args);
        }
        let name = Ident::new(name, proc_macro2::Span::mixed_site());
        quote_m!(#wp::#name(#args))
    }

    /// The indices of the reserved fields, which views neither read nor show, as
    /// a slice expression (`&[2]`) for the views' `Debug` and `PartialEq`.
    pub(crate) fn reserved_indices(&self) -> TokenStream {
        let indices = (self.fields.iter().enumerate())
            .filter(|(_, f)| f.reserved())
            .map(|(i, _)| i);
        quote_m!(&[#(#indices),*])
    }

    /// `where` and the predicates of a generic message, for an impl without a
    /// `where` clause of its own; nothing for a message without type parameters.
    pub(crate) fn where_clause(&self) -> TokenStream {
        let (wh, guards) = (&self.wh, &self.guards);
        if self.generic || !guards.is_empty() {
            quote_m!(where #wh #guards)
        } else {
            TokenStream::new()
        }
    }

    /// The `where` clause of `Field` and `Element` for the message: the message's own
    /// predicates, the inline guards and `extra` (see [`guards`]).
    pub(crate) fn inline_where_clause(&self, extra: TokenStream) -> TokenStream {
        let (wh, guards) = (&self.wh, &self.inline_guards);
        if self.generic || !guards.is_empty() || !extra.is_empty() {
            quote_m!(where #wh #guards #extra)
        } else {
            TokenStream::new()
        }
    }

    /// The `where` clause of a generated struct: the message's own predicates, no
    /// guards (see [`Ctx::guards`]).
    pub(crate) fn struct_where_clause(&self) -> TokenStream {
        let wh = &self.wh;
        if self.generic {
            quote_m!(where #wh)
        } else {
            TokenStream::new()
        }
    }

    /// The impl parameters: the struct's lifetimes, then its type parameters with
    /// their bounds (`<'a, T: WireMsg + 'static>`).
    pub(crate) fn impl_generics(&self) -> TokenStream {
        let lifetimes = self.msg.generics.lifetimes();
        let bounded = &self.bounded;
        if self.generic {
            quote_m!(<#(#lifetimes,)* #(#bounded),*>)
        } else {
            let (impl_generics, _, _) = self.msg.generics.split_for_impl();
            quote_m!(#impl_generics)
        }
    }
}

impl Ctx<'_> {
    /// The impl parameters of an impl for the `'static` form of the message: its
    /// type parameters alone (`<T: WireMsg + 'static>`), or nothing.
    pub(crate) fn static_impl_generics(&self) -> TokenStream {
        let bounded = &self.bounded;
        if self.generic {
            quote_m!(<#(#bounded),*>)
        } else {
            TokenStream::new()
        }
    }

    /// The message's schema name: a literal, or for a generic message the name of
    /// the instantiation (`Batch_Tick`), a constant of the `'static` form.
    pub(crate) fn schema_name(&self) -> TokenStream {
        let name = self
            .msg
            .ident
            .to_string()
            .trim_start_matches("r#")
            .to_owned();
        if self.generic {
            let self_static = &self.self_static;
            quote_m!(<#self_static>::__WIREMSG_NAME)
        } else {
            quote_m!(#name)
        }
    }
}

/// What a type held by a field must be, and so what its guard bounds it by.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Need {
    /// A field, or the value of an option, a box or a map.
    Field,
    /// A list element.
    Element,
    /// A map key.
    MapKey,
    /// The number of a `#[wire(null)]` field.
    NullRepr,
}

impl Need {
    /// The trait, its path spanned at `span`.
    fn trait_path(self, span: proc_macro2::Span) -> TokenStream {
        match self {
            Need::Field => quote_spanned!(span=> ::wiremsg::Field),
            Need::Element => quote_spanned!(span=> ::wiremsg::Element),
            Need::MapKey => quote_spanned!(span=> ::wiremsg::MapKey),
            Need::NullRepr => quote_spanned!(span=> ::wiremsg::__private::NullRepr),
        }
    }

    /// A method of the trait, which the guard item of an inline type names.
    fn item(self) -> Ident {
        let name = match self {
            Need::Field => "tail_len",
            Need::Element => "list_view",
            Need::MapKey => "key_view",
            Need::NullRepr => "raw",
        };
        Ident::new(name, proc_macro2::Span::mixed_site())
    }
}

/// The guards of a message (see [`Ctx::guards`]).
pub(crate) struct Guards {
    /// `for<'__wiremsg_g> Ty: Trait,` for every type a field holds.
    pub(crate) all: TokenStream,
    /// The same for the types a field holds inline (not in a list, box or map).
    pub(crate) inline: TokenStream,
    /// The items that require the bounds, each spanned at its type: the error a
    /// missing derive gives, where `Field`'s kind does not give it (see
    /// [`Guards::kind_span`]). For a type held inline, an expression in a constant
    /// (`Field` and `Element` carry the bound, so nothing else requires it); for the
    /// types held in lists, boxes and maps of a message that holds more than one such
    /// type, the fields of a struct, checked before `Field`, so that they come first.
    pub(crate) item: TokenStream,
    /// `const __WIREMSG_HELD: bool`: true if every bound of a type held in a list, box
    /// or map holds, read through `Probe`'s fallback (false, not an error, for a type
    /// without a wire derive); empty if there is no such bound. What needs those
    /// bounds without carrying them, beyond `Field`'s kind (the lists of a message
    /// with lifetimes in `Element`, the decoding of the fields that hold the types),
    /// goes through `Held<{ __WIREMSG_HELD }>`, so that it adds no error of its own.
    pub(crate) held: TokenStream,
    /// For each field, true if it holds a type with such a bound.
    pub(crate) held_fields: Vec<bool>,
    /// For each field, the bounds of the types it holds (those of [`Guards::all`]).
    pub(crate) field_guards: Vec<TokenStream>,
    /// True if the message's impls carry no guards at all (see [`Ctx::stubbed`]).
    pub(crate) stubbed: bool,
    /// For each field, true if it holds a guarded type in such a message.
    pub(crate) stub_fields: Vec<bool>,
    /// `Probe::<Leg>::ELEMENT && ...`: true if every bound of a type held in a list,
    /// box or map (and, for a [`Ctx::stubbed`] message, inline) holds (the value of
    /// [`Guards::held`]'s constant, and of the view's `__WIREMSG_HELD`).
    pub(crate) held_probe: TokenStream,
    /// Where `Field`'s `type Kind = Msg<Self>` is spanned. `Msg<Self>` is a kind only
    /// if the message is a `WireMsg`, whose impl carries every bound, so `Field`'s
    /// check of its kind is an error for each bound of a held type that fails: the
    /// only one, and the first, for a message that holds one such type, whose kind is
    /// spanned at it (`None` otherwise, and for a [`Ctx::stubbed`] message, whose
    /// kind holds whatever the held types: at the derive, after [`Guards::item`]).
    pub(crate) kind_span: Option<proc_macro2::Span>,
}

/// The guards of a message: a bound for each type a field holds that is a path without
/// generic arguments (no lifetime, no type parameter: the bound is the same in every
/// impl, so it never hides the type's own impl) and does not name the message itself,
/// by the trait its holder needs (`Field` inline and for the value of a box, option or
/// map, `Element` for a list element, `MapKey` for a map key, `NullRepr` for the number
/// of a `#[wire(null)]` field); `Decimal`s of such a type as a whole; and another
/// generic message instantiated with closed types ([`instantiation`]), always as a
/// type held in a list (see [`held`]).
///
/// Each bound is required once by [`Guards::item`], spanned at the type, so that a
/// type without a wire derive is one error there naming the derive to add (the traits'
/// `on_unimplemented`). The generated impls carry the bounds in their `where` clauses,
/// so that their bodies, which assume them, add none: with a `for<'_>` binder, which
/// makes rustc neither check a bound where the impl is declared (an error with the
/// noise of rust-lang/rust#48214) nor prefer an impl over it where the impl's body
/// uses it.
///
/// Where each impl's bounds are checked where it is used, a bound must not lead back
/// to the impl through other messages' impls (mutually recursive messages would be a
/// cycle, E0275). So `Field` and `Element` of a message carry only the bounds of the
/// types it holds inline (a message cannot hold itself inline, even through others),
/// and `Field`'s items come from `FieldBody`, which carries all bounds, through
/// `Probe`; every other impl carries all bounds, since `Field`, `Element` and
/// `MapKey` of messages and enums, which those bounds reach, lead only inline.
///
/// A [`Ctx::stubbed`] message carries none of these bounds: its layout takes a
/// stand-in for a held type without its derive, so its impls hold either way, and
/// the held types' item ([`Guards::item`], the struct form even for one type) is
/// the one error. Only the accessors whose signatures name a held type keep its
/// bound (their field's, [`FieldCtx::guards`]). The rest of this comment is about
/// the other messages.
///
/// So a type held in a list, box or map without its derive is an error where `Field`
/// checks its kind (see [`Guards::kind_span`]): no `where` clause that leads no cycle
/// can make `Msg<Self>` a kind there. Every other use of the held types' bounds that
/// does not carry them (the retyping of a list of a message with lifetimes, the
/// decoding of the lists, boxes and maps that hold them, unbounded for the same
/// reason) goes through [`Guards::held`], and adds no error.
fn guards(msg: &Message<'_>) -> Guards {
    // A struct variant's message is not guarded in its types with lifetimes: the
    // union's decoding bounds its newtype payloads (`Name<'v>: DecodeField<'v, Kind =
    // ..>`), which would be preferred to `Name`'s impl where the variant's `Field`
    // asks for the guard `Name<'static>: Field`.
    let plain = |ty: &syn::Type| {
        guardable(ty, msg.generics, msg.ident)
            || msg.union.is_none() && lifetime_guardable(ty, msg.generics, msg.ident)
    };
    let names = [Some(msg.ident), msg.union];
    let inst = |ty: &syn::Type| instantiation(ty, msg.generics, names.iter().flatten().copied());
    let mut found = Vec::new();
    let mut field_of = Vec::new();
    for (i, f) in msg.fields.iter().enumerate() {
        let ty = array_leaf(&f.ty);
        if f.attrs.null.is_some() {
            if let Some(inner) = option_inner(ty).filter(|t| plain(t)) {
                found.push((inner, Need::NullRepr, true));
            }
        } else {
            held(ty, Need::Field, true, &plain, &inst, &mut found);
        }
        field_of.resize(found.len(), i);
    }
    // No guard where the runtime's own impl is certain: a number or `bool` as a field
    // or list element, an integer as a map key, `String` as any of these (by their
    // bare names, which `classify` takes for them too). Such a guard could only hold,
    // and a `where` clause costs the compiler's trait solving in every impl and every
    // body that carries it (most of the derive's compile time in `benches/compile-time`
    // was such predicates).
    let mut held_fields = vec![false; msg.fields.len()];
    let mut field_guards = vec![TokenStream::new(); msg.fields.len()];
    let found = found
        .into_iter()
        .zip(field_of)
        .filter(|((ty, need, _), _)| !builtin_for(ty, *need));
    let (mut all, mut inline, mut checks) = (TokenStream::new(), TokenStream::new(), Vec::new());
    let (mut held_types, mut inline_types) = (Vec::new(), Vec::new());
    for ((ty, need, is_inline), field) in found {
        let span = syn::spanned::Spanned::span(ty);
        let tr = need.trait_path(span);
        let binder = binder();
        // A type with the message's lifetimes (`Name<'a>`) is guarded in its
        // `'static` form, the layout's: a bound with no free lifetime, which rustc
        // sets aside for the type's own impl where there is one, as it does a guard of
        // a type without lifetimes. (`for<'g> Name<'g>` is not such a bound: it would
        // be preferred to the impl, and the views' types would not normalize.)
        let ty = &Relifetime {
            generics: msg.generics,
            to: "'static",
        }
        .apply(ty);
        let bound = quote_spanned!(span=> #binder #ty: #tr,);
        all.extend(bound.clone());
        field_guards[field].extend(bound.clone());
        if is_inline {
            inline.extend(bound);
            let item = need.item();
            checks.push(quote_spanned!(span=> let _ = <#ty as #tr>::#item;));
            inline_types.push((ty.clone(), need, span));
        } else {
            held_fields[field] = true;
            held_types.push((ty.clone(), need, span));
        }
    }
    // Without type parameters or lifetimes, and with the guarded fields encoded as
    // they are (no later version, `null` or `max_len`), the message's layout takes a
    // stand-in for them where a derive is missing (see [`Ctx::stubbed`]): no impl
    // needs the guards, and one item checks every guarded type, inline or held.
    let stub_fields: Vec<bool> = field_guards.iter().map(|g| !g.is_empty()).collect();
    let stubbed = msg.generics.params.is_empty()
        && msg.union.is_none()
        && stub_fields.iter().any(|&s| s)
        && msg.fields.iter().zip(&stub_fields).all(|(f, &stub)| {
            !stub || (f.attrs.since() == 1 && f.attrs.null.is_none() && f.attrs.max_len.is_none())
        });
    let stub_fields = stub_fields.into_iter().map(|s| s && stubbed).collect();
    if stubbed {
        held_types.append(&mut inline_types);
        checks.clear();
        inline = TokenStream::new();
    }
    let (kind_span, held_item, held, held_probe) = held_guards(&held_types, stubbed);
    let item = if checks.is_empty() {
        TokenStream::new()
    } else {
        quote_m!(const _: () = { #(#checks)* };)
    };
    Guards {
        all: if stubbed { TokenStream::new() } else { all },
        inline,
        item: quote_m!(#held_item #item),
        held: if stubbed { TokenStream::new() } else { held },
        stubbed,
        stub_fields,
        held_probe,
        held_fields,
        field_guards,
        kind_span,
    }
}

/// The `for<'__wiremsg_g>` binder of a guard or of a field type's bound: the binder
/// makes the bound non-global, so that it is checked where the impl is used, not where
/// it is declared. Spanned at the macro (mixed site) even where the bound is spanned
/// at the user's type: the lifetime is unused by design, and a user's
/// `deny(unused_lifetimes)` would otherwise report it in their code.
pub(crate) fn binder() -> TokenStream {
    quote_m!(for<'__wiremsg_g>)
}

/// The runtime's generic types, which are not messages: the derive looks into them
/// (see [`held`]) rather than guarding them as a whole.
const RUNTIME_GENERICS: [&str; 8] = [
    "Vec", "Box", "Option", "BTreeMap", "HashMap", "Decimal", "FixedStr", "Bounded",
];

/// True for a type a guard may bound (see [`guards`]): a path without generic
/// arguments, or with const arguments only (`Buf<4>`, not the runtime's `FixedStr<8>`),
/// that is not a type parameter of `generics`, does not name the deriving type
/// `ident` and is not `Self`: the bound is then the same in every impl, so it never
/// hides the type's own impl. Shared by the message and the union derive.
pub(crate) fn guardable(ty: &syn::Type, generics: &syn::Generics, ident: &syn::Ident) -> bool {
    // Through the invisible group of a `macro_rules!` `$t:ty`, or parentheses.
    match crate::ast::ungroup(ty) {
        syn::Type::Path(p) => {
            p.qself.is_none()
                && outer_segments_plain(&p.path)
                && p.path.segments.last().is_some_and(only_const_arguments)
                && !generics.type_params().any(|t| p.path.is_ident(&t.ident))
                && !crate::ast::names_type(ty, ident)
                && !p.path.is_ident("Self")
        }
        _ => false,
    }
}

/// True for a type [`guardable`] but for the message's lifetimes (or `'static`) among
/// its arguments (`Name<'a>`, `Pair<'a, 'b>`, not `Vec<&'a str>`): a user's type,
/// guarded in its `'static` form (`Name<'static>: Field`), which is again the same
/// bound in every impl (see [`guards`]). Messages only: the union derive's guards do
/// not take them.
pub(crate) fn lifetime_guardable(
    ty: &syn::Type,
    generics: &syn::Generics,
    ident: &syn::Ident,
) -> bool {
    let syn::Type::Path(p) = crate::ast::ungroup(ty) else {
        return false;
    };
    let mut without = p.clone();
    let Some(syn::PathArguments::AngleBracketed(args)) =
        without.path.segments.last_mut().map(|s| &mut s.arguments)
    else {
        return false;
    };
    let lifetime = |a: &syn::GenericArgument| match a {
        syn::GenericArgument::Lifetime(l) => Some(l.clone()),
        _ => None,
    };
    let lifetimes: Vec<syn::Lifetime> = args.args.iter().filter_map(lifetime).collect();
    let declared =
        |l: &syn::Lifetime| l.ident == "static" || generics.lifetimes().any(|d| d.lifetime == *l);
    // The rest is what `guardable` asks of any type: the same path without them.
    args.args = args
        .args
        .iter()
        .filter(|a| lifetime(a).is_none())
        .cloned()
        .collect();
    !lifetimes.is_empty()
        && lifetimes.iter().all(declared)
        && guardable(&syn::Type::Path(without), generics, ident)
}

/// True for a path whose last segment has const arguments only and is not one of the
/// runtime's types (`Group<8>`, not `FixedStr<8>`): a user's type, or an alias of a
/// generic message (`type Group<const N: usize> = Named<FixedStr<N>, Tree>`), which
/// may hold its holder as an instantiation may.
pub(crate) fn const_instantiation(ty: &syn::Type) -> bool {
    matches!(crate::ast::ungroup(ty), syn::Type::Path(p)
        if p.path.segments.last().is_some_and(|s| !s.arguments.is_none() && only_const_arguments(s)))
}

/// True if every segment of `path` but the last has no generic arguments (`a::b::T<..>`,
/// not `a<X>::T`).
fn outer_segments_plain(path: &syn::Path) -> bool {
    path.segments
        .iter()
        .rev()
        .skip(1)
        .all(|s| s.arguments.is_none())
}

/// True for a path segment without generic arguments, or with const arguments only
/// on a type that is not the runtime's: a user's type with a const parameter (its
/// derive refuses one, so guarding it makes its uses one error each, not dozens).
fn only_const_arguments(segment: &syn::PathSegment) -> bool {
    match &segment.arguments {
        syn::PathArguments::None => true,
        syn::PathArguments::AngleBracketed(args) => {
            !RUNTIME_GENERICS.contains(&segment.ident.to_string().as_str())
                && args
                    .args
                    .iter()
                    .all(|a| matches!(a, syn::GenericArgument::Const(_)))
        }
        syn::PathArguments::Parenthesized(_) => false,
    }
}

/// True for another generic message instantiated with closed types (`Batch<Tick>`,
/// `Pair<u8, Vec<Quote>>`): arguments without a lifetime, a type parameter of
/// `generics`, `Self` or one of `idents` (the deriving type, and the union of a
/// struct variant's message), so that, as for [`guardable`]'s types, the bound is
/// the same in every impl. Its guard (`Batch<Tick>: Field`, carried as a held
/// type's) makes an argument without its derive one error, where rustc's "required
/// for `Batch<Tick>`" names it, not one per generated item. The runtime's own
/// generic types are not messages: [`held`] looks into them.
pub(crate) fn instantiation<'i>(
    ty: &syn::Type,
    generics: &syn::Generics,
    idents: impl IntoIterator<Item = &'i syn::Ident> + Clone,
) -> bool {
    let Some(args) = generic_message_args(ty) else {
        return false;
    };
    let self_ident = syn::Ident::new("Self", proc_macro2::Span::call_site());
    let closed = |t: &syn::Type| {
        !quote_m!(#t).to_string().contains('\'')
            && !crate::ast::names_type(t, &self_ident)
            && !idents
                .clone()
                .into_iter()
                .any(|i| crate::ast::names_type(t, i))
            && !generics
                .type_params()
                .any(|param| crate::ast::names_type(t, &param.ident))
    };
    args.iter().all(|a| match a {
        syn::GenericArgument::Type(t) => closed(t),
        syn::GenericArgument::Const(_) => true,
        _ => false,
    })
}

/// The generic arguments of `ty` if it names a generic type that is not one of the
/// runtime's (`Batch<Tick>`, not `Vec<Tick>`): by syntax, a generic message, which
/// may hold its type arguments in lists, as a list does.
pub(crate) fn generic_message_args(
    ty: &syn::Type,
) -> Option<&syn::punctuated::Punctuated<syn::GenericArgument, syn::Token![,]>> {
    let syn::Type::Path(p) = crate::ast::ungroup(ty) else {
        return None;
    };
    let last = p.path.segments.last()?;
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let has_type = args
        .args
        .iter()
        .any(|a| matches!(a, syn::GenericArgument::Type(_)));
    (p.qself.is_none()
        && outer_segments_plain(&p.path)
        && has_type
        && !RUNTIME_GENERICS.contains(&last.ident.to_string().as_str()))
    .then_some(&args.args)
}

/// The errors and the gate of the types a message holds in lists, boxes and maps
/// (see [`guards`]): [`Guards::kind_span`], the item of [`Guards::item`] for them,
/// and [`Guards::held`].
fn held_guards(
    held: &[(syn::Type, Need, proc_macro2::Span)],
    stubbed: bool,
) -> (
    Option<proc_macro2::Span>,
    TokenStream,
    TokenStream,
    TokenStream,
) {
    let Some((_, _, first)) = held.first() else {
        return (
            None,
            TokenStream::new(),
            TokenStream::new(),
            TokenStream::new(),
        );
    };
    let name = |ty: &syn::Type| quote_m!(#ty).to_string();
    // A type held both as a list element and as a field (`Vec<Leg>` and `Box<Leg>`):
    // `Element` implies `Field`, so the element's bound alone, one error where the
    // type lacks its derive, and the same for the constant.
    let as_element = |ty: &syn::Type| {
        held.iter()
            .any(|(t, need, _)| matches!(need, Need::Element) && name(t) == name(ty))
    };
    let held: Vec<_> = held
        .iter()
        .filter(|(ty, need, _)| !matches!(need, Need::Field) || !as_element(ty))
        .collect();
    let probes = held.iter().map(|(ty, need, _)| {
        let probe = match need {
            Need::Element => "ELEMENT",
            Need::MapKey => "MAP_KEY",
            Need::Field | Need::NullRepr => "FIELD",
        };
        let probe = Ident::new(probe, proc_macro2::Span::mixed_site());
        quote_m!(::wiremsg::__private::Probe::<#ty>::#probe)
    });
    let probe = quote_m!(#(#probes)&&*);
    // (Unused by a message without lifetimes that does not decode.)
    let gate = quote_m! {
        #[allow(dead_code)]
        const __WIREMSG_HELD: ::core::primitive::bool = {
            use ::wiremsg::__private::ProbeFallback as _;
            #probe
        };
    };
    // One type (perhaps in several fields, or as a list element and a map value):
    // `Field`'s kind is its one error, unless the layout takes a stand-in for it
    // (then `Msg<Self>` is a kind whatever the held types).
    if !stubbed && held.iter().all(|(ty, _, _)| name(ty) == name(&held[0].0)) {
        return (Some(*first), TokenStream::new(), gate, probe);
    }
    // Each check's opening tokens spanned at the type's first token and its closing
    // ones at its last: rustc underlines the whole type (`std::time::Duration`).
    let fields = held.iter().map(|(ty, need, span)| {
        let (_, last) = type_ends(ty);
        match need {
            Need::Element => {
                let close = quote_spanned!(last=> as ::wiremsg::Element>::ListView<'static>>);
                quote_spanned!(*span=> ::core::marker::PhantomData<<#ty #close)
            }
            Need::MapKey => {
                let close = quote_spanned!(last=> >>);
                quote_spanned!(*span=> ::core::marker::PhantomData<::wiremsg::__private::MapKeyOf<#ty #close)
            }
            Need::Field | Need::NullRepr => {
                let close = quote_spanned!(last=> as ::wiremsg::Field>::Kind>);
                quote_spanned!(*span=> ::core::marker::PhantomData<<#ty #close)
            }
        }
    });
    let item = quote_m! {
        const _: () = {
            #[allow(dead_code)]
            struct __WiremsgHeld(#(#fields),*);
        };
    };
    (None, item, gate, probe)
}

/// The spans of `ty`'s first and last tokens (the call site for no token). A path the
/// derive writes opened at the first and closed at the last is underlined by rustc
/// over the whole type where it reports the path: a qualified path's self type
/// (`<Held<..> as HeldDecode<..>>`), a check's `PhantomData<<Ty as Field>::Kind>`.
pub(crate) fn type_ends(ty: &impl quote::ToTokens) -> (proc_macro2::Span, proc_macro2::Span) {
    let mut tokens = ty.to_token_stream().into_iter();
    let first = tokens
        .next()
        .map_or_else(proc_macro2::Span::call_site, |t| t.span());
    let last = tokens.last().map_or(first, |t| t.span());
    (first, last)
}

/// True if the runtime implements `need`'s trait for `ty` itself: see [`guards`].
fn builtin_for(ty: &syn::Type, need: Need) -> bool {
    let string = matches!(ty, syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident("String"));
    match need {
        Need::Field | Need::Element => string || crate::ast::is_primitive(ty),
        Need::MapKey => {
            string
                || crate::ast::is_primitive(ty)
                    && !matches!(ty, syn::Type::Path(p) if ["bool", "f32", "f64"].iter().any(|n| p.path.is_ident(n)))
        }
        Need::NullRepr => false,
    }
}

/// The types `ty` holds that get a guard (see [`guards`]), with what each must be
/// (`need`: what `ty` must be) and whether it is held inline.
fn held<'t>(
    ty: &'t syn::Type,
    need: Need,
    inline: bool,
    plain: &dyn Fn(&syn::Type) -> bool,
    inst: &dyn Fn(&syn::Type) -> bool,
    out: &mut Vec<(&'t syn::Type, Need, bool)>,
) {
    let arg = |p: &'t syn::TypePath, i: usize| -> Option<&'t syn::Type> {
        let last = p.path.segments.last()?;
        match &last.arguments {
            syn::PathArguments::AngleBracketed(args) => args
                .args
                .iter()
                .filter_map(|a| match a {
                    syn::GenericArgument::Type(t) => Some(t),
                    _ => None,
                })
                .nth(i),
            _ => None,
        }
    };
    match ty {
        syn::Type::Group(g) => held(&g.elem, need, inline, plain, inst, out),
        syn::Type::Paren(p) => held(&p.elem, need, inline, plain, inst, out),
        // `[T; N]` and tuples are `Field` and `Element` if their parts are fields.
        syn::Type::Array(a) if need != Need::MapKey => {
            held(&a.elem, Need::Field, inline, plain, inst, out)
        }
        syn::Type::Tuple(t) if need != Need::MapKey => {
            for elem in &t.elems {
                held(elem, Need::Field, inline, plain, inst, out);
            }
        }
        // `&[T]`: a list.
        syn::Type::Reference(r) if need != Need::MapKey => {
            if let syn::Type::Slice(s) = &*r.elem {
                held(&s.elem, Need::Element, false, plain, inst, out);
            }
        }
        // A path with const arguments (`Group<8>`) may alias a generic message that
        // holds this one (`type Group<const N: usize> = Named<FixedStr<N>, Tree>`):
        // guarded as a held type, as an instantiation is (below), for the same reason.
        _ if plain(ty) => out.push((ty, need, inline && !const_instantiation(ty))),
        _ if decimal_of_plain(ty, plain) => out.push((ty, need, inline)),
        // Guarded as a held type even inline: an instantiation's impls bound its type
        // parameters as what it holds them in (`Seq<B>: Field` asks for `B: Element`),
        // so under `Field` and `Element`, which carry the inline guards, the bound
        // would lead back through `B` to this message (E0275).
        _ if inst(ty) => out.push((ty, need, false)),
        syn::Type::Path(p) if p.qself.is_none() && need != Need::MapKey => {
            let Some(last) = p.path.segments.last() else {
                return;
            };
            match last.ident.to_string().as_str() {
                "Vec" => {
                    if let Some(elem) = arg(p, 0) {
                        held(elem, Need::Element, false, plain, inst, out);
                    }
                }
                "Box" => {
                    if let Some(inner) = arg(p, 0) {
                        held(inner, Need::Field, false, plain, inst, out);
                    }
                }
                // An option is a field, not a list element.
                "Option" if need == Need::Field => {
                    if let Some(inner) = arg(p, 0) {
                        held(inner, Need::Field, inline, plain, inst, out);
                    }
                }
                "BTreeMap" | "HashMap" => {
                    if let (Some(k), Some(v)) = (arg(p, 0), arg(p, 1)) {
                        held(k, Need::MapKey, false, plain, inst, out);
                        held(v, Need::Field, false, plain, inst, out);
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
}

/// True for `Decimal<M, S>` (any path ending so) whose mantissa is `plain`: stored
/// inline, like an `Option`.
fn decimal_of_plain(ty: &syn::Type, plain: &dyn Fn(&syn::Type) -> bool) -> bool {
    let syn::Type::Path(p) = ty else { return false };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    last.ident == "Decimal"
        && p.qself.is_none()
        && outer_segments_plain(&p.path)
        && args.args.iter().all(|a| match a {
            syn::GenericArgument::Type(t) => plain(t),
            syn::GenericArgument::Const(_) => true,
            _ => false,
        })
}

/// Where a list of `count` fields splits into the two halves of a `Pair`.
fn split(count: usize) -> usize {
    count / 2
}

/// The type-level path to field `i` of `count` in the balanced tree that
/// [`field_tree`] builds: `Left<Right<Here>>`, by the message's aliases of the three
/// (`__WiremsgL_Order`: one token a level), built as one stream (each nested stream
/// is a round trip over the proc-macro bridge).
pub(crate) fn index_path(steps: &[Ident; 3], mut i: usize, mut count: usize) -> TokenStream {
    let [left, right, here] = steps;
    let mut path = Vec::new();
    while count > 1 {
        let mid = split(count);
        if i < mid {
            path.push(left);
            count = mid;
        } else {
            path.push(right);
            i -= mid;
            count -= mid;
        }
    }
    let closes = path
        .iter()
        .map(|_| proc_macro2::Punct::new('>', proc_macro2::Spacing::Alone));
    quote_m!(#(#path <)* #here #(#closes)*)
}

/// The fields as a balanced tree of `Pair`s over `Leaf`s (depth log2 of the count).
fn field_tree(wp: &Ident, fields: &[FieldCtx<'_>]) -> TokenStream {
    match fields {
        [] => quote_m!(#wp::Nil),
        [f] => {
            let ty = &f.layout_ty;
            let since = f.since();
            quote_m!(#wp::Leaf<#ty, #since>)
        }
        _ => {
            let (a, b) = fields.split_at(split(fields.len()));
            let (a, b) = (field_tree(wp, a), field_tree(wp, b));
            quote_m!(#wp::Pair<#a, #b>)
        }
    }
}

/// `Layout` for the message with its lifetimes set to `'static`: the field types as a
/// type-level tree, from which the runtime computes every offset.
fn layout_impl(cx: &Ctx<'_>) -> TokenStream {
    let wp = &cx.wp;
    let self_static = &cx.self_static;
    let list = field_tree(wp, &cx.fields);
    let names = cx.fields.iter().map(|f| &f.name);
    // A message that holds itself is variable-size (its nested self is in the tail):
    // its block length field is set from the start, so that the runtime knows the
    // message is variable-size without asking the fields that hold it.
    let recursive = cx
        .msg
        .fields
        .iter()
        .any(|f| crate::ast::names_type(&f.ty, cx.msg.ident));
    let block_length_field = if cx.msg.attrs.block_length || recursive {
        quote_m!(#wp::Yes)
    } else {
        quote_m!(#wp::No)
    };
    let impl_generics = cx.static_impl_generics();
    let struct_where = cx.struct_where_clause();
    // The field types may be more private than the message (a private `enum Side` in a
    // `pub struct`): an associated type of a public impl must not name them (E0446).
    // They are named by an impl of `Named` keyed by a marker private to this module,
    // whose visibility is no wider than any type this module can name, and `Fields`
    // is its output, a type parameter bound through the `where` clause.
    let bounded = &cx.bounded;
    let wh = &cx.wh;
    let guards = &cx.guards;
    quote_m! {
        struct __WiremsgFields;

        // No guards: naming the fields needs nothing of them, and the `where` clause
        // below then holds where the `Layout` impl is declared.
        #[automatically_derived]
        impl #impl_generics #wp::Named<__WiremsgFields> for #self_static #struct_where {
            type Ty = #list;
        }

        #[automatically_derived]
        impl<#(#bounded,)* __WiremsgF: #wp::FieldList> #wp::Layout for #self_static
        where
            #wh
            #guards
            #self_static: #wp::Named<__WiremsgFields, Ty = __WiremsgF>,
        {
            type Fields = __WiremsgF;
            const FIELD_NAMES: &'static [&'static #wp::str] = &[#(#names),*];
            type BlockLengthField = #block_length_field;
        }
    }
}

/// Everything `#[derive(WireMsg)]` generates.
pub(crate) fn message(msg: &Message<'_>) -> TokenStream {
    let cx = Ctx::new(msg);
    let (view, view_impls) = view::generate(&cx);
    let (view_mut, view_mut_impls) = view_mut::generate(&cx);
    let (lazy, lazy_impls) = lazy::generate(&cx);
    let field_impl = field_impl(&cx);
    let wire_msg = wire_msg_impl(&cx);
    let decode = decode::generate(&cx);
    let asserts = assertions(&cx);
    let plain_numbers = encode::plain_number_guard(&cx);
    let template = template_impl(&cx);
    let layout = layout_impl(&cx);
    let serialize = serde::serialize_impl(&cx);
    let twin = twin::generate(&cx);
    let guard_item = &cx.guard_item;
    let held_const = &cx.held_const;
    // Beside the message, aliases of the runtime (`#wm`), of its hidden items (`#wp`:
    // a path through it is 3 tokens where `::wiremsg::__private::X` is 8, and the
    // tokens a derive hands the compiler were a sixth of its compile time,
    // `benches/compile-time`) and of the field indices, under names of its own: a
    // glob would conflict with nothing, but a user's `use super::*` would then count
    // as used by the generated code. The fallback traits of `Probe` and `Gate` are
    // in scope the same way (imports as `_` never conflict). The views' impls stay
    // beside their structs, where rustc's messages name their methods
    // `OrderMut::set_note` (in a `const _` block: `_::<impl OrderMut>::set_note`).
    let (wp, wm, [left, right, here]) = (&cx.wp, &cx.wm, &cx.steps);
    quote_m! {
        use ::wiremsg as #wm;
        use ::wiremsg::__private as #wp;
        use ::wiremsg::__private::{Left as #left, Right as #right, Here as #here};
        use ::wiremsg::__private::{FieldBodyFallback as _, GateFallback as _, ProbeFallback as _};
        #guard_item
        #view
        #view_impls
        #view_mut
        #view_mut_impls
        #lazy
        #lazy_impls
        #twin
        #[allow(non_local_definitions, clippy::all)]
        const _: () = {
            #held_const
            #layout
            #field_impl
            #wire_msg
            #decode
            #template
            #asserts
            #plain_numbers
            #serialize
        };
    }
}

/// `Field` and `Element` for the message type, so that it nests in other messages and
/// lists. Its wire shape is the runtime's `Msg` kind: everything about validating and
/// reading it comes from the layout.
fn field_impl(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let ident = cx.msg.ident;
    let (_, ty_generics, _) = cx.msg.generics.split_for_impl();
    let impl_generics = cx.impl_generics();
    let where_clause = cx.inline_where_clause(TokenStream::new());
    let self_static = &cx.self_static;
    let schema_name = cx.schema_name();
    let tail_len = encode::tail_len(cx);
    let plain = plain(cx);
    // A list of the message is viewed as a list of its `'static` form, whatever the
    // lifetimes: the views do not depend on them, and lists are invariant in their
    // element type. (Without lifetimes, `Self` is that form.) The retyping needs
    // `WireMsg`, which needs the held types: through the gate (see [`guards`]).
    let element = if cx.msg.generics.lifetimes().next().is_none() {
        element_impl(
            quote_m!(impl #impl_generics #wm::Element for #ident #ty_generics #where_clause),
        )
    } else {
        let same_layout = match cx.held_gate() {
            Some(gate) => quote_m!(#gate::same_layout),
            None => quote_m!(#wm::List::same_layout),
        };
        quote_m! {
            #[automatically_derived]
            impl #impl_generics #wm::Element for #ident #ty_generics #where_clause {
                type ListView<'v> = #wm::List<'v, #self_static>;

                #[inline(always)]
                fn list_view<'v>(list: #wm::List<'v, Self>) -> #wm::List<'v, #self_static> {
                    #same_layout(list)
                }

                #[inline(always)]
                fn list_of<'v>(view: #wm::List<'v, #self_static>) -> #wm::List<'v, Self>
                where
                    Self: 'v,
                {
                    #same_layout(view)
                }
            }
        }
    };
    // Spanned where it reports a held type without its derive (see [`guards`]).
    let kind = match &cx.kind_span {
        Some(span) => quote_spanned!(*span=> ::wiremsg::__private::Msg<Self>),
        None => quote_m!(#wp::Msg<Self>),
    };
    // `Field` carries the inline guards alone, and reads its items through `Probe`
    // from `FieldBody`, which carries them all (see [`guards`]).
    let all_where = cx.where_clause();
    let probe = quote_m!(#wp::Probe::<Self>);
    quote_m! {
        #[automatically_derived]
        impl #impl_generics #wp::FieldBody for #ident #ty_generics #all_where {
            const TYPE: &'static #wm::TypeSchema = &#wm::TypeSchema::Message(
                #wm::MessageRef::of(#schema_name, || {
                    <#self_static as #wm::WireMsg>::SCHEMA
                }),
            );

            const PLAIN: ::wiremsg::__private::Plain<Self> = #plain;

            #[inline(always)]
            fn tail_len(&self) -> #wp::usize {
                #tail_len
            }

            #[inline(always)]
            fn check_value(&self, depth: #wp::u32) -> #wp::Result<(), #wm::Error> {
                let depth = #wp::deeper(<Self as #wm::Field>::IN_TAIL, depth);
                #wm::WireMsg::__check(self, depth)
            }

            #[inline(always)]
            fn write(&self, block: &mut [#wp::u8], tail: &mut [#wp::u8]) {
                #wp::write_message(self, block, tail)
            }

            #[inline(always)]
            fn append_tail(&self, block: &mut [#wp::u8], tail: &mut #wp::Out<'_>) {
                #wp::append_message_tail(self, block, tail)
            }

            #[inline]
            fn append_split(&self, block: &mut [#wp::u8], tail: &mut #wp::Out<'_>) {
                #wp::append_message_split(self, block, tail)
            }
        }

        #[automatically_derived]
        impl #impl_generics #wm::Field for #ident #ty_generics #where_clause {
            type Kind = #kind;
            // By the runtime's own paths: rustdoc shows these values.
            const TYPE: &'static ::wiremsg::TypeSchema = ::wiremsg::__private::Probe::<Self>::FIELD_TYPE;

            const PLAIN: ::wiremsg::__private::Plain<Self> = ::wiremsg::__private::Probe::<Self>::FIELD_PLAIN;

            #[inline]
            fn tail_len(&self) -> #wp::usize {
                #probe::tail_len(self)
            }

            #[inline]
            fn check_value(&self, depth: #wp::u32) -> #wp::Result<(), #wm::Error> {
                #probe::check_value(self, depth)
            }

            #[inline]
            fn write(&self, block: &mut [#wp::u8], tail: &mut [#wp::u8]) {
                #probe::write(self, block, tail)
            }

            #[inline]
            fn append_tail(&self, block: &mut [#wp::u8], tail: &mut #wp::Out<'_>) {
                #probe::append_tail(self, block, tail)
            }

            #[inline]
            fn append_split(&self, block: &mut [#wp::u8], tail: &mut #wp::Out<'_>) {
                #probe::append_split(self, block, tail)
            }
        }

        #element
    }
}

/// `Field::PLAIN` of the message: its Rust value is its block (lists of it are
/// copied whole) if it is fixed-size without a block length field, the struct is
/// exactly as long as the block, and each field is plain and at its wire offset.
/// Proven by the compiler for the layout it chose; never for a generic message, or
/// one with a field written as something else (reserved, `null`, `max_len`).
fn plain(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    // A field with tail data (text, a list, an option of a tail type) makes the
    // message variable-size, never plain: `NO` without the condition to evaluate.
    let unplain = cx.generic
        || cx.fields.iter().any(|f| {
            let attrs = &f.field.attrs;
            f.reserved()
                || attrs.null.is_some()
                || attrs.max_len.is_some()
                || f.field.kind.in_tail()
        });
    // By the runtime's own paths: rustdoc shows the value of `PLAIN`.
    if unplain {
        return quote_m!(::wiremsg::__private::Plain::NO);
    }
    let (view, vg, self_static) = (&cx.view, &cx.vg, &cx.self_static);
    let fields = cx.fields.iter().map(|f| {
        let (name, offset) = (f.field.ident, &f.offset);
        let ty = if f.stub {
            f.layout_ty.clone()
        } else {
            quote::ToTokens::to_token_stream(&f.field.ty)
        };
        quote_m! {
            && #wp::same_layout::<#ty>()
            && ::core::mem::offset_of!(Self, #name) == #view::<'static #vg>::#offset
        }
    });
    // The promise holds by what the condition checks: a fixed-size block with no
    // length field, exactly as long as the struct, each field a plain value at its
    // wire offset (so the fields cover the struct: no padding byte is left).
    quote_m! {
        if !<Self as #wm::Field>::IN_TAIL
            && !#wp::has_block_length::<#self_static>()
            && ::core::mem::size_of::<Self>() == <Self as #wm::WireMsg>::BLOCK_LENGTH
            #(#fields)*
        {
            unsafe { ::wiremsg::__private::Plain::promise() }
        } else {
            ::wiremsg::__private::Plain::NO
        }
    }
}

/// `Template` for a message with `#[wire(template_id = N)]`.
fn template_impl(cx: &Ctx<'_>) -> TokenStream {
    let Some(template_id) = cx.msg.attrs.template_id else {
        return TokenStream::new();
    };
    let schema_id = cx.msg.attrs.schema_id.unwrap_or(0);
    let ident = cx.msg.ident;
    let (_, ty_generics, _) = cx.msg.generics.split_for_impl();
    let impl_generics = cx.impl_generics();
    let where_clause = cx.where_clause();
    quote_m! {
        #[automatically_derived]
        impl #impl_generics ::wiremsg::Template for #ident #ty_generics #where_clause {
            const TEMPLATE_ID: ::core::primitive::u16 = #template_id;
            const SCHEMA_ID: ::core::primitive::u16 = #schema_id;
        }
    }
}

/// The values of variants by Rust's rule (explicit, else the previous variant's plus
/// one, the first 0) as `<Ty as VariantValue<Repr, I>>::VALUE`, and the impls that
/// define them. The user's expressions are copied into those impls alone, in a
/// `const _` block of their own: no name the derive generates (a constant, a marker
/// type, a local) is in scope there, so none can capture a path in them (issue 30).
pub(crate) fn variant_values(
    self_ty: &TokenStream,
    repr: &TokenStream,
    exprs: &[Option<&syn::Expr>],
) -> (TokenStream, Vec<TokenStream>) {
    let value =
        |i: usize| quote_m!(<#self_ty as ::wiremsg::__private::VariantValue<#repr, #i>>::VALUE);
    // A value without an expression counts on from the last variant with one (`+ k`),
    // not from the one before it: a chain one constant deep per variant overflowed
    // the query depth limit past about 128 variants.
    let mut last = None;
    let impls = exprs.iter().enumerate().map(|(i, expr)| {
        let v = match (expr, last) {
            (Some(expr), _) => {
                last = Some(i);
                quote_m!(#expr)
            }
            (None, Some(from)) => {
                let from_value = value(from);
                let k = proc_macro2::Literal::usize_unsuffixed(i - from);
                quote_m!(#from_value + #k)
            }
            (None, None) => {
                let k = proc_macro2::Literal::usize_unsuffixed(i);
                quote_m!(#k)
            }
        };
        quote_m! {
            #[automatically_derived]
            impl ::wiremsg::__private::VariantValue<#repr, #i> for #self_ty {
                const VALUE: #repr = #v;
            }
        }
    });
    let block = quote_m! {
        #[allow(non_local_definitions, clippy::all)]
        const _: () = {
            #(#impls)*
        };
    };
    (block, (0..exprs.len()).map(value).collect())
}

/// `Element` for a derived type: its lists are viewed as `wiremsg::List`.
pub(crate) fn element_impl(impl_head: TokenStream) -> TokenStream {
    quote_m! {
        #[automatically_derived]
        #impl_head {
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

/// `WireMsg`: layout constants (from the runtime's reading of the layout), the views
/// and the writer.
fn wire_msg_impl(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let ident = cx.msg.ident;
    let (_, ty_generics, _) = cx.msg.generics.split_for_impl();
    let impl_generics = cx.impl_generics();
    let where_clause = cx.where_clause();
    let vg = &cx.vg;
    let view = &cx.view;
    let view_mut = &cx.view_mut;
    let lazy = &cx.lazy;
    let self_static = &cx.self_static;
    let version = cx.msg.attrs.version;
    // A generic message's layout facts depend on its type arguments: proven where
    // it is viewed or written, for each instantiation.
    let checks = if cx.generic {
        quote_m!(let () = <#self_static>::__WIREMSG_CHECKS;)
    } else {
        TokenStream::new()
    };
    let schema = schema::generate(cx);
    let write = encode::write_body(cx);
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let check = encode::check_body(cx);
    let serialize = serde::serialize_method(cx);
    // Spanned at the message's name, so that where a held type without its derive
    // fails this impl's bound, rustc's note points at that bound (at the type), not
    // at the derive with advice to implement the trait by hand.
    let wire_msg_path = quote_spanned!(ident.span()=> ::wiremsg::WireMsg);
    quote_m! {
        #[automatically_derived]
        impl #impl_generics #wire_msg_path for #ident #ty_generics #where_clause {
            const BLOCK_LENGTH: #wp::usize = #wp::block_length::<#self_static>();
            const MIN_BLOCK_LENGTH: #wp::usize = #wp::min_block_length::<#self_static>();
            const VERSION: #wp::u16 = #version;
            const SCHEMA: &'static #wm::MessageSchema = #schema;
            type Layout = #self_static;
            type View<'v> = #view<'v #vg>;
            type Mut<'v> = #view_mut<'v #vg>;
            type Lazy<'v> = #lazy<'v #vg>;

            #[inline(always)]
            fn __lazy_of<'v>(
                lazy: #wp::LazyMsg<'v, #self_static>,
            ) -> #lazy<'v #vg> {
                #checks
                #lazy(lazy)
            }

            #[inline(always)]
            fn __view_of<'v>(
                validated: #wp::Validated<'v, #self_static>,
            ) -> #view<'v #vg> {
                #checks
                #view(validated)
            }

            #[inline(always)]
            fn __mut_of<'v>(
                validated: #wp::ValidatedMut<'v, #self_static>,
            ) -> #view_mut<'v #vg> {
                #checks
                #view_mut(validated)
            }

            #[inline]
            fn __append(&self, out: &mut #wp::Out<'_>) {
                #wp::append_message(out, #block_length, #in_tail, |block, tail| {
                    #wm::WireMsg::__append_block(self, block, tail)
                });
            }

            #[inline]
            fn __append_block(
                &self,
                block: &mut [#wp::u8],
                tail: &mut #wp::Out<'_>,
            ) {
                #checks
                #write
            }

            #[inline]
            fn __check(&self, __wiremsg_depth: #wp::u32) -> #wp::Result<(), #wm::Error> {
                #check
            }

            #serialize
        }
    }
}

/// Layout facts the compiler proves at build time.
fn assertions(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let self_static = &cx.self_static;
    let name = cx.msg.ident.to_string();
    // A fact of a type: through `Probe` for a message without type parameters, so that
    // a field type without a wire derive (reported by the guards) adds no error here.
    let generic = cx.generic;
    let fact = |ty: &dyn quote::ToTokens, item: &str, field: bool| {
        let item = proc_macro2::Ident::new(item, proc_macro2::Span::mixed_site());
        if generic {
            let tr = if field {
                quote_m!(#wm::Field)
            } else {
                quote_m!(#wm::WireMsg)
            };
            quote_m!(<#ty as #tr>::#item)
        } else {
            quote_m!(#wp::Probe::<#ty>::#item)
        }
    };
    let too_long = format!(
        "wiremsg: the block of `{name}` is longer than 65535 bytes (its u16 block length); move large arrays into a `Vec`"
    );
    // One constant per array element type, spanned on the element type, so that the
    // compile error points at the field rather than at the derive.
    let arrays = cx.fields.iter().flat_map(|f| {
        let mut elems = Vec::new();
        array_elements(&f.field.static_ty, &mut elems);
        elems.into_iter().map(move |elem| {
            let elem_name = crate::ast::type_text(&elem);
            let in_tail = fact(elem, "IN_TAIL", true);
            let msg = format!(
                "wiremsg: the elements of array field `{}` must be fixed-size, and `{elem_name}` \
                 has variable-size data; use `Vec<{elem_name}>` instead of the array",
                f.name
            );
            quote_spanned! {syn::spanned::Spanned::span(elem)=>
                ::core::assert!(!#in_tail, #msg)
            }
        })
    });
    // A list of zero-size elements would have no count on the wire: every list in a
    // field's type (`Vec<Empty>`, and inside options, tuples and lists of lists).
    let lists = cx.fields.iter().flat_map(|f| list_elements(&f.field.static_ty).into_iter().map(move |elem| (f, elem))).filter_map(|(f, elem)| {
        if builtin_for(elem, Need::Element) {
            // A number, `bool` or `String` element is never zero-size.
            return None;
        }
        let table = if generic {
            quote_m!(::core::matches!(<<#elem as #wm::Field>::Kind as #wm::Kind>::LIST_ENCODING, #wm::ListEncoding::Table))
        } else {
            fact(elem, "TABLE", true)
        };
        let block_size = fact(elem, "BLOCK_SIZE", true);
        let msg = format!(
            "wiremsg: the elements of a list in field `{}` must not be zero-size (a message without fields, `FixedStr<0>`)",
            f.name
        );
        Some(quote_spanned! {syn::spanned::Spanned::span(elem)=>
            ::core::assert!(
                #table || #block_size > 0,
                #msg
            )
        })
    });
    // Whether a message has a block length field must not depend on a later version's
    // fields (FORMAT.md §5): the first variable-size field of a message whose version-1
    // fields are all fixed-size cannot be added later, unless the message asked for the
    // field from version 1 (`#[wire(block_length)]`).
    let v1_in_tail: Vec<TokenStream> = cx
        .fields
        .iter()
        .filter(|f| !f.later())
        .map(|f| fact(&f.wire_ty, "IN_TAIL", true))
        .collect();
    let prefixed = cx.msg.attrs.block_length;
    let first_tail = cx.fields.iter().filter(|f| f.later()).map(|f| {
        let ty = &f.field.static_ty;
        let in_tail = fact(ty, "IN_TAIL", true);
        let msg = format!(
            "wiremsg: field `{}` (since version {}) would give `{name}` its first variable-size \
             field, and with it a block length field that version-1 readers do not expect; \
             add `#[wire(block_length)]` to `{name}` (a format change of version 1 too) or \
             give version 1 a variable-size field",
            f.name,
            f.since()
        );
        quote_spanned! {syn::spanned::Spanned::span(ty)=>
            ::core::assert!(
                !#in_tail || #prefixed #(|| #v1_in_tail)*,
                #msg
            )
        }
    });
    // Inline blocks are frozen: a fixed-size message with `since` fields must not nest
    // inline (FORMAT.md §4.7), or older readers would misplace every later field.
    // Text, lists, options of tail types, numbers and options of numbers never
    // evolve inline: no constant to evaluate for them.
    let frozen = cx.fields.iter().filter(|f| !never_evolves_inline(f)).map(|f| {
        let ty = &f.field.static_ty;
        let in_tail = fact(ty, "IN_TAIL", true);
        let evolves = if generic {
            quote_m!(<<#ty as #wm::Field>::Kind as #wm::Kind>::EVOLVES)
        } else {
            fact(ty, "EVOLVES", true)
        };
        let msg = format!(
            "wiremsg: field `{}` nests a fixed-size message with fields added in later versions inline, \
             and inline blocks are frozen; put it in a `Vec` (whose stride carries its block length) \
             or give it a variable-size field",
            f.name
        );
        quote_spanned! {syn::spanned::Spanned::span(ty)=>
            ::core::assert!(
                !#evolves || #in_tail,
                #msg
            )
        }
    });
    let block_length = fact(self_static, "BLOCK_LENGTH", false);
    let too_long = quote_m!(::core::assert!(#block_length <= 65535, #too_long));
    let checks: Vec<TokenStream> = core::iter::once(too_long)
        .chain(first_tail)
        .chain(frozen)
        .chain(arrays)
        .chain(lists)
        .collect();
    if !cx.generic {
        // One constant each, so that every failed check is reported, not only the
        // first (a shared constant would stop at its first failed assertion).
        return quote_m!(#(const _: () = { #checks };)*);
    }
    // A generic message's facts depend on its type arguments: constants of each
    // instantiation, evaluated where it is viewed or written; so is its name.
    let impl_generics = cx.static_impl_generics();
    let where_clause = cx.where_clause();
    let base = name.trim_start_matches("r#");
    let args = cx.msg.generics.type_params().map(|p| {
        let ident = &p.ident;
        quote_m!(<#ident as #wm::Field>::__NAME_TYPE)
    });
    quote_m! {
        #[automatically_derived]
        impl #impl_generics #self_static #where_clause {
            #[doc(hidden)]
            const __WIREMSG_CHECKS: () = { #(#checks;)* };
            #[doc(hidden)]
            const __WIREMSG_NAME_BUF: #wp::NameBuf =
                #wp::generic_name(#base, &[#(#args),*]);
            #[doc(hidden)]
            const __WIREMSG_NAME_REF: &'static #wp::NameBuf = &Self::__WIREMSG_NAME_BUF;
            #[doc(hidden)]
            const __WIREMSG_NAME: &'static #wp::str =
                #wp::name_str(Self::__WIREMSG_NAME_REF);
        }
    }
}

/// True for a field whose layout assertion (`!EVOLVES || IN_TAIL`) holds by its kind:
/// its data is in the tail (text, a list, an option of a tail type), or it is a
/// number, `bool` or an option of one (fixed-size, never a message). Leaving the
/// constant out saves its evaluation in every user crate; the derive already takes
/// these kinds from the field's syntax.
fn never_evolves_inline(f: &FieldCtx<'_>) -> bool {
    f.field.kind.in_tail() || crate::ast::is_primitive_or_option(&f.field.static_ty)
}

/// The element types of every list in `ty`: `Vec<T>` and `&[T]`, at any depth the
/// derive reads a wire shape through ([`crate::ast::each_type`]).
fn list_elements(ty: &syn::Type) -> Vec<&syn::Type> {
    let mut out = Vec::new();
    // Paths only: `vec_inner` looks through groups, which `each_type` visits too.
    crate::ast::each_type(ty, &mut |t| match t {
        syn::Type::Slice(s) => out.push(&*s.elem),
        syn::Type::Path(_) => out.extend(crate::ast::vec_inner(t)),
        _ => {}
    });
    out
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

/// The innermost element type of nested arrays (`u8` for `[[u8; 4]; 40]`), or `ty`.
pub(crate) fn array_leaf(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Array(array) => array_leaf(&array.elem),
        syn::Type::Group(g) => array_leaf(&g.elem),
        syn::Type::Paren(p) => array_leaf(&p.elem),
        _ => ty,
    }
}

/// The default value of `ty`, `leaf(T)` being that of a type that is not an array:
/// an array's is built element by element, since arrays of more than 32 elements
/// have no `Default`.
pub(crate) fn default_expr(
    ty: &syn::Type,
    leaf: &dyn Fn(&syn::Type) -> TokenStream,
) -> TokenStream {
    match ty {
        syn::Type::Array(array) => {
            let elem = default_expr(&array.elem, leaf);
            let len = &array.len;
            quote_m!(::core::array::from_fn::<_, { #len }, _>(|_| #elem))
        }
        syn::Type::Group(g) => default_expr(&g.elem, leaf),
        syn::Type::Paren(p) => default_expr(&p.elem, leaf),
        _ => leaf(ty),
    }
}

/// `Default::default()` of `ty` (arrays of any length too).
pub(crate) fn std_default(ty: &syn::Type) -> TokenStream {
    default_expr(
        ty,
        &|t| quote_m!(<#t as ::core::default::Default>::default()),
    )
}
