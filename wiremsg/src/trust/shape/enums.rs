//! Enums (FORMAT.md §4.4): the repr integer, little-endian. Validation refuses a value
//! with no variant (unless there is a catch-all); a read needs no fact of validation,
//! since any value reads as some variant.

use crate::field::{Field, FixedKind, Scalar, SetInPlace};
use crate::kind::EnumOf;
use crate::message::{EnumRepr, WireEnum};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::trust::shape::{ByteCheck, Kind};
use crate::{Error, ErrorKind, ListEncoding, Mode};

impl<E: WireEnum> Sealed for EnumOf<E> {}

/// The repr integer, little-endian; a value with no variant fails validation unless
/// the enum has a catch-all variant (FORMAT.md §4.4).
impl<E: WireEnum> Kind for EnumOf<E> {
    const BLOCK_SIZE: usize = <<E::Repr as Field>::Kind as Kind>::BLOCK_SIZE;
    const IN_TAIL: bool = false;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = <Self as Kind>::BLOCK_SIZE;
    /// A one-byte enum whose valid values have no gap is one byte compare
    /// (`WireEnum::__VALUES`, which the derive states; `None` otherwise).
    const BYTE_CHECK: ByteCheck = match E::__VALUES {
        Some((lo, hi)) if <Self as Kind>::BLOCK_SIZE == 1 => ByteCheck::byte_values(lo, hi),
        _ => ByteCheck::Other,
    };
    type View<'v> = E;
    crate::trust::shape::eager_lazy!();

    #[inline(always)]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, _: &M, _: u32) -> Result<(), Error> {
        let raw = E::Repr::read(place.block);
        if E::from_raw(raw).is_none() {
            return Err(Error::new(
                ErrorKind::UnknownEnumValue {
                    enum_name: E::ENUM_SCHEMA.name.clone(),
                    value: raw.into(),
                },
                place.block_at,
            ));
        }
        Ok(())
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> E {
        // Any value reads as some variant: no fact of validation is needed here.
        E::from_raw(E::Repr::read(block)).unwrap_or(E::__FALLBACK)
    }

    /// A known variant by name; an unknown value a catch-all variant kept as its
    /// number.
    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: E,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        let raw: u64 = view.to_raw().into();
        match E::ENUM_SCHEMA.variant_name(raw) {
            Some(name) => s.serialize_str(name),
            None => s.serialize_u64(raw),
        }
    }

    fn default_bytes(_: Internal, view: E) -> Option<alloc::vec::Vec<u8>> {
        let mut out = alloc::vec![0; <Self as Kind>::BLOCK_SIZE];
        crate::__private::write_enum(view, &mut out);
        Some(out)
    }

    /// By wire value: the enum itself need not implement `PartialEq`.
    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: E, b: E) -> bool
    where
        Self: 'v,
    {
        let (a, b): (u64, u64) = (a.to_raw().into(), b.to_raw().into());
        a == b
    }
}

/// An enum is set in place as its repr integer, if validation would accept that
/// integer (`from_raw` knows it): a hand-written `WireEnum` whose `to_raw` gives a
/// value its own `from_raw` refuses writes nothing, so the bytes stay valid.
impl<'v, E: WireEnum> SetInPlace<'v, E> for EnumOf<E> {
    #[inline(always)]
    fn set(i: Internal, value: &E, block: &mut [u8]) -> bool {
        let raw = value.to_raw();
        E::from_raw(raw).is_some() && raw.write_scalar(i, block)
    }
}

impl<E: WireEnum> FixedKind for EnumOf<E> {}

/// The least and the greatest of `values`, the distinct wire values of an enum's
/// variants, if they have no gap (`WireEnum::__VALUES`); every value for an enum
/// with a catch-all.
#[doc(hidden)]
pub const fn enum_values(values: &[u64], catch_all: bool) -> Option<(u64, u64)> {
    if catch_all {
        return Some((0, u64::MAX));
    }
    let [first, ..] = values else {
        return None;
    };
    let (mut lo, mut hi, mut i) = (*first, *first, 1);
    while i < values.len() {
        let v = values[i];
        if v < lo {
            lo = v;
        }
        if v > hi {
            hi = v;
        }
        i += 1;
    }
    // Distinct values fill `lo..=hi` exactly when there are `hi - lo + 1` of them.
    if hi - lo == values.len() as u64 - 1 {
        Some((lo, hi))
    } else {
        None
    }
}
