//! Strings: `String` and `&str` fields, UTF-8 bytes in the tail (FORMAT.md §4.2).

use crate::field::{DecodeField, Element, Field, Kind, ListEncoding};
use crate::kind::Text;
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::{Error, ErrorKind, Mode, TypeSchema};
use alloc::string::String;

impl Sealed for Text {}

impl Kind for Text {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Table;
    const MIN_ELEMENT_SIZE: usize = 4;
    const TAIL_TEXT: bool = true;
    type View<'v> = &'v str;

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

macro_rules! string_field {
    ($($impl_head:tt)*) => {
        $($impl_head)* {
            type Kind = Text;
            const TYPE: &'static TypeSchema = &TypeSchema::Str;

            #[inline(always)]
            fn tail_len(&self) -> usize {
                self.len()
            }

            #[inline(always)]
            fn write(&self, _: &mut [u8], tail: &mut [u8]) {
                if let Some(out) = tail.get_mut(..self.len()) {
                    out.copy_from_slice(self.as_bytes());
                }
            }

            #[inline(always)]
            fn append_tail(&self, _: &mut [u8], tail: &mut crate::plain::Out<'_>) {
                tail.append(self.as_bytes());
            }
        }
    };
}

string_field!(impl Field for String);
string_field!(impl<'a> Field for &'a str);

crate::field::list_element!([impl Element for String]);
/// A list of `&'a str` is viewed as a list of `&'static str`, whatever `'a`: the
/// view does not depend on it, and lists are invariant in their element type.
impl Element for &str {
    type ListView<'v> = crate::List<'v, &'static str>;

    #[inline(always)]
    fn list_view<'v>(list: crate::List<'v, Self>) -> crate::List<'v, &'static str> {
        // SAFETY: both element types have the kind `Text`.
        unsafe { list.retype() }
    }

    #[inline(always)]
    fn list_of<'v>(view: crate::List<'v, &'static str>) -> crate::List<'v, Self>
    where
        Self: 'v,
    {
        // SAFETY: as above.
        unsafe { view.retype() }
    }
}

impl<'v> DecodeField<'v> for String {
    #[inline]
    fn decode_view(view: &'v str) -> String {
        String::from(view)
    }

    #[inline]
    fn decoded_size(view: &'v str) -> usize {
        view.len()
    }
}

impl<'v> DecodeField<'v> for &'v str {
    #[inline]
    fn decode_view(view: &'v str) -> &'v str {
        view
    }
}
