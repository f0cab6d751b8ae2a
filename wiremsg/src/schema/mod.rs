//! The schema: every message's name, version, block lengths, ids and fields, and
//! every field's wire type, as data.
//!
//! One model serves two uses:
//!
//! - the derive writes it as `'static` constants ([`WireMsg::SCHEMA`](crate::WireMsg::SCHEMA),
//!   [`Field::TYPE`](crate::Field::TYPE)), borrowed and free at run time;
//! - tools build it at run time, owned, from a schema file
//!   ([`SchemaSet::from_bytes`], or JSON with the `serde` feature).
//!
//! Strings and lists are [`Cow`]s and child types are [`Node`]s, so a descriptor
//! compares, prints and hashes the same whichever way it was made. A nested message is
//! named ([`MessageRef`]), not inlined, so that recursive messages have a finite
//! schema; a [`SchemaSet`] holds every message one root reaches.
//!
//! What a schema says is what FORMAT.md specifies: sections 2 to 6 for the layout, 5
//! for versions.
//!
//! [`compat`] compares two versions of a schema set and says, change by change,
//! whether old readers still read new bytes and new readers old bytes;
//! [`check_snapshot`] (feature `std`) runs it in a test against the schema of a
//! released version committed as a file.

pub(crate) mod canonical;
mod compat;
mod describe;
mod node;
#[cfg(feature = "serde")]
mod serde_impls;
mod set;
pub(crate) mod shape;
#[cfg(feature = "std")]
mod snapshot;
mod union;

use alloc::borrow::Cow;
use alloc::vec::Vec;
use core::fmt;

pub(crate) use canonical::WireSchemaSet;
pub use canonical::{SCHEMA_PEAK_MIN, SCHEMA_PEAK_PER_BYTE, SCHEMA_SCHEMA_ID, SCHEMA_TEMPLATE_ID};
pub use compat::{Change, ChangeKind, CompatReport, Verdict, compat};
pub use describe::Description;
pub use node::Node;
pub use set::{Fingerprint, SchemaSet};
#[cfg(feature = "std")]
pub use snapshot::{
    Snapshot, SnapshotError, UPDATE_SNAPSHOTS, check_snapshot, check_snapshot_set, write_snapshot,
};
pub use union::{UnionSchema, UnionVariantSchema};

/// A name in a schema (a Rust type, field or variant name, without `r#`).
pub type Name = Cow<'static, str>;

