//! Values read from validated bytes by their schema: [`Value`] and the lazy
//! [`DynList`], [`DynArray`] and [`EnumValue`].

use super::view::DynView;
use super::walk::{Walk, read_raw};
use crate::ListEncoding;
use crate::mode::sealed::Place;
use crate::primitives_le::{read_u16, read_u32};
use crate::schema::shape::{self, block_size, encoding, message_of};
use crate::schema::{
    EnumSchema, FieldSchema, SchemaSet, TypeSchema, UnionSchema, UnionVariantSchema,
};
use crate::trust::shape::dense;
use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use core::fmt;

/// A value read by a schema: what the typed view's accessor returns, as data.
///
/// Integers of every width are widened (`Unsigned` for `u8` to `u128`, `Signed` for
/// `i8` to `i128`); the field's [`TypeSchema`] keeps the width. Lists, arrays and
/// nested messages are read lazily, like the typed views.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Fill {
///     qty: Option<u32>,
///     venue: String,
/// }
///
/// let bytes = Fill { qty: Some(5), venue: "XNAS".into() }.to_bytes().unwrap();
/// let set = SchemaSet::of::<Fill>().unwrap();
/// let fill = dynamic::view(&set, "Fill", &bytes).unwrap();
/// assert_eq!(fill.get("qty"), Some(Value::Option(Some(Box::new(Value::Unsigned(5))))));
/// assert_eq!(fill.get("venue").unwrap().as_str(), Some("XNAS"));
/// assert_eq!(fill.get("venue").unwrap().to_string(), "\"XNAS\"");
/// ```
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub enum Value<'a> {
    /// `bool`.
    Bool(bool),
    /// `u8`, `u16`, `u32`, `u64`, `u128`.
    Unsigned(u128),
    /// `i8`, `i16`, `i32`, `i64`, `i128`.
    Signed(i128),
    /// `f32` (bit for bit).
    F32(f32),
    /// `f64` (bit for bit).
    F64(f64),
    /// A string (`String`, `&str`): borrowed from the bytes, or owned for a
    /// declared default.
    Str(Cow<'a, str>),
    /// A [`FixedStr`](crate::FixedStr), without its padding.
    FixedStr(Cow<'a, str>),
    /// A [`Decimal`](crate::Decimal): `mantissa * 10^-scale`, exactly.
    Decimal {
        /// The integer mantissa.
        mantissa: i128,
        /// Decimal places.
        scale: u32,
    },
    /// Bytes (`Vec<u8>`, `&[u8]`).
    Bytes(&'a [u8]),
    /// An enum value.
    Enum(EnumValue<'a>),
    /// An `Option`.
    Option(Option<Box<Value<'a>>>),
    /// A fixed array `[T; N]`.
    Array(DynArray<'a>),
    /// A list of anything but bytes.
    List(DynList<'a>),
    /// A nested message.
    Message(DynView<'a>),
    /// A tagged union's value (FORMAT.md §4.10).
    Union(UnionValue<'a>),
    /// A tuple `(T0, T1, ..)` (FORMAT.md §4.11).
    Tuple(DynTuple<'a>),
    /// A map (`BTreeMap<K, V>`, `HashMap<K, V>`, FORMAT.md §6.7): the list of its
    /// entries, `(key, value)` tuples in key order.
    Map(DynList<'a>),
    /// A field the writer's version did not have, whose value a reader without the
    /// Rust type cannot make: its declared default has no byte form
    /// ([`DefaultValue::Opaque`](crate::DefaultValue::Opaque)), or, without one, its type has no zero value (a
    /// nested message).
    Absent,
}

impl<'a> Value<'a> {
    /// The value of an unsigned integer, if it is one.
    pub fn as_u128(&self) -> Option<u128> {
        match self {
            Value::Unsigned(n) => Some(*n),
            _ => None,
        }
    }

    /// The value of a signed integer, if it is one.
    pub fn as_i128(&self) -> Option<i128> {
        match self {
            Value::Signed(n) => Some(*n),
            _ => None,
        }
    }

    /// The text of a string or fixed-width text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) | Value::FixedStr(s) => Some(s),
            _ => None,
        }
    }

    /// The nested message's view, if the value is one.
    pub fn as_message(&self) -> Option<&DynView<'a>> {
        match self {
            Value::Message(m) => Some(m),
            _ => None,
        }
    }

    /// The list, if the value is one (not bytes).
    pub fn as_list(&self) -> Option<&DynList<'a>> {
        match self {
            Value::List(l) => Some(l),
            _ => None,
        }
    }
}

impl fmt::Debug for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "Bool({b})"),
            Value::Unsigned(n) => write!(f, "Unsigned({n})"),
            Value::Signed(n) => write!(f, "Signed({n})"),
            Value::F32(x) => write!(f, "F32({x:?})"),
            Value::F64(x) => write!(f, "F64({x:?})"),
            Value::Str(s) => write!(f, "Str({s:?})"),
            Value::FixedStr(s) => write!(f, "FixedStr({s:?})"),
            Value::Decimal { .. } => write!(f, "Decimal({self})"),
            Value::Bytes(b) => write!(f, "Bytes({b:02x?})"),
            Value::Enum(e) => write!(f, "Enum({e})"),
            Value::Option(o) => write!(f, "Option({o:?})"),
            Value::Array(a) => write!(f, "Array({a:?})"),
            Value::List(l) => write!(f, "List({l:?})"),
            Value::Message(m) => write!(f, "Message({m:?})"),
            Value::Union(u) => write!(f, "Union({u:?})"),
            Value::Tuple(t) => write!(f, "Tuple({t:?})"),
            Value::Map(m) => write!(f, "Map({m:?})"),
            Value::Absent => f.write_str("Absent"),
        }
    }
}

/// The value as one line of text: numbers, `true`, quoted strings, enum variant
/// names, `None`/`Some(..)`, `[..]` and `Name { field: value, .. }`.
impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Unsigned(n) => write!(f, "{n}"),
            Value::Signed(n) => write!(f, "{n}"),
            Value::F32(x) => write!(f, "{x:?}"),
            Value::F64(x) => write!(f, "{x:?}"),
            Value::Str(s) | Value::FixedStr(s) => write!(f, "{s:?}"),
            Value::Decimal { mantissa, scale } => write_decimal(f, *mantissa, *scale),
            Value::Bytes(b) => {
                f.write_str("0x")?;
                b.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
            }
            Value::Enum(e) => write!(f, "{e}"),
            Value::Option(None) => f.write_str("None"),
            Value::Option(Some(v)) => write!(f, "Some({v})"),
            Value::Array(a) => write_items(f, a.iter()),
            Value::List(l) => write_items(f, l.iter()),
            Value::Message(m) => write!(f, "{m}"),
            Value::Union(u) => write!(f, "{u}"),
            Value::Tuple(t) => {
                f.write_str("(")?;
                for (i, item) in t.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(if t.len() == 1 { ",)" } else { ")" })
            }
            Value::Map(m) => {
                f.write_str("{")?;
                for (i, (key, value)) in map_entries(m).enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{key}: {value}")?;
                }
                f.write_str("}")
            }
            Value::Absent => f.write_str("(absent)"),
        }
    }
}

