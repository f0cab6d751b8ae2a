//! Numbers and `bool` as fields: each is its own shape (`trust/shape/number.rs`);
//! here, how they are encoded and decoded (FORMAT.md §4.1).

use crate::field::{DecodeField, Element, Field};
use crate::trust::shape::number::PlainNumber;
use crate::{List, TypeSchema};

macro_rules! number {
    ($($ty:ty => $schema:ident),* $(,)?) => {$(
        impl Field for $ty {
            type Kind = $ty;
            const TYPE: &'static TypeSchema = &TypeSchema::$schema;
            const PLAIN: crate::plain::Plain<Self> = <$ty as PlainNumber>::PLAIN;

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

impl Field for bool {
    type Kind = bool;
    const TYPE: &'static TypeSchema = &TypeSchema::Bool;
    const PLAIN: crate::plain::Plain<Self> = <bool as PlainNumber>::PLAIN;

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
