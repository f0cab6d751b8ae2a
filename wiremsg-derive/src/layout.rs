//! Layout: the names of the layout constants and the constant expressions that
//! place each field right after the previous one (FORMAT.md §2). The sizes come
//! from each type's `Field::BLOCK_SIZE`, so the compiler does the arithmetic.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

/// `ID_OFFSET` for field `id` (raw identifiers lose their `r#`).
pub(crate) fn const_name(field: &Ident, suffix: &str) -> Ident {
    let name = field.to_string();
    let name = name.trim_start_matches("r#").to_uppercase();
    format_ident!("{}_{}", name, suffix, span = field.span())
}

/// The expression of each field's offset: the prefix (the block length field, if any)
/// plus the sizes of all fields before it. A flat sum, not a chain through the
/// previous offset, so that the compiler's evaluation depth does not grow with the
/// number of fields.
pub(crate) fn offset_exprs(prefix: &TokenStream, fields: &[(Ident, Ident)]) -> Vec<TokenStream> {
    (0..fields.len())
        .map(|i| {
            let sizes = fields[..i].iter().map(|(_, size)| size);
            quote!(#prefix #(+ Self::#sizes)*)
        })
        .collect()
}

/// The block length: the prefix plus the sizes of all fields.
pub(crate) fn block_length_expr(
    view: &TokenStream,
    prefix: &TokenStream,
    fields: &[(Ident, Ident)],
) -> TokenStream {
    let sizes = fields.iter().map(|(_, size)| size);
    quote!(#prefix #(+ #view::#sizes)*)
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
    fn each_offset_is_the_prefix_plus_the_sizes_before_it() {
        let fields = [
            (ident("A_OFFSET"), ident("A_SIZE")),
            (ident("B_OFFSET"), ident("B_SIZE")),
            (ident("C_OFFSET"), ident("C_SIZE")),
        ];
        let exprs: Vec<String> = offset_exprs(&quote!(P), &fields)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            exprs,
            [
                "P",
                "P + Self :: A_SIZE",
                "P + Self :: A_SIZE + Self :: B_SIZE"
            ]
        );
        assert_eq!(
            block_length_expr(&quote!(V), &quote!(P), &fields).to_string(),
            "P + V :: A_SIZE + V :: B_SIZE + V :: C_SIZE"
        );
        assert_eq!(
            block_length_expr(&quote!(V), &quote!(2), &[]).to_string(),
            "2"
        );
    }
}
