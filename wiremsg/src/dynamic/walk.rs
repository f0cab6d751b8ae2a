//! Validation of bytes against a schema: the checks of the typed views
//! (`validated.rs`, `layout.rs`, the kinds), in the same order, with the same errors
//! (kind, field path, byte offset). It can also write down what it walked, one row
//! per part, for [`annotate`](super::annotate).

use super::annotate::Row;
use super::value::{DynList, cmp_keys, map_entries, read, unpadded, unpadded_by};
use crate::list::{shape_of, strided_header, table_count, table_element};
// The split-list checks the typed lists make (`kinds/list.rs` no longer re-exports
// them), so that both readers fail alike.
use crate::mode::sealed::Place;
use crate::primitives_le::{read_u16, read_u32};
use crate::schema::shape::{block_size, encoding, in_tail, message_of};
use crate::schema::{MessageSchema, SchemaSet, TypeSchema, UnionSchema, UnionVariantSchema};
use crate::trust::shape::dense;
use crate::trust::shape::list::{split_element, split_header};
use crate::validated::{bad_end_offset, block_length_too_small, truncated};
use crate::{Error, ErrorKind, ListEncoding, MAX_DEPTH};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// The rows of an annotation, kept within a budget of heap bytes.
pub(super) struct Rows {
    pub(super) rows: Vec<Row>,
    /// The bytes the rows may take.
    pub(super) budget: usize,
    /// The bytes the rows written so far take, or would take (past the budget).
    pub(super) needed: usize,
    /// The offset of the first row left out, the budget spent.
    pub(super) cut_at: Option<usize>,
}

impl Rows {
    /// No rows yet, `budget` bytes for them.
    pub(super) fn new(budget: usize) -> Self {
        Rows {
            rows: Vec::new(),
            budget,
            needed: 0,
            cut_at: None,
        }
    }

    /// The heap bytes a row takes, counted twice for its slot (a vector of rows has
    /// up to as much room again as it holds).
    fn cost(row: &Row) -> usize {
        2 * core::mem::size_of::<Row>() + row.name.capacity() + row.meaning.capacity()
    }

    /// Keeps `row` if the budget has room for it; else counts it and drops it.
    pub(super) fn push(&mut self, row: Row) {
        self.needed = self.needed.saturating_add(Self::cost(&row));
        if self.cut_at.is_none() && self.needed <= self.budget {
            self.rows.push(row);
        } else if self.cut_at.is_none() {
            self.cut_at = Some(row.offset);
        }
    }
}

/// One walk over one buffer: validation, and the rows of an annotation if asked for.
pub(super) struct Walk<'s, 'r> {
    set: &'s SchemaSet,
    rows: Option<&'r mut Rows>,
}

impl<'s, 'r> Walk<'s, 'r> {
    /// A walk that only validates.
    pub(super) fn new(set: &'s SchemaSet) -> Self {
        Walk { set, rows: None }
    }

    /// A walk that also appends a row for each part it validated to `rows`.
    pub(super) fn annotating(set: &'s SchemaSet, rows: &'r mut Rows) -> Self {
        Walk {
            set,
            rows: Some(rows),
        }
    }

    fn row(&mut self, offset: usize, len: usize, depth: usize, name: &str, meaning: String) {
        if let Some(rows) = self.rows.as_deref_mut() {
            if rows.cut_at.is_some() {
                // Past the budget: only counted.
                rows.needed = rows
                    .needed
                    .saturating_add(2 * core::mem::size_of::<Row>() + name.len() + meaning.len());
                return;
            }
            rows.push(Row {
                offset,
                len,
                depth,
                name: name.to_string(),
                meaning,
            });
        }
    }

    fn rows_len(&self) -> usize {
        self.rows.as_ref().map_or(0, |rows| rows.rows.len())
    }

    /// Appends `rows` (moved out) to the rows written.
    fn append(&mut self, rows: &mut Vec<Row>) {
        if let Some(out) = self.rows.as_deref_mut() {
            out.rows.append(rows);
        }
    }

    /// A label, made only when rows are written.
    fn label(&self, make: impl FnOnce() -> String) -> String {
        if self.rows.is_some() {
            make()
        } else {
            String::new()
        }
    }

    /// Validates one value of type `ty` alone in `place`.
    pub(super) fn value_of(&mut self, ty: &'s TypeSchema, place: Place<'s>) -> Result<(), Error> {
        self.value(ty, place, 0, 0, 0, "")
    }

    /// Validates `bytes` as one message `m` (FORMAT.md §2, §3, §5), as
    /// `validated::validate_message` does. `base` is where `bytes` start in the
    /// buffer (for rows only: errors are relative, and shifted by the caller).
    pub(super) fn message(
        &mut self,
        m: &'s MessageSchema,
        bytes: &'s [u8],
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        check_depth(depth)?;
        let declared = declared_block(m, bytes)?;
        if m.has_block_length {
            let meaning = self.label(|| block_length_meaning(declared, m.block_length));
            self.row(base, 2, indent, "block length", meaning);
        }
        let parts = Parts {
            block: bytes.get(..declared).unwrap_or_default(),
            block_at: 0,
            origin: bytes,
        };
        let mut tail_rows = Vec::new();
        let result = self.message_parts(m, parts, base, depth, indent, &mut tail_rows);
        // The rows of the tail come after those of the block, in byte order,
        // although each region is validated with its slot (as the typed view does,
        // so that the first error is the same).
        self.append(&mut tail_rows);
        result
    }

