//! Text (FORMAT.md §4.2): UTF-8 bytes in the tail, read as `&str` once validation
//! checked them.

use crate::kind::Text;
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::trust::shape::Kind;
use crate::{Error, ErrorKind, ListEncoding, Mode};

impl Sealed for Text {}

impl Kind for Text {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Table;
    const MIN_ELEMENT_SIZE: usize = 4;
    const TAIL_TEXT: bool = true;
    type Reads = Self;
    type View<'v> = &'v str;
    crate::trust::shape::eager_lazy!();

    #[inline(always)]
    fn validate<M: Mode>(i: Internal, place: Place<'_>, mode: &M, _: u32) -> Result<(), Error> {
        mode.text(i, place.region).map_err(|valid_up_to| {
            Error::new(
                ErrorKind::InvalidUtf8 { valid_up_to },
                place.region_at + valid_up_to,
            )
        })
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, _: &'v [u8], region: &'v [u8]) -> &'v str {
        // SAFETY: the caller promises validation accepted `region`: it is UTF-8.
        unsafe { crate::validated::str_of(region) }
    }

    fn default_bytes(_: Internal, view: &str) -> Option<alloc::vec::Vec<u8>> {
        Some(view.as_bytes().to_vec())
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: &'v str,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        s.serialize_str(view)
    }

    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: &'v str, b: &'v str) -> bool
    where
        Self: 'v,
    {
        a == b
    }
}
