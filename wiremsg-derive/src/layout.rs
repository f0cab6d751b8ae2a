//! Layout: the names of the layout constants and the chain of constant expressions
//! that places each field right after the previous one (FORMAT.md §2). The sizes come
//! from each type's `Field::BLOCK_SIZE`, so the compiler does the arithmetic.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `ID_OFFSET` for field `id` (raw identifiers lose their `r#`).
pub(crate) fn const_name(field: &Ident, suffix: &str) -> Ident {
    let name = field.to_string();
    let name = name.trim_start_matches("r#").to_uppercase();
    format_ident!("{}_{}", name, suffix, span = field.span())
}

/// The expression of each field's offset: the first field starts at `prefix` (the
/// block length field, if any), each next one where the previous one ends.
pub(crate) fn offset_exprs(prefix: &TokenStream, fields: &[(Ident, Ident)]) -> Vec<TokenStream> {
    let mut out = Vec::with_capacity(fields.len());
    for i in 0..fields.len() {
        out.push(match i.checked_sub(1).and_then(|p| fields.get(p)) {
            None => prefix.clone(),
            Some((offset, size)) => quote!(Self::#offset + Self::#size),
        });
    }
    out
}

/// The block length: the end of the last field, or the prefix alone.
pub(crate) fn block_length_expr(
    view: &TokenStream,
    prefix: &TokenStream,
    fields: &[(Ident, Ident)],
) -> TokenStream {
    match fields.last() {
        Some((offset, size)) => quote!(#view::#offset + #view::#size),
        None => prefix.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    fn ident(s: &str) -> Ident {
        Ident::new(s, Span::call_site())
    }

    #[test]
    fn const_names_are_upper_case_without_raw_prefix() {
        assert_eq!(
            const_name(&ident("unit_price"), "OFFSET").to_string(),
            "UNIT_PRICE_OFFSET"
        );
        assert_eq!(
            const_name(&Ident::new_raw("type", Span::call_site()), "SIZE").to_string(),
            "TYPE_SIZE"
        );
    }

    #[test]
    fn each_offset_follows_the_previous_field() {
        let fields = [
            (ident("A_OFFSET"), ident("A_SIZE")),
            (ident("B_OFFSET"), ident("B_SIZE")),
            (ident("C_OFFSET"), ident("C_SIZE")),
        ];
        let exprs: Vec<String> = offset_exprs(&quote!(PREFIX), &fields)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            exprs,
            [
                "PREFIX",
                "Self :: A_OFFSET + Self :: A_SIZE",
                "Self :: B_OFFSET + Self :: B_SIZE"
            ]
        );
        assert_eq!(
            block_length_expr(&quote!(V), &quote!(PREFIX), &fields).to_string(),
            "V :: C_OFFSET + V :: C_SIZE"
        );
        assert_eq!(
            block_length_expr(&quote!(V), &quote!(2), &[]).to_string(),
            "2"
        );
    }
}