    /// Validates an element of a split list (FORMAT.md §6.3) as message `m`, as the
    /// typed `validate_split_block` does: its block, whose block length the list
    /// checked, and its tail, in `parts`; errors count from the origin. `base` is
    /// where the origin is in the buffer; the rows of its tail go to `tail_rows`.
    fn split_message(
        &mut self,
        m: &'s MessageSchema,
        parts: Parts<'s>,
        base: usize,
        depth: u32,
        indent: usize,
        tail_rows: &mut Vec<Row>,
    ) -> Result<(), Error> {
        check_depth(depth)?;
        let declared = parts.block.len();
        let meaning = self.label(|| block_length_meaning(declared, m.block_length));
        let at = base.wrapping_add(parts.block_at);
        self.row(at, 2, indent, "block length", meaning);
        self.message_parts(m, parts, base, depth, indent, tail_rows)
    }

    /// The fields of message `m` in `parts`, whose block length was checked, and the
    /// row of the block bytes of a newer version.
    fn message_parts(
        &mut self,
        m: &'s MessageSchema,
        parts: Parts<'s>,
        base: usize,
        depth: u32,
        indent: usize,
        tail_rows: &mut Vec<Row>,
    ) -> Result<(), Error> {
        let declared = parts.block.len();
        let known_end = declared.min(m.block_length);
        let result = self.fields(m, parts, base, depth, indent, tail_rows);
        if result.is_ok() && m.has_block_length && declared > known_end {
            let meaning = self.label(|| "fields of a newer version".into());
            let len = declared - known_end;
            let at = base.wrapping_add(parts.block_at.wrapping_add(known_end));
            self.row(at, len, indent, "(newer)", meaning);
        }
        result
    }

    /// Validates the fields of message `m` in `parts` (its block, as long as the
    /// block length on the wire or as far as the bytes go); the rows of tail regions
    /// go to `tail_rows`.
    fn fields(
        &mut self,
        m: &'s MessageSchema,
        parts: Parts<'s>,
        base: usize,
        depth: u32,
        indent: usize,
        tail_rows: &mut Vec<Row>,
    ) -> Result<(), Error> {
        let mut prev_end = parts.block.len();
        for field in m.fields.iter() {
            prev_end = self.field(m, field, parts, prev_end, base, depth, indent, tail_rows)?;
        }
        Ok(())
    }

    /// Validates field `at` of the root message `m` over `bytes` alone, as an
    /// on-demand read of it checks it (`trust/lazy.rs`, `region_from_origin`): the
    /// block length was checked (`declared`); a field in the tail starts at the end
    /// offset of the tail field before it, checked to be inside the tail, or at the
    /// block's end.
    pub(super) fn root_field(
        &mut self,
        m: &'s MessageSchema,
        bytes: &'s [u8],
        declared: usize,
        at: usize,
    ) -> Result<(), Error> {
        let field = &m.fields[at];
        let mut start = declared;
        if in_tail(self.set, &field.ty) && field.offset + field.size <= declared {
            // A tail field before one the block holds is held too (§5).
            if let Some(before) = m.fields[..at].iter().rfind(|f| in_tail(self.set, &f.ty)) {
                let slot = before.offset + before.size - 4;
                start = read_u32(bytes, slot).unwrap_or(0) as usize;
                if start < declared || start > bytes.len() {
                    return Err(bad_end_offset(start, declared, bytes.len(), slot, true)
                        .in_field_named(&before.name));
                }
            }
        }
        let parts = Parts {
            block: bytes.get(..declared).unwrap_or_default(),
            block_at: 0,
            origin: bytes,
        };
        self.field(m, field, parts, start, 0, 0, 0, &mut Vec::new())
            .map(|_| ())
    }

    /// Validates field `field` of message `m` in `parts` (its block, as long as the
    /// block length on the wire or as far as the bytes go), and its tail region, if
    /// it has one, from `start`: returns where the next tail field's region starts
    /// (its region's end, or `start` again). Its tail region's rows go to
    /// `tail_rows`.
    #[allow(clippy::too_many_arguments)]
    fn field(
        &mut self,
        m: &'s MessageSchema,
        field: &'s crate::schema::FieldSchema,
        parts: Parts<'s>,
        start: usize,
        base: usize,
        depth: u32,
        indent: usize,
        tail_rows: &mut Vec<Row>,
    ) -> Result<usize, Error> {
        let known_end = parts.block.len().min(m.block_length);
        let (off, size) = (field.offset, field.size);
        let end = off + size;
        let block_at = parts.block_at.wrapping_add(off);
        if end > known_end {
            // A block that ends before a field leaves it (and every later one)
            // absent; one that ends inside it is no version's block (§5).
            if off < known_end {
                return Err(block_length_too_small(known_end, end, field.since)
                    .shift(parts.block_at)
                    .in_field_named(&field.name));
            }
            let meaning = self.label(|| format!("absent (since version {})", field.since));
            let at = base.wrapping_add(parts.block_at.wrapping_add(known_end));
            self.row(at, 0, indent, &field.name, meaning);
            return Ok(start);
        }
        let block = parts.block.get(off..end).unwrap_or_default();
        if !in_tail(self.set, &field.ty) {
            let name = self.label(|| field.name.to_string());
            self.value(
                &field.ty,
                Place::block(block, block_at),
                base,
                depth,
                indent,
                &name,
            )
            .map_err(|e| e.in_field_named(&field.name))?;
            return Ok(start);
        }
        let slot = end.saturating_sub(4);
        let region_end = read_u32(parts.block, slot).unwrap_or(0) as usize;
        let meaning = self.label(|| slot_meaning(&field.ty, block, start, region_end));
        self.row(
            base.wrapping_add(block_at),
            size,
            indent,
            &field.name,
            meaning,
        );
        let Some(region) = parts.origin.get(start..region_end) else {
            let slot_at = parts.block_at.wrapping_add(slot);
            let len = parts.origin.len();
            return Err(bad_end_offset(region_end, start, len, slot_at, depth == 0)
                .in_field_named(&field.name));
        };
        let place = Place {
            block,
            block_at,
            region,
            region_at: start,
        };
        let name = self.label(|| format!("{} (tail)", field.name));
        let from = self.rows_len();
        let result = self.value(&field.ty, place, base, depth, indent, &name);
        if let Some(rows) = self.rows.as_deref_mut().map(|r| &mut r.rows) {
            tail_rows.extend(rows.drain(from..));
        }
        result.map_err(|e| e.in_field_named(&field.name))?;
        Ok(region_end)
    }

