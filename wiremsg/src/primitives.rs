//! Numbers and `bool`: little-endian, unaligned, no padding (FORMAT.md §4.1). Each is
//! its own [`Kind`].

use crate::field::{DecodeField, Element, Field, FixedKind, Kind, ListEncoding, SetInPlace};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::{Error, ErrorKind, List, Mode, TypeSchema};

macro_rules! number {
    ($($ty:ty => $schema:ident),* $(,)?) => {$(
        impl Sealed for $ty {}

        impl Kind for $ty {
            const BLOCK_SIZE: usize = core::mem::size_of::<$ty>();
            const IN_TAIL: bool = false;
            const CHECKS: bool = false;
            const EVOLVES: bool = false;
            const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
            const MIN_ELEMENT_SIZE: usize = core::mem::size_of::<$ty>();
            type View<'v> = $ty;

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

        impl Field for $ty {
            type Kind = $ty;
            const TYPE: &'static TypeSchema = &TypeSchema::$schema;
            // Little-endian bytes are the value's memory only on a little-endian target.
            const PLAIN: crate::plain::Plain<Self> = if cfg!(target_endian = "little") {
                // SAFETY: a number of `BLOCK_SIZE` bytes, every bit pattern a value,
                // stored little-endian: its memory is its block.
                unsafe { crate::plain::Plain::promise() }
            } else {
                crate::plain::Plain::NO
            };

            #[inline(always)]
            fn tail_len(&self) -> usize {
                0
            }

            #[inline(always)]
            fn write(&self, block: &mut [u8], _: &mut [u8]) {
                if let Some(out) = block.first_chunk_mut() {
                    *out = self.to_le_bytes();
                }
            }
        }

        impl<'v> DecodeField<'v> for $ty {
            #[inline(always)]
            fn decode_view(view: $ty) -> $ty {
                view
            }
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

number! {
    u8 => U8, u16 => U16, u32 => U32, u64 => U64, u128 => U128,
    i8 => I8, i16 => I16, i32 => I32, i64 => I64, i128 => I128,
    f32 => F32, f64 => F64,
}

macro_rules! packed_element {
    ($($ty:ty),* $(,)?) => {$(
        crate::field::list_element!([impl Element for $ty]);
    )*};
}

packed_element!(u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64, bool);

/// A list of bytes is viewed as the byte slice itself.
impl Element for u8 {
    type ListView<'v> = &'v [u8];

    #[inline(always)]
    fn list_view<'v>(list: List<'v, u8>) -> &'v [u8] {
        list.as_bytes()
    }

    #[inline(always)]
    fn list_of<'v>(view: &'v [u8]) -> List<'v, u8>
    where
        Self: 'v,
    {
        // Every byte is a valid `u8`: any slice is a valid list of bytes.
        List::of_bytes(view)
    }
}

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
    type View<'v> = bool;

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
        // SAFETY: the caller promises `block` holds the byte. Any non-zero byte reads
        // as true, so even a wrong byte could not make an invalid `bool`.
        let [byte] = unsafe { crate::validated::array_at::<1>(block, 0) };
        byte != 0
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

impl Field for bool {
    type Kind = bool;
    const TYPE: &'static TypeSchema = &TypeSchema::Bool;
    // SAFETY: one byte, 0 or 1 in memory as on the wire, and validation accepts no
    // other byte.
    const PLAIN: crate::plain::Plain<Self> = unsafe { crate::plain::Plain::promise() };

    #[inline(always)]
    fn tail_len(&self) -> usize {
        0
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        if let Some(out) = block.first_mut() {
            *out = u8::from(*self);
        }
    }
}

impl<'v> DecodeField<'v> for bool {
    #[inline(always)]
    fn decode_view(view: bool) -> bool {
        view
    }
}

impl<'v> SetInPlace<'v, bool> for bool {
    #[inline(always)]
    fn set(_: Internal, value: &bool, block: &mut [u8]) -> bool {
        value.write(block, &mut []);
        true
    }
}

impl FixedKind for bool {}
