//! Numbers and `bool`: little-endian, unaligned, no padding (FORMAT.md §4.1).

use crate::field::{DecodeField, Element, Field, ListEncoding, Scalar, Slots};
use crate::{Error, ErrorKind, List, Mode, TypeSchema};

macro_rules! number {
    ($($ty:ty => $schema:ident),* $(,)?) => {$(
        impl Field for $ty {
            const BLOCK_SIZE: usize = core::mem::size_of::<$ty>();
            const IN_TAIL: bool = false;
            const TYPE: &'static TypeSchema = &TypeSchema::$schema;
            const CHECKS: bool = false;
            type View<'v> = $ty;
            type Stored<'v> = ();

            #[inline(always)]
            fn validate<'v, M: Mode>(_: Slots<'v>, _: &M, _: u32) -> Result<(), Error> {
                Ok(())
            }

            #[inline(always)]
            fn get(block: &[u8], _: ()) -> $ty {
                match block.first_chunk() {
                    Some(bytes) => <$ty>::from_le_bytes(*bytes),
                    None => 0 as $ty,
                }
            }

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

        impl<'v> Scalar<'v> for $ty {}
    )*};
}

number! {
    u8 => U8, u16 => U16, u32 => U32, u64 => U64, u128 => U128,
    i8 => I8, i16 => I16, i32 => I32, i64 => I64, i128 => I128,
    f32 => F32, f64 => F64,
}

macro_rules! packed_element {
    ($($ty:ty),* $(,)?) => {$(
        crate::field::list_element!([impl Element for $ty] Packed);
    )*};
}

packed_element!(u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64, bool);

/// A list of bytes is viewed as the byte slice itself.
impl Element for u8 {
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
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
        List::packed_unchecked(view, view.len())
    }
}

/// One byte, 0 for `false` and 1 for `true`; any other byte fails validation.
impl Field for bool {
    const BLOCK_SIZE: usize = 1;
    const IN_TAIL: bool = false;
    const TYPE: &'static TypeSchema = &TypeSchema::Bool;
    type View<'v> = bool;
    type Stored<'v> = ();

    #[inline(always)]
    fn validate<'v, M: Mode>(s: Slots<'v>, _: &M, _: u32) -> Result<(), Error> {
        match s.block.first() {
            Some(0 | 1) => Ok(()),
            Some(&value) if M::CHECKED => {
                Err(Error::new(ErrorKind::InvalidBool { value }, s.block_at))
            }
            _ => Ok(()),
        }
    }

    #[inline(always)]
    fn get(block: &[u8], _: ()) -> bool {
        block.first().is_some_and(|&b| b != 0)
    }

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

impl<'v> Scalar<'v> for bool {}
