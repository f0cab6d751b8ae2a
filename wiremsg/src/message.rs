//! The message trait implemented by `#[derive(WireMsg)]`, and the enum trait
//! implemented by `#[derive(WireEnum)]`.

use crate::field::{Field, Kind, Scalar};
use crate::mode::sealed::Sealed;
use crate::{EnumSchema, Error, ErrorKind};
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

pub use crate::trust::message::WireMsg;

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
pub(crate) fn unchecked_len<T: WireMsg>(msg: &T) -> usize {
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
    /// The least and the greatest value `from_raw` accepts, if it accepts every
    /// value between them and no other (every value, for a catch-all): promised by
    /// the derive (`unsafe`, `__private::EnumValues::promise`), so that validation
    /// can check a one-byte enum by one compare (`ByteCheck`). Unknown by default:
    /// `from_raw` decides.
    #[doc(hidden)]
    const __VALUES: crate::__private::EnumValues<Self> = crate::__private::EnumValues::UNKNOWN;
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
