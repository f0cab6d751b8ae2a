//! Enums (FORMAT.md §4.4): the repr integer, little-endian. Validation refuses a value
//! with no variant (unless there is a catch-all). A read of a derived field-less enum
//! is the value itself, as the enum's memory (what validation accepted is one of its
//! discriminants); any other enum's read maps the value through `from_raw`, where any
//! value reads as some variant.

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
    /// (`WireEnum::__VALUES`, which the derive promises; unknown otherwise).
    const BYTE_CHECK: ByteCheck = match E::__VALUES.get() {
        Some((lo, hi)) if <Self as Kind>::BLOCK_SIZE == 1 => ByteCheck::byte_values(lo, hi),
        _ => ByteCheck::Other,
    };
    type Reads = Self;
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
        let raw = E::Repr::read(block);
        if E::__VALUES.discriminants() && size_of::<E>() == size_of::<E::Repr>() {
            // SAFETY: validation accepted these bytes, so `from_raw(raw)` is `Some`,
            // and the derive promised (`EnumValues::promise`) that `E` is a field-less
            // `#[repr(Repr)]` enum whose variants' discriminants are the values
            // `from_raw` accepts: `raw` is the memory of a variant of `E`, of `E`'s
            // size (checked beside).
            return unsafe { core::mem::transmute_copy::<E::Repr, E>(&raw) };
        }
        // Any value reads as some variant: no fact of validation is needed here.
        E::from_raw(raw).unwrap_or(E::__FALLBACK)
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

/// The wire values an enum's `from_raw` accepts, as one range, if they are one: what
/// validation of a dense list trusts to check a one-byte enum by one compare
/// ([`ByteCheck`]). `#[derive(WireEnum)]` promises it (`WireEnum::__VALUES`); a
/// hand-written impl keeps [`UNKNOWN`](Self::UNKNOWN), and its values are checked
/// by `from_raw`.
///
/// Made only by the `unsafe` [`promise`](Self::promise), and invariant in the enum
/// type, so that a hand-written impl cannot state another type's range in safe code
/// (`tests/ui/copied-enum-values.rs`).
pub struct EnumValues<E: ?Sized>(Option<(u64, u64)>, bool, crate::kind::Invariant<*const E>);

impl<E: ?Sized> Clone for EnumValues<E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<E: ?Sized> Copy for EnumValues<E> {}

impl<E: ?Sized> core::fmt::Debug for EnumValues<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("EnumValues")
            .field(&self.0)
            .field(&self.1)
            .finish()
    }
}

impl<E: ?Sized> EnumValues<E> {
    /// Not stated: `from_raw` decides each value.
    pub const UNKNOWN: EnumValues<E> = EnumValues(None, false, core::marker::PhantomData);

    /// The range of [`enum_values`] of `E`'s variants' values, and whether those
    /// values are `E`'s discriminants.
    ///
    /// # Safety
    ///
    /// `E` is the enum whose `WireEnum::__VALUES` this is, and, where `values` is
    /// `Some((lo, hi))`, its `from_raw` returns `Some` for every value from `lo` to
    /// `hi` and for no other. Where `discriminants`, `E` is a field-less enum with
    /// `#[repr(R)]`, `R` its `WireEnum::Repr`, and every value its `from_raw` accepts
    /// is the discriminant (`Variant as R`) of the variant `from_raw` returns for it:
    /// reads then take the wire value as the enum's memory.
    pub const unsafe fn promise(values: Option<(u64, u64)>, discriminants: bool) -> EnumValues<E> {
        EnumValues(values, discriminants, core::marker::PhantomData)
    }

    /// The promised range, if any.
    pub const fn get(self) -> Option<(u64, u64)> {
        self.0
    }

    /// Whether the values `from_raw` accepts are `E`'s discriminants, as promised.
    pub const fn discriminants(self) -> bool {
        self.1
    }
}

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
