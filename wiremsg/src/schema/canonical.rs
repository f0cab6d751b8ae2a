//! The canonical encoding of a schema set (FORMAT.md §11): a wiremsg message, behind
//! a message header with the reserved template id, so that a schema file is read
//! with the same code, validation and versioning rules as any other message.

use super::set::invalid;
use super::{
    DefaultValue, EnumSchema, FieldSchema, MessageRef, MessageSchema, Node, SchemaSet, TypeSchema,
    UnionSchema, UnionVariantSchema, VariantSchema,
};
use crate::{Error, Template, WireMsg};
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::sync::Arc;
use alloc::vec::Vec;
use core::mem::size_of;

/// The most heap bytes [`SchemaSet::from_bytes`] (and a schema frame's reader) takes
/// at its peak per byte of the schema's encoding: twice
/// [`decode_budget`](crate::decode_budget)'s 64.
pub const SCHEMA_PEAK_PER_BYTE: usize = 128;

/// The most heap bytes [`SchemaSet::from_bytes`] takes at its peak for a schema of
/// under 16 KiB: twice [`decode_budget`](crate::decode_budget)'s minimum of 1 MiB.
pub const SCHEMA_PEAK_MIN: usize = 2 << 20;

/// The template id of a schema message (FORMAT.md §11): reserved, no user message may
/// declare it.
pub const SCHEMA_TEMPLATE_ID: u16 = 0xFFFF;
/// The schema id of a schema message: wiremsg's own.
pub const SCHEMA_SCHEMA_ID: u16 = 0xFFFF;

/// The first version of the schema encoding in wire format 2 (FORMAT.md "Format
/// versions", §11): versions 1 to 3 are format 1.
pub(crate) const FORMAT_2_SCHEMA_VERSION: u16 = 4;

/// The first version of the schema encoding in wire format 3 (FORMAT.md "Format
/// versions", §11): version 4 is format 2.
pub(crate) const FORMAT_3_SCHEMA_VERSION: u16 = 5;

/// Refuses the message header of a schema encoding of an older wire format (the
/// reserved pair of ids, FORMAT.md §11): versions 1 to 3, format 1, whose lists of
/// messages are table lists, and version 4, format 2, whose schemas describe lists
/// of fixed-size unions as table lists, which a reader of format 3 would misread (as
/// dense lists, §6.8). `UnsupportedFormat` naming the format, at byte 6, the
/// header's version. Headers of other messages pass: their bytes do not name the
/// format.
pub(crate) fn check_format(header: &crate::MessageHeader) -> Result<(), Error> {
    let schema = header.template_id == SCHEMA_TEMPLATE_ID && header.schema_id == SCHEMA_SCHEMA_ID;
    if schema && header.version < FORMAT_3_SCHEMA_VERSION {
        let version = if header.version < FORMAT_2_SCHEMA_VERSION {
            1
        } else {
            2
        };
        return Err(Error::new(
            crate::ErrorKind::UnsupportedFormat {
                version,
                supported: crate::FORMAT_VERSION,
            },
            6,
        ));
    }
    Ok(())
}

/// A schema set on the wire: its messages sorted by name, their types in one table
/// (each type once), their enums in another, (version 2) their tagged unions, and
/// (version 3) the type table again, in 9-byte rows with the few values apart.
///
/// Versions 1 and 2 keep every type in `types`, 25 bytes a row of which 16 are a
/// `value` that most rows leave 0. Version 3 writes `types` empty and the rows in
/// `type_rows` and `type_values` (FORMAT.md §11): a schema frame of a 50-byte tick
/// then takes 538 bytes instead of 622. Version 4 has the fields of version 3 in wire
/// format 2: its lists of messages (`messages`, `fields`, `enums`, ...) are split
/// lists (FORMAT.md §6.3), where versions 1 to 3 (format 1) had table lists.
/// Version 5 has the fields and bytes of version 4 in wire format 3: the schemas it
/// holds describe bytes whose lists of fixed-size unions are dense (§6.8), where
/// those of version 4 (format 2) describe table lists. This reader reads version 5
/// only, and refuses the others (`UnsupportedFormat`, see [`check_format`]) rather
/// than misreading them or the bytes they describe.
#[derive(WireMsg)]
#[wire(version = 5)]
pub(crate) struct WireSchemaSet {
    messages: Vec<WireMessage>,
    /// Versions 1 and 2; empty from version 3.
    types: Vec<WireType>,
    enums: Vec<WireEnumDef>,
    #[wire(since = 2)]
    unions: Vec<WireUnionDef>,
    #[wire(since = 3)]
    type_rows: Vec<WireTypeRow>,
    #[wire(since = 3)]
    type_values: Vec<WireTypeValue>,
}