/// `mantissa * 10^-scale` with exactly `scale` decimal places, as
/// [`Decimal`](crate::Decimal)'s `Display` writes it.
fn write_decimal(f: &mut fmt::Formatter<'_>, mantissa: i128, scale: u32) -> fmt::Result {
    let sign = if mantissa < 0 { "-" } else { "" };
    let magnitude = mantissa.unsigned_abs();
    let Some(unit) = 10u128.checked_pow(scale) else {
        return write!(f, "{sign}{magnitude}e-{scale}");
    };
    if scale == 0 {
        return write!(f, "{sign}{magnitude}");
    }
    let width = scale as usize;
    write!(f, "{sign}{}.{:0width$}", magnitude / unit, magnitude % unit)
}

fn write_items<'a>(
    f: &mut fmt::Formatter<'_>,
    items: impl Iterator<Item = Value<'a>>,
) -> fmt::Result {
    f.write_str("[")?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    f.write_str("]")
}

/// An enum value: its raw value and, if it has one, its variant's name.
///
/// An unknown value is one the enum's catch-all variant keeps (FORMAT.md §4.4).
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireEnum, WireMsg};
///
/// #[derive(WireEnum, Clone, Copy, Debug)]
/// #[repr(u8)]
/// enum Liquidity { Added = 1, #[wire(other)] Other(u8) }
///
/// #[derive(WireMsg)]
/// struct Fill { liquidity: Liquidity }
///
/// let set = SchemaSet::of::<Fill>().unwrap();
/// let Some(Value::Enum(known)) = dynamic::view(&set, "Fill", &[1]).unwrap().get("liquidity")
/// else { unreachable!() };
/// assert_eq!((known.name(), known.raw(), known.to_string()), (Some("Added"), 1, "Added".into()));
/// let Some(Value::Enum(kept)) = dynamic::view(&set, "Fill", &[7]).unwrap().get("liquidity")
/// else { unreachable!() };
/// assert_eq!((kept.name(), kept.raw(), kept.to_string()), (None, 7, "Other(7)".into()));
/// assert_eq!(kept.type_name(), "Liquidity");
/// ```
#[derive(Clone, Copy, PartialEq)]
pub struct EnumValue<'a> {
    schema: &'a EnumSchema,
    raw: u64,
}

