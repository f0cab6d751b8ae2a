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

struct Rename(Vec<(String, String)>);

impl VisitMut for Rename {
    fn visit_lifetime_mut(&mut self, lifetime: &mut syn::Lifetime) {
        let name = lifetime.ident.to_string();
        if let Some((_, to)) = self.0.iter().find(|(from, _)| *from == name) {
            *lifetime = syn::Lifetime::new(&format!("'{to}"), lifetime.span());
        }
    }
}
