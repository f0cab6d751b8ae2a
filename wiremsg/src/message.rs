//! The message trait implemented by `#[derive(WireMsg)]`, and the enum trait
//! implemented by `#[derive(WireEnum)]`.

use crate::field::{DecodeField, Field, FixedKind, Kind, ListEncoding, Scalar, SetInPlace};
use crate::kind::EnumOf;
use crate::layout::Layout;
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::validated::{Validated, ValidatedMut};
use crate::{EnumSchema, Error, ErrorKind, MessageSchema, Mode};
use alloc::vec::Vec;
use core::fmt::Debug;

/// Nesting limit of messages inside messages (lists included) that `view` accepts.
///
/// Bytes that nest deeper fail validation with [`ErrorKind::DepthLimitExceeded`];
/// this bounds the stack that validation uses on hostile input (only recursive
/// message types can nest this deep). Encoding refuses the same values with the same
/// error and path, before writing: a writer never makes bytes no reader accepts.
/// What counts is FORMAT.md §7's rule: a nested message or tuple with a tail and a
/// union's payload are one level each; lists, options and boxes add none, and
/// fixed-size messages nested inline do not count (they cannot recurse).
///
/// ```
/// use wiremsg::{ErrorKind, MAX_DEPTH, WireMsg};
///
/// #[derive(WireMsg, Debug, Default)]
/// struct Node { children: Vec<Node> }
///
/// let mut node = Node::default();
/// for _ in 0..MAX_DEPTH {
///     node = Node { children: vec![node] };
/// }
/// let bytes = node.to_bytes().unwrap(); // the root and 64 levels below it
/// assert!(Node::view(&bytes).is_ok());
/// let err = Node { children: vec![node] }.to_bytes().unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::DepthLimitExceeded { limit: 64 });
/// assert!(err.path().starts_with("children[0].children[0]"));
/// ```
pub const MAX_DEPTH: u32 = 64;

/// A struct with a wire layout: implemented by `#[derive(WireMsg)]`.
///
/// See the [crate docs](crate) for the layout, the [derive](derive@crate::WireMsg) for
/// its attributes and the items it generates, and `FORMAT.md` for the bytes.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(version = 2)]
/// struct Quote {
///     price: i64,
///     venue: String,
///     #[wire(since = 2)]
///     size: u32,
/// }
///
/// // Block: 2 (block length) + 8 + 4 (end offset) + 4; version 1 lacks `size`.
/// assert_eq!((Quote::BLOCK_LENGTH, Quote::MIN_BLOCK_LENGTH, Quote::VERSION), (18, 14, 2));
///
/// let quote = Quote { price: -5, venue: "XNAS".into(), size: 10 };
/// assert_eq!(quote.encoded_len(), 22);
/// let mut buf = [0u8; 32];
/// let len = quote.encode_into(&mut buf)?; // no allocation
/// assert_eq!(&buf[..len], quote.to_bytes()?);
///
/// let view = Quote::view(&buf[..len])?;
/// assert_eq!((view.price(), view.venue(), view.size()), (-5, "XNAS", 10));
/// assert_eq!(Quote::decode(&buf[..len])?, quote);
/// assert!(Quote::view(&buf[..10]).is_err()); // cut short
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a wiremsg message",
    label = "not a message",
    note = "add `#[derive(WireMsg)]` to the struct `{Self}`"
)]
pub trait WireMsg: Field<Kind = crate::kind::Msg<Self>> + Sized {
    /// Bytes of the block: for a message without a tail, the whole encoding; for a
    /// message with a tail, the offset where the tail starts (its 2-byte block length
    /// field included).
    const BLOCK_LENGTH: usize;
    /// Bytes of the block of version 1 (the fields without `since`): the least a
    /// reader of any version needs. Equal to `BLOCK_LENGTH` for a message whose
    /// fields all have version 1.
    const MIN_BLOCK_LENGTH: usize;
    /// The message's current schema version (`#[wire(version = N)]`, default 1).
    const VERSION: u16;
    /// The schema descriptor: field names, offsets, sizes and types.
    const SCHEMA: &'static MessageSchema;

    /// The layout that validation and the views read by: the type itself, with its
    /// lifetimes set to `'static`.
    #[doc(hidden)]
    type Layout: Layout;
    /// The validated view (`{Name}View`): accessors that read fields in place;
    /// `PartialEq` compares them field by field.
    type View<'v>: Copy + Debug + PartialEq;
    /// The mutable view (`{Name}Mut`): getters, and setters for fixed-size fields, in
    /// place.
    type Mut<'v>;