/// A row of the version-3 type table: a [`WireType`] without its `value`.
#[derive(WireMsg, Clone, Copy, PartialEq)]
pub(crate) struct WireTypeRow {
    code: u8,
    len: u32,
    child: u32,
}

/// The `value` of the version-3 type row `ty`, for the rows whose value is not 0
/// (listed once each, by increasing `ty`).
#[derive(WireMsg, Clone, Copy, PartialEq)]
pub(crate) struct WireTypeValue {
    ty: u32,
    value: i128,
}

/// A tagged union (FORMAT.md §4.10, §11).
#[derive(WireMsg)]
pub(crate) struct WireUnionDef {
    name: String,
    schema_version: u16,
    /// Index into `types` of the tag's integer type.
    tag: u32,
    variants: Vec<WireUnionVariant>,
    catch_all: Option<String>,
}

#[derive(WireMsg)]
pub(crate) struct WireUnionVariant {
    name: String,
    tag: u64,
    /// Index into `messages` of the payload's message; `None` for a unit variant.
    payload: Option<u32>,
    since: u16,
}

#[derive(WireMsg)]
pub(crate) struct WireMessage {
    name: String,
    schema_version: u16,
    block_length: u32,
    min_block_length: u32,
    has_block_length: bool,
    has_tail: bool,
    template_id: Option<u16>,
    schema_id: u16,
    fields: Vec<WireField>,
}

#[derive(WireMsg)]
pub(crate) struct WireField {
    name: String,
    offset: u32,
    size: u32,
    /// Index into `types`.
    ty: u32,
    since: u16,
    reserved: bool,
    /// 0: none; 1: `default_bytes`; 2: a default with no byte form.
    default_kind: u8,
    default_bytes: Vec<u8>,
}

/// One type: `code` says which (the table in FORMAT.md §11); `len` is a `FixedStr`'s
/// width, an array's length, a decimal's scale or a bounded list's maximum; `child`
/// indexes `types` (array, option, list, nullable, decimal), `enums` (enum) or
/// `messages` (message); `value` is a padding byte or a null sentinel.
#[derive(WireMsg, Clone, Copy, PartialEq)]
pub(crate) struct WireType {
    code: u8,
    len: u32,
    child: u32,
    value: i128,
}

#[derive(WireMsg)]
pub(crate) struct WireEnumDef {
    name: String,
    /// Index into `types` of the representation.
    repr: u32,
    variants: Vec<WireVariant>,
    catch_all: Option<String>,
}

#[derive(WireMsg)]
pub(crate) struct WireVariant {
    name: String,
    value: u64,
}

const NUMBERS: [TypeSchema; 14] = [
    TypeSchema::Bool,
    TypeSchema::U8,
    TypeSchema::U16,
    TypeSchema::U32,
    TypeSchema::U64,
    TypeSchema::U128,
    TypeSchema::I8,
    TypeSchema::I16,
    TypeSchema::I32,
    TypeSchema::I64,
    TypeSchema::I128,
    TypeSchema::F32,
    TypeSchema::F64,
    TypeSchema::Str,
];
const FIXED_STR: u8 = 14;
const ARRAY: u8 = 15;
const OPTION: u8 = 16;
const LIST: u8 = 17;
const ENUM: u8 = 18;
const MESSAGE: u8 = 19;
const FIXED_STR_PADDED: u8 = 20;
const NULLABLE: u8 = 21;
const DECIMAL: u8 = 22;
const BOUNDED_LIST: u8 = 23;
const UNION: u8 = 24;
/// A map: `child` is its entry type, a tuple of two elements (FORMAT.md §11).
const MAP: u8 = 25;
/// A tuple of `len` elements: `child` is the first, and `value` indexes the tuple of
/// the other `len - 1` (another row of this code), unless `len` is 1 (FORMAT.md §11).
const TUPLE: u8 = 30;