    /// Validates one value of type `ty` at `place` (offsets relative to the message
    /// that starts at `base`), as the kind of `ty` does.
    fn value(
        &mut self,
        ty: &'s TypeSchema,
        place: Place<'s>,
        base: usize,
        depth: u32,
        indent: usize,
        name: &str,
    ) -> Result<(), Error> {
        match ty {
            TypeSchema::Bool => match place.block.first() {
                Some(0 | 1) | None => self.scalar(ty, place, base, indent, name),
                Some(&value) => Err(Error::new(ErrorKind::InvalidBool { value }, place.block_at)),
            },
            TypeSchema::FixedStr { .. } => match core::str::from_utf8(unpadded(place.block)) {
                Ok(_) => self.scalar(ty, place, base, indent, name),
                Err(e) => Err(Error::new(
                    ErrorKind::InvalidUtf8 {
                        valid_up_to: e.valid_up_to(),
                    },
                    place.block_at.wrapping_add(e.valid_up_to()),
                )),
            },
            TypeSchema::FixedStrPadded { pad, .. } => {
                match core::str::from_utf8(unpadded_by(place.block, *pad)) {
                    Ok(_) => self.scalar(ty, place, base, indent, name),
                    Err(e) => Err(Error::new(
                        ErrorKind::InvalidUtf8 {
                            valid_up_to: e.valid_up_to(),
                        },
                        place.block_at.wrapping_add(e.valid_up_to()),
                    )),
                }
            }
            TypeSchema::Enum(e) => {
                let raw = read_raw(place.block, e.repr.number_size().unwrap_or(0));
                if e.variant_name(raw).is_none() && e.catch_all.is_none() {
                    return Err(Error::new(
                        ErrorKind::UnknownEnumValue {
                            enum_name: e.name.clone(),
                            value: raw,
                        },
                        place.block_at,
                    ));
                }
                self.scalar(ty, place, base, indent, name)
            }
            TypeSchema::Str => match core::str::from_utf8(place.region) {
                Ok(text) => {
                    if !text.is_empty() {
                        let meaning = self.label(|| format!("{text:?}"));
                        self.row(base + place.region_at, text.len(), indent, name, meaning);
                    }
                    Ok(())
                }
                Err(e) => Err(Error::new(
                    ErrorKind::InvalidUtf8 {
                        valid_up_to: e.valid_up_to(),
                    },
                    place.region_at + e.valid_up_to(),
                )),
            },
            TypeSchema::Option(inner) => match place.block.first() {
                Some(1) => {
                    let inner_place = Place {
                        block: place.block.get(1..).unwrap_or_default(),
                        block_at: place.block_at.wrapping_add(1),
                        ..place
                    };
                    if !in_tail(self.set, inner) {
                        let meaning = self.label(|| "present".into());
                        self.row(base.wrapping_add(place.block_at), 1, indent, name, meaning);
                    }
                    self.value(inner, inner_place, base, depth, indent, name)
                }
                Some(0) | None => {
                    if !in_tail(self.set, inner) {
                        let meaning = self.label(|| "absent (zeroed)".into());
                        let len = place.block.len();
                        self.row(
                            base.wrapping_add(place.block_at),
                            len,
                            indent,
                            name,
                            meaning,
                        );
                    }
                    Ok(())
                }
                Some(&value) => Err(Error::new(
                    ErrorKind::InvalidPresence { value },
                    place.block_at,
                )),
            },
            TypeSchema::Array { element, .. } => {
                let size = block_size(self.set, element);
                let meaning = self.label(|| ty.display().to_string());
                let row_at = self.rows_len();
                self.row(
                    base.wrapping_add(place.block_at),
                    place.block.len(),
                    indent,
                    name,
                    meaning,
                );
                if size > 0 {
                    for (index, block) in place.block.chunks_exact(size).enumerate() {
                        let element_place =
                            Place::block(block, place.block_at.wrapping_add(index * size));
                        let label = self.label(|| format!("[{index}]"));
                        self.value(element, element_place, base, depth, indent + 1, &label)
                            .map_err(|e| e.in_element(index))?;
                    }
                }
                self.fold_scalars(row_at, element);
                Ok(())
            }
            TypeSchema::List(element) | TypeSchema::BoundedList { element, .. } => {
                if !place.region.is_empty() {
                    let meaning = self.label(|| list_meaning(self.set, element, place.region));
                    let len = place.region.len();
                    self.row(base + place.region_at, len, indent, name, meaning);
                }
                self.list(
                    element,
                    place.region,
                    place.region_at,
                    base,
                    depth,
                    indent + 1,
                )?;
                // As the bounded kind: the list is valid, then its count is checked.
                if let TypeSchema::BoundedList { max_len, .. } = ty {
                    let len = list_len(self.set, element, place.region);
                    if len > *max_len {
                        return Err(Error::new(
                            ErrorKind::ListTooLong { len, max: *max_len },
                            place.region_at,
                        ));
                    }
                }
                Ok(())
            }
            TypeSchema::Map(entry) => {
                // As the map kind: a list of its entries, then its keys in order.
                if !place.region.is_empty() {
                    let meaning = self.label(|| {
                        let len = DynList::new(self.set, entry, place.region).len();
                        format!(
                            "{}, {len} entries, {} bytes",
                            ty.display(),
                            place.region.len()
                        )
                    });
                    let len = place.region.len();
                    self.row(base + place.region_at, len, indent, name, meaning);
                }
                self.list(
                    entry,
                    place.region,
                    place.region_at,
                    base,
                    depth,
                    indent + 1,
                )?;
                map_order(self.set, entry, place.region, place.region_at)
            }
            TypeSchema::Message(_) => {
                let Some(m) = message_of(self.set, ty) else {
                    return Err(invalid_schema());
                };
                let (bytes, at, depth) = if m.has_block_length {
                    (place.region, place.region_at, depth + 1)
                } else {
                    (place.block, place.block_at, depth)
                };
                if !bytes.is_empty() || !m.has_block_length {
                    let meaning = self.label(|| format!("{}, {} bytes", m.name, bytes.len()));
                    self.row(base.wrapping_add(at), bytes.len(), indent, name, meaning);
                }
                self.message(m, bytes, base.wrapping_add(at), depth, indent + 1)
                    .map_err(|e| e.shift(at))
            }
            TypeSchema::Union(u) => {
                self.union(u, place.region, place.region_at, base, depth, indent)
            }
            TypeSchema::Tuple(elements) => {
                // Laid out as a message of version 1 whose fields are the elements
                // (FORMAT.md §4.11), counted in the depth as one when in the tail.
                let tail = in_tail(self.set, ty);
                let (bytes, at, depth) = if tail {
                    (place.region, place.region_at, depth + 1)
                } else {
                    (place.block, place.block_at, depth)
                };
                let meaning = self.label(|| format!("{}, {} bytes", ty.display(), bytes.len()));
                self.row(base.wrapping_add(at), bytes.len(), indent, name, meaning);
                self.tuple(
                    elements,
                    tail,
                    bytes,
                    base.wrapping_add(at),
                    depth,
                    indent + 1,
                )
                .map_err(|e| e.shift(at))
            }
            _ => self.scalar(ty, place, base, indent, name),
        }
    }