impl<'a> EnumValue<'a> {
    /// The value on the wire.
    pub fn raw(&self) -> u64 {
        self.raw
    }

    /// The name of the variant with this value, or `None` for a value the catch-all
    /// variant keeps.
    pub fn name(&self) -> Option<&'a str> {
        self.schema.variant_name(self.raw)
    }

    /// The enum's name.
    pub fn type_name(&self) -> &'a str {
        &self.schema.name
    }

    /// The enum's schema.
    pub fn schema(&self) -> &'a EnumSchema {
        self.schema
    }
}

impl fmt::Display for EnumValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.name(), &self.schema.catch_all) {
            (Some(name), _) => f.write_str(name),
            (None, Some(other)) => write!(f, "{other}({})", self.raw),
            (None, None) => write!(f, "{}({})", self.schema.name, self.raw),
        }
    }
}

impl fmt::Debug for EnumValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}::{self} ({})", self.schema.name, self.raw)
    }
}

/// A tagged union's value read by its schema (FORMAT.md §4.10): the tag, the variant
/// that has it (none for a tag the catch-all keeps) and its payload.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg, WireUnion};
///
/// #[derive(WireMsg)]
/// struct Limit { price: i64 }
///
/// #[derive(WireUnion)]
/// #[repr(u8)]
/// enum Instr { Market = 0, Limit(Limit) = 1, #[wire(other)] Other { tag: u8, bytes: Vec<u8> } }
///
/// #[derive(WireMsg)]
/// struct Order { instr: Instr }
///
/// let set = SchemaSet::of::<Order>().unwrap();
/// let bytes = Order { instr: Instr::Limit(Limit { price: 5 }) }.to_bytes().unwrap();
/// let Some(Value::Union(instr)) = dynamic::view(&set, "Order", &bytes).unwrap().get("instr")
/// else { unreachable!() };
/// assert_eq!((instr.tag(), instr.name()), (1, Some("Limit")));
/// assert_eq!(instr.payload().as_message().unwrap().get("price"), Some(Value::Signed(5)));
/// assert_eq!(instr.to_string(), "Limit(Limit { price: 5 })");
///
/// let kept = Order { instr: Instr::Other { tag: 9, bytes: vec![1] } }.to_bytes().unwrap();
/// let Some(Value::Union(instr)) = dynamic::view(&set, "Order", &kept).unwrap().get("instr")
/// else { unreachable!() };
/// assert_eq!((instr.tag(), instr.name(), instr.payload()), (9, None, Value::Bytes(&[1])));
/// assert_eq!(instr.to_string(), "Other { tag: 9, bytes: 0x01 }");
/// ```
#[derive(Clone, Copy)]
pub struct UnionValue<'a> {
    set: &'a SchemaSet,
    schema: &'a UnionSchema,
    tag: u64,
    /// The bytes after the tag.
    payload: &'a [u8],
}

impl<'a> UnionValue<'a> {
    /// The value over a validated union region (on other bytes it reads something).
    fn read(set: &'a SchemaSet, schema: &'a UnionSchema, region: &'a [u8]) -> Value<'a> {
        let size = schema.tag_size();
        Value::Union(UnionValue {
            set,
            schema,
            tag: read_raw(region, size),
            payload: region.get(size..).unwrap_or_default(),
        })
    }

    /// The value of an element of a dense list (FORMAT.md §6.8): the tag of its
    /// entry in the list's variant table, and its payload's block.
    pub(super) fn of(
        set: &'a SchemaSet,
        schema: &'a UnionSchema,
        tag: u64,
        payload: &'a [u8],
    ) -> Value<'a> {
        Value::Union(UnionValue {
            set,
            schema,
            tag,
            payload,
        })
    }

    /// The tag on the wire.
    pub fn tag(&self) -> u64 {
        self.tag
    }