    /// Validates `bytes` once and returns the view (`{Name}View`), whose accessors
    /// then cannot fail.
    ///
    /// Bytes after the message (after the block, for a message without a tail) are
    /// ignored: a newer writer may have appended them.
    ///
    /// # Errors
    ///
    /// Any [`ErrorKind`] of validation: truncated block, end offsets out of range,
    /// invalid UTF-8, `bool` or presence bytes other than 0/1, unknown enum values,
    /// malformed lists, nesting deeper than [`MAX_DEPTH`]. The error names the field
    /// path and byte offset.
    #[inline]
    fn view(bytes: &[u8]) -> Result<Self::View<'_>, Error> {
        crate::validated::validate::<Self::Layout>(bytes).map(Self::__view_of)
    }

    /// Validates `bytes` like [`view`](Self::view) and returns the mutable view.
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view).
    #[inline]
    fn view_mut(bytes: &mut [u8]) -> Result<Self::Mut<'_>, Error> {
        crate::validated::validate::<Self::Layout>(bytes)?;
        // SAFETY: validated just above.
        Ok(unsafe { crate::validated::mut_of::<Self>(bytes) })
    }

    /// The view over bytes known to be valid, without validating them: O(1), no
    /// reads. The same as [`view_unchecked`](crate::view_unchecked).
    ///
    /// # Safety
    ///
    /// `Self::view(bytes)` returns `Ok`.
    #[inline(always)]
    unsafe fn view_unchecked(bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: forwarded to the caller.
        unsafe { crate::validated::view_of::<Self>(bytes) }
    }

    /// The mutable view over bytes known to be valid, without validating them: O(1).
    ///
    /// # Safety
    ///
    /// `Self::view(bytes)` returns `Ok`.
    #[inline(always)]
    unsafe fn view_mut_unchecked(bytes: &mut [u8]) -> Self::Mut<'_> {
        // SAFETY: forwarded to the caller.
        unsafe { crate::validated::mut_of::<Self>(bytes) }
    }

    /// Decodes `bytes` to the owned value (borrowing strings and byte strings from
    /// `bytes` where the type's fields are `&str` / `&[u8]`).
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view).
    ///
    /// Decoding allocates at most [`decode_budget`]`(bytes.len())` bytes on the heap
    /// (64 times the input, and at least 1 MiB): a newer reader's decoding of an
    /// older writer's list can otherwise multiply the input many times over (each
    /// element takes this reader's size). [`decode_with_budget`](Self::decode_with_budget)
    /// sets another budget; the view's own `decode()` has none.
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view), and [`ErrorKind::DecodeBudgetExceeded`] (nothing is
    /// allocated) when the value would take more heap than the budget.
    #[inline]
    fn decode<'v>(bytes: &'v [u8]) -> Result<Self, Error>
    where
        Self: DecodeField<'v>,
    {
        Self::decode_with_budget(bytes, decode_budget(bytes.len()))
    }

    /// Decodes `bytes` like [`decode`](Self::decode), allocating at most `budget`
    /// bytes on the heap.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    #[inline]
    fn decode_with_budget<'v>(bytes: &'v [u8], budget: usize) -> Result<Self, Error>
    where
        Self: DecodeField<'v>,
    {
        let view = Self::view(bytes)?;
        check_budget(Self::decoded_size(view), budget)?;
        Ok(Self::decode_view(view))
    }

    /// Bytes [`encode_into`](Self::encode_into) writes; `usize::MAX` for a value it
    /// refuses (a list over its `max_len`, a null sentinel as a value, nesting past
    /// [`MAX_DEPTH`]: the checks of encoding run first, so that measuring a value of
    /// any depth takes bounded stack).
    #[inline]
    fn encoded_len(&self) -> usize {
        if self.__check(0).is_err() {
            return usize::MAX;
        }
        unchecked_len(self)
    }

    /// Encodes into the start of `out` without allocating; returns the bytes written.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BufferTooSmall`] if `out` is shorter than
    /// [`encoded_len`](Self::encoded_len) (nothing is written);
    /// [`ErrorKind::TooLarge`] if the message exceeds `u32::MAX` bytes.
    #[inline]
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, Error> {
        let len = checked_len(self)?;
        let available = out.len();
        let Some(out) = out.get_mut(..len) else {
            return Err(Error::new(
                ErrorKind::BufferTooSmall {
                    needed: len,
                    available,
                },
                0,
            ));
        };
        self.__write(out);
        Ok(len)
    }

    /// Appends the encoding to `out`; returns the bytes appended.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TooLarge`] if the message exceeds `u32::MAX` bytes (nothing is
    /// appended).
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) -> Result<usize, Error> {
        let len = checked_len(self)?;
        if out.len().checked_add(len).is_none() {
            return Err(Error::new(ErrorKind::TooLarge { len }, 0));
        }
        // Into the spare capacity: no byte is zero-filled before it is written.
        crate::plain::append_to_vec(out, len, |o| self.__append(o));
        Ok(len)
    }

    /// The encoding in a new `Vec`.
    ///
    /// # Errors
    ///
    /// As [`encode`](Self::encode).
    fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.encode(&mut out)?;
        Ok(out)
    }

    /// Wraps a proof of validation as the view.
    #[doc(hidden)]
    fn __view_of<'v>(validated: Validated<'v, Self::Layout>) -> Self::View<'v>;

    /// Wraps a proof of validation as the mutable view.
    #[doc(hidden)]
    fn __mut_of<'v>(validated: ValidatedMut<'v, Self::Layout>) -> Self::Mut<'v>;

    /// Writes the encoding into `out`, exactly `encoded_len()` bytes.
    #[doc(hidden)]
    #[inline(always)]
    fn __write(&self, out: &mut [u8]) {
        crate::plain::write_to_slice(out, |o| self.__append(o));
    }

    /// Appends the encoding to `out`, `encoded_len()` bytes: the block, then the
    /// tail data in field order.
    #[doc(hidden)]
    fn __append(&self, out: &mut crate::plain::Out<'_>);

    /// Checks that the value can be encoded (`Field::check_value` of each field),
    /// its block at nesting `depth` as validation counts it (0 at the top):
    /// `DepthLimitExceeded` past [`MAX_DEPTH`], before anything is written.
    #[doc(hidden)]
    fn __check(&self, depth: u32) -> Result<(), Error>;

    /// Serializes a view as a struct of its readable fields (feature `serde`).
    #[cfg(feature = "serde")]
    #[doc(hidden)]
    fn __serialize_view<S: serde::Serializer>(
        view: &Self::View<'_>,
        serializer: S,
    ) -> Result<S::Ok, S::Error>;
}

