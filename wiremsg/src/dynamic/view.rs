//! [`DynView`]: a validated message read by its schema, field by field.

use super::value::{Value, absent, read};
use crate::primitives_le::{read_u16, read_u32};
use crate::schema::shape::in_tail;
use crate::schema::{FieldSchema, MessageSchema, SchemaSet};
use core::fmt;

/// A message validated against its schema ([`view`](super::view)): its fields by
/// name or in wire order, as [`Value`]s.
///
/// Like a typed view it reads each field on access, in place; a field the writer's
/// version did not have reads as what the typed accessor returns (the declared
/// default, or the type's default), and [`has`](Self::has) says so.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// mod v1 {
///     #[derive(wiremsg::WireMsg)]
///     pub struct Order { pub id: u64 }
/// }
///
/// #[derive(WireMsg)]
/// #[wire(version = 2)]
/// struct Order {
///     id: u64,
///     #[wire(since = 2, default = 1)]
///     tif: u8,
/// }
///
/// let old = v1::Order { id: 7 }.to_bytes().unwrap();
/// let set = SchemaSet::of::<Order>().unwrap();
/// let view = dynamic::view(&set, "Order", &old).unwrap();
/// assert_eq!(view.get("id"), Some(Value::Unsigned(7)));
/// assert_eq!((view.get("tif"), view.has("tif")), (Some(Value::Unsigned(1)), false));
/// assert_eq!((view.try_get("tif"), view.version()), (None, 1));
/// let names: Vec<&str> = view.fields().map(|f| f.name()).collect();
/// assert_eq!(names, ["id", "tif"]);
/// assert_eq!(view.to_string(), "Order { id: 7, tif: 1 }");
/// ```
#[derive(Clone, Copy)]
pub struct DynView<'a> {
    set: &'a SchemaSet,
    schema: &'a MessageSchema,
    /// The message's bytes: for a message without a block length field, exactly the
    /// bytes it was validated over (its block as far as the writer wrote it); for an
    /// element of a split list (FORMAT.md §6.3), its block.
    bytes: &'a [u8],
    /// The bytes its end offsets count in: `bytes` again, or for an element of a
    /// split list the list's bytes from its origin (its tail start minus its block
    /// length) to the end of its tail region.
    tail: &'a [u8],
}

impl<'a> DynView<'a> {
    /// The view over bytes that passed validation as a message `schema`.
    pub(super) fn over(set: &'a SchemaSet, schema: &'a MessageSchema, bytes: &'a [u8]) -> Self {
        DynView {
            set,
            schema,
            bytes,
            tail: bytes,
        }
    }

    /// The view of an element of a split list (FORMAT.md §6.3) that passed
    /// validation as a message `schema`: its `block`, and the list's bytes from its
    /// `origin` on, where its end offsets count.
    pub(super) fn split(
        set: &'a SchemaSet,
        schema: &'a MessageSchema,
        block: &'a [u8],
        origin: &'a [u8],
    ) -> Self {
        DynView {
            set,
            schema,
            bytes: block,
            tail: origin,
        }
    }