/// The wire type of a field.
///
/// # Examples
///
/// ```
/// use wiremsg::{Field, TypeSchema};
///
/// assert_eq!(*<Vec<u32> as Field>::TYPE, TypeSchema::List(TypeSchema::U32.into()));
/// assert_eq!(format!("{:?}", <Option<[u8; 4]> as Field>::TYPE), "Option([U8; 4])");
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TypeSchema {
    /// `bool`: 1 byte, 0 or 1.
    Bool,
    /// `u8`: 1 byte.
    U8,
    /// `u16`: 2 bytes, little-endian.
    U16,
    /// `u32`: 4 bytes, little-endian.
    U32,
    /// `u64`: 8 bytes, little-endian.
    U64,
    /// `u128`: 16 bytes, little-endian.
    U128,
    /// `i8`: 1 byte, two's complement.
    I8,
    /// `i16`: 2 bytes, little-endian two's complement.
    I16,
    /// `i32`: 4 bytes, little-endian two's complement.
    I32,
    /// `i64`: 8 bytes, little-endian two's complement.
    I64,
    /// `i128`: 16 bytes, little-endian two's complement.
    I128,
    /// `f32`: 4 bytes, IEEE 754 binary32 bits, little-endian.
    F32,
    /// `f64`: 8 bytes, IEEE 754 binary64 bits, little-endian.
    F64,
    /// [`FixedStr<N>`](crate::FixedStr): `len` bytes of space-padded UTF-8.
    FixedStr {
        /// Width in bytes.
        len: usize,
    },
    /// [`FixedStr<N, PAD>`](crate::FixedStr) with another padding byte than a space
    /// (`pad` 0: NUL-padded, SBE/FIX style): `len` bytes of UTF-8, right-padded with
    /// `pad` (FORMAT.md §4.3).
    FixedStrPadded {
        /// Width in bytes.
        len: usize,
        /// The padding byte.
        pad: u8,
    },
    /// `[T; N]`: `len` elements inline.
    Array {
        /// Element type.
        element: Node<TypeSchema>,
        /// Number of elements.
        len: usize,
    },
    /// `Option<T>`: a presence byte, then `T`'s block bytes.
    Option(Node<TypeSchema>),
    /// `String` or `&str`: UTF-8 in the tail.
    Str,
    /// `Vec<T>` or `&[T]` (bytes are `List(U8)`): elements in the tail.
    List(Node<TypeSchema>),
    /// `Option<T>` of a number with `#[wire(null = ...)]`: `T`'s bytes alone, with the
    /// value `null` standing for `None` (FORMAT.md §4.9).
    Nullable {
        /// The number's type (an integer, or a [`Decimal`](crate::Decimal)).
        value: Node<TypeSchema>,
        /// The sentinel that means absent (for a decimal, its mantissa).
        null: i128,
    },
    /// [`Decimal<M, SCALE>`](crate::Decimal): the integer mantissa `M`; the value is
    /// `mantissa * 10^-scale` (FORMAT.md §4.8).
    Decimal {
        /// The mantissa's integer type.
        mantissa: Node<TypeSchema>,
        /// Decimal places: the exponent is `-scale`.
        scale: u32,
    },
    /// `Vec<T>` or `&[T]` with `#[wire(max_len = N)]`: a list (FORMAT.md §6) of at
    /// most `max_len` elements (§6.5).
    BoundedList {
        /// Element type.
        element: Node<TypeSchema>,
        /// The declared maximum number of elements.
        max_len: usize,
    },
    /// A `#[derive(WireEnum)]` enum.
    Enum(Node<EnumSchema>),
    /// A nested `#[derive(WireMsg)]` struct, by name: its schema is in the same
    /// [`SchemaSet`].
    Message(MessageRef),
    /// A `#[derive(WireUnion)]` tagged union (FORMAT.md §4.10): a tag and the
    /// variant's payload, in the tail. Its payload messages are in the same
    /// [`SchemaSet`].
    Union(Node<UnionSchema>),
    /// A tuple `(T0, T1, ..)` of 1 to 12 elements: laid out as a message of version
    /// 1 whose fields are the elements (FORMAT.md §4.11), inline when all are
    /// fixed-size, in the tail with its own block length otherwise.
    Tuple(Cow<'static, [Node<TypeSchema>]>),
    /// `BTreeMap<K, V>` or `HashMap<K, V>`: the bytes of a list of its entries, the
    /// tuple type held here (`(K, V)`, a [`Tuple`](Self::Tuple) of two elements), in
    /// strictly increasing key order (FORMAT.md §6.7). The key is an integer, a
    /// string, a `FixedStr` or an enum ([`map_key`](Self::map_key)).
    Map(Node<TypeSchema>),
}

impl TypeSchema {
    /// The type's short name in schema listings: `u32`, `String`, `[u8; 4]`,
    /// `Vec<Leg>`, `Option<u64>`, `Side`, `FixedStr<8>`.
    pub fn display(&self) -> impl fmt::Display + '_ {
        struct Show<'a>(&'a TypeSchema);
        impl fmt::Display for Show<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.write_name(f)
            }
        }
        Show(self)
    }

    fn write_name(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeSchema::FixedStr { len } => write!(f, "FixedStr<{len}>"),
            TypeSchema::Array { element, len } => {
                f.write_str("[")?;
                element.write_name(f)?;
                write!(f, "; {len}]")
            }
            TypeSchema::Option(inner) => {
                f.write_str("Option<")?;
                inner.write_name(f)?;
                f.write_str(">")
            }
            TypeSchema::List(inner) => {
                f.write_str("Vec<")?;
                inner.write_name(f)?;
                f.write_str(">")
            }
            TypeSchema::FixedStrPadded { len, pad } => write!(f, "FixedStr<{len}, {pad}>"),
            TypeSchema::Nullable { value, null } => {
                f.write_str("Option<")?;
                value.write_name(f)?;
                write!(f, "> (null = {null})")
            }
            TypeSchema::Decimal { mantissa, scale } => {
                f.write_str("Decimal<")?;
                mantissa.write_name(f)?;
                write!(f, ", {scale}>")
            }
            TypeSchema::BoundedList { element, max_len } => {
                f.write_str("Vec<")?;
                element.write_name(f)?;
                write!(f, "> (max_len = {max_len})")
            }
            TypeSchema::Enum(e) => f.write_str(&e.name),
            TypeSchema::Message(m) => f.write_str(&m.name),
            TypeSchema::Union(u) => f.write_str(&u.name),
            TypeSchema::Tuple(elements) => {
                f.write_str("(")?;
                for (i, element) in elements.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    element.write_name(f)?;
                }
                // A tuple of one element is written `(T,)`, as in Rust.
                f.write_str(if elements.len() == 1 { ",)" } else { ")" })
            }
            TypeSchema::Map(entry) => match entry.map_key() {
                Some((key, value)) => {
                    f.write_str("BTreeMap<")?;
                    key.write_name(f)?;
                    f.write_str(", ")?;
                    value.write_name(f)?;
                    f.write_str(">")
                }
                None => f.write_str("BTreeMap<?>"),
            },
            number => f.write_str(number.number_name().unwrap_or("?")),
        }
    }

    /// The Rust name of a number or `bool` type (`"u32"`, `"f64"`, `"bool"`), or `"String"`.
    fn number_name(&self) -> Option<&'static str> {
        Some(match self {
            TypeSchema::Bool => "bool",
            TypeSchema::U8 => "u8",
            TypeSchema::U16 => "u16",
            TypeSchema::U32 => "u32",
            TypeSchema::U64 => "u64",
            TypeSchema::U128 => "u128",
            TypeSchema::I8 => "i8",
            TypeSchema::I16 => "i16",
            TypeSchema::I32 => "i32",
            TypeSchema::I64 => "i64",
            TypeSchema::I128 => "i128",
            TypeSchema::F32 => "f32",
            TypeSchema::F64 => "f64",
            TypeSchema::Str => "String",
            _ => return None,
        })
    }

    /// The key and value types of a map's entry type (a tuple of two elements), or
    /// `None` for other types.
    ///
    /// ```
    /// use std::collections::BTreeMap;
    /// use wiremsg::{Field, TypeSchema};
    ///
    /// let TypeSchema::Map(entry) = <BTreeMap<u16, String> as Field>::TYPE else { panic!() };
    /// assert_eq!(entry.map_key(), Some((&TypeSchema::U16, &TypeSchema::Str)));
    /// assert_eq!(<BTreeMap<u16, String> as Field>::TYPE.display().to_string(), "BTreeMap<u16, String>");
    /// ```
    pub fn map_key(&self) -> Option<(&TypeSchema, &TypeSchema)> {
        match self {
            TypeSchema::Tuple(elements) => match &**elements {
                [key, value] => Some((key, value)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Bytes of a number, `bool` or enum representation, or `None` for other types.
    pub fn number_size(&self) -> Option<usize> {
        Some(match self {
            TypeSchema::Bool | TypeSchema::U8 | TypeSchema::I8 => 1,
            TypeSchema::U16 | TypeSchema::I16 => 2,
            TypeSchema::U32 | TypeSchema::I32 | TypeSchema::F32 => 4,
            TypeSchema::U64 | TypeSchema::I64 | TypeSchema::F64 => 8,
            TypeSchema::U128 | TypeSchema::I128 => 16,
            TypeSchema::Enum(e) => return e.repr.number_size(),
            TypeSchema::Decimal {
                mantissa: inner, ..
            }
            | TypeSchema::Nullable { value: inner, .. } => return inner.number_size(),
            _ => return None,
        })
    }
}

impl fmt::Debug for TypeSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypeSchema::FixedStr { len } => write!(f, "FixedStr<{len}>"),
            TypeSchema::FixedStrPadded { len, pad } => write!(f, "FixedStr<{len}, {pad}>"),
            TypeSchema::Nullable { value, null } => write!(f, "Nullable({value:?}, {null})"),
            TypeSchema::Decimal { mantissa, scale } => write!(f, "Decimal({mantissa:?}, {scale})"),
            TypeSchema::BoundedList { element, max_len } => {
                write!(f, "BoundedList({element:?}, {max_len})")
            }
            TypeSchema::Array { element, len } => write!(f, "[{element:?}; {len}]"),
            TypeSchema::Option(inner) => write!(f, "Option({inner:?})"),
            TypeSchema::List(inner) => write!(f, "List({inner:?})"),
            TypeSchema::Enum(e) => write!(f, "Enum({})", e.name),
            TypeSchema::Message(m) => write!(f, "Message({})", m.name),
            TypeSchema::Union(u) => write!(f, "Union({})", u.name),
            TypeSchema::Tuple(elements) => {
                let mut t = f.debug_tuple("Tuple");
                for element in elements.iter() {
                    t.field(element);
                }
                t.finish()
            }
            TypeSchema::Map(entry) => write!(f, "Map({entry:?})"),
            TypeSchema::Bool => f.write_str("Bool"),
            TypeSchema::U8 => f.write_str("U8"),
            TypeSchema::U16 => f.write_str("U16"),
            TypeSchema::U32 => f.write_str("U32"),
            TypeSchema::U64 => f.write_str("U64"),
            TypeSchema::U128 => f.write_str("U128"),
            TypeSchema::I8 => f.write_str("I8"),
            TypeSchema::I16 => f.write_str("I16"),
            TypeSchema::I32 => f.write_str("I32"),
            TypeSchema::I64 => f.write_str("I64"),
            TypeSchema::I128 => f.write_str("I128"),
            TypeSchema::F32 => f.write_str("F32"),
            TypeSchema::F64 => f.write_str("F64"),
            TypeSchema::Str => f.write_str("Str"),
        }
    }
}

