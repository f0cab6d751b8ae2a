//! `Option<T>`: a presence byte before the value, so that "absent" and "zero" stay
//! apart (FORMAT.md §4.5).

use crate::field::{DecodeField, Field, ViewOf};
use crate::kind::Opt;
use crate::{Error, Node, TypeSchema};

impl<T: Field> Field for Option<T> {
    type Kind = Opt<T::Kind>;
    const TYPE: &'static TypeSchema = &TypeSchema::Option(Node::Static(T::TYPE));
    const __NAME_TYPE: &'static TypeSchema = &TypeSchema::Option(Node::Static(T::__NAME_TYPE));

    #[inline(always)]
    fn tail_len(&self) -> usize {
        self.as_ref().map_or(0, T::tail_len)
    }

    #[inline(always)]
    fn check_value(&self, depth: u32) -> Result<(), Error> {
        match self {
            Some(value) => value.check_value(depth).map_err(|e| e.shift(1)),
            None => Ok(()),
        }
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]) {
        if let Some((value, rest)) = write_presence(self, block) {
            value.write(rest, tail);
        }
    }

    /// The value's own append (text, lists, messages write their tail once, with
    /// no zero-fill first); an absent value has no tail data.
    #[inline(always)]
    fn append_tail(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>) {
        if let Some((value, rest)) = write_presence(self, block) {
            value.append_tail(rest, tail);
        }
    }
}

/// Writes the presence byte (and zeroes an absent value's block); the value and the
/// block bytes left for it when present.
#[inline(always)]
fn write_presence<'a, 'b, T>(
    value: &'a Option<T>,
    block: &'b mut [u8],
) -> Option<(&'a T, &'b mut [u8])> {
    let (presence, rest) = block.split_first_mut()?;
    *presence = u8::from(value.is_some());
    match value {
        Some(value) => Some((value, rest)),
        None => {
            rest.fill(0);
            None
        }
    }
}

impl<'v, T: DecodeField<'v>> DecodeField<'v> for Option<T> {
    #[inline]
    fn decode_view(view: Option<ViewOf<'v, T>>) -> Self {
        view.map(T::decode_view)
    }

    #[inline]
    fn decoded_size(view: Option<ViewOf<'v, T>>) -> usize {
        view.map_or(0, T::decoded_size)
    }
}