    /// Validates `bytes` (at `at` in the message at `base`) as one value of union
    /// `u`, as `union::validate_union` does (FORMAT.md §4.10).
    fn union(
        &mut self,
        u: &'s UnionSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        let size = u.tag_size();
        let Some(payload) = bytes.get(size..) else {
            return Err(truncated(size, bytes.len()).shift(at));
        };
        let tag = read_raw(bytes, size);
        let Some(variant) = u.variant(tag) else {
            let Some(other) = &u.catch_all else {
                return Err(Error::new(
                    ErrorKind::UnknownVariant {
                        union_name: u.name.clone(),
                        tag,
                    },
                    at,
                ));
            };
            let meaning = self.label(|| format!("tag {tag}: kept by {other}"));
            self.row(base + at, size, indent, "tag", meaning);
            if !payload.is_empty() {
                let meaning = self.label(|| format!("{} bytes, kept", payload.len()));
                self.row(base + at + size, payload.len(), indent, "bytes", meaning);
            }
            return Ok(());
        };
        let meaning = self.label(|| format!("tag {tag}: {}", variant.name));
        self.row(base + at, size, indent, "tag", meaning);
        self.payload(variant, payload, at + size, base, depth, indent)
    }

    /// Validates `payload` (at `start` in the message at `base`) as the payload of
    /// union variant `variant`, one nesting level below `depth`: nothing for a unit
    /// variant, else the variant's message, its errors in the variant's name, as
    /// `union::validate_variant` does (FORMAT.md §4.10). The payload of a union value
    /// and of an element of a dense list (§6.8) alike.
    fn payload(
        &mut self,
        variant: &'s UnionVariantSchema,
        payload: &'s [u8],
        start: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        let Some(m) = &variant.payload else {
            return Ok(());
        };
        let Some(m) = self.set.message(&m.name) else {
            return Err(invalid_schema());
        };
        let meaning = self.label(|| format!("{}, {} bytes", m.name, payload.len()));
        self.row(base + start, payload.len(), indent, &variant.name, meaning);
        self.message(m, payload, base + start, depth + 1, indent + 1)
            .map_err(|e| e.in_field_named(&variant.name).shift(start))
    }

