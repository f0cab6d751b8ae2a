//! Decimals (FORMAT.md §4.8): the mantissa's bytes, read as the mantissa's shape reads
//! them; every byte pattern is a value.

use crate::decimal::{Decimal, Mantissa};
use crate::field::{FixedKind, Scalar, SetInPlace};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::trust::shape::Kind;
use crate::{Error, Field, ListEncoding, Mode};

impl<M: Mantissa, const SCALE: u32> Sealed for Decimal<M, SCALE> {}

/// The mantissa's bytes; every byte pattern is a value.
impl<M: Mantissa, const SCALE: u32> Kind for Decimal<M, SCALE> {
    const BLOCK_SIZE: usize = {
        let () = Self::SCALE_OK;
        <M::Kind as Kind>::BLOCK_SIZE
    };
    const IN_TAIL: bool = false;
    const CHECKS: bool = false;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = <Self as Kind>::BLOCK_SIZE;
    type Reads = Self;
    type View<'v> = Self;
    crate::trust::shape::eager_lazy!();

    #[inline(always)]
    fn validate<Mo: Mode>(_: Internal, _: Place<'_>, _: &Mo, _: u32) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: Self, b: Self) -> bool
    where
        Self: 'v,
    {
        a.mantissa().to_i128() == b.mantissa().to_i128()
    }

    /// The mantissa's bytes.
    fn default_bytes(_: Internal, view: Self) -> Option<alloc::vec::Vec<u8>> {
        let mut out = alloc::vec![0; <Self as Kind>::BLOCK_SIZE];
        view.write(&mut out, &mut []);
        Some(out)
    }

    /// The exact decimal text (`"123.4500"`): JSON numbers would round it.
    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: Self,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        s.collect_str(&view)
    }

    #[inline(always)]
    unsafe fn read<'v>(i: Internal, block: &'v [u8], region: &'v [u8]) -> Self {
        // SAFETY: forwarded to the caller: `block` holds the mantissa's bytes.
        let view = unsafe { <M::Kind as Kind>::read(i, block, region) };
        Decimal::from_mantissa(M::from_view(view))
    }
}

impl<'v, M: Mantissa + Scalar<'v>, const SCALE: u32> SetInPlace<'v, Decimal<M, SCALE>>
    for Decimal<M, SCALE>
{
    #[inline(always)]
    fn set(i: Internal, value: &Self, block: &mut [u8]) -> bool {
        value.mantissa().write_scalar(i, block)
    }
}

impl<M: Mantissa, const SCALE: u32> FixedKind for Decimal<M, SCALE> {}