impl From<TypeSchema> for Node<TypeSchema> {
    fn from(ty: TypeSchema) -> Self {
        Node::Owned(alloc::boxed::Box::new(ty))
    }
}

/// A nested message named by a field's type.
///
/// Two references are equal when their names are: a schema names each message once
/// (a [`SchemaSet`] refuses two messages of one name). A reference the derive made also
/// reaches the message's schema ([`resolve`](Self::resolve)), so that a set can be
/// collected from a root type; one read from a schema file is looked up by name in its
/// set.
///
/// # Examples
///
/// ```
/// use wiremsg::{MessageRef, TypeSchema, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Leg {
///     qty: u32,
/// }
///
/// #[derive(WireMsg)]
/// struct Order {
///     legs: Vec<Leg>,
/// }
///
/// let TypeSchema::List(element) = &*Order::SCHEMA.fields[0].ty else { unreachable!() };
/// let TypeSchema::Message(leg) = &**element else { unreachable!() };
/// assert_eq!(leg.resolve(), Some(Leg::SCHEMA));
/// // A reference read from a file has only the name, and equals the derive's.
/// assert_eq!(*leg, MessageRef::named("Leg"));
/// assert_eq!(MessageRef::named("Leg").resolve(), None);
/// ```
#[derive(Clone)]
pub struct MessageRef {
    /// The message's name.
    pub name: Name,
    resolve: Option<fn() -> &'static MessageSchema>,
}

