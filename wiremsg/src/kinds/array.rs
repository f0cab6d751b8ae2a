//! Fixed arrays `[T; N]` of fixed-size types, inline in the block (FORMAT.md §4.6).

use crate::field::{DecodeField, Field, Kind};
use crate::kind::ArrayOf;
pub use crate::trust::shape::array::{ArrayIter, ArrayView};
use crate::{Error, Node, TypeSchema};

impl<T: Field, const N: usize> Field for [T; N] {
    type Kind = ArrayOf<T, N>;
    const TYPE: &'static TypeSchema = &TypeSchema::Array {
        element: Node::Static(T::TYPE),
        len: N,
    };
    const __NAME_TYPE: &'static TypeSchema = &TypeSchema::Array {
        element: Node::Static(T::__NAME_TYPE),
        len: N,
    };
    const PLAIN: crate::plain::Plain<Self> = crate::trust::shape::array::array_plain();

    #[inline(always)]
    fn tail_len(&self) -> usize {
        0
    }

    #[inline]
    fn check_value(&self, depth: u32) -> Result<(), Error> {
        let size = <T::Kind as Kind>::BLOCK_SIZE;
        for (i, item) in self.iter().enumerate() {
            item.check_value(depth)
                .map_err(|e| e.shift(i * size).in_element(i))?;
        }
        Ok(())
    }

    #[inline]
    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        let size = <T::Kind as Kind>::BLOCK_SIZE.max(1);
        for (item, out) in self.iter().zip(block.chunks_exact_mut(size)) {
            item.write(out, &mut []);
        }
    }
}

/// Decoding an array needs `T: Default` (the value an element would take if it could
/// not be read; a validated view always reads every element).
impl<'v, T: DecodeField<'v> + Default, const N: usize> DecodeField<'v> for [T; N] {
    fn decode_view(view: ArrayView<'v, T, N>) -> Self {
        core::array::from_fn(|i| view.get(i).map(T::decode_view).unwrap_or_default())
    }

    fn decoded_size(view: ArrayView<'v, T, N>) -> usize {
        if !core::mem::needs_drop::<T>() {
            return 0;
        }
        view.iter().fold(0, |sum, element| {
            sum.saturating_add(T::decoded_size(element))
        })
    }
}
