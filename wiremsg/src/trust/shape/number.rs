//! Numbers and `bool` (FORMAT.md §4.1): each is its own shape, little-endian and
//! unaligned. Every byte pattern is a number; a `bool` is the byte 0 or 1.

use crate::field::{Field, FixedKind, SetInPlace};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::plain::Plain;
use crate::trust::shape::Kind;
use crate::{Error, ErrorKind, ListEncoding, Mode};

/// The `Field::PLAIN` of a number or `bool`: the promise made here, where the shape
/// is defined.
pub(crate) trait PlainNumber: Sized {
    /// Whether the type's memory is its block on this target.
    const PLAIN: Plain<Self>;
}

macro_rules! number {
    ($($ty:ty),* $(,)?) => {$(
        impl Sealed for $ty {}

        impl Kind for $ty {
            const BLOCK_SIZE: usize = core::mem::size_of::<$ty>();
            const IN_TAIL: bool = false;
            const CHECKS: bool = false;
            const EVOLVES: bool = false;
            const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
            const MIN_ELEMENT_SIZE: usize = core::mem::size_of::<$ty>();
            type Reads = Self;
            type View<'v> = $ty;
            crate::trust::shape::eager_lazy!();

            #[inline(always)]
            fn validate<M: Mode>(_: Internal, _: Place<'_>, _: &M, _: u32) -> Result<(), Error> {
                Ok(())
            }

            #[inline(always)]
            unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> $ty {
                // SAFETY: the caller promises `block` holds the value's bytes.
                <$ty>::from_le_bytes(unsafe { crate::validated::array_at(block, 0) })
            }

            fn default_bytes(_: Internal, view: $ty) -> Option<alloc::vec::Vec<u8>> {
                Some(view.to_le_bytes().to_vec())
            }

            #[cfg(feature = "serde")]
            fn serialize_view<'v, S: serde::Serializer>(_: Internal, view: $ty, s: S) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
                serde::Serialize::serialize(&view, s)
    }

            #[inline(always)]
            #[allow(clippy::float_cmp)]
            fn view_eq<'v>(_: Internal, a: $ty, b: $ty) -> bool
    where
        Self: 'v,
    {
                a == b
            }
        }


        impl PlainNumber for $ty {
            // Little-endian bytes are the value's memory only on a little-endian target.
            const PLAIN: Plain<Self> = if cfg!(target_endian = "little") {
                // SAFETY: a number of `BLOCK_SIZE` bytes, every bit pattern a value,
                // stored little-endian: its memory is its block.
                unsafe { Plain::promise() }
            } else {
                Plain::NO
            };
        }

        impl<'v> SetInPlace<'v, $ty> for $ty {
            #[inline(always)]
            fn set(_: Internal, value: &$ty, block: &mut [u8]) -> bool {
                value.write(block, &mut []);
                true
            }
        }

        impl FixedKind for $ty {}
    )*};
}

number!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64);

impl Sealed for bool {}

/// One byte, 0 for `false` and 1 for `true`; any other byte fails validation.
impl Kind for bool {
    const BLOCK_SIZE: usize = 1;
    const IN_TAIL: bool = false;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = 1;
    const BYTE_BITS: Option<u8> = Some(1);
    const BYTE_CHECK: crate::trust::shape::ByteCheck = crate::trust::shape::ByteCheck::Range {
        at: 0,
        lo: 0,
        span: 2,
    };
    type Reads = Self;
    type View<'v> = bool;
    crate::trust::shape::eager_lazy!();

    #[inline(always)]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, _: &M, _: u32) -> Result<(), Error> {
        match place.block.first() {
            Some(0 | 1) => Ok(()),
            Some(&value) => Err(Error::new(ErrorKind::InvalidBool { value }, place.block_at)),
            None => Ok(()),
        }
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> bool {
        // SAFETY: the caller promises `block` holds the byte and that `validate`
        // accepted it, which it does only for 0 and 1: `bool`'s two values in memory.
        // A load, as a `&[bool]`'s element is (`byte != 0` was a load and a compare).
        unsafe {
            debug_assert!(!block.is_empty());
            block.as_ptr().cast::<bool>().read()
        }
    }

    fn default_bytes(_: Internal, view: bool) -> Option<alloc::vec::Vec<u8>> {
        Some(alloc::vec![u8::from(view)])
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: bool,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        s.serialize_bool(view)
    }

    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: bool, b: bool) -> bool
    where
        Self: 'v,
    {
        a == b
    }
}

impl PlainNumber for bool {
    // SAFETY: one byte, 0 or 1 in memory as on the wire, and validation accepts no
    // other byte.
    const PLAIN: Plain<Self> = unsafe { Plain::promise() };
}

impl<'v> SetInPlace<'v, bool> for bool {
    #[inline(always)]
    fn set(_: Internal, value: &bool, block: &mut [u8]) -> bool {
        value.write(block, &mut []);
        true
    }
}

impl FixedKind for bool {}