impl MessageRef {
    /// A reference by name, as read from a schema file.
    pub fn named(name: impl Into<Name>) -> Self {
        MessageRef {
            name: name.into(),
            resolve: None,
        }
    }

    /// A reference to a derived message's `'static` schema (the derive writes these).
    pub const fn of(name: &'static str, schema: fn() -> &'static MessageSchema) -> Self {
        MessageRef {
            name: Cow::Borrowed(name),
            resolve: Some(schema),
        }
    }

    /// The message's schema, if this reference was made from the Rust type.
    pub fn resolve(&self) -> Option<&'static MessageSchema> {
        self.resolve.map(|schema| schema())
    }
}

impl PartialEq for MessageRef {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for MessageRef {}

impl core::hash::Hash for MessageRef {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.name.hash(state);
    }
}

impl fmt::Debug for MessageRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A message: its name, ids, block lengths and fields in wire order.
///
/// # Examples
///
/// ```
/// use wiremsg::{TypeSchema, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 3, schema_id = 1, version = 2)]
/// struct Quote {
///     px: i64,
///     venue: String,
///     #[wire(since = 2)]
///     qty: u32,
/// }
///
/// let schema = Quote::SCHEMA;
/// assert_eq!((schema.name.as_ref(), schema.version), ("Quote", 2));
/// assert_eq!((schema.template_id, schema.schema_id), (Some(3), 1));
/// // The block length field (2 bytes), `px` (8), `venue`'s end offset (4), `qty` (4).
/// assert_eq!((schema.block_length, schema.min_block_length), (18, 14));
/// assert_eq!(*schema.fields[1].ty, TypeSchema::Str);
/// assert_eq!(schema.fields[2].name, "qty");
/// assert_eq!((schema.fields[2].offset, schema.fields[2].since), (14, 2));
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct MessageSchema {
    /// The Rust type name.
    pub name: Name,
    /// The message's current schema version.
    pub version: u16,
    /// Block length in bytes (for a message with a block length field, including its
    /// 2 bytes).
    pub block_length: usize,
    /// Block length of version 1 in bytes: the least any reader needs.
    pub min_block_length: usize,
    /// True if the message starts with its `u16` block length (it has a tail, or was
    /// declared `#[wire(block_length)]`; FORMAT.md §3).
    pub has_block_length: bool,
    /// True if the message has a tail (a field with variable-size data).
    pub has_tail: bool,
    /// The id a [`MessageHeader`](crate::MessageHeader) carries
    /// (`#[wire(template_id = N)]`), if the message has one.
    pub template_id: Option<u16>,
    /// The schema id the header carries (`#[wire(schema_id = N)]`, default 0).
    pub schema_id: u16,
    /// Fields in declaration (and wire) order.
    pub fields: Cow<'static, [FieldSchema]>,
}

