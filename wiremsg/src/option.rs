//! `Option<T>`: a presence byte before the value, so that "absent" and "zero" stay
//! apart (FORMAT.md §4.5).

use crate::field::{DecodeField, Field, Scalar, Slots};
use crate::{Error, ErrorKind, Mode, TypeSchema};

/// One presence byte (0 absent, 1 present, others invalid), then `T`'s block bytes
/// (zero when absent; readers ignore them). A `T` with tail data keeps its slot, and
/// an absent one has empty tail data.
impl<T: Field> Field for Option<T> {
    const BLOCK_SIZE: usize = 1 + T::BLOCK_SIZE;
    const IN_TAIL: bool = T::IN_TAIL;
    const TYPE: &'static TypeSchema = &TypeSchema::Option(T::TYPE);
    const EVOLVES: bool = T::EVOLVES;
    type View<'v> = Option<T::View<'v>>;
    type Stored<'v> = Option<T::Stored<'v>>;

    #[inline(always)]
    fn validate<'v, M: Mode>(
        s: Slots<'v>,
        mode: &M,
        depth: u32,
    ) -> Result<Option<T::Stored<'v>>, Error> {
        match s.block.first() {
            Some(1) => {
                let inner = Slots {
                    block: s.block.get(1..).unwrap_or_default(),
                    block_at: s.block_at + 1,
                    ..s
                };
                T::validate(inner, mode, depth).map(Some)
            }
            Some(&value) if M::CHECKED && value != 0 => {
                Err(Error::new(ErrorKind::InvalidPresence { value }, s.block_at))
            }
            _ => Ok(None),
        }
    }

    #[inline(always)]
    fn get<'v>(block: &'v [u8], stored: Option<T::Stored<'v>>) -> Option<T::View<'v>> {
        stored.map(|s| T::get(block.get(1..).unwrap_or_default(), s))
    }

    #[inline(always)]
    fn tail_len(&self) -> usize {
        self.as_ref().map_or(0, T::tail_len)
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]) {
        let Some((presence, rest)) = block.split_first_mut() else {
            return;
        };
        match self {
            Some(value) => {
                *presence = 1;
                value.write(rest, tail);
            }
            None => {
                *presence = 0;
                rest.fill(0);
            }
        }
    }
}

impl<'v, T: DecodeField<'v>> DecodeField<'v> for Option<T> {
    #[inline]
    fn decode_view(view: Option<T::View<'v>>) -> Self {
        view.map(T::decode_view)
    }
}

impl<'v, T: Scalar<'v>> Scalar<'v> for Option<T> {}
