//! The mutable view `{Name}Mut<'v>`: setters for fixed-size fields, and mutable views
//! of nested messages and lists, all in place.

use super::Ctx;
use crate::ast::Kind;
use proc_macro2::TokenStream;
use quote::format_ident;
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

/// The struct and its impls, which [`super::message`] places beside it.
pub(crate) fn generate(cx: &Ctx<'_>) -> (TokenStream, TokenStream) {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let ident = cx.msg.ident;
    let vis = cx.msg.vis;
    let view = &cx.view;
    let view_mut = &cx.view_mut;
    let self_static = &cx.self_static;
    let (vg, tp) = (&cx.vg, &cx.tp);
    let struct_where = cx.struct_where_clause();
    let doc = format!(
        "Mutable view of a [`{ident}`] message, built by \
         [`WireMsg::view_mut`](::wiremsg::WireMsg::view_mut): reads every field like \
         [`{view}`] and overwrites fixed-size fields in place (one store each). \
         Variable-size fields keep their length: they cannot be resized in place; encode \
         a new message instead."
    );
    let getters = cx
        .fields
        .iter()
        .enumerate()
        .filter(|(_, f)| !f.reserved())
        .map(|(i, f)| super::view::accessors(cx, f, i, cx.fields.len(), true));
    let methods = cx.fields.iter().enumerate().filter(|(_, f)| !f.reserved()).map(|(i, f)| {
        let static_ty = &f.field.static_ty;
        let ty = &f.field.ty;
        // Predicates on the field's type are spanned at it: for a type without a wire
        // derive, their error is the guards' own (see `Ctx::guards`), shown once.
        let span = syn::spanned::Spanned::span(ty);
        // (With a `for<'_>` binder, so that the bounds these traits imply, `#ty: Field`,
        // are not checked where the method is declared: see `guards`. None for a
        // number, `bool` or an option of one, which are always settable and updatable:
        // a method's own `where` clause costs the compiler's trait solving in its body.)
        let known = crate::ast::is_primitive_or_option(ty);
        let binder = super::binder();
        // Each piece is built where it is used: every stream built costs the derive
        // round trips over the proc-macro bridge.
        let scalar = || {
            if known {
                TokenStream::new()
            } else {
                quote::quote_spanned!(span=> where #binder #ty: ::wiremsg::Scalar<'v>,)
            }
        };
        let msg_field = || quote::quote_spanned!(span=> #binder #static_ty: ::wiremsg::__private::MsgField<'v>,);
        let index = super::index_path(&cx.steps, i, cx.fields.len());
        // Through the gate for a gated message (see `Ctx::gated`); the methods that
        // read a field through the layout's constants or a nested kind carry all of
        // the message's guards instead, and those whose signatures name a guarded
        // type their field's.
        let gated = cx.gated();
        let set = || {
            if gated {
                cx.gate_of(f.stub, "mut_set", Some(&index), quote_m!(&mut self.0, &value))
            } else {
                quote_m!(self.0.set::<#index>(&value))
            }
        };
        let update_call = || {
            if gated {
                cx.gate_of(f.stub, "mut_update", Some(&index), quote_m!(&mut self.0, f))
            } else {
                quote_m!(self.0.update::<#index>(f))
            }
        };
        let list = || {
            if gated {
                cx.gate_of(f.stub, "mut_list", Some(&index), quote_m!(&mut self.0))
            } else {
                quote_m!(self.0.list::<#index>())
            }
        };
        // A message whose impls carry no guards (`Ctx::stubbed`): the field's own,
        // for the methods whose signatures or reads name its guarded type.
        let guards = if f.stub { &f.guards } else { &cx.guards };
        let all_guards = || {
            if gated { quote_m!(where #guards) } else { TokenStream::new() }
        };
        let nested_guards = || if gated { guards.clone() } else { TokenStream::new() };
        // `ListMut<'_, T>` is a type whatever `T` is: a held field's list, read
        // through the gate's stand-in where `T` lacks its derive, needs no guard
        // (see `Ctx::stubbed`).
        let list_where = (gated && !f.guards.is_empty() && !f.stub).then(|| {
            let guards = &f.guards;
            quote_m!(where #guards)
        });
        let has_lifetime = f.field.borrows();
        // `set_<field>`: for every fixed-size candidate; the `Scalar` bound makes it
        // uncallable (with a message saying why) where the type is a nested message
        // with variable-size data.
        let setter = (matches!(f.field.kind, Kind::Scalar | Kind::Path) && !has_lifetime).then(|| {
            let setter = format_ident!("set_{}", f.name, span = f.field.ident.span());
            if f.field.attrs.null.is_some() {
                // A present sentinel would read back as absent: refused, nothing written.
                let wire = f.wire_value(quote_m!(value));
                let offset = &f.offset;
                let label = &f.name;
                let (doc, ret, ok) = if f.later() {
                    (
                        format!(
                            "Overwrites field `{}` in place (`None` writes its null sentinel); `Ok(false)` \
                             (nothing written) if the writer's version did not have it (it was added in \
                             version {}).\n\n# Errors\n\n`ErrorKind::NullSentinel` (nothing written) if \
                             `value` is `Some` of the null sentinel, which would read back as `None`.",
                            f.name,
                            f.since()
                        ),
                        quote_m!(#wp::bool),
                        quote_m!(self.0.set::<#index>(wire)),
                    )
                } else {
                    (
                        format!(
                            "Overwrites field `{}` in place (`None` writes its null sentinel).\n\n# Errors\n\n\
                             `ErrorKind::NullSentinel` (nothing written) if `value` is `Some` of the null \
                             sentinel, which would read back as `None`.",
                            f.name
                        ),
                        quote_m!(()),
                        quote_m!({ self.0.set::<#index>(wire); }),
                    )
                };
                let all_guards = all_guards();
                return quote_m! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #setter(&mut self, value: #ty) -> #wp::Result<#ret, #wm::Error>
                    #all_guards
                    {
                        let wire = #wire;
                        #wp::check_field(wire, 0, #view::<'static #vg>::#offset, #label)?;
                        #wp::Result::Ok(#ok)
                    }
                };
            }
            // A number, `bool` or `FixedStr` is its bytes; a user type (nested message or
            // enum) is written whole, as its encoding has it.
            let whole = if f.field.kind == Kind::Path {
                " (a fixed-size nested message or enum, as a whole, with the bytes its \
                 encoding has)"
            } else {
                ""
            };
            if f.later() {
                let doc = format!(
                    "Overwrites field `{}` in place{}; returns false (and writes nothing) if \
                     the writer's version did not have it (it was added in version {}).",
                    f.name,
                    whole,
                    f.since()
                );
                let (scalar, set) = (scalar(), set());
                quote_m! {
                    #[doc = #doc]
                    #[inline]
                    #[must_use = "the field is not written when the writer's version did not have it"]
                    pub fn #setter(&mut self, value: #ty) -> #wp::bool
                    #scalar
                    {
                        #set
                    }
                }
            } else {
                let doc = format!("Overwrites field `{}` in place{}.", f.name, whole);
                let (scalar, set) = (scalar(), set());
                quote_m! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #setter(&mut self, value: #ty)
                    #scalar
                    {
                        #set;
                    }
                }
            }
        });
        // `update_<field>`: one read and one store, for the fields whose view is the
        // value itself (the `Update` bound says so where it is not).
        let updater = (matches!(f.field.kind, Kind::Scalar | Kind::Path)
            && !has_lifetime
            && f.field.attrs.null.is_none())
        .then(|| {
            let updater = format_ident!("update_{}", f.name, span = f.field.ident.span());
            let update = if known {
                TokenStream::new()
            } else {
                quote::quote_spanned!(span=> where #binder #ty: ::wiremsg::Update<'v>,)
            };
            if f.later() {
                let doc = format!(
                    "Updates field `{}` in place in one step: `f` gets its value and returns \
                     the new one, which is stored (`update_{0}(|v| v * 2)`); returns false \
                     (and calls nothing) if the writer's version did not have it (it was \
                     added in version {}).",
                    f.name,
                    f.since()
                );
                let update_call = update_call();
                quote_m! {
                    #[doc = #doc]
                    #[inline]
                    #[must_use = "the field is not updated when the writer's version did not have it"]
                    pub fn #updater(&mut self, f: impl ::core::ops::FnOnce(#ty) -> #ty) -> #wp::bool
                    #update
                    {
                        #update_call
                    }
                }
            } else {
                let doc = format!(
                    "Updates field `{0}` in place in one step: `f` gets its value and returns \
                     the new one, which is stored (`update_{0}(|v| v * 2)`): one read and one \
                     store, where `set_{0}({0}() * 2)` finds the field twice.",
                    f.name
                );
                // A number of version 1 is read and stored at a constant offset, so
                // the getter and the setter are the same one read and one store, and
                // reusing them spares rustc a third proof of the field's place
                // (`benches/README.md`, "Derive cost"). The getter by its path: as a
                // method of `&mut self`, a user's trait method of that name on
                // `&mut Self` would be found first. No binding, which a user's
                // constant of its name would turn into a pattern.
                let body = if f.plain_number() {
                    let getter = f.field.ident;
                    let setter = format_ident!("set_{}", f.name, span = f.field.ident.span());
                    quote_m!(self.#setter(f(Self::#getter(&*self)));)
                } else {
                    let update_call = update_call();
                    quote_m!(#update_call;)
                };
                quote_m! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #updater(&mut self, f: impl ::core::ops::FnOnce(#ty) -> #ty)
                    #update
                    {
                        #body
                    }
                }
            }
        });
        // A variable-size field has no setter; `set_<field>` exists all the same, with a
        // bound no argument meets, so that calling it is an error that says why and what
        // to do instead (rather than "no method named `set_<field>`").
        let setter = setter.or_else(|| {
            f.field.kind.in_tail().then(|| {
                let setter = format_ident!("set_{}", f.name, span = f.field.ident.span());
                let doc = format!(
                    "Not callable: field `{}` is variable-size (its data is in the tail), and \
                     variable-size fields cannot be set in place. Encode a new message with \
                     the new value, or give the field a fixed-size type (`FixedStr<N>`, an \
                     array) to set it here.",
                    f.name
                );
                quote_m! {
                    #[doc = #doc]
                    #[doc(hidden)]
                    #[inline]
                    pub fn #setter<__WiremsgValue>(&mut self, value: __WiremsgValue)
                    where
                        __WiremsgValue: #wp::SetTailField<#static_ty>,
                    {
                        let _ = (self, value);
                    }
                }
            })
        });
        let getter_name = format_ident!("{}_mut", f.name, span = f.field.ident.span());
        let getter = match f.field.kind {
            Kind::Path if is_plain_path(ty) => {
                let (msg_field, nested_guards) = (msg_field(), nested_guards());
                // A field holding guarded types of a message whose impls carry no
                // guards: through the gate (see `Ctx::stubbed`).
                let (nested, try_nested) = if f.stub {
                    let args = quote_m!(&mut self.0);
                    (
                        cx.gate_of(true, "mut_nested", Some(&index), args.clone()),
                        cx.gate_of(true, "mut_try_nested", Some(&index), args),
                    )
                } else {
                    (
                        quote_m!(<#static_ty as #wp::MsgField<'v>>::nested::<#self_static, #index>(&mut self.0)),
                        quote_m!(<#static_ty as #wp::MsgField<'v>>::try_nested::<#self_static, #index>(&mut self.0)),
                    )
                };
                if f.later() {
                    let doc = format!(
                        "The mutable view of field `{0}` if its type is a nested message, or \
                         `None` if the writer's version did not have it. (The derive cannot \
                         tell a message from an enum by its name: for an enum field this \
                         method's bound is not met and it cannot be called; overwrite the \
                         field with `set_{0}`.)",
                        f.name
                    );
                    Some(quote_m! {
                        #[doc = #doc]
                        #[inline]
                        pub fn #getter_name(&mut self) -> #wp::Option<<#static_ty as #wp::MsgField<'v>>::Mut<'_>>
                        where
                            #msg_field
                            #nested_guards
                        {
                            #try_nested
                        }
                    })
                } else {
                    let doc = if crate::map_ast::map_args(ty).is_some() {
                        format!(
                            "The mutable view of map `{}`: fixed-size values can be overwritten \
                             in place, found by key; entries cannot be added or removed.",
                            f.name
                        )
                    } else {
                        format!(
                            "The mutable view of field `{0}` if its type is a nested message. \
                             (The derive cannot tell a message from an enum by its name: for an \
                             enum field this method's bound is not met and it cannot be called; \
                             overwrite the field with `set_{0}`.)",
                            f.name
                        )
                    };
                    Some(quote_m! {
                        #[doc = #doc]
                        #[inline]
                        pub fn #getter_name(&mut self) -> <#static_ty as #wp::MsgField<'v>>::Mut<'_>
                        where
                            #msg_field
                            #nested_guards
                        {
                            #nested
                        }
                    })
                }
            }
            Kind::List => list_element(static_ty).map(|elem| {
                let doc = format!("The mutable view of list `{}`: elements can be overwritten, not added.", f.name);
                let list = list();
                quote_m! {
                    #[doc = #doc]
                    #[inline]
                    pub fn #getter_name(&mut self) -> #wm::ListMut<'_, #elem> #list_where {
                        #list
                    }
                }
            }),
            _ => None,
        };
        quote_m!(#setter #updater #getter)
    });
    let debug_name = view_mut.to_string();
    let reserved = cx.reserved_indices();
    let view_where = cx.view_where_clause();
    let fmt = cx.view_fn(
        "fmt_view",
        quote_m!(self.as_view().0, #debug_name, #reserved, f),
    );
    let (as_ref, as_bytes) = if cx.gated() {
        (
            cx.view_fn("mut_as_ref", quote_m!(&self.0)),
            cx.view_fn("mut_as_bytes", quote_m!(&self.0)),
        )
    } else {
        (quote_m!(self.0.as_ref()), quote_m!(self.0.as_bytes()))
    };
    let item = quote_m! {
        #[doc = #doc]
        #vis struct #view_mut<'v #tp>(::wiremsg::__private::ValidatedMut<'v, #self_static>) #struct_where;
    };
    let impls = quote_m! {

        #[automatically_derived]
        #[allow(clippy::all, unreachable_code)]
        impl<'v #tp> #view_mut<'v #vg> #view_where {
            #(#getters)*
            #(#methods)*

            /// The read-only view of the same bytes.
            #[inline]
            pub fn as_view(&self) -> #view<'_ #vg> {
                #view(#as_ref)
            }

            /// The message's bytes as far as this reader knows them, as the view's
            /// `as_bytes()`.
            #[inline]
            pub fn as_bytes(&self) -> #wp::Option<&[#wp::u8]> {
                #as_bytes
            }

            /// The newest schema version, up to this reader's, whose fields the bytes
            /// hold.
            #[inline]
            pub fn version(&self) -> #wp::u16 {
                self.as_view().version()
            }
        }

        #[automatically_derived]
        #[allow(unreachable_code)]
        impl<'v #tp> #wp::Debug for #view_mut<'v #vg> #view_where {
            #[inline]
            fn fmt(&self, f: &mut #wp::Formatter<'_>) -> #wp::FmtResult {
                #fmt
            }
        }
    };
    (item, impls)
}