    /// Validates `bytes` as a tuple of `elements`, with a block length field if
    /// `prefixed`, as `validated::validate_block` does for the tuple's field list: a
    /// message of version 1 whose fields are the elements, so the block is whole
    /// (there are no absent elements). `base` is where `bytes` start in the buffer.
    fn tuple(
        &mut self,
        elements: &'s [crate::Node<TypeSchema>],
        prefixed: bool,
        bytes: &'s [u8],
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        check_depth(depth)?;
        let prefix = if prefixed { 2 } else { 0 };
        let full = tuple_block(self.set, elements, prefix);
        let declared = if prefixed {
            let Some(declared) = bytes.first_chunk::<2>() else {
                return Err(truncated(2, bytes.len()));
            };
            let declared = usize::from(u16::from_le_bytes(*declared));
            if declared < full {
                return Err(block_length_too_small(declared, full, 1));
            }
            if declared > bytes.len() {
                return Err(truncated(declared, bytes.len()));
            }
            let meaning = self.label(|| declared.to_string());
            self.row(base, 2, indent, "block length", meaning);
            declared
        } else {
            if bytes.len() < full {
                return Err(truncated(full, bytes.len()));
            }
            full
        };
        let parts = Parts {
            block: bytes.get(..declared).unwrap_or_default(),
            block_at: 0,
            origin: bytes,
        };
        let mut tail_rows = Vec::new();
        let result = self.tuple_parts(elements, prefix, parts, base, depth, indent, &mut tail_rows);
        self.append(&mut tail_rows);
        result
    }

    /// Validates an element of a split list (FORMAT.md §6.3) as a tuple of
    /// `elements`, as the tuple kind's `validate_split` does: its block (at least the
    /// tuple's, whose block length the list checked) and tail in `parts`; errors count
    /// from the origin, which is at `base` in the buffer. The rows of its tail go to
    /// `tail_rows`.
    #[allow(clippy::too_many_arguments)]
    fn split_tuple(
        &mut self,
        elements: &'s [crate::Node<TypeSchema>],
        parts: Parts<'s>,
        base: usize,
        depth: u32,
        indent: usize,
        tail_rows: &mut Vec<Row>,
    ) -> Result<(), Error> {
        let full = tuple_block(self.set, elements, 2);
        let declared = parts.block.len();
        if declared < full {
            return Err(block_length_too_small(declared, full, 1).shift(parts.block_at));
        }
        check_depth(depth)?;
        let meaning = self.label(|| declared.to_string());
        let at = base.wrapping_add(parts.block_at);
        self.row(at, 2, indent, "block length", meaning);
        self.tuple_parts(elements, 2, parts, base, depth, indent, tail_rows)
    }

    /// The elements of a tuple in `parts`, the first one's slot at `prefix`; the rows
    /// of tail regions go to `tail_rows`.
    #[allow(clippy::too_many_arguments)]
    fn tuple_parts(
        &mut self,
        elements: &'s [crate::Node<TypeSchema>],
        prefix: usize,
        parts: Parts<'s>,
        base: usize,
        depth: u32,
        indent: usize,
        tail_rows: &mut Vec<Row>,
    ) -> Result<(), Error> {
        let names = crate::tuple::ELEMENT_NAMES;
        let mut prev_end = parts.block.len();
        let mut off = prefix;
        for (i, element) in elements.iter().enumerate() {
            let name = names.get(i).copied().unwrap_or("?");
            let size = block_size(self.set, element);
            let end = off + size;
            let block = parts.block.get(off..end).unwrap_or_default();
            let block_at = parts.block_at.wrapping_add(off);
            if !in_tail(self.set, element) {
                let label = self.label(|| name.into());
                let place = Place::block(block, block_at);
                self.value(element, place, base, depth, indent, &label)
                    .map_err(|e| e.in_field(name))?;
            } else {
                let slot = end.saturating_sub(4);
                let region_end = read_u32(parts.block, slot).unwrap_or(0) as usize;
                let start = prev_end;
                let meaning = self.label(|| slot_meaning(element, block, start, region_end));
                self.row(base.wrapping_add(block_at), size, indent, name, meaning);
                let Some(region) = parts.origin.get(start..region_end) else {
                    let slot_at = parts.block_at.wrapping_add(slot);
                    let len = parts.origin.len();
                    return Err(
                        bad_end_offset(region_end, start, len, slot_at, depth == 0).in_field(name)
                    );
                };
                prev_end = region_end;
                let place = Place {
                    block,
                    block_at,
                    region,
                    region_at: start,
                };
                let label = self.label(|| format!("{name} (tail)"));
                let from = self.rows_len();
                let result = self
                    .value(element, place, base, depth, indent, &label)
                    .map_err(|e| e.in_field(name));
                if let Some(rows) = self.rows.as_deref_mut().map(|r| &mut r.rows) {
                    tail_rows.extend(rows.drain(from..));
                }
                result?;
            }
            off = end;
        }
        Ok(())
    }

    /// The row of a validated fixed-size value.
    fn scalar(
        &mut self,
        ty: &'s TypeSchema,
        place: Place<'s>,
        base: usize,
        indent: usize,
        name: &str,
    ) -> Result<(), Error> {
        if self.rows.is_some() {
            let value = read(self.set, ty, place.block, &[]);
            let meaning = value.to_string();
            self.row(
                base.wrapping_add(place.block_at),
                place.block.len(),
                indent,
                name,
                meaning,
            );
        }
        Ok(())
    }

    /// An array of scalars reads better as one row: the element rows after `from`
    /// are dropped, their values shown in the array's row.
    fn fold_scalars(&mut self, from: usize, element: &TypeSchema) {
        let scalar = !matches!(
            element,
            TypeSchema::Array { .. } | TypeSchema::Option(_) | TypeSchema::Message(_)
        );
        if let Some(rows) = self.rows.as_deref_mut().map(|r| &mut r.rows) {
            if scalar && rows.len() > from {
                let values: Vec<String> = rows.drain(from + 1..).map(|row| row.meaning).collect();
                rows[from].meaning = format!("[{}]", values.join(", "));
            }
        }
    }