    /// The variant with this tag, or `None` for a tag the catch-all keeps.
    pub fn variant(&self) -> Option<&'a UnionVariantSchema> {
        self.schema.variant(self.tag)
    }

    /// The variant's name, or `None` for a tag the catch-all keeps.
    pub fn name(&self) -> Option<&'a str> {
        self.variant().map(|v| v.name.as_ref())
    }

    /// The union's schema.
    pub fn schema(&self) -> &'a UnionSchema {
        self.schema
    }

    /// The payload: the message of a variant that carries one, nothing
    /// ([`Value::Absent`]) for a unit variant, the bytes after the tag for the
    /// catch-all.
    pub fn payload(&self) -> Value<'a> {
        match self.variant() {
            None => Value::Bytes(self.payload),
            Some(v) => match v.payload.as_ref().and_then(|m| self.set.message(&m.name)) {
                Some(m) => Value::Message(DynView::over(self.set, m, self.payload)),
                None => Value::Absent,
            },
        }
    }
}

/// Same union, tag and payload.
impl PartialEq for UnionValue<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.schema.name == other.schema.name
            && self.tag == other.tag
            && self.payload() == other.payload()
    }
}

/// `Name`, `Name(payload)`, or `Other { tag: 9, bytes: 0x.. }` for the catch-all.
impl fmt::Display for UnionValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.variant(), self.payload()) {
            (Some(v), Value::Absent) => f.write_str(&v.name),
            (Some(v), payload) => write!(f, "{}({payload})", v.name),
            (None, payload) => {
                let other = self.schema.catch_all.as_deref().unwrap_or("?");
                write!(f, "{other} {{ tag: {}, bytes: {payload} }}", self.tag)
            }
        }
    }
}

impl fmt::Debug for UnionValue<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}::{self} (tag {})", self.schema.name, self.tag)
    }
}

/// A fixed array `[T; N]` read by its schema: O(1) access by index.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Levels { sizes: [u16; 3] }
///
/// let bytes = Levels { sizes: [1, 2, 3] }.to_bytes().unwrap();
/// let set = SchemaSet::of::<Levels>().unwrap();
/// let Some(Value::Array(sizes)) = dynamic::view(&set, "Levels", &bytes).unwrap().get("sizes")
/// else { unreachable!() };
/// assert_eq!((sizes.len(), sizes.get(2), sizes.get(3)), (3, Some(Value::Unsigned(3)), None));
/// assert_eq!(sizes.iter().filter_map(|v| v.as_u128()).sum::<u128>(), 6);
/// ```
#[derive(Clone, Copy)]
pub struct DynArray<'a> {
    set: &'a SchemaSet,
    element: &'a TypeSchema,
    /// The array's block bytes (empty for an absent array whose zero bytes are not
    /// a valid array: it then has no elements, as the typed view's default).
    block: &'a [u8],
    len: usize,
}

impl<'a> DynArray<'a> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The element at `index`, or `None` past the end.
    pub fn get(&self, index: usize) -> Option<Value<'a>> {
        if index >= self.len {
            return None;
        }
        let size = block_size(self.set, self.element);
        let block = self.block.get(index * size..(index + 1) * size)?;
        Some(read(self.set, self.element, block, &[]))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Value<'a>> + 'a {
        let array = *self;
        (0..self.len).map(move |i| array.get(i).unwrap_or(Value::Absent))
    }
}

impl fmt::Debug for DynArray<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for DynArray<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

/// A list read by its schema: O(1) length and access by index, as the typed
/// [`List`](crate::List) (elements with tail data are found through the list's
/// offset table).
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Level { price: i64, size: u32 }
///
/// #[derive(WireMsg)]
/// struct Book { levels: Vec<Level>, tags: Vec<String> }
///
/// let book = Book {
///     levels: vec![Level { price: 10, size: 1 }, Level { price: 11, size: 2 }],
///     tags: vec!["a".into(), "bc".into()],
/// };
/// let bytes = book.to_bytes().unwrap();
/// let set = SchemaSet::of::<Book>().unwrap();
/// let view = dynamic::view(&set, "Book", &bytes).unwrap();
/// let levels = view.get("levels").unwrap();
/// let levels = levels.as_list().unwrap();
/// assert_eq!(levels.len(), 2);
/// let second = levels.get(1).unwrap();
/// assert_eq!(second.as_message().unwrap().get("price"), Some(Value::Signed(11)));
/// assert_eq!(view.get("tags").unwrap().to_string(), r#"["a", "bc"]"#);
/// ```
#[derive(Clone, Copy)]
pub struct DynList<'a> {
    set: &'a SchemaSet,
    element: &'a TypeSchema,
    /// The list's whole tail region, validated.
    bytes: &'a [u8],
    len: usize,
    /// Element size (packed) or stride (strided, split, dense).
    stride: usize,
    encoding: ListEncoding,
}

