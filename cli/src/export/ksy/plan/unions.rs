//! Enums and tagged unions: the `enums:` of variant names, and a union's type of a
//! tag and a payload switched on it.

use super::{Plan, in_enum, primitive};
use crate::export::ksy::names::{is_python_keyword, snake};
use crate::export::ksy::yaml::{Yaml, map};
use std::collections::HashSet;
use wiremsg::{EnumSchema, UnionSchema};

impl<'s> Plan<'s> {
    pub(super) fn declare_enum(
        &mut self,
        e: &'s EnumSchema,
        name: &str,
        path: &str,
        offset: usize,
    ) {
        if name.is_empty() || self.enum_defs.iter().any(|(n, _)| n == name) {
            return;
        }
        if let Some(values) = self.variant_names(
            &e.variants
                .iter()
                .map(|v| (v.name.as_ref(), v.value))
                .collect::<Vec<_>>(),
            &e.name,
            path,
            offset,
        ) {
            self.enum_defs.push((name.to_owned(), values));
        }
    }

    /// An enum's `value: name` map, or `None` (refused) if two names are one in
    /// Kaitai, a name has no Kaitai form, or a value is past `i64::MAX`.
    fn variant_names(
        &mut self,
        variants: &[(&str, u64)],
        owner: &str,
        path: &str,
        offset: usize,
    ) -> Option<Yaml> {
        let mut seen = HashSet::new();
        let mut entries = Vec::new();
        for &(rust, value) in variants {
            let Some(name) =
                snake(rust).filter(|n| !is_python_keyword(n) && seen.insert(n.clone()))
            else {
                self.refuse(
                    path,
                    offset,
                    format!(
                        "variant `{owner}::{rust}` has no Kaitai name of its own (snake \
                         case, distinct, not a Python keyword)"
                    ),
                );
                return None;
            };
            if value > i64::MAX as u64 {
                self.refuse(
                    path,
                    offset,
                    format!(
                        "variant `{owner}::{rust}` = {value}: Kaitai's enum values are signed \
                         64-bit integers (at most {})",
                        i64::MAX
                    ),
                );
                return None;
            }
            // Past 2^53 a YAML reader in JavaScript (the compiler's own build) rounds a
            // number; Kaitai reads a key written as a string exactly.
            let key = if value > 1 << 53 {
                Yaml::Str(value.to_string())
            } else {
                Yaml::Int(i128::from(value))
            };
            entries.push((key, Yaml::Str(name)));
        }
        Some(Yaml::Map(entries))
    }

    /// The type of union `u`: its tag (with an enum of the variants' names) and its
    /// payload, switched on the tag.
    pub(super) fn union_type(&mut self, u: &'s UnionSchema, path: &str, offset: usize) -> String {
        let name = self
            .unions
            .get(u.name.as_ref())
            .map(|(n, _)| n.clone())
            .unwrap_or_default();
        // Declared once: marked before walking payloads, which may nest the union.
        if name.is_empty() || !self.declared_unions.insert(&u.name) {
            return name;
        }
        let tag_enum = self
            .names
            .claim_free(&format!("{name}_tag"), &format!("the tags of `{}`", u.name));
        let variants: Vec<(&str, u64)> = u
            .variants
            .iter()
            .map(|v| (v.name.as_ref(), v.tag))
            .collect();
        if let Some(values) = self.variant_names(&variants, &u.name, path, offset) {
            self.enum_defs.push((tag_enum.clone(), values));
        }
        let mut cases = Vec::new();
        for v in u.variants.iter() {
            if let (Some(payload), Some(variant)) = (&v.payload, snake(&v.name)) {
                let ty = self.message_ref(&payload.name);
                cases.push((Yaml::Str(format!("{tag_enum}::{variant}")), Yaml::Str(ty)));
            }
        }
        let mut payload = vec![
            ("id", Yaml::from("payload")),
            ("size-eos", Yaml::Bool(true)),
        ];
        if !cases.is_empty() {
            payload.push((
                "type",
                map([
                    ("switch-on", Yaml::from("tag")),
                    ("cases", Yaml::Map(cases)),
                ]),
            ));
        }
        let catch_all = match &u.catch_all {
            Some(c) => format!(
                " A tag of no variant is kept by the catch-all `{c}`: `payload` is its bytes."
            ),
            None => String::new(),
        };
        payload.push((
            "doc",
            format!("The variant's message, to the end of the region; a unit variant has none (no bytes).{catch_all}").into(),
        ));
        let tag = primitive(&u.tag).unwrap_or("u1");
        let mut tag_keys = vec![
            ("id", Yaml::from("tag")),
            ("type", tag.into()),
            ("enum", tag_enum.clone().into()),
        ];
        // Without a catch-all, a tag of no variant is an error (`UnknownVariant`).
        if u.catch_all.is_none() {
            tag_keys.push(("valid", in_enum()));
        }
        let body = map([
            (
                "doc",
                format!(
                    "Tagged union `{}`, version {} (FORMAT.md §4.10): the tag, then the payload.",
                    u.name, u.version
                )
                .into(),
            ),
            ("seq", Yaml::List(vec![map(tag_keys), map(payload)])),
        ]);
        self.types.push((name.clone(), body));
        name
    }
}
