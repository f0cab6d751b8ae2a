//! Parse step shared by the derives: user lifetimes renamed away from the ones the
//! generated code declares.
//!
//! Generated impls declare lifetimes of their own (`'v` for a view, `'m` for a
//! borrow of one, `'__wiremsg_*`) beside the type's; a type generic over `'v` would
//! see its lifetime shadowed (E0496) and its impls fail. The user's lifetime is only
//! named inside the item the derive sees, so renaming it there, consistently, changes
//! nothing the user can observe but the name in a rare error message.

use std::collections::HashSet;
use syn::DeriveInput;
use syn::visit_mut::VisitMut;

/// Lifetimes that generated code declares (by name, without the quote).
fn generated(name: &str) -> bool {
    matches!(name, "v" | "m") || name.starts_with("__wiremsg")
}

/// Renames every lifetime `input` declares that generated code also declares, to the
/// first of `'v_`, `'v__`, ... (for `'v`) that `input` does not declare.
pub(crate) fn rename_generated(input: &mut DeriveInput) {
    let declared: HashSet<String> = input
        .generics
        .lifetimes()
        .map(|l| l.lifetime.ident.to_string())
        .collect();
    let mut renames = Vec::new();
    for name in declared.iter().filter(|n| generated(n)) {
        let mut fresh = format!("{}_", name.trim_start_matches('_'));
        while declared.contains(&fresh) || generated(&fresh) {
            fresh.push('_');
        }
        renames.push((name.clone(), fresh));
    }
    if !renames.is_empty() {
        Rename(renames).visit_derive_input_mut(input);
    }
}

/// True if a field type of `input` borrows without naming a lifetime (`&str`,
/// `Cow<'_, str>`) or names one the item does not declare (`&'b str` on `S<'a>`):
/// rustc reports either at the field, once. The derives then generate nothing, where
/// code built on the broken type would repeat that error once per generated item.
pub(crate) fn unresolved(input: &DeriveInput) -> bool {
    let declared: HashSet<String> = input
        .generics
        .lifetimes()
        .map(|l| l.lifetime.ident.to_string())
        .collect();
    let known = |l: &syn::Lifetime| l.ident == "static" || declared.contains(&l.ident.to_string());
    let fields: Vec<&syn::Field> = match &input.data {
        syn::Data::Struct(s) => s.fields.iter().collect(),
        syn::Data::Enum(e) => e.variants.iter().flat_map(|v| &v.fields).collect(),
        syn::Data::Union(u) => u.fields.named.iter().collect(),
    };
    let mut found = false;
    for field in fields {
        crate::ast::each_type(&field.ty, &mut |t| match t {
            syn::Type::Reference(r) => found |= r.lifetime.as_ref().is_none_or(|l| !known(l)),
            syn::Type::Path(p) => {
                for segment in &p.path.segments {
                    if let syn::PathArguments::AngleBracketed(args) = &segment.arguments {
                        found |= args
                            .args
                            .iter()
                            .any(|a| matches!(a, syn::GenericArgument::Lifetime(l) if !known(l)));
                    }
                }
            }
            _ => {}
        });
    }
    found
}

struct Rename(Vec<(String, String)>);

impl VisitMut for Rename {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        let name = lifetime.ident.to_string();
        if let Some((_, to)) = self.0.iter().find(|(from, _)| *from == name) {
            *lifetime = syn::Lifetime::new(&format!("'{to}"), lifetime.span());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::rename_generated;
    use quote::ToTokens;

    fn renamed(src: &str) -> String {
        let mut input: syn::DeriveInput = syn::parse_str(src).unwrap();
        rename_generated(&mut input);
        input.to_token_stream().to_string().replace(' ', "")
    }

    #[test]
    fn the_generated_lifetimes_are_renamed_to_names_the_type_does_not_declare() {
        assert_eq!(
            renamed(
                "struct S<'v, 'v_, 'm, 'a: 'v> { x: &'v str, y: &'v_ str, z: &'m [u8], w: &'a str }"
            ),
            "structS<'v__,'v_,'m_,'a:'v__>{x:&'v__str,y:&'v_str,z:&'m_[u8],w:&'astr}"
        );
        assert_eq!(
            renamed("struct S<'__wiremsg_g> { x: &'__wiremsg_g str }"),
            "structS<'wiremsg_g_>{x:&'wiremsg_g_str}"
        );
        // Nothing to rename: unchanged.
        assert_eq!(
            renamed("struct S<'a> { x: &'a str }"),
            "structS<'a>{x:&'astr}"
        );
    }
}