impl<'a> DynList<'a> {
    /// The list over a validated region: O(1).
    pub(super) fn new(set: &'a SchemaSet, element: &'a TypeSchema, bytes: &'a [u8]) -> Self {
        let encoding = encoding(set, element);
        let size = block_size(set, element);
        let (len, stride) = if bytes.is_empty() {
            (0, size)
        } else {
            match encoding {
                ListEncoding::Packed => (bytes.len() / size.max(1), size),
                ListEncoding::Strided => {
                    let stride = usize::from(read_u16(bytes, 0).unwrap_or(1)).max(1);
                    (bytes.len().saturating_sub(2) / stride, stride)
                }
                ListEncoding::Split => {
                    // Element 0's tail start, over the stride: its block length and
                    // the tail start before it (FORMAT.md §6.3).
                    let stride = read_u16(bytes, 4).map_or(4, |b| usize::from(b) + 4);
                    (
                        read_u32(bytes, 0).map_or(0, |n| n as usize / stride),
                        stride,
                    )
                }
                ListEncoding::Table => (read_u32(bytes, 0).map_or(0, |n| n as usize / 4), 0),
                // The stride and the entries of the variant table, whose entries are
                // the union's tag size and a `u16` block length (FORMAT.md §6.8).
                ListEncoding::Dense => {
                    crate::trust::shape::list::dense_shape(bytes, dense_tag(element))
                }
            }
        };
        DynList {
            set,
            element,
            bytes,
            len,
            stride,
            encoding,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the list has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes from one element to the next: the element size (packed), the stride
    /// (strided, dense), the tail start and block (split); 0 for a table list.
    pub(super) fn stride(&self) -> usize {
        self.stride
    }

    /// The element type.
    pub fn element(&self) -> &'a TypeSchema {
        self.element
    }

    /// The list's bytes as they are on the wire (its whole tail region).
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The element at `index`, or `None` past the end: O(1).
    pub fn get(&self, index: usize) -> Option<Value<'a>> {
        if index >= self.len {
            return None;
        }
        let (block, region) = match self.encoding {
            ListEncoding::Dense => {
                // The element's entry index, then the entry's tag and the payload's
                // block of the entry's length (FORMAT.md §6.8).
                let TypeSchema::Union(u) = self.element else {
                    return None;
                };
                let tag = u.tag_size();
                let d = dense::Dense::of(self.bytes, self.len, self.stride, tag);
                let (value, start, len) = dense::element(self.bytes, 0, &d, index, tag).ok()?;
                let payload = self.bytes.get(start..start + len)?;
                return Some(UnionValue::of(self.set, u, value, payload));
            }
            ListEncoding::Packed => {
                let start = index * self.stride;
                (self.bytes.get(start..start + self.stride)?, &[][..])
            }
            ListEncoding::Strided => {
                let start = 2 + index * self.stride;
                (self.bytes.get(start..start + self.stride)?, &[][..])
            }
            ListEncoding::Table => {
                let at = |i: usize| read_u32(self.bytes, 4 * i).map(|n| n as usize);
                let start = at(index)?;
                let end = if index + 1 < self.len {
                    at(index + 1)?
                } else {
                    self.bytes.len()
                };
                (&[][..], self.bytes.get(start..end)?)
            }
            ListEncoding::Split => {
                // The element's block at the stride, after its tail start; its end
                // offsets count from that tail start minus the block length.
                let at = index * self.stride;
                let block_len = self.stride - 4;
                let start = read_u32(self.bytes, at)? as usize;
                let end = if index + 1 < self.len {
                    read_u32(self.bytes, at + self.stride)? as usize
                } else {
                    self.bytes.len()
                };
                let block = self.bytes.get(at + 4..at + self.stride)?;
                let origin = self.bytes.get(start.checked_sub(block_len)?..end)?;
                return Some(read_split(self.set, self.element, block, origin));
            }
        };
        Some(read(self.set, self.element, block, region))
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Value<'a>> + 'a {
        let list = *self;
        (0..self.len).map(move |i| list.get(i).unwrap_or(Value::Absent))
    }
}

impl fmt::Debug for DynList<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for DynList<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

/// A tuple read by its schema: its elements by index, each read on access, as the
/// typed view reads them (FORMAT.md §4.11: laid out as a message of version 1 whose
/// fields are the elements).
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Fix { pos: (f64, f64), tag: (u8, String) }
///
/// let bytes = Fix { pos: (1.5, -2.0), tag: (7, "gps".into()) }.to_bytes().unwrap();
/// let set = SchemaSet::of::<Fix>().unwrap();
/// let view = dynamic::view(&set, "Fix", &bytes).unwrap();
/// let Some(Value::Tuple(tag)) = view.get("tag") else { unreachable!() };
/// assert_eq!((tag.len(), tag.get(0), tag.get(2)), (2, Some(Value::Unsigned(7)), None));
/// assert_eq!(tag.get(1).unwrap().as_str(), Some("gps"));
/// assert_eq!(view.to_string(), r#"Fix { pos: (1.5, -2.0), tag: (7, "gps") }"#);
/// ```
#[derive(Clone, Copy)]
pub struct DynTuple<'a> {
    set: &'a SchemaSet,
    elements: &'a [crate::Node<TypeSchema>],
    /// The tuple's bytes: its region (with its block length) if it has a tail, else
    /// its block bytes; for an element of a split list (FORMAT.md §6.3), its block.
    bytes: &'a [u8],
    /// The bytes its end offsets count in: `bytes`, or for an element of a split
    /// list the list's bytes from its origin on.
    tail: &'a [u8],
    in_tail: bool,
}