impl SchemaSet {
    /// The canonical encoding (FORMAT.md §11): a [`MessageHeader`](crate::MessageHeader) with template id
    /// and schema id `0xFFFF`, then the schema message. Equal sets encode to equal
    /// bytes.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidSchema`](crate::ErrorKind::InvalidSchema) if a field names
    /// a message not in the set, or a size does not fit the encoding's `u32`.
    pub fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = Encoder::default();
        let messages = self
            .messages()
            .iter()
            .map(|m| out.message(self, m))
            .collect::<Result<Vec<_>, _>>()?;
        let type_rows = out
            .types
            .iter()
            .map(|t| WireTypeRow {
                code: t.code,
                len: t.len,
                child: t.child,
            })
            .collect();
        let type_values = (0..out.types.len())
            .filter(|&i| out.types[i].value != 0)
            .map(|i| {
                Ok(WireTypeValue {
                    ty: to_u32(i)?,
                    value: out.types[i].value,
                })
            })
            .collect::<Result<_, Error>>()?;
        let mut bytes = Vec::new();
        WireSchemaSet {
            messages,
            types: Vec::new(),
            enums: out.enums,
            unions: out.unions,
            type_rows,
            type_values,
        }
        .encode_with_header(&mut bytes)?;
        Ok(bytes)
    }

    /// Reads a schema set from its canonical encoding (as
    /// [`to_bytes`](Self::to_bytes) writes it).
    ///
    /// # Errors
    ///
    /// Any validation error of the bytes (with the field path inside the schema
    /// message), [`ErrorKind::UnexpectedTemplate`](crate::ErrorKind::UnexpectedTemplate)
    /// if the header is not a schema's,
    /// [`ErrorKind::UnsupportedFormat`](crate::ErrorKind::UnsupportedFormat) (at byte 6)
    /// for a schema encoding of an older wire format (versions 1 to 3, format 1,
    /// written before lists of messages became split lists; version 4, format 2,
    /// written before lists of fixed-size unions became dense lists: FORMAT.md
    /// "Format versions"), and
    /// [`ErrorKind::InvalidSchema`](crate::ErrorKind::InvalidSchema) for bytes that are
    /// valid but do not make a schema (an unknown type code, an index out of range, a
    /// type that contains itself, a field naming a message not in the set, a type
    /// table whose shared rows expand to more than
    /// [`decode_budget`](crate::decode_budget)`(bytes.len())` bytes of types: each
    /// field gets its own copy of its type, while enums and unions are shared).
    ///
    /// # Memory
    ///
    /// Reading takes at most [`SCHEMA_PEAK_PER_BYTE`] bytes of heap at its peak per
    /// byte of `bytes`, and at most [`SCHEMA_PEAK_MIN`] for a small schema: the types
    /// are built within [`decode_budget`](crate::decode_budget), the messages and
    /// fields in proportion to their encoding, and the checks that follow add
    /// little. `tests/peak_memory.rs` measures the peak on hostile schemas (a type
    /// table that doubles at each row, an enum that thousands of fields name, many
    /// small fields) with a counting allocator.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes_within(bytes, expansion_budget(bytes.len()))
    }

    /// [`from_bytes`](Self::from_bytes) with the types, enums and unions built within
    /// `budget` heap bytes instead of [`decode_budget`](crate::decode_budget)`(bytes.len())`.
    pub(crate) fn from_bytes_within(bytes: &[u8], budget: usize) -> Result<Self, Error> {
        // Before validation: an older format's bytes are not misread as format 3's.
        if let Ok(header) = crate::MessageHeader::read(bytes) {
            check_format(&header)?;
        }
        let (header, view) = WireSchemaSet::view_with_header(bytes)?;
        let types = if header.version >= 3 {
            if !view.types().is_empty() {
                return Err(invalid(
                    "a version-3 schema has its types in `type_rows`, not `types`",
                )
                .in_field("types"));
            }
            let values = view.type_values();
            let mut prev = None;
            for (i, v) in values.iter().enumerate() {
                let row = view.type_rows().get(v.ty() as usize);
                let refusal = match row {
                    _ if prev >= Some(v.ty()) => {
                        Some("type values are not in increasing row order")
                    }
                    None => Some("a type value is 0 (not listed) or names no row"),
                    _ if v.value() == 0 => Some("a type value is 0 (not listed) or names no row"),
                    Some(r) if !parts_used(r.code(), r.len()).2 => {
                        Some("a type value names a row whose type has no value")
                    }
                    Some(_) => None,
                };
                if let Some(reason) = refusal {
                    return Err(invalid(reason).in_element(i).in_field("type_values"));
                }
                prev = Some(v.ty());
            }
            Types::Rows(view.type_rows(), values)
        } else {
            Types::Inline(view.types())
        };
        let decoder = Decoder {
            types,
            enums: view.enums(),
            messages: view.messages(),
            unions: view.unions(),
            budget: core::cell::Cell::new(budget),
            shared_enums: Default::default(),
            shared_unions: Default::default(),
        };
        let messages = view
            .messages()
            .iter()
            .enumerate()
            .map(|(i, m)| {
                decoder
                    .message(m)
                    .map_err(|e| e.in_element(i).in_field("messages"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        SchemaSet::from_messages(messages)
    }
}

/// The tables being built, with an index of each, so that a set of many thousands
/// of types (a hostile schema, read and written again) is encoded in n log n.
#[derive(Default)]
struct Encoder {
    types: Vec<WireType>,
    type_index: BTreeMap<(u8, u32, u32, i128), u32>,
    enums: Vec<WireEnumDef>,
    enum_names: BTreeMap<String, u32>,
    unions: Vec<WireUnionDef>,
    union_names: BTreeMap<String, u32>,
}

/// The position of message `name` in `set` (its messages are sorted by name).
fn message_index(set: &SchemaSet, name: &str) -> Option<usize> {
    set.messages()
        .binary_search_by(|m| m.name.as_ref().cmp(name))
        .ok()
}

impl Encoder {
    fn message(&mut self, set: &SchemaSet, m: &MessageSchema) -> Result<WireMessage, Error> {
        let fields = m
            .fields
            .iter()
            .map(|f| {
                let (default_kind, default_bytes) = match f.default.as_ref().map(|d| d.bytes()) {
                    None => (0, Vec::new()),
                    Some(Some(bytes)) => (1, bytes.into_owned()),
                    Some(None) => (2, Vec::new()),
                };
                Ok(WireField {
                    name: f.name.to_string(),
                    offset: to_u32(f.offset)?,
                    size: to_u32(f.size)?,
                    ty: self.ty(set, &f.ty)?,
                    since: f.since,
                    reserved: f.reserved,
                    default_kind,
                    default_bytes,
                })
            })
            .collect::<Result<Vec<_>, Error>>()
            .map_err(|e| e.in_field_named(&m.name))?;
        Ok(WireMessage {
            name: m.name.to_string(),
            schema_version: m.version,
            block_length: to_u32(m.block_length)?,
            min_block_length: to_u32(m.min_block_length)?,
            has_block_length: m.has_block_length,
            has_tail: m.has_tail,
            template_id: m.template_id,
            schema_id: m.schema_id,
            fields,
        })
    }

    /// The index of `ty` in the type table, adding it (children first) if new.
    fn ty(&mut self, set: &SchemaSet, ty: &TypeSchema) -> Result<u32, Error> {
        let entry = match ty {
            TypeSchema::FixedStr { len } => wire_type(FIXED_STR, to_u32(*len)?, 0),
            TypeSchema::FixedStrPadded { len, pad } => WireType {
                value: i128::from(*pad),
                ..wire_type(FIXED_STR_PADDED, to_u32(*len)?, 0)
            },
            TypeSchema::Nullable { value, null } => WireType {
                value: *null,
                ..wire_type(NULLABLE, 0, self.ty(set, value)?)
            },
            TypeSchema::Decimal { mantissa, scale } => {
                wire_type(DECIMAL, *scale, self.ty(set, mantissa)?)
            }
            TypeSchema::BoundedList { element, max_len } => {
                wire_type(BOUNDED_LIST, to_u32(*max_len)?, self.ty(set, element)?)
            }
            TypeSchema::Array { element, len } => {
                wire_type(ARRAY, to_u32(*len)?, self.ty(set, element)?)
            }
            TypeSchema::Option(inner) => wire_type(OPTION, 0, self.ty(set, inner)?),
            TypeSchema::List(inner) => wire_type(LIST, 0, self.ty(set, inner)?),
            TypeSchema::Enum(e) => wire_type(ENUM, 0, self.enumeration(set, e)?),
            TypeSchema::Union(u) => wire_type(UNION, 0, self.union(set, u)?),
            TypeSchema::Tuple(elements) => self.tuple(set, elements)?,
            TypeSchema::Map(entry) => wire_type(MAP, 0, self.ty(set, entry)?),
            TypeSchema::Message(m) => {
                let Some(at) = message_index(set, &m.name) else {
                    return Err(invalid(
                        "the field's type names a message not in the schema",
                    ));
                };
                wire_type(MESSAGE, 0, to_u32(at)?)
            }
            number => {
                let code = NUMBERS.iter().position(|n| n == number).unwrap_or(0);
                wire_type(code as u8, 0, 0)
            }
        };
        let key = (entry.code, entry.len, entry.child, entry.value);
        if let Some(&at) = self.type_index.get(&key) {
            return Ok(at);
        }
        let at = to_u32(self.types.len())?;
        self.types.push(entry);
        self.type_index.insert(key, at);
        Ok(at)
    }

    /// The row of a tuple of `elements` (at least one): its first element, and the
    /// index of the tuple of the others, added first (children before parents).
    fn tuple(&mut self, set: &SchemaSet, elements: &[Node<TypeSchema>]) -> Result<WireType, Error> {
        let Some((first, rest)) = elements.split_first() else {
            return Err(invalid("a tuple has no elements"));
        };
        let child = self.ty(set, first)?;
        let rest = if rest.is_empty() {
            0
        } else {
            self.ty(set, &TypeSchema::Tuple(Cow::Owned(rest.to_vec())))?
        };
        Ok(WireType {
            value: i128::from(rest),
            ..wire_type(TUPLE, to_u32(elements.len())?, child)
        })
    }

    fn enumeration(&mut self, set: &SchemaSet, e: &EnumSchema) -> Result<u32, Error> {
        if let Some(&at) = self.enum_names.get(e.name.as_ref()) {
            return Ok(at);
        }
        let repr = self.ty(set, &e.repr)?;
        self.enum_names
            .insert(e.name.to_string(), to_u32(self.enums.len())?);
        self.enums.push(WireEnumDef {
            name: e.name.to_string(),
            repr,
            variants: e
                .variants
                .iter()
                .map(|v| WireVariant {
                    name: v.name.to_string(),
                    value: v.value,
                })
                .collect(),
            catch_all: e.catch_all.as_ref().map(|c| c.to_string()),
        });
        to_u32(self.enums.len() - 1)
    }
}

impl Encoder {
    fn union(&mut self, set: &SchemaSet, u: &UnionSchema) -> Result<u32, Error> {
        if let Some(&at) = self.union_names.get(u.name.as_ref()) {
            return Ok(at);
        }
        let tag = self.ty(set, &u.tag)?;
        let variants = u
            .variants
            .iter()
            .map(|v| {
                let payload = match &v.payload {
                    None => None,
                    Some(m) => match message_index(set, &m.name) {
                        Some(at) => Some(to_u32(at)?),
                        None => {
                            return Err(invalid(
                                "a union variant's payload names a message not in the schema",
                            )
                            .in_field_named(&v.name)
                            .in_field_named(&u.name));
                        }
                    },
                };
                Ok(WireUnionVariant {
                    name: v.name.to_string(),
                    tag: v.tag,
                    payload,
                    since: v.since,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        self.union_names
            .insert(u.name.to_string(), to_u32(self.unions.len())?);
        self.unions.push(WireUnionDef {
            name: u.name.to_string(),
            schema_version: u.version,
            tag,
            variants,
            catch_all: u.catch_all.as_ref().map(|c| c.to_string()),
        });
        to_u32(self.unions.len() - 1)
    }
}

fn wire_type(code: u8, len: u32, child: u32) -> WireType {
    WireType {
        code,
        len,
        child,
        value: 0,
    }
}

/// Which of a type row's `len`, `child` and `value` its code uses (FORMAT.md §11);
/// the others are 0. A tuple has a `value` (the row of its rest) from 2 elements on.
fn parts_used(code: u8, len: u32) -> (bool, bool, bool) {
    match code {
        FIXED_STR => (true, false, false),
        ARRAY | DECIMAL | BOUNDED_LIST => (true, true, false),
        OPTION | LIST | ENUM | MESSAGE | UNION | MAP => (false, true, false),
        FIXED_STR_PADDED => (true, false, true),
        NULLABLE => (false, true, true),
        TUPLE => (true, true, len > 1),
        _ => (false, false, false),
    }
}

fn to_u32(n: usize) -> Result<u32, Error> {
    u32::try_from(n).map_err(|_| invalid("a size or count does not fit in a u32"))
}

/// The type table: inline values (versions 1 and 2), or rows and values apart.
enum Types<'v> {
    Inline(crate::List<'v, WireType>),
    Rows(crate::List<'v, WireTypeRow>, crate::List<'v, WireTypeValue>),
}

/// A row of the type table, whichever version wrote it.
#[derive(Clone, Copy)]
struct Row {
    code: u8,
    len: u32,
    child: u32,
    value: i128,
}

impl Types<'_> {
    fn len(&self) -> usize {
        match self {
            Types::Inline(types) => types.len(),
            Types::Rows(rows, _) => rows.len(),
        }
    }

    fn get(&self, index: usize) -> Option<Row> {
        match self {
            Types::Inline(types) => types.get(index).map(|t| Row {
                code: t.code(),
                len: t.len(),
                child: t.child(),
                value: t.value(),
            }),
            Types::Rows(rows, values) => {
                let r = rows.get(index)?;
                // Values are in increasing row order (checked on reading): a search.
                let (mut lo, mut hi) = (0, values.len());
                let mut value = 0;
                while lo < hi {
                    let mid = lo + (hi - lo) / 2;
                    let v = values.get(mid)?;
                    match (v.ty() as usize).cmp(&index) {
                        core::cmp::Ordering::Less => lo = mid + 1,
                        core::cmp::Ordering::Greater => hi = mid,
                        core::cmp::Ordering::Equal => {
                            value = v.value();
                            break;
                        }
                    }
                }
                Some(Row {
                    code: r.code(),
                    len: r.len(),
                    child: r.child(),
                    value,
                })
            }
        }
    }
}

struct Decoder<'v> {
    types: Types<'v>,
    enums: crate::List<'v, WireEnumDef>,
    messages: crate::List<'v, WireMessage>,
    unions: crate::List<'v, WireUnionDef>,
    /// What decoding may still build (see [`expansion_budget`]).
    budget: core::cell::Cell<usize>,
    /// The enums and unions decoded so far, by index: every field that names one
    /// shares it (a pointer each), so that it is built, and spent, once.
    shared_enums: core::cell::RefCell<BTreeMap<u32, Arc<EnumSchema>>>,
    shared_unions: core::cell::RefCell<BTreeMap<u32, Arc<UnionSchema>>>,
}

/// The type table is shared (each type once), but the model it decodes to is a tree
/// per field: a chain of tuples whose elements name the row before twice doubles at
/// each row, so 30 rows (under a kilobyte) would expand to 2^30 types. Decoding
/// therefore builds types, enums and unions of at most this many heap bytes
/// ([`decode_budget`](crate::decode_budget): 64 per byte of the encoding, at least
/// 1 MiB), each type counted at its box, an enum or a union (built once, and shared
/// by every field that names it) at its own size, its variants' and its names' bytes.
fn expansion_budget(encoded_len: usize) -> usize {
    crate::decode_budget(encoded_len)
}

impl Decoder<'_> {
    /// The type row at `index`, whose unused parts are 0 as the canonical encoding
    /// writes them (FORMAT.md §11): one schema, one encoding.
    fn row(&self, index: u32) -> Result<Row, Error> {
        let Some(t) = self.types.get(index as usize) else {
            return Err(invalid("a type index is out of range"));
        };
        let (len, child, value) = parts_used(t.code, t.len);
        if (!len && t.len != 0) || (!child && t.child != 0) || (!value && t.value != 0) {
            return Err(invalid("a type row sets a part its type code does not use"));
        }
        Ok(t)
    }

    /// A type at `depth` in the chain of children: refused past the type table's
    /// length (a table that loops would otherwise never end) and past the nesting
    /// limit (a long chain would overflow the stack).
    fn check_depth(&self, depth: usize) -> Result<(), Error> {
        if depth > self.types.len() {
            return Err(invalid("a type contains itself"));
        }
        if depth > crate::MAX_DEPTH as usize {
            return Err(invalid("types nest deeper than the nesting limit"));
        }
        Ok(())
    }

    /// Spends `bytes` of the budget: `InvalidSchema` once it is gone.
    fn spend(&self, bytes: usize) -> Result<(), Error> {
        match self.budget.get().checked_sub(bytes) {
            Some(left) => {
                self.budget.set(left);
                Ok(())
            }
            None => Err(invalid(
                "the type table expands to more types than the schema's bytes allow",
            )),
        }
    }
}

impl<'v> Decoder<'v> {
    fn message(&self, m: WireMessageView<'_>) -> Result<MessageSchema, Error> {
        let fields = m
            .fields()
            .iter()
            .enumerate()
            .map(|(i, f)| {
                self.field(f)
                    .map_err(|e| e.in_field_named(f.name()).in_element(i).in_field("fields"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(MessageSchema {
            name: Cow::Owned(m.name().into()),
            version: m.schema_version(),
            block_length: m.block_length() as usize,
            min_block_length: m.min_block_length() as usize,
            has_block_length: m.has_block_length(),
            has_tail: m.has_tail(),
            template_id: m.template_id(),
            schema_id: m.schema_id(),
            fields: Cow::Owned(fields),
        })
    }

    fn field(&self, f: WireFieldView<'_>) -> Result<FieldSchema, Error> {
        let default = match f.default_kind() {
            0 => None,
            1 => Some(DefaultValue::Bytes(Cow::Owned(f.default_bytes().to_vec()))),
            2 => Some(DefaultValue::Opaque),
            _ => return Err(invalid("unknown default kind")),
        };
        Ok(FieldSchema {
            name: Cow::Owned(f.name().into()),
            offset: f.offset() as usize,
            size: f.size() as usize,
            ty: Node::Owned(Box::new(self.ty(f.ty(), 0)?)),
            since: f.since(),
            reserved: f.reserved(),
            default,
        })
    }

    /// The type at `index`; `depth` bounds the chain of children: a type table that
    /// loops would otherwise never end, and a long chain would overflow the stack.
    fn ty(&self, index: u32, depth: usize) -> Result<TypeSchema, Error> {
        self.check_depth(depth)?;
        let t = self.row(index)?;
        self.spend(size_of::<TypeSchema>())?;
        let child = || -> Result<Node<TypeSchema>, Error> {
            Ok(Node::Owned(Box::new(self.ty(t.child, depth + 1)?)))
        };
        Ok(match t.code {
            code if usize::from(code) < NUMBERS.len() => NUMBERS[usize::from(code)].clone(),
            FIXED_STR => TypeSchema::FixedStr {
                len: t.len as usize,
            },
            ARRAY => TypeSchema::Array {
                element: child()?,
                len: t.len as usize,
            },
            OPTION => TypeSchema::Option(child()?),
            FIXED_STR_PADDED => TypeSchema::FixedStrPadded {
                len: t.len as usize,
                pad: u8::try_from(t.value).map_err(|_| invalid("a padding byte is over 255"))?,
            },
            NULLABLE => TypeSchema::Nullable {
                value: child()?,
                null: t.value,
            },
            DECIMAL => TypeSchema::Decimal {
                mantissa: child()?,
                scale: t.len,
            },
            BOUNDED_LIST => TypeSchema::BoundedList {
                element: child()?,
                max_len: t.len as usize,
            },
            LIST => TypeSchema::List(child()?),
            TUPLE => self.tuple(t, depth)?,
            MAP => TypeSchema::Map(child()?),
            ENUM => TypeSchema::Enum(Node::Shared(self.shared_enum(t.child, depth)?)),
            UNION => TypeSchema::Union(Node::Shared(self.shared_union(t.child, depth)?)),
            MESSAGE => {
                let Some(m) = self.messages.get(t.child as usize) else {
                    return Err(invalid("a message index is out of range"));
                };
                self.spend(m.name().len())?;
                TypeSchema::Message(MessageRef::named(String::from(m.name())))
            }
            _ => return Err(invalid("unknown type code")),
        })
    }

    /// The tuple whose first row is `t`: each row holds one element and indexes the
    /// row of the rest, with one element fewer, down to the last.
    fn tuple(&self, mut t: Row, depth: usize) -> Result<TypeSchema, Error> {
        let len = t.len as usize;
        if len == 0 || len > crate::tuple::ELEMENT_NAMES.len() {
            return Err(invalid("a tuple has no elements, or more than 12"));
        }
        let mut elements = Vec::with_capacity(len);
        for left in (1..=len).rev() {
            if t.code != TUPLE || t.len as usize != left {
                return Err(invalid(
                    "a tuple's rest is not a tuple of one element fewer",
                ));
            }
            elements.push(Node::Owned(Box::new(self.ty(t.child, depth + 1)?)));
            if left > 1 {
                let rest =
                    u32::try_from(t.value).map_err(|_| invalid("a type index is out of range"))?;
                t = self.row(rest)?;
            }
        }
        Ok(TypeSchema::Tuple(Cow::Owned(elements)))
    }

    /// The enum at `index`, built the first time a field names it and shared after
    /// (its representation, at `depth + 1`, checked as if built again).
    fn shared_enum(&self, index: u32, depth: usize) -> Result<Arc<EnumSchema>, Error> {
        if let Some(e) = self.shared_enums.borrow().get(&index) {
            self.check_depth(depth + 1)?;
            return Ok(Arc::clone(e));
        }
        let e = Arc::new(self.enumeration(index, depth)?);
        self.shared_enums.borrow_mut().insert(index, Arc::clone(&e));
        Ok(e)
    }

    fn enumeration(&self, index: u32, depth: usize) -> Result<EnumSchema, Error> {
        let Some(e) = self.enums.get(index as usize) else {
            return Err(invalid("an enum index is out of range"));
        };
        let repr = self.ty(e.repr(), depth + 1)?;
        if !matches!(
            repr,
            TypeSchema::U8 | TypeSchema::U16 | TypeSchema::U32 | TypeSchema::U64
        ) {
            return Err(invalid(
                "an enum's representation is not u8, u16, u32 or u64",
            ));
        }
        self.spend(size_of::<EnumSchema>() + e.name().len())?;
        let variants = e
            .variants()
            .iter()
            .map(|v| {
                self.spend(size_of::<VariantSchema>() + v.name().len())?;
                Ok(VariantSchema {
                    name: Cow::Owned(v.name().into()),
                    value: v.value(),
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(EnumSchema {
            name: Cow::Owned(e.name().into()),
            repr: Node::Owned(Box::new(repr)),
            variants: Cow::Owned(variants),
            catch_all: e.catch_all().map(|c| Cow::Owned(c.into())),
        })
    }
}

impl Decoder<'_> {
    /// The union at `index`, built the first time a field names it and shared after
    /// (its tag, at `depth + 1`, checked as if built again).
    fn shared_union(&self, index: u32, depth: usize) -> Result<Arc<UnionSchema>, Error> {
        if let Some(u) = self.shared_unions.borrow().get(&index) {
            self.check_depth(depth + 1)?;
            return Ok(Arc::clone(u));
        }
        let u = Arc::new(self.union(index, depth)?);
        self.shared_unions
            .borrow_mut()
            .insert(index, Arc::clone(&u));
        Ok(u)
    }

    fn union(&self, index: u32, depth: usize) -> Result<UnionSchema, Error> {
        let Some(u) = self.unions.get(index as usize) else {
            return Err(invalid("a union index is out of range"));
        };
        let tag = self.ty(u.tag(), depth + 1)?;
        self.spend(size_of::<UnionSchema>() + u.name().len())?;
        let variants = u
            .variants()
            .iter()
            .map(|v| {
                self.spend(size_of::<UnionVariantSchema>() + v.name().len())?;
                let payload = match v.payload() {
                    None => None,
                    Some(at) => {
                        let Some(m) = self.messages.get(at as usize) else {
                            return Err(invalid("a message index is out of range"));
                        };
                        self.spend(m.name().len())?;
                        Some(MessageRef::named(String::from(m.name())))
                    }
                };
                Ok(UnionVariantSchema {
                    name: Cow::Owned(v.name().into()),
                    tag: v.tag(),
                    payload,
                    since: v.since(),
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(UnionSchema {
            name: Cow::Owned(u.name().into()),
            version: u.schema_version(),
            tag: Node::Owned(Box::new(tag)),
            variants: Cow::Owned(variants),
            catch_all: u.catch_all().map(|c| Cow::Owned(c.into())),
        })
    }
}

// By hand: the derive refuses the reserved pair of ids to every other message.
impl Template for WireSchemaSet {
    const TEMPLATE_ID: u16 = SCHEMA_TEMPLATE_ID;
    const SCHEMA_ID: u16 = SCHEMA_SCHEMA_ID;
}

/// The schema message's own schema, with the reserved ids of its header (given by
/// hand: the derive keeps the pair for it).
pub(crate) fn schema_message() -> MessageSchema {
    let mut message = WireSchemaSet::SCHEMA.clone();
    message.template_id = Some(SCHEMA_TEMPLATE_ID);
    message.schema_id = SCHEMA_SCHEMA_ID;
    message
}