    /// Validates a list region (FORMAT.md §6), as `list::validate_list` does. `at` is
    /// the region's offset in its message.
    fn list(
        &mut self,
        element: &'s TypeSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        if bytes.is_empty() {
            return Ok(());
        }
        match encoding(self.set, element) {
            ListEncoding::Packed => self.packed(element, bytes, at, base, depth, indent),
            ListEncoding::Strided => self.strided(element, bytes, at, base, depth, indent),
            ListEncoding::Table => self.table(element, bytes, at, base, depth, indent),
            ListEncoding::Split => self.split(element, bytes, at, base, depth, indent),
            ListEncoding::Dense => self.dense(element, bytes, at, base, depth, indent),
        }
    }

    /// Validates a dense list (FORMAT.md §6.8) of a fixed-size union, as
    /// `list::validate_dense` does: its header (the shared `dense::header`: stride,
    /// variant table, a whole number of strides, or the format-2 diagnosis), then
    /// each element's entry index (`dense::element`), the entry's tag (a variant's,
    /// else `UnknownVariant` at the index) and its payload in the entry's `B` bytes,
    /// walked as a union value's payload is ([`payload`](Self::payload)); errors count
    /// from the element's start, in the element. Rows: the stride, the entry count
    /// and each entry, then each element's entry index, payload and the bytes up to
    /// the stride.
    fn dense(
        &mut self,
        element: &'s TypeSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        let TypeSchema::Union(u) = element else {
            return Err(invalid_schema());
        };
        let tag = u.tag_size();
        if tag == 0 {
            // Never in a checked schema (`shape::check` refuses other tags).
            return Err(Error::new(
                ErrorKind::InvalidSchema {
                    reason: "a union's tag is not u8, u16, u32 or u64",
                },
                0,
            ));
        }
        let d = dense::header(bytes, at, tag)?;
        if self.rows.is_some() {
            let (count, stride, entries) = (d.count, d.stride, d.entries);
            let meaning = format!("stride {stride}: {count} elements of {stride} bytes");
            self.row(base + at, 2, indent, "stride", meaning);
            let meaning = format!("{entries} variant entries of {} bytes", tag + 2);
            self.row(base + at + 2, 2, indent, "entries", meaning);
            for k in 0..entries {
                let entry = dense::entry_at(k, tag);
                let value = read_raw(bytes.get(entry..).unwrap_or_default(), tag);
                let block = read_u16(bytes, entry + tag).unwrap_or(0);
                let name = u
                    .variant(value)
                    .map_or_else(|| "unknown".to_string(), |v| v.name.to_string());
                let meaning = format!("tag {value} ({name}), block length {block}");
                let label = format!("entry {k}");
                self.row(base + at + entry, tag + 2, indent, &label, meaning);
            }
        }
        for i in 0..d.count {
            let (value, start, len) = dense::element(bytes, at, &d, i, tag)?;
            // The element's start: its entry index, `tag` bytes before the payload.
            let index_at = start - tag;
            let Some(variant) = u.variant(value) else {
                return Err(Error::new(
                    ErrorKind::UnknownVariant {
                        union_name: u.name.clone(),
                        tag: value,
                    },
                    at + index_at,
                )
                .in_element(i));
            };
            let origin = base + at + index_at;
            let label = self.label(|| format!("[{i}]"));
            let meaning = self.label(|| {
                let k = read_raw(bytes.get(index_at..).unwrap_or_default(), tag);
                format!("entry {k}: tag {value}, {}", variant.name)
            });
            self.row(origin, tag, indent, &label, meaning);
            // Inside the element: the header checked `tag + len <= stride`.
            let payload = bytes.get(start..start + len).unwrap_or_default();
            self.payload(variant, payload, tag, origin, depth, indent + 1)
                .map_err(|e| e.shift(at + index_at).in_element(i))?;
            let rest = d.stride - tag - len;
            if rest > 0 {
                let meaning = self.label(|| match rest {
                    1 => "1 byte up to the stride, not read".into(),
                    n => format!("{n} bytes up to the stride, not read"),
                });
                self.row(origin + tag + len, rest, indent + 1, "(padding)", meaning);
            }
        }
        Ok(())
    }

    /// Validates a split list (FORMAT.md §6.3) of messages or tuples with a tail, as
    /// `list::validate_split` does: its header and each element's block length and
    /// tail region (the shared `split_header` and `split_element`), then each element
    /// with its block and the bytes from its origin (its tail start minus its block
    /// length). Rows: each element's tail start and block, in order, then their
    /// tails.
    fn split(
        &mut self,
        element: &'s TypeSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        let (required, name) = match element {
            TypeSchema::Tuple(elements) => (tuple_block(self.set, elements, 2), None),
            _ => {
                let m = message_of(self.set, element).ok_or_else(invalid_schema)?;
                (m.min_block_length, Some(m))
            }
        };
        let (count, block) = split_header(bytes, at, required, required)?;
        let stride = block + 4;
        let mut tails = Vec::new();
        let mut start = count * stride;
        let mut result = Ok(());
        for i in 0..count {
            let head = at + i * stride;
            let meaning = self.label(|| match i {
                0 => format!(
                    "T(0) = {start}: [0]'s tail starts at {start}; {count} elements of {stride} bytes (tail start, block of {block})"
                ),
                _ => format!("T({i}) = {start}: [{i}]'s tail starts at {start}"),
            });
            let label = self.label(|| format!("[{i}] tail start"));
            self.row(base + head, 4, indent, &label, meaning);
            let (element_block, end) = match split_element(bytes, at, i, count, block, start) {
                Ok(found) => found,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            // `start >= count * stride > block`: the origin is inside the list.
            let origin_at = start - block;
            let parts = Parts {
                block: element_block,
                block_at: (i * stride + 4).wrapping_sub(origin_at),
                origin: bytes.get(origin_at..end).unwrap_or_default(),
            };
            let label = self.label(|| format!("[{i}]"));
            let meaning = self.label(|| {
                let what = name.map_or_else(|| element.display().to_string(), |m| m.name.to_string());
                format!(
                    "{what}: block of {block} bytes; tail {start}..{end} (its end offsets count from T({i}) - {block} = {origin_at})"
                )
            });
            self.row(base + head + 4, block, indent, &label, meaning);
            if end > start {
                let label = self.label(|| format!("[{i}] (tail)"));
                let meaning = self.label(|| match end - start {
                    1 => format!("[{i}]'s tail, 1 byte"),
                    len => format!("[{i}]'s tail, {len} bytes"),
                });
                let from = self.rows_len();
                self.row(base + at + start, end - start, indent, &label, meaning);
                if let Some(rows) = self.rows.as_deref_mut().map(|r| &mut r.rows) {
                    tails.extend(rows.drain(from..));
                }
            }
            let origin = base + at + origin_at;
            let depth = depth + 1;
            let walked = match (element, name) {
                (TypeSchema::Tuple(elements), _) => {
                    self.split_tuple(elements, parts, origin, depth, indent + 1, &mut tails)
                }
                (_, Some(m)) => self.split_message(m, parts, origin, depth, indent + 1, &mut tails),
                _ => Err(invalid_schema()),
            };
            if let Err(e) = walked {
                result = Err(e.shift(at + origin_at).in_element(i));
                break;
            }
            start = end;
        }
        // The tails come after all the blocks, in byte order.
        self.append(&mut tails);
        result
    }

    fn packed(
        &mut self,
        element: &'s TypeSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        let size = block_size(self.set, element);
        if size == 0 || bytes.len() % size != 0 {
            return Err(Error::new(
                ErrorKind::ListLengthMismatch {
                    len: bytes.len(),
                    element_size: size,
                },
                at,
            ));
        }
        // A list of bytes needs no check, and is one row (the region's).
        if *element == TypeSchema::U8 {
            return Ok(());
        }
        for (i, block) in bytes.chunks_exact(size).enumerate() {
            let label = self.label(|| format!("[{i}]"));
            let place = Place::block(block, 0);
            self.value(element, place, base + at + i * size, depth, indent, &label)
                .map_err(|e| e.shift(at + i * size).in_element(i))?;
        }
        Ok(())
    }

    fn strided(
        &mut self,
        element: &'s TypeSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        if let TypeSchema::Tuple(_) = element {
            // A fixed-size tuple: strided as a fixed-size message of version 1, so
            // every element holds all of its block (FORMAT.md §4.11).
            let size = block_size(self.set, element);
            let stride = strided_header(bytes, at, size.max(1), size.max(1))?;
            let meaning = self.label(|| format!("stride {stride}"));
            self.row(base + at, 2, indent, "stride", meaning);
            for (i, block) in bytes[2..].chunks_exact(stride).enumerate() {
                let start = at + 2 + i * stride;
                let label = self.label(|| format!("[{i}]"));
                self.value(
                    element,
                    Place::block(block, 0),
                    base + start,
                    depth,
                    indent,
                    &label,
                )
                .map_err(|e| e.shift(start).in_element(i))?;
            }
            return Ok(());
        }
        let m = message_of(self.set, element).ok_or_else(invalid_schema)?;
        // An older writer's elements may be shorter than this reader's block, down to
        // the fields every version has (FORMAT.md §6.2).
        let stride = strided_header(bytes, at, m.min_block_length.max(1), m.block_length.max(1))?;
        let elements = &bytes[2..];
        let meaning = self.label(|| format!("stride {stride}"));
        self.row(base + at, 2, indent, "stride", meaning);
        for (i, block) in elements.chunks_exact(stride).enumerate() {
            let start = at + 2 + i * stride;
            let label = self.label(|| format!("[{i}]"));
            let meaning = self.label(|| format!("{}, {} bytes", m.name, block.len()));
            self.row(base + start, block.len(), indent, &label, meaning);
            self.message(m, block, base + start, depth, indent + 1)
                .map_err(|e| e.shift(start).in_element(i))?;
        }
        Ok(())
    }

    fn table(
        &mut self,
        element: &'s TypeSchema,
        bytes: &'s [u8],
        at: usize,
        base: usize,
        depth: u32,
        indent: usize,
    ) -> Result<(), Error> {
        let count = table_count(bytes, at)?;
        let first = 4 * count;
        if self.rows.is_some() {
            // The whole table first (it is inside the list: `first` is), then the
            // elements, in byte order.
            let meaning = format!("{count} elements: element 0 starts at {first}");
            self.row(base + at, 4, indent, "table", meaning);
            for i in 1..count {
                let entry = read_u32(bytes, 4 * i).unwrap_or(0);
                let meaning = format!("element {i} starts at {entry}");
                self.row(base + at + 4 * i, 4, indent, "table", meaning);
            }
        }
        let mut start = first;
        for i in 0..count {
            let (region, end) = table_element(bytes, at, i, count, start)?;
            let place = Place {
                block: &[],
                block_at: 0,
                region,
                region_at: 0,
            };
            let label = self.label(|| format!("[{i}]"));
            if matches!(element, TypeSchema::Str) && region.is_empty() {
                let meaning = self.label(|| "\"\"".into());
                self.row(base + at + start, 0, indent, &label, meaning);
            }
            self.value(element, place, base + at + start, depth, indent, &label)
                .map_err(|e| e.shift(at + start).in_element(i))?;
            start = end;
        }
        Ok(())
    }
}

