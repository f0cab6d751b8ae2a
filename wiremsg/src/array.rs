//! Fixed arrays `[T; N]` of fixed-size types, inline in the block (FORMAT.md §4.6).

use crate::field::{DecodeField, Field, Scalar, Slots};
use crate::mode::Trusted;
use crate::mode::sealed::Kept;
use crate::{Error, Mode, TypeSchema};
use core::fmt;

/// `N` elements of `T` back to back, `N * T::BLOCK_SIZE` bytes. `T` must be
/// fixed-size (checked at compile time by the derive).
impl<T: Field, const N: usize> Field for [T; N] {
    const BLOCK_SIZE: usize = {
        // Also catches what the derive cannot see (a type alias of an array).
        assert!(
            !T::IN_TAIL,
            "wiremsg: array elements must be fixed-size; use a Vec for variable-size elements"
        );
        N * T::BLOCK_SIZE
    };
    const IN_TAIL: bool = false;
    const EVOLVES: bool = T::EVOLVES;
    const CHECKS: bool = T::CHECKS;
    const TYPE: &'static TypeSchema = &TypeSchema::Array {
        element: T::TYPE,
        len: N,
    };
    type View<'v> = ArrayView<'v, T, N>;
    type Stored<'v> = Kept;

    #[inline]
    fn validate<'v, M: Mode>(s: Slots<'v>, mode: &M, depth: u32) -> Result<Kept, Error> {
        let size = T::BLOCK_SIZE;
        if T::CHECKS && size > 0 {
            for (i, block) in s.block.chunks_exact(size).enumerate() {
                let element = Slots {
                    block,
                    block_at: s.block_at + i * size,
                    tail: &[],
                    tail_at: 0,
                };
                T::validate(element, mode, depth).map_err(|e| e.in_element(i))?;
            }
        }
        Ok(Kept(mode.validated(crate::mode::sealed::INTERNAL)))
    }

    #[inline(always)]
    fn get<'v>(block: &'v [u8], Kept(trusted): Kept) -> ArrayView<'v, T, N> {
        ArrayView {
            block,
            trusted,
            _element: core::marker::PhantomData,
        }
    }

    #[inline(always)]
    fn tail_len(&self) -> usize {
        0
    }

    #[inline]
    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        for (item, out) in self
            .iter()
            .zip(block.chunks_exact_mut(T::BLOCK_SIZE.max(1)))
        {
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
}

impl<'v, T: Scalar<'v>, const N: usize> Scalar<'v> for [T; N] {}

/// The validated view of a fixed array field.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Levels {
///     bids: [u32; 3],
/// }
///
/// let bytes = Levels { bids: [5, 6, 7] }.to_bytes().unwrap();
/// let view = Levels::view(&bytes).unwrap();
/// assert_eq!(view.bids().get(1), Some(6));
/// assert_eq!(view.bids().to_array(), [5, 6, 7]);
/// ```
pub struct ArrayView<'v, T, const N: usize> {
    block: &'v [u8],
    /// Every element passed validation: they are read again without checks.
    trusted: Trusted,
    _element: core::marker::PhantomData<fn() -> T>,
}

impl<T, const N: usize> Clone for ArrayView<'_, T, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, const N: usize> Copy for ArrayView<'_, T, N> {}

impl<'v, T: Field, const N: usize> ArrayView<'v, T, N> {
    /// Number of elements, `N`.
    pub const fn len(&self) -> usize {
        N
    }

    /// True if `N == 0`.
    pub const fn is_empty(&self) -> bool {
        N == 0
    }

    /// The element at `index`, or `None` if `index >= N`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<T::View<'v>> {
        if index >= N {
            return None;
        }
        let size = T::BLOCK_SIZE;
        let block = self.block.get(index * size..(index + 1) * size)?;
        let slots = Slots {
            block,
            block_at: 0,
            tail: &[],
            tail_at: 0,
        };
        let stored = T::validate(slots, &self.trusted, 0).ok()?;
        Some(T::get(block, stored))
    }

    /// The elements in order.
    pub fn iter(&self) -> ArrayIter<'v, T, N> {
        ArrayIter {
            array: *self,
            next: 0,
        }
    }

    /// The array's bytes as they are on the wire.
    pub fn as_bytes(&self) -> &'v [u8] {
        self.block
    }
}

impl<'v, T: Field, const N: usize> ArrayView<'v, T, N>
where
    T::View<'v>: Default,
{
    /// All elements, copied out.
    pub fn to_array(&self) -> [T::View<'v>; N] {
        let mut out = [T::View::<'v>::default(); N];
        for (i, slot) in out.iter_mut().enumerate() {
            if let Some(value) = self.get(i) {
                *slot = value;
            }
        }
        out
    }
}

impl<T: Field, const N: usize> fmt::Debug for ArrayView<'_, T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries((0..N).filter_map(|i| self.get(i)))
            .finish()
    }
}

/// Iterator over the elements of an [`ArrayView`].
pub struct ArrayIter<'v, T, const N: usize> {
    array: ArrayView<'v, T, N>,
    next: usize,
}

impl<T, const N: usize> fmt::Debug for ArrayIter<'_, T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArrayIter")
            .field("next", &self.next)
            .finish()
    }
}

impl<'v, T: Field, const N: usize> Iterator for ArrayIter<'v, T, N> {
    type Item = T::View<'v>;

    fn next(&mut self) -> Option<T::View<'v>> {
        let item = self.array.get(self.next)?;
        self.next += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = N - self.next.min(N);
        (left, Some(left))
    }
}

impl<T: Field, const N: usize> ExactSizeIterator for ArrayIter<'_, T, N> {}
