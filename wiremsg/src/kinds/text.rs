//! Strings: `String` and `&str` fields, UTF-8 bytes in the tail (FORMAT.md §4.2).

use crate::TypeSchema;
use crate::field::{DecodeField, Element, Field};
use crate::kind::Text;
use alloc::string::String;

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
        list.same_kind()
    }

    #[inline(always)]
    fn list_of<'v>(view: crate::List<'v, &'static str>) -> crate::List<'v, Self>
    where
        Self: 'v,
    {
        view.same_kind()
    }
}

impl<'v> DecodeField<'v> for String {
    #[inline]
    fn decode_view(view: &'v str) -> String {
        owned(view)
    }

    #[inline]
    fn decoded_size(view: &'v str) -> usize {
        view.len()
    }
}

/// `view.to_owned()`, as one call where a derived message's decoding is compiled:
/// `String`'s impl is not generic, so its barrier is in this function (see
/// `inline_barrier`).
#[inline(always)]
fn owned<T: ?Sized + alloc::borrow::ToOwned>(view: &T) -> T::Owned {
    mir_inline_barrier!(&T);
    view.to_owned()
}

impl<'v> DecodeField<'v> for &'v str {
    #[inline]
    fn decode_view(view: &'v str) -> &'v str {
        view
    }
}
