//! Layout: the names of the layout constants. The offsets themselves are computed by
//! the runtime from the message's type-level field list (`wiremsg`'s `layout.rs`), so
//! that validation, the views and the constants share one computation.

use proc_macro2::Ident;
use quote::format_ident;

/// `ID_OFFSET` for field `id` (raw identifiers lose their `r#`).
pub(crate) fn const_name(field: &Ident, suffix: &str) -> Ident {
    let name = field.to_string();
    let name = name.trim_start_matches("r#").to_uppercase();
    format_ident!("{}_{}", name, suffix, span = field.span())
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
}
