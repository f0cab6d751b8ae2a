//! `Box<T>`: an ownership detail, not a wire shape. A boxed field has exactly the
//! bytes, validation, view and schema of `T` (FORMAT.md §4.12); boxing is what lets a
//! message hold itself (`Option<Box<Self>>`, a union variant `Add(Box<Expr>, ..)`).

use crate::field::{DecodeField, Field, ViewOf, list_element};
use crate::{Error, TypeSchema};
use alloc::boxed::Box;

/// The field of `T`, behind a pointer: same kind, same bytes.
impl<T: Field> Field for Box<T> {
    type Kind = T::Kind;
    const TYPE: &'static TypeSchema = T::TYPE;
    const __NAME_TYPE: &'static TypeSchema = T::__NAME_TYPE;

    #[inline(always)]
    fn tail_len(&self) -> usize {
        T::tail_len(self)
    }

    #[inline(always)]
    fn check_value(&self, depth: u32) -> Result<(), Error> {
        T::check_value(self, depth)
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]) {
        T::write(self, block, tail)
    }

    #[inline(always)]
    fn append_tail(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>) {
        T::append_tail(self, block, tail)
    }

    #[inline(always)]
    fn append_split(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>) {
        T::append_split(self, block, tail)
    }
}

/// Decodes `T` and boxes it.
impl<'v, T: DecodeField<'v>> DecodeField<'v> for Box<T> {
    #[inline]
    fn decode_view(view: ViewOf<'v, Self>) -> Self {
        Box::new(T::decode_view(view))
    }

    /// The box itself, and what `T` allocates.
    #[inline]
    fn decoded_size(view: ViewOf<'v, Self>) -> usize {
        core::mem::size_of::<T>().saturating_add(T::decoded_size(view))
    }
}

list_element!([impl<T: Field> crate::field::Element for Box<T>]);
