//! What the schema says about each type's bytes (FORMAT.md §2 to §6), as the exporter
//! needs it: whether a value keeps data in the tail, the bytes of its slot, and the
//! shape of a list of it.

use wiremsg::{ListEncoding, SchemaSet, TypeSchema};

/// True if values of `ty` keep data in the tail: their slot ends with an end offset
/// (FORMAT.md §3).
pub(super) fn in_tail(set: &SchemaSet, ty: &TypeSchema) -> bool {
    match ty {
        TypeSchema::Str
        | TypeSchema::List(_)
        | TypeSchema::BoundedList { .. }
        | TypeSchema::Map(_)
        | TypeSchema::Union(_) => true,
        TypeSchema::Option(inner) => in_tail(set, inner),
        TypeSchema::Message(m) => set.message(&m.name).is_some_and(|m| m.has_block_length),
        TypeSchema::Tuple(elements) => elements.iter().any(|e| in_tail(set, e)),
        _ => false,
    }
}

/// Bytes a value of `ty` takes in the block: its value, or its slot.
pub(super) fn slot_size(set: &SchemaSet, ty: &TypeSchema) -> usize {
    match ty {
        _ if in_tail(set, ty) && !matches!(ty, TypeSchema::Option(_)) => 4,
        TypeSchema::FixedStr { len } | TypeSchema::FixedStrPadded { len, .. } => *len,
        TypeSchema::Array { element, len } => slot_size(set, element).saturating_mul(*len),
        TypeSchema::Option(inner) => slot_size(set, inner).saturating_add(1),
        TypeSchema::Message(m) => set.message(&m.name).map_or(0, |m| m.block_length),
        TypeSchema::Tuple(elements) => elements
            .iter()
            .fold(0, |sum, e| sum.saturating_add(slot_size(set, e))),
        number => number.number_size().unwrap_or(0),
    }
}

/// The five shapes of a list's region (FORMAT.md §6.1 to §6.4, §6.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ListShape {
    /// The elements' slots back to back.
    Packed,
    /// A `u16` stride, then elements of that many bytes.
    Strided,
    /// Messages and tuples with a tail: each element's `u32` tail start and block at
    /// a stride, then their tails (§6.3).
    Split,
    /// A table of `u32` start offsets, then the elements' regions.
    Table,
    /// A fixed-size union: a `u16` stride, a table of the variants' tags and block
    /// lengths, then elements at the stride, each an entry index and a payload block
    /// (§6.8).
    Dense,
}

/// The shape of a list of `element`: the runtime's rule (`SchemaSet::list_encoding`).
pub(super) fn list_shape(set: &SchemaSet, element: &TypeSchema) -> ListShape {
    match set.list_encoding(element) {
        ListEncoding::Packed => ListShape::Packed,
        ListEncoding::Strided => ListShape::Strided,
        ListEncoding::Split => ListShape::Split,
        ListEncoding::Dense => ListShape::Dense,
        ListEncoding::Table => ListShape::Table,
    }
}

/// True if `ty` names no message, enum or union: its reading is the same in every
/// schema set.
pub(super) fn is_plain(ty: &TypeSchema) -> bool {
    match ty {
        TypeSchema::Message(_) | TypeSchema::Enum(_) | TypeSchema::Union(_) => false,
        TypeSchema::Array { element: inner, .. }
        | TypeSchema::Option(inner)
        | TypeSchema::List(inner)
        | TypeSchema::BoundedList { element: inner, .. }
        | TypeSchema::Map(inner)
        | TypeSchema::Decimal {
            mantissa: inner, ..
        }
        | TypeSchema::Nullable { value: inner, .. } => is_plain(inner),
        TypeSchema::Tuple(elements) => elements.iter().all(|e| is_plain(e)),
        _ => true,
    }
}