impl MessageSchema {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&FieldSchema> {
        self.fields.iter().find(|f| f.name == name)
    }

    /// Block length of version `version` of this message: the end of the last field
    /// with `since <= version` (at least the block length field, if any).
    pub fn block_length_of(&self, version: u16) -> usize {
        let start = if self.has_block_length { 2 } else { 0 };
        self.fields
            .iter()
            .filter(|f| f.since <= version)
            .map(|f| f.offset + f.size)
            .fold(start, usize::max)
    }
}

impl fmt::Debug for MessageSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct(&self.name);
        s.field("version", &self.version)
            .field("block_length", &self.block_length)
            .field("min_block_length", &self.min_block_length);
        if self.has_block_length != self.has_tail {
            s.field("has_block_length", &self.has_block_length);
        }
        s.field("has_tail", &self.has_tail);
        if let Some(id) = self.template_id {
            s.field("template_id", &id)
                .field("schema_id", &self.schema_id);
        }
        s.field("fields", &self.fields).finish()
    }
}

/// One field of a message.
///
/// # Examples
///
/// ```
/// use wiremsg::{TypeSchema, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(version = 2)]
/// struct Quote {
///     px: i64,
///     #[wire(since = 2, default = 100)]
///     lot: u32,
/// }
///
/// let lot = Quote::SCHEMA.field("lot").unwrap();
/// assert_eq!((lot.offset, lot.size, lot.since), (8, 4, 2));
/// assert_eq!(*lot.ty, TypeSchema::U32);
/// let default = lot.default.as_ref().unwrap().bytes().unwrap();
/// assert_eq!(&*default, &100u32.to_le_bytes());
/// assert_eq!(format!("{lot:?}"), "lot: U32 @8+4 since 2 default [64, 00, 00, 00]");
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct FieldSchema {
    /// Field name as written in Rust (without `r#`).
    pub name: Name,
    /// Offset of the field's block bytes from the start of the message, in bytes.
    pub offset: usize,
    /// Bytes the field takes in the block (its value, or its slot).
    pub size: usize,
    /// Wire type.
    pub ty: Node<TypeSchema>,
    /// Schema version that added the field (1 for fields of the first version).
    pub since: u16,
    /// True for a removed field whose slot stays (`#[wire(reserved)]`): written as
    /// its type's default, not readable.
    pub reserved: bool,
    /// What a reader gets for the field when the writer's version is older than
    /// `since` (`#[wire(default = ...)]`); `None` for fields of version 1, and for
    /// later fields without a declared default (they read as the type's zero value:
    /// 0, `false`, empty, `None`).
    pub default: Option<DefaultValue>,
}

