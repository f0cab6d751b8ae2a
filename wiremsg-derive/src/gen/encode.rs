//! Encoding: the message's tail length and the writer of its block and tail.

use super::Ctx;
use proc_macro2::TokenStream;

/// `Field::tail_len` of the message: its whole encoding when it has a tail.
pub(crate) fn tail_len(cx: &Ctx<'_>) -> TokenStream {
    let wm = &cx.wm;
    let wp = &cx.wp;
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let terms = cx.fields.iter().filter(|f| !f.plain_number()).map(|f| {
        let name = f.field.ident;
        let value = if f.reserved() {
            f.wire_value(super::std_default(&f.field.ty))
        } else {
            f.wire_value(quote_m!(self.#name))
        };
        match held_field(cx, f) {
            Some(held) => quote_m!(#held::tail_len(#value)),
            None => quote_m!(#wm::Field::tail_len(#value)),
        }
    });
    // Saturating: a sum past `usize::MAX` stays there, and `encode` reports it as
    // `TooLarge` (FORMAT.md §1: a message is at most `u32::MAX` bytes).
    quote_m! {
        if #in_tail { (#block_length as #wp::usize) #(.saturating_add(#terms))* } else { 0 }
    }
}

/// `<Held<{ held }> as HeldField<Ty>>` for a [`FieldCtx::stub`](super::FieldCtx::stub)
/// field: its encoding without the guards of the types it holds (see
/// [`Ctx::stubbed`]).
fn held_field(cx: &Ctx<'_>, f: &super::FieldCtx<'_>) -> Option<TokenStream> {
    let (wp, held, ty) = (&cx.wp, &cx.held, &f.wire_ty);
    f.stub
        .then(|| quote_m!(<#wp::Held<#held> as #wp::HeldField<#ty>>))
}

/// The body of `WireMsg::__append_block`: each field into the zeroed `block`, its
/// tail data appended to `tail`, its end offset counted from where the block would
/// start if the tail followed it (FORMAT.md §3, §6.3).
pub(crate) fn write_body(cx: &Ctx<'_>) -> TokenStream {
    let wp = &cx.wp;
    let view = &cx.view;
    let vg = &cx.vg;
    let block_length = &cx.block_length;
    let in_tail = &cx.in_tail;
    let fields = cx.fields.iter().map(|f| {
        let name = f.field.ident;
        let offset = &f.offset;
        // A reserved field keeps its slot with its type's default value in it.
        let value = if f.reserved() {
            f.wire_value(super::std_default(&f.field.ty))
        } else {
            f.wire_value(quote_m!(self.#name))
        };
        let append = match held_field(cx, f) {
            Some(held) => quote_m!(#held::append_field),
            None => quote_m!(#wp::append_field),
        };
        quote_m! {
            #append(#value, block, #view::<'static #vg>::#offset, tail, #block_length);
        }
    });
    let _ = in_tail;
    quote_m! {
        #(#fields)*
    }
}

/// The body of `WireMsg::__check` of the message, its block at nesting
/// `__wiremsg_depth`: the depth limit, then each field's check, its error placed in
/// the field (a reserved field is written as its default, which passes).
pub(crate) fn check_body(cx: &Ctx<'_>) -> TokenStream {
    let wp = &cx.wp;
    let view = &cx.view;
    let vg = &cx.vg;
    let checks = cx
        .fields
        .iter()
        .filter(|f| !f.reserved() && !f.plain_number())
        .map(|f| {
            let name = f.field.ident;
            let label = &f.name;
            let offset = &f.offset;
            let value = f.wire_value(quote_m!(self.#name));
            let check = match held_field(cx, f) {
                Some(held) => quote_m!(#held::check_field),
                None => quote_m!(#wp::check_field),
            };
            quote_m!(#check(#value, __wiremsg_depth, #view::<'static #vg>::#offset, #label))
        });
    // The depth first, returning at once: a field's check recurses into the value
    // it holds, and that value's own `__check` stops at its depth. The fields then
    // as one expression, the first error in field order kept (`Result::and`): no
    // `Try` impl to look up per field, as `?` would, and no binding, which a user's
    // constant of its name would turn into a pattern.
    quote_m! {
        #wp::check_depth(__wiremsg_depth)?;
        #wp::Result::Ok(()) #(.and(#checks))*
    }
}

/// The assertion that each field `tail_len` and `__check` leave out (see
/// [`FieldCtx::plain_number`](super::FieldCtx::plain_number)) has the primitive type
/// its name says: a type of the user's that shadows `u64` or `bool` fails here, at
/// the field, instead of having its check skipped. One constant per message, calling
/// a function bounded by the trait once per such field (a call's bound is checked
/// where it is made; a `where` clause of a function no one calls would not be).
pub(crate) fn plain_number_guard(cx: &Ctx<'_>) -> TokenStream {
    let calls: Vec<TokenStream> = cx
        .fields
        .iter()
        .filter(|f| f.plain_number())
        .map(|f| {
            let ty = &f.field.static_ty;
            quote::quote_spanned!(syn::spanned::Spanned::span(ty)=> ::wiremsg::__private::plain_number::<#ty>();)
        })
        .collect();
    if calls.is_empty() {
        return TokenStream::new();
    }
    quote_m! {
        const _: () = { #(#calls)* };
    }
}
