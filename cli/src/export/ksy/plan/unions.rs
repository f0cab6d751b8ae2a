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
        let tag_enum = self.tag_enum(u, &name, path, offset);
        let mut payload = vec![
            ("id", Yaml::from("payload")),
            ("size-eos", Yaml::Bool(true)),
        ];
        if let Some(switch) = self.payload_switch(u, &tag_enum) {
            payload.push(("type", switch));
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

    /// The enum of union `u`'s tags (`<union>_tag`; `name` is the union's Kaitai
    /// type), declared on first use.
    fn tag_enum(&mut self, u: &'s UnionSchema, name: &str, path: &str, offset: usize) -> String {
        if let Some(tag_enum) = self.tag_enums.get(u.name.as_ref()) {
            return tag_enum.clone();
        }
        let tag_enum = self
            .names
            .claim_free(&format!("{name}_tag"), &format!("the tags of `{}`", u.name));
        self.tag_enums.insert(&u.name, tag_enum.clone());
        let variants: Vec<(&str, u64)> = u
            .variants
            .iter()
            .map(|v| (v.name.as_ref(), v.tag))
            .collect();
        if let Some(values) = self.variant_names(&variants, &u.name, path, offset) {
            self.enum_defs.push((tag_enum.clone(), values));
        }
        tag_enum
    }

    /// The payload's `type`: a switch on `tag` to each variant's message; `None` if
    /// no variant has one (the payload is then bytes, as a unit variant's is).
    fn payload_switch(&mut self, u: &'s UnionSchema, tag_enum: &str) -> Option<Yaml> {
        let mut cases = Vec::new();
        for v in u.variants.iter() {
            if let (Some(payload), Some(variant)) = (&v.payload, snake(&v.name)) {
                let ty = self.message_ref(&payload.name);
                cases.push((Yaml::Str(format!("{tag_enum}::{variant}")), Yaml::Str(ty)));
            }
        }
        (!cases.is_empty()).then(|| {
            map([
                ("switch-on", Yaml::from("tag")),
                ("cases", Yaml::Map(cases)),
            ])
        })
    }

    /// The types of fixed-size union `u`'s dense list (FORMAT.md §6.8), declared on
    /// first use: an element (`<union>_in_dense_list`: its entry index, checked
    /// against the table, and its payload, of its entry's block length, switched on
    /// its entry's tag) and an entry of the variant table (`<union>_dense_entry`: a
    /// tag and a block length, checked against the list's stride). Both read their
    /// list, the dense list type, as `_parent`. Returns `(element, entry)`.
    pub(super) fn dense_types(
        &mut self,
        u: &'s UnionSchema,
        path: &str,
        offset: usize,
    ) -> Option<(String, String)> {
        if let Some(types) = self.dense_elements.get(u.name.as_ref()) {
            return Some(types.clone());
        }
        let name = self
            .unions
            .get(u.name.as_ref())
            .map(|(n, _)| n.clone())
            .filter(|n| !n.is_empty())?;
        let element = self.names.claim_free(
            &format!("{name}_in_dense_list"),
            &format!("the type of `{}` in a dense list", u.name),
        );
        let entry = self.names.claim_free(
            &format!("{name}_dense_entry"),
            &format!("the variant table entry of `{}` in a dense list", u.name),
        );
        self.dense_elements
            .insert(&u.name, (element.clone(), entry.clone()));
        let tag_enum = self.tag_enum(u, &name, path, offset);
        let repr = primitive(&u.tag).unwrap_or("u1");
        let t = u.tag_size();
        // The element's entry must be in the table, and its tag a variant's
        // (`VariantEntryOutOfRange`, `UnknownVariant`); entries no element uses are
        // not checked (FORMAT.md §6.8), so the tag is checked here, not in the entry.
        let known: Vec<String> = u
            .variants
            .iter()
            .filter_map(|v| snake(&v.name))
            .map(|v| format!("_parent.entries[_].tag == {tag_enum}::{v}"))
            .collect();
        let known = if known.is_empty() {
            "false".to_owned()
        } else {
            known.join(" or ")
        };
        let mut payload = vec![
            ("id", Yaml::from("payload")),
            ("size", "block_length".into()),
        ];
        if let Some(switch) = self.payload_switch(u, &tag_enum) {
            payload.push(("type", switch));
        }
        payload.push((
            "doc",
            "The variant's message: the block of its entry's block length (FORMAT.md §6.8); \
             a unit variant has none (no bytes). The element's bytes after it, to the \
             stride, are not read."
                .into(),
        ));
        let blocks: Vec<String> = u
            .variants
            .iter()
            .map(|v| {
                let block = v
                    .payload
                    .as_ref()
                    .and_then(|p| self.set.message(&p.name))
                    .map_or(0, |m| m.block_length);
                format!("{} {block}", v.name)
            })
            .collect();
        let element_body = map([
            (
                "doc",
                format!(
                    "Tagged union `{}`, version {}, as an element of a dense list (FORMAT.md \
                     §6.8): the index of its variant's entry in the list's variant table, \
                     then the payload's block. Read over the element's `stride` bytes; its \
                     list is `_parent`.",
                    u.name, u.version
                )
                .into(),
            ),
            (
                "seq",
                Yaml::List(vec![
                    map([
                        ("id", Yaml::from("index")),
                        ("type", repr.into()),
                        (
                            "valid",
                            map([(
                                "expr",
                                Yaml::Str(format!("_ < _parent.entry_count and ({known})")),
                            )]),
                        ),
                        (
                            "doc",
                            "The entry of the variant in the list's table: below the \
                             entries, and the entry's tag a variant's."
                                .into(),
                        ),
                    ]),
                    map(payload),
                ]),
            ),
            (
                "instances",
                map([
                    (
                        "tag",
                        map([
                            ("value", Yaml::from("_parent.entries[index].tag")),
                            ("doc", "The variant's tag, from its entry.".into()),
                        ]),
                    ),
                    (
                        "block_length",
                        map([
                            ("value", Yaml::from("_parent.entries[index].block_length")),
                            (
                                "doc",
                                "The payload's block length, from its entry: the writer's \
                                 version of the variant's message."
                                    .into(),
                            ),
                        ]),
                    ),
                ]),
            ),
        ]);
        let entry_body = map([
            (
                "doc",
                format!(
                    "An entry of the variant table of a dense list of `{}` (FORMAT.md §6.8): \
                     a variant's tag and its payload's block length (a writer of this \
                     schema writes one entry per variant, in order: {}).",
                    u.name,
                    blocks.join(", ")
                )
                .into(),
            ),
            (
                "seq",
                Yaml::List(vec![
                    map([
                        ("id", Yaml::from("tag")),
                        ("type", repr.into()),
                        ("enum", tag_enum.clone().into()),
                        (
                            "doc",
                            "The variant's tag (not checked here: a newer writer's table \
                             may hold variants this reader lacks, which its elements do \
                             not use)."
                                .into(),
                        ),
                    ]),
                    map([
                        ("id", Yaml::from("block_length")),
                        ("type", "u2".into()),
                        // `T + B <= S` (`StrideTooSmall`).
                        (
                            "valid",
                            map([("expr", Yaml::Str(format!("{t} + _ <= _parent.stride")))]),
                        ),
                        (
                            "doc",
                            "The payload's block length (0 for a unit variant): the index \
                             and it fit in the stride."
                                .into(),
                        ),
                    ]),
                ]),
            ),
        ]);
        self.types.push((element.clone(), element_body));
        self.types.push((entry.clone(), entry_body));
        Some((element, entry))
    }
}
