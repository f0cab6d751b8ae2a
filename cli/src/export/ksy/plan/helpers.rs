//! The exporter's own types: lists in their five shapes, options and arrays as
//! elements, tuples, messages and tuples as elements of a split list, and 128-bit
//! integers as two halves.

use super::{Placement, Plan, Slot, message_doc, message_slots, zero_or_one};
use crate::export::ksy::layout::{ListShape, in_tail, list_shape, slot_size};
use crate::export::ksy::yaml::{Yaml, map};
use wiremsg::TypeSchema;
use wiremsg::schema::Node;

impl<'s> Plan<'s> {
    /// The exporter's own type for `ty` (a list, option, array or tuple), declared on
    /// first use.
    pub(super) fn helper(
        &mut self,
        ty: &'s TypeSchema,
        path: &str,
        offset: usize,
    ) -> Option<String> {
        let key = match ty {
            // The maximum is a rule for writers and validation, not a byte.
            TypeSchema::BoundedList { element, .. } => TypeSchema::List(element.clone()),
            other => other.clone(),
        };
        if let Some(name) = self.helpers.get(&key) {
            return Some(name.clone());
        }
        let base = self.key(ty);
        let name = self
            .names
            .claim_free(&base, &format!("the type of `{}`", ty.display()));
        self.helpers.insert(key, name.clone());
        let body = match ty {
            TypeSchema::Array { element, len } => {
                let mut items = vec![("id", Yaml::from("items"))];
                items.extend(self.fixed_keys(element, path, offset)?);
                items.push(("repeat", "expr".into()));
                items.push(("repeat-expr", (*len).into()));
                map([
                    (
                        "doc",
                        format!(
                            "`{}`: {len} elements back to back (FORMAT.md §4.6).",
                            ty.display()
                        )
                        .into(),
                    ),
                    ("seq", Yaml::List(vec![map(items)])),
                ])
            }
            TypeSchema::Option(inner) => {
                let mut value = vec![("id", Yaml::from("value"))];
                value.extend(self.field_keys(inner, path, offset)?);
                value.push(("if", "present == 1".into()));
                map([
                    (
                        "doc",
                        format!("`{}`: a presence byte, then the value's slot, zeroed when absent (FORMAT.md §4.5).", ty.display()).into(),
                    ),
                    (
                        "seq",
                        Yaml::List(vec![
                            map([
                                ("id", "present".into()),
                                ("type", "u1".into()),
                                ("valid", zero_or_one()),
                            ]),
                            map(value),
                        ]),
                    ),
                ])
            }
            TypeSchema::List(element)
            | TypeSchema::BoundedList { element, .. }
            // A map's bytes are a list of its entries (FORMAT.md §6.7).
            | TypeSchema::Map(element) => self.list_body(ty, element, path, offset)?,
            TypeSchema::Tuple(elements) => {
                let (slots, block_length) = self.tuple_slots(elements);
                let doc = tuple_doc(ty);
                // A tuple has no versions: its block is whole (FORMAT.md §4.11).
                let tail = in_tail(self.set, ty);
                self.block_body(path, tail, block_length, &slots, doc, Placement::Alone)
            }
            _ => return None,
        };
        self.types.push((name.clone(), body));
        Some(name)
    }