impl<'a> DynTuple<'a> {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// True for a tuple without elements (never, in a valid schema).
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The element types.
    pub fn elements(&self) -> &'a [crate::Node<TypeSchema>] {
        self.elements
    }

    /// Element `index`, or `None` past the end: it walks the slots before it (at
    /// most 11).
    pub fn get(&self, index: usize) -> Option<Value<'a>> {
        let mut off = if self.in_tail { 2 } else { 0 };
        let mut prev_end = if self.in_tail {
            usize::from(read_u16(self.bytes, 0)?)
        } else {
            0
        };
        for (i, element) in self.elements.iter().enumerate() {
            let size = block_size(self.set, element);
            let block = self.bytes.get(off..off + size)?;
            let region = if shape::in_tail(self.set, element) {
                let end = read_u32(block, size - 4)? as usize;
                let region = self.tail.get(prev_end..end)?;
                prev_end = end;
                region
            } else {
                &[][..]
            };
            if i == index {
                return Some(read(self.set, element, block, region));
            }
            off += size;
        }
        None
    }

    /// The elements in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Value<'a>> + 'a {
        let tuple = *self;
        (0..self.len()).map(move |i| tuple.get(i).unwrap_or(Value::Absent))
    }
}

impl fmt::Debug for DynTuple<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for DynTuple<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

/// The `(key, value)` pairs of a map's list of entries (FORMAT.md §6.7).
pub(super) fn map_entries<'a>(
    entries: &DynList<'a>,
) -> impl ExactSizeIterator<Item = (Value<'a>, Value<'a>)> + 'a {
    entries.iter().map(|entry| match entry {
        Value::Tuple(t) => (
            t.get(0).unwrap_or(Value::Absent),
            t.get(1).unwrap_or(Value::Absent),
        ),
        _ => (Value::Absent, Value::Absent),
    })
}

/// The wire order of two map keys (FORMAT.md §6.7), as the typed kinds compare them:
/// integers by value, text by its UTF-8 bytes, enums by their wire value.
pub(super) fn cmp_keys(a: &Value<'_>, b: &Value<'_>) -> core::cmp::Ordering {
    match (a, b) {
        (Value::Unsigned(a), Value::Unsigned(b)) => a.cmp(b),
        (Value::Signed(a), Value::Signed(b)) => a.cmp(b),
        (Value::Str(a) | Value::FixedStr(a), Value::Str(b) | Value::FixedStr(b)) => {
            a.as_bytes().cmp(b.as_bytes())
        }
        (Value::Enum(a), Value::Enum(b)) => a.raw().cmp(&b.raw()),
        _ => core::cmp::Ordering::Equal,
    }
}

/// The `N` bytes of fixed-width text without their padding (FORMAT.md §4.3).
pub(super) fn unpadded(block: &[u8]) -> &[u8] {
    unpadded_by(block, b' ')
}