/// The heap [`WireMsg::decode`] allows for an input of `len` bytes: 64 times the
/// input, and at least 1 MiB.
///
/// # Examples
///
/// ```
/// assert_eq!(wiremsg::decode_budget(100), 1 << 20);
/// assert_eq!(wiremsg::decode_budget(1 << 20), 64 << 20);
/// ```
pub const fn decode_budget(len: usize) -> usize {
    let scaled = len.saturating_mul(64);
    if scaled > 1 << 20 { scaled } else { 1 << 20 }
}

/// `DecodeBudgetExceeded` if decoding would allocate more than `budget` bytes (also
/// called by dispatch enums' `decode`).
///
/// # Errors
///
/// As described.
pub fn check_budget(needed: usize, budget: usize) -> Result<(), Error> {
    if needed > budget {
        return Err(Error::new(
            ErrorKind::DecodeBudgetExceeded { needed, budget },
            0,
        ));
    }
    Ok(())
}

/// The encoded length of a value that passed `__check`: a walk of its tail that
/// the check bounded to [`MAX_DEPTH`] levels.
#[inline]
fn unchecked_len<T: WireMsg>(msg: &T) -> usize {
    if <T::Kind as Kind>::IN_TAIL {
        msg.tail_len()
    } else {
        T::BLOCK_LENGTH
    }
}

/// The encoded length, or `TooLarge` past `u32::MAX` bytes (sizes saturate at
/// `usize::MAX`, which is refused too, so that 32-bit targets catch an overflow).
pub(crate) fn checked_len<T: WireMsg>(msg: &T) -> Result<usize, Error> {
    // Values the format cannot carry (a list over its maximum length, a null
    // sentinel as a present value, nesting past the depth limit) are refused before
    // anything is written, and before the length's walk.
    msg.__check(0)?;
    let len = unchecked_len(msg);
    if len > u32::MAX as usize || len == usize::MAX {
        return Err(Error::new(ErrorKind::TooLarge { len }, 0));
    }
    Ok(len)
}

