//! Arrays (FORMAT.md §4.6): `N` blocks of the element's shape back to back, inline;
//! the view reads element `i` at `i * size` inside the bytes validation checked.

use crate::field::{Field, FixedKind, Scalar, SetInPlace, ViewOf};
use crate::kind::ArrayOf;
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::plain::Plain;
use crate::trust::shape::Kind;
use crate::{Error, ListEncoding, Mode};
use core::fmt;

/// `Field::PLAIN` of `[T; N]`: plain when `T` is.
pub(crate) const fn array_plain<T: Field, const N: usize>() -> Plain<[T; N]> {
    if crate::plain::same_layout::<T>() {
        // SAFETY: `N` plain elements of `size_of::<T>()` bytes each, back to back with
        // no byte between them, in memory as on the wire (FORMAT.md §4.6).
        unsafe { Plain::promise() }
    } else {
        Plain::NO
    }
}

impl<T: Field, const N: usize> Sealed for ArrayOf<T, N> {}

/// `N` elements of `T` back to back, `N * T::BLOCK_SIZE` bytes. `T` must be
/// fixed-size (checked at compile time by the derive).
impl<T: Field, const N: usize> Kind for ArrayOf<T, N> {
    const BLOCK_SIZE: usize = {
        // Also catches what the derive cannot see (a type alias of an array).
        assert!(
            !<T::Kind as Kind>::IN_TAIL,
            "wiremsg: array elements must be fixed-size; use a Vec for variable-size elements"
        );
        N * <T::Kind as Kind>::BLOCK_SIZE
    };
    const IN_TAIL: bool = false;
    const CHECKS: bool = <T::Kind as Kind>::CHECKS;
    const EVOLVES: bool = <T::Kind as Kind>::EVOLVES;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = <Self as Kind>::BLOCK_SIZE;
    type Reads = ArrayOf<<T::Kind as Kind>::Reads, N>;
    type View<'v> = ArrayView<'v, T, N>;
    crate::trust::shape::eager_lazy!();

    #[inline]
    fn validate<M: Mode>(i: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        let size = <T::Kind as Kind>::BLOCK_SIZE;
        if <T::Kind as Kind>::CHECKS && size > 0 {
            for (index, block) in place.block.chunks_exact(size).enumerate() {
                let element = Place::block(block, place.block_at.wrapping_add(index * size));
                <T::Kind as Kind>::validate(i, element, mode, depth)
                    .map_err(|e| e.in_element(index))?;
            }
        }
        Ok(())
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: ArrayView<'v, T, N>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        s.collect_seq(view.iter().map(crate::serde_view::SerializeView::<T::Kind>))
    }

    #[inline]
    fn view_eq<'v>(_: Internal, a: ArrayView<'v, T, N>, b: ArrayView<'v, T, N>) -> bool
    where
        Self: 'v,
    {
        a == b
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> ArrayView<'v, T, N> {
        ArrayView {
            // SAFETY: the caller promises `block` holds the array's bytes, validated.
            block: unsafe { crate::validated::range(block, 0, <Self as Kind>::BLOCK_SIZE) },
            _element: core::marker::PhantomData,
        }
    }
}

impl<'v, T: Scalar<'v>, const N: usize> SetInPlace<'v, [T; N]> for ArrayOf<T, N> {
    #[inline]
    fn set(i: Internal, value: &[T; N], block: &mut [u8]) -> bool {
        let size = <T::Kind as Kind>::BLOCK_SIZE.max(1);
        let mut all = true;
        for (item, out) in value.iter().zip(block.chunks_exact_mut(size)) {
            all &= item.write_scalar(i, out);
        }
        all
    }
}

impl<T: Field, const N: usize> FixedKind for ArrayOf<T, N> where T::Kind: FixedKind {}

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
    /// The array's bytes, which passed validation as `N` elements of `T` (only this
    /// crate makes an `ArrayView`, and only from such bytes).
    block: &'v [u8],
    _element: crate::kind::Invariant<T>,
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
    pub fn get(&self, index: usize) -> Option<ViewOf<'v, T>> {
        let size = <T::Kind as Kind>::BLOCK_SIZE;
        // An array with no bytes (see `Default`) has no elements to read.
        if index >= N || (size > 0 && self.block.is_empty()) {
            return None;
        }
        // SAFETY: `index < N` and the array has its `N * size` bytes, which passed
        // validation element by element.
        Some(unsafe {
            let block = crate::validated::range(self.block, index * size, (index + 1) * size);
            <T::Kind as Kind>::read(INTERNAL, block, &[])
        })
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

/// The view of an array field that an older writer did not have (`#[wire(since)]`
/// without a declared default): its elements read as zero bytes do (0, `false`, `""`,
/// `None`, ...) where all-zero bytes are a valid array, which validation checks on
/// the spot; otherwise (an enum with no variant of value 0) it has no elements, and
/// `get` returns `None`.
impl<T: Field, const N: usize> Default for ArrayView<'_, T, N> {
    fn default() -> Self {
        static ZEROS: [u8; 1 << 16] = [0; 1 << 16];
        let len = <ArrayOf<T, N> as Kind>::BLOCK_SIZE;
        let block = match ZEROS.get(..len) {
            Some(zeros)
                if <ArrayOf<T, N> as Kind>::validate(
                    INTERNAL,
                    Place::block(zeros, 0),
                    &crate::mode::Checked,
                    0,
                )
                .is_ok() =>
            {
                zeros
            }
            _ => &[],
        };
        ArrayView {
            block,
            _element: core::marker::PhantomData,
        }
    }
}

impl<'v, T: Field, const N: usize> ArrayView<'v, T, N>
where
    ViewOf<'v, T>: Default,
{
    /// All elements, copied out.
    pub fn to_array(&self) -> [ViewOf<'v, T>; N] {
        let mut out = [<ViewOf<'v, T>>::default(); N];
        for (i, slot) in out.iter_mut().enumerate() {
            if let Some(value) = self.get(i) {
                *slot = value;
            }
        }
        out
    }
}

/// Two arrays are equal if their elements are, as [`List`](crate::List)'s are.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Levels { bids: [u32; 2], asks: [u32; 2] }
///
/// let bytes = Levels { bids: [5, 6], asks: [5, 6] }.to_bytes().unwrap();
/// let view = Levels::view(&bytes).unwrap();
/// assert_eq!(view.bids(), view.asks());
/// ```
impl<'v, T: Field + 'v, const N: usize> PartialEq for ArrayView<'v, T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.iter()
            .zip(other.iter())
            .all(|(a, b)| <T::Kind as Kind>::view_eq(INTERNAL, a, b))
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
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Levels { sizes: [u16; 3] }
///
/// let bytes = Levels { sizes: [1, 2, 3] }.to_bytes().unwrap();
/// let view = Levels::view(&bytes).unwrap();
/// let mut sizes = view.sizes().iter();
/// assert_eq!(sizes.len(), 3);
/// assert_eq!(sizes.next(), Some(1));
/// assert_eq!(sizes.sum::<u16>(), 5);
/// ```
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
    type Item = ViewOf<'v, T>;

    fn next(&mut self) -> Option<ViewOf<'v, T>> {
        let item = self.array.get(self.next)?;
        self.next += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let size = <T::Kind as Kind>::BLOCK_SIZE;
        let len = if size > 0 && self.array.block.is_empty() {
            0
        } else {
            N
        };
        let left = len - self.next.min(len);
        (left, Some(left))
    }
}

impl<T: Field, const N: usize> ExactSizeIterator for ArrayIter<'_, T, N> {}
