//! Null sentinels (FORMAT.md §4.9): a number's own bytes, one value of which reads as
//! absent. Every byte pattern is a number, so nothing here depends on more than the
//! number's shape.

use crate::field::{FixedKind, Scalar, SetInPlace, ViewOf};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::null::{NullAs, NullRepr};
use crate::trust::shape::Kind;
use crate::{Error, ListEncoding, Mode};

impl<T: NullRepr, const NULL: i128> Sealed for NullAs<T, NULL> {}

/// `T`'s bytes; the value `NULL` reads as `None`, any other as `Some`.
impl<T: NullRepr, const NULL: i128> Kind for NullAs<T, NULL> {
    const BLOCK_SIZE: usize = {
        assert!(
            !<T::Kind as Kind>::IN_TAIL,
            "wiremsg: a null sentinel needs a fixed-size number"
        );
        <T::Kind as Kind>::BLOCK_SIZE
    };
    const IN_TAIL: bool = false;
    const CHECKS: bool = <T::Kind as Kind>::CHECKS;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = <Self as Kind>::BLOCK_SIZE;
    type Reads = Self;
    type View<'v> = Option<ViewOf<'v, T>>;
    crate::trust::shape::eager_lazy!();

    #[inline(always)]
    fn validate<M: Mode>(i: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        <T::Kind as Kind>::validate(i, place, mode, depth)
    }

    #[inline(always)]
    fn view_eq<'v>(i: Internal, a: Self::View<'v>, b: Self::View<'v>) -> bool
    where
        Self: 'v,
    {
        match (a, b) {
            (Some(a), Some(b)) => <T::Kind as Kind>::view_eq(i, a, b),
            (None, None) => true,
            _ => false,
        }
    }

    /// The value's bytes, or the sentinel's for `None`.
    fn default_bytes(_: Internal, view: Self::View<'_>) -> Option<alloc::vec::Vec<u8>> {
        let raw = view.map_or(NULL, T::raw_of_view);
        let mut out = alloc::vec![0; <Self as Kind>::BLOCK_SIZE];
        T::from_raw(raw).write(&mut out, &mut []);
        Some(out)
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: Self::View<'v>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        match view {
            Some(value) => s.serialize_some(&crate::serde_view::SerializeView::<T::Kind>(value)),
            None => s.serialize_none(),
        }
    }

    #[inline(always)]
    unsafe fn read<'v>(i: Internal, block: &'v [u8], region: &'v [u8]) -> Self::View<'v> {
        // SAFETY: forwarded to the caller: these are `T`'s validated bytes.
        let value = unsafe { <T::Kind as Kind>::read(i, block, region) };
        if T::raw_of_view(value) == NULL {
            None
        } else {
            Some(value)
        }
    }
}

/// A setter writes the value or the sentinel; the generated setter refuses a present
/// sentinel first (`NullSentinel`). Any bytes of a number are a valid value.
impl<'v, T: NullRepr + Scalar<'v>, const NULL: i128> SetInPlace<'v, NullAs<T, NULL>>
    for NullAs<T, NULL>
{
    #[inline(always)]
    fn set(i: Internal, value: &Self, block: &mut [u8]) -> bool {
        value
            .0
            .unwrap_or_else(|| T::from_raw(NULL))
            .write_scalar(i, block)
    }
}

impl<T: NullRepr, const NULL: i128> FixedKind for NullAs<T, NULL> {}
