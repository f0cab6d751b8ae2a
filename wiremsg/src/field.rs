//! The traits that give each field type its wire layout.
//!
//! The derive computes nothing about a field's type itself: it asks the type through
//! [`Field`] (block size, whether it has tail data, how to validate, read and write
//! it), so that nested messages, enums and runtime types compose, and offsets are
//! constant expressions that the compiler folds.

use crate::{Error, Mode, TypeSchema};
use core::fmt::Debug;

/// Where a field's bytes are, handed to [`Field::validate`].
///
/// Offsets are relative to the start of the message that holds the field, so that
/// errors can name a byte position.
#[derive(Debug, Clone, Copy)]
pub struct Slots<'v> {
    /// The field's bytes in the block (exactly [`Field::BLOCK_SIZE`] long).
    pub block: &'v [u8],
    /// Offset of `block` in the message.
    pub block_at: usize,
    /// The field's data in the tail (empty unless [`Field::IN_TAIL`]).
    pub tail: &'v [u8],
    /// Offset of `tail` in the message.
    pub tail_at: usize,
}

/// A type that can be a field of a `WireMsg` struct.
///
/// Implemented by this crate for the supported types and by the derives for messages
/// and enums. Implementing it by hand is not supported: the hidden methods are the
/// derive's contract with the runtime. Lists, arrays and
/// [`view_unchecked`](crate::view_unchecked) rely on it: after a checked `validate`
/// of some bytes succeeded, a trusted `validate` of the same bytes reads them without
/// checks, which is memory-safe only because the derive generates both from one
/// routine.
pub trait Field {
    /// Bytes the field takes in the block of the message that holds it: its value for
    /// a fixed-size type, or its slot (ending in a `u32` tail end offset) for a type
    /// with tail data.
    const BLOCK_SIZE: usize;
    /// True if the field keeps data in the tail (strings, byte strings, lists, nested
    /// messages with a tail).
    const IN_TAIL: bool;
    /// The schema descriptor of the type.
    const TYPE: &'static TypeSchema;
    /// True for a fixed-size message with fields added in later versions: its block
    /// can grow, so it cannot nest inline (inline blocks are frozen, FORMAT.md §4.7).
    const EVOLVES: bool = false;
    /// False when every byte pattern of the field's block is a valid value (numbers,
    /// and messages and arrays made only of numbers): lists of such elements are
    /// validated by their length alone, in O(1).
    const CHECKS: bool = true;

    /// What an accessor of a validated view returns for this field.
    type View<'v>: Copy + Debug;
    /// What a message view keeps for this field after validation (`()` when the
    /// value is read from the block on each access).
    #[doc(hidden)]
    type Stored<'v>: Copy;

    /// Validates the field's bytes; errors carry offsets relative to the message.
    #[doc(hidden)]
    fn validate<'v, M: Mode>(s: Slots<'v>, mode: &M, depth: u32)
    -> Result<Self::Stored<'v>, Error>;

    /// Reads the field from its block bytes and what validation stored. Never fails.
    #[doc(hidden)]
    fn get<'v>(block: &'v [u8], stored: Self::Stored<'v>) -> Self::View<'v>;

    /// Bytes of tail data the field encodes to (0 for fixed-size types).
    #[doc(hidden)]
    fn tail_len(&self) -> usize;

    /// Writes the field: `block` is its `BLOCK_SIZE` bytes (for a tail field, the
    /// last 4 bytes, the end offset, are written by the message), `tail` is exactly
    /// `tail_len()` bytes.
    #[doc(hidden)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]);
}

/// A field type whose owned value can be rebuilt from its view.
///
/// `'v` is the lifetime of the bytes: borrowed types (`&'v str`, `&'v [u8]`, structs
/// with borrowed fields) decode without copying. `&'v [T]` of other element types
/// cannot (their elements are converted from little-endian bytes), so a struct with
/// such a field can be viewed but not decoded: use `Vec<T>` for decoding.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from the bytes it views",
    note = "a borrowed slice `&[T]` decodes only for `T = u8`; use `Vec<T>` in the type you decode into"
)]
pub trait DecodeField<'v>: Field + Sized {
    /// The owned (or borrowed from the same bytes) value of a view.
    fn decode_view(view: Self::View<'v>) -> Self;
}

/// A field type that can be a list element (`Vec<T>` or `&[T]`).
pub trait Element: Field + Sized {
    /// How a list of this type is laid out (FORMAT.md §6).
    const LIST_ENCODING: ListEncoding;
    /// The smallest stride a strided list of this type may have: the block of
    /// version 1 of a message (`BLOCK_SIZE` for other types).
    const MIN_ELEMENT_SIZE: usize = Self::BLOCK_SIZE;
    /// What a list accessor returns: `&[u8]` for bytes, [`List`](crate::List) otherwise.
    type ListView<'v>: Copy + Debug;
    /// Wraps a validated list as the list accessor's type.
    #[doc(hidden)]
    fn list_view<'v>(list: crate::List<'v, Self>) -> Self::ListView<'v>;
    /// Unwraps a list accessor's value back into a [`List`](crate::List).
    #[doc(hidden)]
    fn list_of<'v>(view: Self::ListView<'v>) -> crate::List<'v, Self>
    where
        Self: 'v;
}

/// How a list's elements are laid out in its tail region (FORMAT.md §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListEncoding {
    /// Elements of a fixed-size type that never changes size (numbers, enums, text),
    /// back to back; the count is the byte length divided by the element size.
    Packed,
    /// Fixed-size messages after a `u16` stride, so that a reader of another version
    /// steps over elements of another block length.
    Strided,
    /// Elements with tail data: a table of `u32` start offsets (the first one, divided
    /// by 4, is the count), then the elements.
    Table,
}

/// A fixed-size field type that a mutable view can overwrite in place
/// (`set_<field>`): numbers, `bool`, enums, [`FixedStr`](crate::FixedStr), arrays and
/// options of these.
///
/// `'v` only keeps the bound on a setter from being decided when it is declared.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a scalar field that can be set in place",
    note = "nested messages are changed through the `<field>_mut()` accessor; variable-length fields cannot be resized in place"
)]
pub trait Scalar<'v>: Field {}

/// `Element` for a type whose lists are viewed as [`List`](crate::List):
/// `list_element!([impl<..> Element for Type] Encoding)`.
macro_rules! list_element {
    ([$($head:tt)*] $encoding:ident) => {
        $($head)* {
            const LIST_ENCODING: $crate::ListEncoding = $crate::ListEncoding::$encoding;
            type ListView<'v> = $crate::List<'v, Self>;

            #[inline(always)]
            fn list_view<'v>(list: $crate::List<'v, Self>) -> $crate::List<'v, Self> {
                list
            }

            #[inline(always)]
            fn list_of<'v>(view: $crate::List<'v, Self>) -> $crate::List<'v, Self>
            where
                Self: 'v,
            {
                view
            }
        }
    };
}
pub(crate) use list_element;