/// `block` without its trailing `pad` bytes (FORMAT.md §4.3).
pub(super) fn unpadded_by(block: &[u8], pad: u8) -> &[u8] {
    let end = block.iter().rposition(|&b| b != pad).map_or(0, |i| i + 1);
    &block[..end]
}

/// The integer of a decimal's mantissa or a null sentinel's number, widened.
fn integer(value: &Value<'_>) -> Option<i128> {
    match *value {
        Value::Unsigned(n) => i128::try_from(n).ok(),
        Value::Signed(n) => Some(n),
        Value::Decimal { mantissa, .. } => Some(mantissa),
        _ => None,
    }
}

fn le(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .rev()
        .fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

/// Reads a value of `ty` from its block bytes and tail region, which passed
/// validation as a `ty` (on other bytes it reads something, never panics).
pub(super) fn read<'a>(
    set: &'a SchemaSet,
    ty: &'a TypeSchema,
    block: &'a [u8],
    region: &'a [u8],
) -> Value<'a> {
    let number = |size: usize| le(block.get(..size).unwrap_or_default());
    match ty {
        TypeSchema::Bool => Value::Bool(block.first().is_some_and(|&b| b != 0)),
        TypeSchema::U8 | TypeSchema::U16 | TypeSchema::U32 | TypeSchema::U64 | TypeSchema::U128 => {
            Value::Unsigned(number(ty.number_size().unwrap_or(0)))
        }
        TypeSchema::I8 | TypeSchema::I16 | TypeSchema::I32 | TypeSchema::I64 | TypeSchema::I128 => {
            let size = ty.number_size().unwrap_or(16);
            let shift = 128 - 8 * size as u32;
            Value::Signed(((number(size) << shift) as i128) >> shift)
        }
        TypeSchema::F32 => Value::F32(f32::from_bits(number(4) as u32)),
        TypeSchema::F64 => Value::F64(f64::from_bits(number(8) as u64)),
        TypeSchema::FixedStr { .. } => Value::FixedStr(Cow::Borrowed(
            core::str::from_utf8(unpadded(block)).unwrap_or(""),
        )),
        TypeSchema::FixedStrPadded { pad, .. } => Value::FixedStr(Cow::Borrowed(
            core::str::from_utf8(unpadded_by(block, *pad)).unwrap_or(""),
        )),
        TypeSchema::Str => Value::Str(Cow::Borrowed(core::str::from_utf8(region).unwrap_or(""))),
        TypeSchema::Enum(e) => Value::Enum(EnumValue {
            schema: e,
            raw: read_raw(block, e.repr.number_size().unwrap_or(0)),
        }),
        TypeSchema::Decimal { mantissa, scale } => Value::Decimal {
            mantissa: integer(&read(set, mantissa, block, region)).unwrap_or(0),
            scale: *scale,
        },
        TypeSchema::Nullable { value, null } => {
            let inner = read(set, value, block, region);
            if integer(&inner) == Some(*null) {
                Value::Option(None)
            } else {
                Value::Option(Some(Box::new(inner)))
            }
        }
        TypeSchema::Option(inner) => match block.first() {
            Some(1) => Value::Option(Some(Box::new(read(
                set,
                inner,
                block.get(1..).unwrap_or_default(),
                region,
            )))),
            _ => Value::Option(None),
        },
        TypeSchema::Array { element, len } => Value::Array(DynArray {
            set,
            element,
            block,
            len: *len,
        }),
        TypeSchema::List(element) | TypeSchema::BoundedList { element, .. }
            if **element == TypeSchema::U8 =>
        {
            Value::Bytes(region)
        }
        TypeSchema::List(element) | TypeSchema::BoundedList { element, .. } => {
            Value::List(DynList::new(set, element, region))
        }
        TypeSchema::Union(u) => UnionValue::read(set, u, region),
        TypeSchema::Message(_) => match message_of(set, ty) {
            Some(m) if m.has_block_length => Value::Message(DynView::over(set, m, region)),
            Some(m) => Value::Message(DynView::over(set, m, block)),
            None => Value::Absent,
        },
        TypeSchema::Map(entry) => Value::Map(DynList::new(set, entry, region)),
        TypeSchema::Tuple(elements) => {
            let in_tail = shape::in_tail(set, ty);
            let bytes = if in_tail { region } else { block };
            Value::Tuple(DynTuple {
                set,
                elements,
                bytes,
                tail: bytes,
                in_tail,
            })
        }
    }
}