    /// The schema set the message is read by.
    pub(super) fn set(&self) -> &'a SchemaSet {
        self.set
    }

    /// The message's schema.
    pub fn schema(&self) -> &'a MessageSchema {
        self.schema
    }

    /// The message's name.
    pub fn name(&self) -> &'a str {
        &self.schema.name
    }

    /// The bytes the view was made over: the message's, or for an element of a list
    /// of messages with a tail (a split list, FORMAT.md §6.3), whose block and tail
    /// are apart, its block.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The block length this reader knows: the one on the wire (or the bytes given,
    /// for a message without a block length field), up to the schema's.
    fn known_end(&self) -> usize {
        let own = if self.schema.has_block_length {
            usize::from(read_u16(self.bytes, 0).unwrap_or(0))
        } else {
            self.bytes.len()
        };
        own.min(self.schema.block_length)
    }

    /// Bytes of the message as far as this reader knows it: its block and the tail
    /// data of the fields it knows (as the typed view's `as_bytes`).
    pub(super) fn known_len(&self) -> usize {
        if !self.schema.has_block_length {
            return self.known_end();
        }
        let start = usize::from(read_u16(self.bytes, 0).unwrap_or(0));
        self.schema
            .fields
            .iter()
            .rfind(|f| self.present(f) && in_tail(self.set, &f.ty))
            .and_then(|f| read_u32(self.bytes, f.offset + f.size - 4))
            .map_or(start, |end| end as usize)
    }

    fn present(&self, field: &FieldSchema) -> bool {
        let end = field.offset + field.size;
        end <= self.schema.min_block_length || end <= self.known_end()
    }

    /// True if the writer's version had field `name` (false for a name the message
    /// does not have).
    pub fn has(&self, name: &str) -> bool {
        self.schema.field(name).is_some_and(|f| self.present(f))
    }

    /// The newest schema version, up to the schema's, whose fields the bytes hold.
    pub fn version(&self) -> u16 {
        self.schema
            .fields
            .iter()
            .filter(|f| f.since > 1 && self.present(f))
            .map(|f| f.since)
            .fold(1, u16::max)
    }

    /// Field `name`: its value, or for a field the writer's version did not have,
    /// what the typed accessor returns (the declared default, or the type's
    /// default). `None` if the message has no readable field `name` (none of that
    /// name, or a reserved one).
    pub fn get(&self, name: &str) -> Option<Value<'a>> {
        let at = self.readable(name)?;
        Some(self.value_at(at))
    }

    /// The index of readable field `name`.
    pub(super) fn readable(&self, name: &str) -> Option<usize> {
        let fields = &self.schema.fields;
        fields.iter().position(|f| f.name == name && !f.reserved)
    }

    /// Field `name`, or `None` if the writer's version did not have it (or the
    /// message has no readable field of that name).
    pub fn try_get(&self, name: &str) -> Option<Value<'a>> {
        let at = self.readable(name)?;
        self.present(&self.schema.fields[at])
            .then(|| self.value_at(at))
    }

    /// The readable fields (reserved ones skipped), in wire order.
    pub fn fields(&self) -> impl Iterator<Item = DynField<'a>> + 'a {
        let view = *self;
        self.schema
            .fields
            .iter()
            .enumerate()
            .filter(|(_, f)| !f.reserved)
            .map(move |(at, schema)| DynField {
                schema,
                present: view.present(schema),
                value: view.value_at(at),
            })
    }

    /// The value of field `at` (an index into the schema's fields).
    pub(super) fn value_at(&self, at: usize) -> Value<'a> {
        let fields: &'a [FieldSchema] = &self.schema.fields;
        let Some(field) = fields.get(at) else {
            return Value::Absent;
        };
        if !self.present(field) {
            return absent(self.set, field);
        }
        let end = field.offset + field.size;
        let block = self.bytes.get(field.offset..end).unwrap_or_default();
        let region = if in_tail(self.set, &field.ty) {
            // From the end offset of the tail field before it (or the block length)
            // to its own (FORMAT.md §3).
            let start = fields[..at]
                .iter()
                .rfind(|f| in_tail(self.set, &f.ty))
                .map_or_else(
                    || read_u16(self.bytes, 0).map(usize::from),
                    |f| read_u32(self.bytes, f.offset + f.size - 4).map(|n| n as usize),
                );
            let end = read_u32(self.bytes, end - 4).map(|n| n as usize);
            match (start, end) {
                (Some(start), Some(end)) => self.tail.get(start..end).unwrap_or_default(),
                _ => &[],
            }
        } else {
            &[]
        };
        read(self.set, &field.ty, block, region)
    }
}

impl fmt::Debug for DynView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct(&self.schema.name);
        for field in self.fields() {
            s.field(field.name(), &field.value);
        }
        s.finish()
    }
}

/// `Name { field: value, .. }`, the values as [`Value`]'s `Display` writes them.
impl fmt::Display for DynView<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{", self.schema.name)?;
        for (i, field) in self.fields().enumerate() {
            let sep = if i == 0 { " " } else { ", " };
            write!(f, "{sep}{}: {}", field.name(), field.value)?;
        }
        f.write_str(" }")
    }
}

impl PartialEq for DynView<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.schema.name == other.schema.name && self.fields().eq(other.fields())
    }
}

/// One field of a [`DynView`]: its schema, whether the writer had it, its value.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Tick { price: i64, #[wire(reserved)] old: u8, size: u32 }
///
/// let bytes = Tick { price: 5, old: 0, size: 7 }.to_bytes().unwrap();
/// let set = SchemaSet::of::<Tick>().unwrap();
/// let view = dynamic::view(&set, "Tick", &bytes).unwrap();
/// // Reserved fields are skipped.
/// let fields: Vec<(&str, usize, Value<'_>)> = view
///     .fields()
///     .map(|f| (f.name(), f.schema().offset, f.into_value()))
///     .collect();
/// assert_eq!(fields, [("price", 0, Value::Signed(5)), ("size", 9, Value::Unsigned(7))]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct DynField<'a> {
    schema: &'a FieldSchema,
    present: bool,
    value: Value<'a>,
}

impl<'a> DynField<'a> {
    /// The field's name.
    pub fn name(&self) -> &'a str {
        &self.schema.name
    }

    /// The field's schema.
    pub fn schema(&self) -> &'a FieldSchema {
        self.schema
    }

    /// True if the writer's version had the field; false if it reads as its default.
    pub fn is_present(&self) -> bool {
        self.present
    }

    /// The field's value.
    pub fn value(&self) -> &Value<'a> {
        &self.value
    }

    /// The field's value, owned.
    pub fn into_value(self) -> Value<'a> {
        self.value
    }
}