/// A C-like enum with an integer representation: implemented by
/// `#[derive(WireEnum)]`, which needs the enum to be `Clone`, `Copy` and `Debug`.
///
/// ```
/// use wiremsg::WireEnum;
///
/// #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
/// #[repr(u8)]
/// enum Side {
///     Buy = b'B',
///     Sell = b'S',
///     #[wire(other)]
///     Other(u8),
/// }
///
/// assert_eq!(Side::Sell.to_raw(), b'S');
/// assert_eq!(Side::from_raw(b'B'), Some(Side::Buy));
/// assert_eq!(Side::from_raw(b'X'), Some(Side::Other(b'X'))); // the catch-all keeps it
/// assert_eq!(Side::ENUM_SCHEMA.name, "Side");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a wiremsg enum",
    label = "not a wire enum",
    note = "add `#[derive(WireEnum)]` and `#[repr(u8)]` (or `u16`, `u32`, `u64`) to the C-like enum `{Self}`"
)]
pub trait WireEnum: Copy + Debug + Sized + 'static {
    /// The integer type on the wire (from `#[repr(..)]`).
    type Repr: EnumRepr;
    /// The schema descriptor.
    const ENUM_SCHEMA: &'static EnumSchema;
    /// What a read of a value with no variant returns (never, on validated bytes).
    #[doc(hidden)]
    const __FALLBACK: Self;
    /// The variant for `raw`, or `None` if there is none (never `None` for an enum
    /// with a catch-all variant).
    fn from_raw(raw: Self::Repr) -> Option<Self>;
    /// The value written on the wire.
    fn to_raw(self) -> Self::Repr;
}

/// An integer type an enum can be represented by on the wire: `u8`, `u16`, `u32`,
/// `u64`.
///
/// ```
/// use wiremsg::{EnumRepr, WireEnum};
///
/// #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
/// #[repr(u16)]
/// enum Status { New = 0, Filled = 2 }
///
/// fn wire_value<E: WireEnum>(e: E) -> u64 {
///     e.to_raw().into() // every repr widens to u64
/// }
/// assert_eq!(wire_value(Status::Filled), 2);
/// fn is_repr<R: EnumRepr>() {}
/// is_repr::<<Status as WireEnum>::Repr>();
/// ```
pub trait EnumRepr: Field + Scalar<'static> + Copy + Into<u64> + Sealed {
    /// Reads the value from its little-endian bytes (0 if too short).
    #[doc(hidden)]
    fn read(block: &[u8]) -> Self;
}

macro_rules! enum_repr {
    ($($ty:ty),*) => {$(
        impl EnumRepr for $ty {
            #[inline(always)]
            fn read(block: &[u8]) -> Self {
                match block.first_chunk() {
                    Some(bytes) => <$ty>::from_le_bytes(*bytes),
                    None => 0,
                }
            }
        }
    )*};
}

enum_repr!(u8, u16, u32, u64);

impl<E: WireEnum> Sealed for EnumOf<E> {}

/// The repr integer, little-endian; a value with no variant fails validation unless
/// the enum has a catch-all variant (FORMAT.md §4.4).
impl<E: WireEnum> Kind for EnumOf<E> {
    const BLOCK_SIZE: usize = <<E::Repr as Field>::Kind as Kind>::BLOCK_SIZE;
    const IN_TAIL: bool = false;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = <Self as Kind>::BLOCK_SIZE;
    type View<'v> = E;

    #[inline(always)]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, _: &M, _: u32) -> Result<(), Error> {
        let raw = E::Repr::read(place.block);
        if E::from_raw(raw).is_none() {
            return Err(Error::new(
                ErrorKind::UnknownEnumValue {
                    enum_name: E::ENUM_SCHEMA.name.clone(),
                    value: raw.into(),
                },
                place.block_at,
            ));
        }
        Ok(())
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> E {
        // Any value reads as some variant: no fact of validation is needed here.
        E::from_raw(E::Repr::read(block)).unwrap_or(E::__FALLBACK)
    }

    /// A known variant by name; an unknown value a catch-all variant kept as its
    /// number.
    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: E,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        let raw: u64 = view.to_raw().into();
        match E::ENUM_SCHEMA.variant_name(raw) {
            Some(name) => s.serialize_str(name),
            None => s.serialize_u64(raw),
        }
    }

    fn default_bytes(_: Internal, view: E) -> Option<alloc::vec::Vec<u8>> {
        let mut out = alloc::vec![0; <Self as Kind>::BLOCK_SIZE];
        crate::__private::write_enum(view, &mut out);
        Some(out)
    }

    /// By wire value: the enum itself need not implement `PartialEq`.
    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: E, b: E) -> bool
    where
        Self: 'v,
    {
        let (a, b): (u64, u64) = (a.to_raw().into(), b.to_raw().into());
        a == b
    }
}

/// An enum is set in place as its repr integer.
impl<'v, E: WireEnum> SetInPlace<'v, E> for EnumOf<E> {
    #[inline(always)]
    fn set(i: Internal, value: &E, block: &mut [u8]) -> bool {
        value.to_raw().write_scalar(i, block)
    }
}

impl<E: WireEnum> FixedKind for EnumOf<E> {}