/// The tag size of the elements of a dense list of `element` (FORMAT.md §6.8): its
/// union's; 0 for another type, which no dense list holds.
pub(super) fn dense_tag(element: &TypeSchema) -> usize {
    match element {
        TypeSchema::Union(u) => u.tag_size(),
        _ => 0,
    }
}

/// Reads an element of a split list (FORMAT.md §6.3), a message or tuple with a
/// tail, from its block and the list's bytes from its origin (its tail start minus
/// its block length) to the end of its tail region, which passed validation as a
/// `ty` (on other bytes it reads something, never panics).
pub(super) fn read_split<'a>(
    set: &'a SchemaSet,
    ty: &'a TypeSchema,
    block: &'a [u8],
    origin: &'a [u8],
) -> Value<'a> {
    match ty {
        TypeSchema::Message(_) => match message_of(set, ty) {
            Some(m) => Value::Message(DynView::split(set, m, block, origin)),
            None => Value::Absent,
        },
        TypeSchema::Tuple(elements) => Value::Tuple(DynTuple {
            set,
            elements,
            bytes: block,
            tail: origin,
            in_tail: true,
        }),
        _ => Value::Absent,
    }
}

/// Zero bytes, for the value of an absent field of a fixed-size type: a block is at
/// most `u16::MAX` bytes.
static ZEROS: [u8; 1 << 16] = [0; 1 << 16];

/// What the typed accessor of an absent field returns: its declared default, or its
/// type's default (FORMAT.md §5).
pub(super) fn absent<'a>(set: &'a SchemaSet, field: &'a FieldSchema) -> Value<'a> {
    let Some(default) = &field.default else {
        return zero(set, &field.ty);
    };
    let Some(bytes) = default.bytes() else {
        return Value::Absent;
    };
    match &*field.ty {
        TypeSchema::Enum(e) => Value::Enum(EnumValue {
            schema: e,
            raw: read_raw(&bytes, e.repr.number_size().unwrap_or(0)),
        }),
        TypeSchema::Str => Value::Str(Cow::Owned(String::from_utf8_lossy(&bytes).into_owned())),
        TypeSchema::FixedStr { .. } => Value::FixedStr(Cow::Owned(
            String::from_utf8_lossy(unpadded(&bytes)).into_owned(),
        )),
        TypeSchema::FixedStrPadded { pad, .. } => Value::FixedStr(Cow::Owned(
            String::from_utf8_lossy(unpadded_by(&bytes, *pad)).into_owned(),
        )),
        ty => match read(set, ty, &bytes, &[]) {
            Value::Bool(b) => Value::Bool(b),
            Value::Unsigned(n) => Value::Unsigned(n),
            Value::Signed(n) => Value::Signed(n),
            Value::F32(x) => Value::F32(x),
            Value::F64(x) => Value::F64(x),
            Value::Decimal { mantissa, scale } => Value::Decimal { mantissa, scale },
            Value::Option(None) => Value::Option(None),
            Value::Option(Some(inner)) => match *inner {
                Value::Unsigned(n) => Value::Option(Some(Box::new(Value::Unsigned(n)))),
                Value::Signed(n) => Value::Option(Some(Box::new(Value::Signed(n)))),
                Value::Decimal { mantissa, scale } => {
                    Value::Option(Some(Box::new(Value::Decimal { mantissa, scale })))
                }
                _ => Value::Absent,
            },
            // No other type has a byte form of its default (FORMAT.md §11).
            _ => Value::Absent,
        },
    }
}

/// The default of a type, as the typed view's `Default` gives it: 0, `false`, `""`,
/// empty, `None`; an array of zero bytes if those are a valid array, else with no
/// elements; an enum's value 0.
fn zero<'a>(set: &'a SchemaSet, ty: &'a TypeSchema) -> Value<'a> {
    match ty {
        TypeSchema::Array { .. } => {
            let size = block_size(set, ty);
            let zeros = ZEROS.get(..size).unwrap_or_default();
            let valid = Walk::new(set).value_of(ty, Place::block(zeros, 0)).is_ok();
            match read(set, ty, if valid { zeros } else { &[] }, &[]) {
                Value::Array(a) if !valid => Value::Array(DynArray { len: 0, ..a }),
                value => value,
            }
        }
        // No zero value: the typed view needs the type's `Default`.
        TypeSchema::Message(_) | TypeSchema::Union(_) => Value::Absent,
        // `Option`'s default, whatever the sentinel.
        TypeSchema::Nullable { .. } => Value::Option(None),
        _ => read(set, ty, &[], &[]),
    }
}
