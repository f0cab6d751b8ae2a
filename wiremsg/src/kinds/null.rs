//! Optional numbers without a presence byte: an `Option<T>` field with
//! `#[wire(null = ...)]` takes `T`'s bytes alone, one value of `T` standing for
//! `None` (FORMAT.md §4.9).

use crate::field::{Field, ViewOf};
use crate::mode::sealed::Sealed;
use crate::{Error, ErrorKind, Node, TypeSchema};

/// A number type that can stand for "absent" by one of its own values, its null
/// sentinel: the integers up to 64 bits and [`Decimal`](crate::Decimal)s of them.
///
/// Sealed: implemented by this crate only.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no null sentinel form",
    note = "`#[wire(null = ...)]` goes on an `Option` of an integer of up to 64 bits or of a `Decimal` of one"
)]
pub trait NullRepr: Field + Copy + Sealed {
    /// The type the sentinel is written in: the integer itself, or a decimal's
    /// mantissa (`#[wire(null = i64::MIN)]` for an `Option<Decimal<i64, 4>>`).
    type Raw: Copy;
    /// The value as an integer: itself, or a decimal's mantissa.
    #[doc(hidden)]
    fn raw(self) -> i128;
    /// The value an integer stands for (`raw` fits `Raw`: the derive checks it).
    #[doc(hidden)]
    fn from_raw(raw: i128) -> Self;
    /// The view's value as an integer.
    #[doc(hidden)]
    fn raw_of_view(view: ViewOf<'_, Self>) -> i128;
}

macro_rules! null_repr {
    ($($ty:ty),*) => {$(
        impl NullRepr for $ty {
            type Raw = $ty;

            #[inline(always)]
            fn raw(self) -> i128 {
                i128::from(self)
            }

            #[inline(always)]
            fn from_raw(raw: i128) -> $ty {
                // In range: the derive declared the sentinel as a `$ty`.
                raw as $ty
            }

            #[inline(always)]
            fn raw_of_view(view: $ty) -> i128 {
                i128::from(view)
            }
        }
    )*};
}

null_repr!(u8, u16, u32, u64, i8, i16, i32, i64);

/// An `Option<T>` written as `T` alone, `NULL` standing for `None`: the wire type that
/// `#[wire(null = NULL)]` gives an `Option<T>` field. Generated code builds it; it is
/// not meant to be written by hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NullAs<T, const NULL: i128>(pub Option<T>);

impl<T: NullRepr, const NULL: i128> NullAs<T, NULL> {
    /// `NullSentinel` if the value is present and is the sentinel.
    #[inline(always)]
    fn present(&self) -> Result<Option<T>, Error> {
        match self.0 {
            Some(value) if value.raw() == NULL => {
                Err(Error::new(ErrorKind::NullSentinel { value: NULL }, 0))
            }
            other => Ok(other),
        }
    }
}

impl<T: NullRepr, const NULL: i128> Field for NullAs<T, NULL> {
    type Kind = Self;
    const TYPE: &'static TypeSchema = &TypeSchema::Nullable {
        value: Node::Static(T::TYPE),
        null: NULL,
    };

    #[inline(always)]
    fn tail_len(&self) -> usize {
        0
    }

    #[inline(always)]
    fn check_value(&self, depth: u32) -> Result<(), Error> {
        match self.present()? {
            Some(value) => value.check_value(depth),
            None => Ok(()),
        }
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]) {
        // `check_value` refused a present sentinel before anything was written.
        self.0
            .unwrap_or_else(|| T::from_raw(NULL))
            .write(block, tail);
    }
}