impl fmt::Debug for FieldSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {:?} @{}+{}",
            self.name, self.ty, self.offset, self.size
        )?;
        if self.since > 1 {
            write!(f, " since {}", self.since)?;
        }
        if self.reserved {
            f.write_str(" reserved")?;
        }
        if let Some(default) = &self.default {
            write!(f, " default {default:?}")?;
        }
        Ok(())
    }
}

/// The declared default of a field added in a later version, as bytes: the block
/// bytes of a number, `bool`, enum or `FixedStr`, or the UTF-8 of a string. A default
/// of another type (a list, a message) is kept as [`DefaultValue::Opaque`]: a reader
/// without the Rust type cannot rebuild it.
///
/// # Examples
///
/// ```
/// use wiremsg::DefaultValue;
///
/// let read_from_file = DefaultValue::Bytes(vec![7, 0].into());
/// assert_eq!(read_from_file.bytes().as_deref(), Some(&[7, 0][..]));
/// assert_eq!(DefaultValue::Opaque.bytes(), None);
/// ```
#[derive(Clone)]
pub enum DefaultValue {
    /// Computed by the derive's code on first use.
    #[doc(hidden)]
    Lazy(fn() -> Option<Vec<u8>>),
    /// The bytes, as read from a schema file.
    Bytes(Cow<'static, [u8]>),
    /// A default of a type that has no byte form here.
    Opaque,
}

impl DefaultValue {
    /// The default's bytes, or `None` if it has no byte form.
    pub fn bytes(&self) -> Option<Cow<'static, [u8]>> {
        match self {
            DefaultValue::Lazy(compute) => compute().map(Cow::Owned),
            DefaultValue::Bytes(bytes) => Some(bytes.clone()),
            DefaultValue::Opaque => None,
        }
    }
}

impl PartialEq for DefaultValue {
    fn eq(&self, other: &Self) -> bool {
        self.bytes() == other.bytes()
    }
}

impl Eq for DefaultValue {}

impl core::hash::Hash for DefaultValue {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.bytes().hash(state);
    }
}

impl fmt::Debug for DefaultValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.bytes() {
            Some(bytes) => write!(f, "{bytes:02x?}"),
            None => f.write_str("(opaque)"),
        }
    }
}

/// An enum: its representation and known values.
///
/// # Examples
///
/// ```
/// use wiremsg::{TypeSchema, WireEnum};
///
/// #[derive(WireEnum, Clone, Copy, Debug)]
/// #[repr(u8)]
/// enum Side {
///     Buy = 1,
///     Sell = 2,
/// }
///
/// let schema = Side::ENUM_SCHEMA;
/// assert_eq!(*schema.repr, TypeSchema::U8);
/// assert_eq!(schema.variant_name(2), Some("Sell"));
/// assert_eq!(schema.catch_all, None);
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct EnumSchema {
    /// The Rust type name.
    pub name: Name,
    /// The integer type on the wire (`U8`, `U16`, `U32` or `U64`).
    pub repr: Node<TypeSchema>,
    /// Known variants and their values.
    pub variants: Cow<'static, [VariantSchema]>,
    /// The catch-all variant that keeps unknown values (`#[wire(other)]`), if the enum
    /// declares one.
    pub catch_all: Option<Name>,
}

impl EnumSchema {
    /// The name of the variant with wire value `value`, if it is known.
    pub fn variant_name(&self, value: u64) -> Option<&str> {
        self.variants
            .iter()
            .find(|v| v.value == value)
            .map(|v| v.name.as_ref())
    }
}

impl fmt::Debug for EnumSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct(&self.name);
        s.field("repr", &self.repr)
            .field("variants", &self.variants);
        if let Some(catch_all) = &self.catch_all {
            s.field("catch_all", catch_all);
        }
        s.finish()
    }
}

/// One variant of an enum: its name and wire value.
///
/// # Examples
///
/// ```
/// use wiremsg::VariantSchema;
///
/// let buy = VariantSchema { name: "Buy".into(), value: 1 };
/// assert_eq!(format!("{buy:?}"), "Buy = 1");
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct VariantSchema {
    /// The variant's name.
    pub name: Name,
    /// The value on the wire.
    pub value: u64,
}

impl fmt::Debug for VariantSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.name, self.value)
    }
}