/// Where the parts of a message or tuple are: its block, and the bytes its end
/// offsets count in (FORMAT.md §3, §6.3).
#[derive(Clone, Copy)]
struct Parts<'s> {
    /// The block, as long as its block length (or as far as the bytes go).
    block: &'s [u8],
    /// Where `block` starts from the start of `origin`, for errors and rows: 0, or
    /// for an element of a split list, whose block is before its origin, a negative
    /// number in two's complement (wrapping).
    block_at: usize,
    /// The whole message, or for an element of a split list the list's bytes from
    /// its origin (its tail start minus its block length) to the end of its tail.
    origin: &'s [u8],
}

/// The block length of message `m` over `bytes`, checked by the typed reader's own
/// check (`validated::block_header`) with the schema's numbers: the `u16` on the
/// wire, at least the minimum and inside the bytes; else the bytes, at least the
/// minimum, up to the schema's block.
pub(super) fn declared_block(m: &MessageSchema, bytes: &[u8]) -> Result<usize, Error> {
    let (prefixed, min) = (m.has_block_length, m.min_block_length);
    crate::validated::block_header_sized(bytes, prefixed, min, m.block_length)
}

/// `DepthLimitExceeded` at offset 0 past [`MAX_DEPTH`], as `validated::check_depth`.
fn check_depth(depth: u32) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
            0,
        ));
    }
    Ok(())
}

