//! Strings: `String` and `&str` fields, UTF-8 bytes in the tail (FORMAT.md §4.2).

use crate::field::{DecodeField, Element, Field, Slots};
use crate::{Error, ErrorKind, Mode, TypeSchema};
use alloc::string::String;

#[inline(always)]
fn validate_str<'v, M: Mode>(s: Slots<'v>, mode: &M) -> Result<&'v str, Error> {
    mode.utf8(crate::mode::sealed::INTERNAL, s.tail)
        .map_err(|valid_up_to| {
            Error::new(
                ErrorKind::InvalidUtf8 { valid_up_to },
                s.tail_at + valid_up_to,
            )
        })
}

macro_rules! string_field {
    ($($impl_head:tt)*) => {
        $($impl_head)* {
            const BLOCK_SIZE: usize = 4;
            const IN_TAIL: bool = true;
            const TYPE: &'static TypeSchema = &TypeSchema::Str;
            type View<'v> = &'v str;
            type Stored<'v> = &'v str;

            #[inline(always)]
            fn validate<'v, M: Mode>(s: Slots<'v>, mode: &M, _: u32) -> Result<&'v str, Error> {
                validate_str(s, mode)
            }

            #[inline(always)]
            fn get<'v>(_: &'v [u8], stored: &'v str) -> &'v str {
                stored
            }

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
        }
    };
}

string_field!(impl Field for String);
string_field!(impl<'a> Field for &'a str);

crate::field::list_element!([impl Element for String] Table);
crate::field::list_element!([impl<'a> Element for &'a str] Table);

impl<'v> DecodeField<'v> for String {
    #[inline]
    fn decode_view(view: &'v str) -> String {
        String::from(view)
    }
}

impl<'v> DecodeField<'v> for &'v str {
    #[inline]
    fn decode_view(view: &'v str) -> &'v str {
        view
    }
}
