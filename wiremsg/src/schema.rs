//! The schema descriptor: names, types, offsets and sizes of every message, as
//! `'static` data available at compile time and at run time (for dump, JSON and
//! compatibility tools).

/// The wire type of a field.
#[derive(Debug, Clone, Copy)]
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
    /// `pad`.
    FixedStrPadded {
        /// Width in bytes.
        len: usize,
        /// The padding byte.
        pad: u8,
    },
    /// `[T; N]`: `len` elements inline.
    Array {
        /// Element type.
        element: &'static TypeSchema,
        /// Number of elements.
        len: usize,
    },
    /// `Option<T>`: a presence byte, then `T`'s block bytes.
    Option(&'static TypeSchema),
    /// `String` or `&str`: UTF-8 in the tail.
    Str,
    /// `Vec<T>` or `&[T]` (bytes are `List(U8)`): elements in the tail.
    List(&'static TypeSchema),
    /// `Option<T>` of a number with `#[wire(null = ...)]`: `T`'s bytes alone, with the
    /// value `null` standing for `None` (FORMAT.md §4.9).
    Nullable {
        /// The number's type (an integer, or a [`Decimal`](crate::Decimal)).
        value: &'static TypeSchema,
        /// The sentinel that means absent (for a decimal, its mantissa).
        null: i128,
    },
    /// [`Decimal<M, SCALE>`](crate::Decimal): the integer mantissa `M`; the value is
    /// `mantissa * 10^-scale` (FORMAT.md §4.8).
    Decimal {
        /// The mantissa's integer type.
        mantissa: &'static TypeSchema,
        /// Decimal places: the exponent is `-scale`.
        scale: u32,
    },
    /// `Vec<T>` or `&[T]` with `#[wire(max_len = N)]`: a list (FORMAT.md §6) of at
    /// most `max_len` elements (§6.4).
    BoundedList {
        /// Element type.
        element: &'static TypeSchema,
        /// The declared maximum number of elements.
        max_len: usize,
    },
    /// A `#[derive(WireEnum)]` enum.
    Enum(&'static EnumSchema),
    /// A nested `#[derive(WireMsg)]` struct (a function, so that recursive messages
    /// have a finite descriptor).
    Message(fn() -> &'static MessageSchema),
}

/// A message: its name, block length and fields in wire order.
#[derive(Debug, Clone, Copy)]
pub struct MessageSchema {
    /// The Rust type name.
    pub name: &'static str,
    /// Block length in bytes (for a message with a tail, including its 2-byte block
    /// length field).
    pub block_length: usize,
    /// Block length of version 1 in bytes: the least any reader needs.
    pub min_block_length: usize,
    /// The message's current schema version.
    pub version: u16,
    /// True if the message has a tail (it then starts with its `u16` block length).
    pub has_tail: bool,
    /// Fields in declaration (and wire) order.
    pub fields: &'static [FieldSchema],
}

/// One field of a message.
#[derive(Debug, Clone, Copy)]
pub struct FieldSchema {
    /// Field name as written in Rust (without `r#`).
    pub name: &'static str,
    /// Offset of the field's block bytes from the start of the message, in bytes.
    pub offset: usize,
    /// Bytes the field takes in the block (its value, or its slot).
    pub size: usize,
    /// Wire type.
    pub ty: &'static TypeSchema,
    /// Schema version that added the field (1 for fields of the first version).
    pub since: u16,
    /// True for a removed field whose slot stays (`#[wire(reserved)]`): written as
    /// its type's default, not readable.
    pub reserved: bool,
}

/// An enum: its representation and known values.
#[derive(Debug, Clone, Copy)]
pub struct EnumSchema {
    /// The Rust type name.
    pub name: &'static str,
    /// The integer type on the wire (`U8`, `U16`, `U32` or `U64`).
    pub repr: &'static TypeSchema,
    /// Known variants and their values.
    pub variants: &'static [(&'static str, u64)],
    /// The catch-all variant that keeps unknown values, if the enum declares one.
    pub catch_all: Option<&'static str>,
}