/// The block length of a tuple of `elements` whose first slot is at `prefix`.
fn tuple_block(set: &SchemaSet, elements: &[crate::Node<TypeSchema>], prefix: usize) -> usize {
    elements.iter().fold(prefix, |sum: usize, e| {
        sum.saturating_add(block_size(set, e))
    })
}

/// What a block length field says, against the schema's block length `full`.
fn block_length_meaning(declared: usize, full: usize) -> String {
    match declared.cmp(&full) {
        core::cmp::Ordering::Equal => declared.to_string(),
        core::cmp::Ordering::Less => format!("{declared} (an older version's)"),
        core::cmp::Ordering::Greater => {
            format!("{declared} (a newer version's; this schema's is {full})")
        }
    }
}

/// What a tail field's slot says: where its region ends (and, for an option, its
/// presence).
fn slot_meaning(ty: &TypeSchema, block: &[u8], start: usize, end: usize) -> String {
    let region = if end == start {
        format!("ends at {end} (empty)")
    } else {
        format!("ends at {end}")
    };
    match (ty, block.first()) {
        (TypeSchema::Option(_), Some(0)) => format!("absent; its region {region}"),
        (TypeSchema::Option(_), Some(1)) => format!("present, {region}"),
        (TypeSchema::Option(_), _) => "invalid presence byte".into(),
        _ => region,
    }
}

/// Elements of a valid list region (FORMAT.md §6).
fn list_len(set: &SchemaSet, element: &TypeSchema, region: &[u8]) -> usize {
    DynList::new(set, element, region).len()
}

fn list_meaning(set: &SchemaSet, element: &TypeSchema, region: &[u8]) -> String {
    match encoding(set, element) {
        ListEncoding::Packed if *element == TypeSchema::U8 => {
            format!("{} bytes", region.len())
        }
        _ => format!("Vec<{}>, {} bytes", element.display(), region.len()),
    }
}

/// An enum's raw value: the `size`-byte little-endian integer at the start of
/// `block` (0 if it is shorter), as `EnumRepr::read` reads it.
pub(super) fn read_raw(block: &[u8], size: usize) -> u64 {
    match block.get(..size) {
        Some(bytes) if size <= 8 => bytes
            .iter()
            .rev()
            .fold(0u64, |acc, &b| (acc << 8) | u64::from(b)),
        _ => 0,
    }
}

fn invalid_schema() -> Error {
    Error::new(
        ErrorKind::InvalidSchema {
            reason: "the field's type names a message not in the schema",
        },
        0,
    )
}

/// Checks that the keys of a map's validated list of entries `bytes` (at `at`)
/// strictly increase, as `map::validate_map` does (FORMAT.md §6.7): the same error
/// kind, offset (the later entry's) and path.
fn map_order(set: &SchemaSet, entry: &TypeSchema, bytes: &[u8], at: usize) -> Result<(), Error> {
    let list = DynList::new(set, entry, bytes);
    let mut keys = map_entries(&list).map(|(k, _)| k).enumerate();
    let Some((_, mut prev)) = keys.next() else {
        return Ok(());
    };
    for (i, key) in keys {
        let kind = match cmp_keys(&prev, &key) {
            core::cmp::Ordering::Less => {
                prev = key;
                continue;
            }
            core::cmp::Ordering::Equal => ErrorKind::DuplicateKey,
            core::cmp::Ordering::Greater => ErrorKind::UnsortedKeys,
        };
        let start = match encoding(set, entry) {
            ListEncoding::Table => read_u32(bytes, 4 * i).map_or(0, |s| s as usize),
            // The entry's first byte: its tail start, before its block (§6.3).
            ListEncoding::Split => i * list.stride(),
            _ => {
                let (_, stride) = shape_of(ListEncoding::Strided, 0, bytes);
                2 + i * stride
            }
        };
        return Err(Error::new(kind, at + start).in_element(i));
    }
    Ok(())
}