    /// The slots of a tuple's block, its elements `e0`, `e1`, .., and its block
    /// length (with the `u16` block length field of a tuple with a tail, FORMAT.md
    /// §4.11).
    fn tuple_slots(&self, elements: &'s [Node<TypeSchema>]) -> (Vec<Slot<'s>>, usize) {
        let mut at = if elements.iter().any(|e| in_tail(self.set, e)) {
            2
        } else {
            0
        };
        let slots = elements
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let size = slot_size(self.set, e);
                let slot = Slot {
                    name: format!("e{i}"),
                    offset: at,
                    size,
                    ty: e,
                    since: 1,
                    reserved: false,
                };
                at += size;
                slot
            })
            .collect();
        (slots, at)
    }

    /// The type of message or tuple `ty` (with a tail) as an element of a split list
    /// (FORMAT.md §6.3), `<type>_in_list`, declared on first use: read over the
    /// element's `stride` bytes, its tail from the list's bytes, its parameter.
    fn split_element(&mut self, ty: &'s TypeSchema, path: &str) -> Option<String> {
        if let Some(name) = self.split_elements.get(ty) {
            return Some(name.clone());
        }
        let base = format!("{}_in_list", self.key(ty));
        let name = self.names.claim_free(
            &base,
            &format!("the type of `{}` in a split list", ty.display()),
        );
        self.split_elements.insert(ty.clone(), name.clone());
        let placed = " As an element of a split list (FORMAT.md §6.3): its tail start \
                      (`u32`), then its block, each field 4 bytes after its offset in the \
                      block; its tail data is in the list's bytes, at its end offsets from \
                      its origin.";
        let body = match ty {
            TypeSchema::Message(m) => {
                let m = self.set.message(&m.name)?;
                let doc = format!("{}{placed}", message_doc(m));
                let slots = message_slots(m);
                self.block_body(
                    &m.name,
                    true,
                    m.min_block_length,
                    &slots,
                    doc,
                    Placement::InSplitList,
                )
            }
            TypeSchema::Tuple(elements) => {
                let (slots, block_length) = self.tuple_slots(elements);
                let doc = format!("{}{placed}", tuple_doc(ty));
                self.block_body(
                    path,
                    true,
                    block_length,
                    &slots,
                    doc,
                    Placement::InSplitList,
                )
            }
            _ => return None,
        };
        self.types.push((name.clone(), body));
        Some(name)
    }

    fn list_body(
        &mut self,
        ty: &'s TypeSchema,
        element: &'s TypeSchema,
        path: &str,
        offset: usize,
    ) -> Option<Yaml> {
        let bound = match ty {
            TypeSchema::BoundedList { max_len, .. } => {
                format!(" Writers write at most {max_len} elements (FORMAT.md §6.5).")
            }
            TypeSchema::Map(_) => " A map (FORMAT.md §6.7): its entries, `(key, value)` tuples \
                in strictly increasing key order (not checked here)."
                .into(),
            _ => String::new(),
        };
        let mut items = vec![("id", Yaml::from("items"))];
        Some(match list_shape(self.set, element) {
            ListShape::Packed => {
                items.extend(self.fixed_keys(element, path, offset)?);
                items.push(("repeat", "eos".into()));
                map([
                    ("doc", format!("`{}`, packed (FORMAT.md §6.1): the elements' slots back to back.{bound}", ty.display()).into()),
                    ("seq", Yaml::List(vec![map(items)])),
                ])
            }
            ListShape::Strided => {
                let min_block = match element {
                    TypeSchema::Message(m) => {
                        self.set.message(&m.name).map_or(1, |m| m.min_block_length)
                    }
                    other => slot_size(self.set, other),
                };
                let keys = self.fixed_keys(element, path, offset)?;
                // Each element is `stride` bytes: a newer writer's elements are longer.
                items.extend(keys.into_iter().filter(|(k, _)| *k != "size"));
                items.push(("size", "stride".into()));
                items.push(("repeat", "eos".into()));
                map([
                    ("doc", format!("`{}`, strided (FORMAT.md §6.2): a u16 stride, then elements of that many bytes; an empty list is no bytes at all.{bound}", ty.display()).into()),
                    (
                        "seq",
                        Yaml::List(vec![
                            map([
                                ("id", "stride".into()),
                                ("type", "u2".into()),
                                ("if", "_io.size > 0".into()),
                                // At least the element's version-1 block (`StrideTooSmall`).
                                ("valid", map([("min", min_block.into())])),
                            ]),
                            map(items),
                        ]),
                    ),
                ])
            }
            ListShape::Split => {
                // Each element's bytes are its tail start and block; its tail is read
                // from the list's bytes, `_io` here, which its type takes.
                let element_type = self.split_element(element, path)?;
                items.push(("type", format!("{element_type}(_io)").into()));
                items.push(("size", "stride".into()));
                items.push(("repeat", "expr".into()));
                items.push(("repeat-expr", "count".into()));
                let if_any = || ("if", Yaml::from("_io.size > 0"));
                map([
                    ("doc", format!("`{}`, split (FORMAT.md §6.3): each element's u32 tail start and its block, at a stride of 4 + the block length, then the elements' tail data, in order; an empty list is no bytes at all.{bound}", ty.display()).into()),
                    ("seq", Yaml::List(vec![map(items)])),
                    (
                        "instances",
                        map([
                            (
                                "first_tail_start",
                                map([("pos", Yaml::from(0usize)), ("type", "u4".into()), if_any()]),
                            ),
                            (
                                "block_length",
                                map([
                                    ("pos", Yaml::from(4usize)),
                                    ("type", "u2".into()),
                                    if_any(),
                                    ("doc", "The elements' block length: element 0's, which every element has.".into()),
                                ]),
                            ),
                            (
                                "stride",
                                map([
                                    ("value", "4 + block_length".into()),
                                    ("doc", "Bytes per element: its tail start and its block.".into()),
                                ]),
                            ),
                            (
                                "count",
                                map([
                                    ("value", "_io.size == 0 ? 0 : first_tail_start / stride".into()),
                                    ("doc", "Elements: element 0's tail data starts right after the blocks.".into()),
                                ]),
                            ),
                        ]),
                    ),
                ])
            }
            ListShape::Dense => {
                let TypeSchema::Union(u) = element else {
                    return None;
                };
                let (element_type, entry_type) = self.dense_types(u, path, offset)?;
                let t = u.tag_size();
                let if_any = || ("if", Yaml::from("_io.size > 0"));
                items.push(("type", element_type.into()));
                items.push(("size", "stride".into()));
                items.push(("repeat", "eos".into()));
                map([
                    ("doc", format!("`{}`, dense (FORMAT.md §6.8): a u16 stride, a u16 count of variant table entries, the entries (each a variant's tag and its payload's u16 block length), then elements of `stride` bytes (each its entry's index, then the payload's block, then padding); an empty list is no bytes at all.{bound}", ty.display()).into()),
                    (
                        "seq",
                        Yaml::List(vec![
                            map([
                                ("id", "stride".into()),
                                ("type", "u2".into()),
                                if_any(),
                                // An element holds its entry index (`StrideTooSmall`).
                                ("valid", map([("min", t.into())])),
                            ]),
                            map([
                                ("id", "entry_count".into()),
                                ("type", "u2".into()),
                                if_any(),
                                // Elements follow the table (`ListLengthMismatch`).
                                (
                                    "valid",
                                    map([("expr", Yaml::Str(format!("_io.size > 4 + _ * {}", t + 2)))]),
                                ),
                                ("doc", "Entries of the variant table.".into()),
                            ]),
                            map([
                                ("id", "entries".into()),
                                ("type", entry_type.into()),
                                ("repeat", "expr".into()),
                                ("repeat-expr", "entry_count".into()),
                                if_any(),
                            ]),
                            map(items),
                        ]),
                    ),
                ])
            }
            ListShape::Table => {
                let size = "(_index + 1 == count ? _io.size : starts[_index + 1]) - starts[_index]"
                    .to_owned();
                items.extend(self.region_keys(element, path, offset, size)?);
                items.push(("repeat", "expr".into()));
                items.push(("repeat-expr", "count".into()));
                map([
                    ("doc", format!("`{}`, a table list (FORMAT.md §6.4): u32 start offsets from the list's start, then the elements' regions, in order.{bound}", ty.display()).into()),
                    (
                        "seq",
                        Yaml::List(vec![
                            map([
                                ("id", "starts".into()),
                                ("type", "u4".into()),
                                ("repeat", "expr".into()),
                                ("repeat-expr", "count".into()),
                            ]),
                            map(items),
                        ]),
                    ),
                    (
                        "instances",
                        map([
                            (
                                "first_start",
                                map([("pos", Yaml::from(0usize)), ("type", "u4".into()), ("if", "_io.size > 0".into())]),
                            ),
                            (
                                "count",
                                map([
                                    ("value", "_io.size == 0 ? 0 : first_start / 4".into()),
                                    ("doc", "Elements: element 0 starts right after the table.".into()),
                                ]),
                            ),
                        ]),
                    ),
                ])
            }
        })
    }

    /// `u128` or `i128`: two 64-bit halves, since Kaitai's integers stop at 64 bits.
    pub(super) fn int128(&mut self, signed: bool) -> String {
        let ty = if signed {
            TypeSchema::I128
        } else {
            TypeSchema::U128
        };
        if let Some(name) = self.helpers.get(&ty) {
            return name.clone();
        }
        let rust = if signed { "i128" } else { "u128" };
        let name = self.names.claim_free(rust, rust);
        self.helpers.insert(ty, name.clone());
        let hi = if signed { "s8" } else { "u8" };
        self.types.push((
            name.clone(),
            map([
                (
                    "doc",
                    format!("`{rust}`, little-endian: the value is lo + hi × 2^64 (Kaitai's integers stop at 64 bits).").into(),
                ),
                (
                    "seq",
                    Yaml::List(vec![
                        map([("id", "lo".into()), ("type", "u8".into())]),
                        map([("id", "hi".into()), ("type", hi.into())]),
                    ]),
                ),
            ]),
        ));
        name
    }

    /// A readable, unique-enough stem for the exporter's own type reading `ty`.
    fn key(&self, ty: &TypeSchema) -> String {
        match ty {
            TypeSchema::Bool => "bool".into(),
            TypeSchema::Str => "str".into(),
            TypeSchema::FixedStr { len } => format!("fixed_str_{len}"),
            TypeSchema::FixedStrPadded { len, pad } => format!("fixed_str_{len}_pad_{pad}"),
            TypeSchema::Enum(e) => self
                .enums
                .get(e.name.as_ref())
                .map_or_else(|| "enum".into(), |(n, _)| n.clone()),
            TypeSchema::Message(m) => self
                .messages
                .get(m.name.as_ref())
                .cloned()
                .unwrap_or_else(|| "message".into()),
            TypeSchema::Union(u) => self
                .unions
                .get(u.name.as_ref())
                .map_or_else(|| "union".into(), |(n, _)| n.clone()),
            TypeSchema::Decimal { mantissa, scale } => {
                format!("decimal_{}_{scale}", self.key(mantissa))
            }
            TypeSchema::Nullable { value, null } => {
                let sign = if *null < 0 { "minus_" } else { "" };
                format!("{}_null_{sign}{}", self.key(value), null.unsigned_abs())
            }
            TypeSchema::Array { element, len } => format!("array_{len}_of_{}", self.key(element)),
            TypeSchema::Option(inner) => format!("option_of_{}", self.key(inner)),
            TypeSchema::List(inner) | TypeSchema::BoundedList { element: inner, .. } => {
                format!("list_of_{}", self.key(inner))
            }
            TypeSchema::Map(entry) => match entry.map_key() {
                Some((k, v)) => format!("map_of_{}_{}", self.key(k), self.key(v)),
                None => format!("map_of_{}", self.key(entry)),
            },
            TypeSchema::Tuple(elements) => {
                let parts: Vec<String> = elements.iter().map(|e| self.key(e)).collect();
                format!("tuple_of_{}", parts.join("_"))
            }
            number => number.display().to_string(),
        }
    }
}

/// The doc of tuple `ty`'s type.
fn tuple_doc(ty: &TypeSchema) -> String {
    format!(
        "Tuple `{}` (FORMAT.md §4.11): laid out as a message of version 1 whose fields `e0`, `e1`, .. are its elements.",
        ty.display()
    )
}
