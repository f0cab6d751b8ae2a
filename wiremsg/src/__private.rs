//! Helpers that generated code calls. Not public API: paths and signatures may change
//! in any release.

pub use crate::field::{DecodeField, Element, Field, ListEncoding, Scalar, Slots};
pub use crate::list::ListMut;
pub use crate::message::{EnumRepr, WireEnum, WireMsg};
pub use crate::mode::Mode;
pub use crate::schema::{EnumSchema, FieldSchema, MessageSchema, TypeSchema};
pub use crate::{Error, ErrorKind, List, MAX_DEPTH};
pub use core::fmt::{Debug, Formatter, Result as FmtResult};
pub use core::marker::PhantomData;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};

use crate::primitives_le::{read_u16, read_u32, write_u16, write_u32};

/// The block of a message and the offset where its tail starts (the block length on
/// the wire, or `BL` for a message without a tail) (FORMAT.md §2, §3).
#[inline(always)]
pub fn message_block<'v, const BL: usize, M: Mode>(
    bytes: &'v [u8],
    has_tail: bool,
    mode: &M,
    depth: u32,
) -> Result<(&'v [u8; BL], usize), Error> {
    if M::CHECKED && depth > MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
            0,
        ));
    }
    let tail_start = if has_tail {
        let declared = match read_u16(bytes, 0) {
            Some(n) => usize::from(n),
            None if M::CHECKED => {
                return Err(truncated(2, bytes.len()));
            }
            None => BL,
        };
        if M::CHECKED && declared < BL {
            return Err(Error::new(
                ErrorKind::BlockLengthTooSmall {
                    declared,
                    required: BL,
                },
                0,
            ));
        }
        if M::CHECKED && declared > bytes.len() {
            return Err(truncated(declared, bytes.len()));
        }
        declared
    } else {
        BL
    };
    match mode.array::<BL>(crate::mode::sealed::INTERNAL, bytes) {
        Some(block) => Ok((block, tail_start)),
        None => Err(truncated(BL, bytes.len())),
    }
}

#[cold]
fn truncated(needed: usize, available: usize) -> Error {
    Error::new(ErrorKind::Truncated { needed, available }, 0)
}

/// Validates field `F` at block offset `off` of a message (`msg` is the whole
/// message, `prev_end` the end of the previous tail region) (FORMAT.md §3).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn field<'v, F: Field, M: Mode>(
    block: &'v [u8],
    off: usize,
    msg: &'v [u8],
    prev_end: &mut usize,
    mode: &M,
    depth: u32,
    name: &'static str,
) -> Result<F::Stored<'v>, Error> {
    let part = block.get(off..off + F::BLOCK_SIZE).unwrap_or_default();
    let (tail, tail_at) = if F::IN_TAIL {
        let end = read_u32(part, F::BLOCK_SIZE - 4).unwrap_or(0) as usize;
        let start = *prev_end;
        if M::CHECKED && (end < start || end > msg.len()) {
            return Err(Error::new(
                ErrorKind::OffsetOutOfRange {
                    end,
                    min: start,
                    max: msg.len(),
                },
                off + F::BLOCK_SIZE - 4,
            )
            .in_field(name));
        }
        *prev_end = end;
        (
            mode.slice(crate::mode::sealed::INTERNAL, msg, start, end)
                .unwrap_or_default(),
            start,
        )
    } else {
        (&[][..], 0)
    };
    let slots = Slots {
        block: part,
        block_at: off,
        tail,
        tail_at,
    };
    F::validate(slots, mode, depth).map_err(|e| e.in_field(name))
}

/// Writes field `F` at block offset `off`; its tail data goes at `*cursor` in `tail`,
/// and its end offset is `block_len + *cursor` afterwards (FORMAT.md §3).
#[inline(always)]
pub fn write_field<F: Field>(
    value: &F,
    block: &mut [u8],
    off: usize,
    tail: &mut [u8],
    cursor: &mut usize,
    block_len: usize,
) {
    let Some(part) = block.get_mut(off..off + F::BLOCK_SIZE) else {
        return;
    };
    if F::IN_TAIL {
        let start = *cursor;
        *cursor += value.tail_len();
        if let Some(out) = tail.get_mut(start..*cursor) {
            value.write(part, out);
        }
        write_u32(part, F::BLOCK_SIZE - 4, (block_len + *cursor) as u32);
    } else {
        value.write(part, &mut []);
    }
}

/// Writes a message's block length field and returns its block and tail buffers.
#[inline(always)]
pub fn split_message(out: &mut [u8], block_len: usize, has_tail: bool) -> (&mut [u8], &mut [u8]) {
    let at = block_len.min(out.len());
    let (block, tail) = out.split_at_mut(at);
    if has_tail {
        write_u16(block, 0, block_len as u16);
    }
    (block, tail)
}

/// `Field::validate` of a message type: its bytes are the block part (no tail) or the
/// tail region (with a tail).
#[inline(always)]
pub fn validate_message<'v, T: WireMsg, M: Mode>(
    s: Slots<'v>,
    mode: &M,
    depth: u32,
) -> Result<T::View<'v>, Error> {
    let (bytes, at) = if T::IN_TAIL {
        (s.tail, s.tail_at)
    } else {
        (s.block, s.block_at)
    };
    T::__view(bytes, mode, depth + 1).map_err(|e| e.shift(at))
}

/// `Field::write` of a message type.
#[inline(always)]
pub fn write_message<T: WireMsg>(value: &T, block: &mut [u8], tail: &mut [u8]) {
    if T::IN_TAIL {
        value.__write(tail)
    } else {
        value.__write(block)
    }
}

/// The mutable view of a nested message field: from its block part, or from its tail
/// region (`rest` is the message after its block, which starts at offset `block_len`).
#[inline(always)]
pub fn message_mut<'m, T: WireMsg>(
    part: &'m mut [u8],
    rest: &'m mut [u8],
    region: (usize, usize),
    block_len: usize,
) -> Option<T::Mut<'m>> {
    if T::IN_TAIL {
        T::__mut(region_of(rest, region, block_len)?)
    } else {
        T::__mut(part)
    }
}

/// The mutable view of a list field's tail region.
#[inline(always)]
pub fn list_mut<T: Element>(
    rest: &mut [u8],
    region: (usize, usize),
    block_len: usize,
) -> ListMut<'_, T> {
    ListMut::from_validated(region_of(rest, region, block_len).unwrap_or_default())
}

fn region_of(rest: &mut [u8], (start, end): (usize, usize), block_len: usize) -> Option<&mut [u8]> {
    rest.get_mut(start.checked_sub(block_len)?..end.checked_sub(block_len)?)
}

/// Start and end (offsets in the message) of the tail region of field `index`, given
/// the end-offset slot of every field that has one (`None` for fixed-size fields).
#[inline(always)]
pub fn tail_region(
    block: &[u8],
    tail_start: usize,
    end_slots: &[Option<usize>],
    index: usize,
) -> (usize, usize) {
    let read = |slot: usize| read_u32(block, slot).map_or(0, |n| n as usize);
    let start = end_slots
        .get(..index)
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(|slot| *slot)
        .map_or(tail_start, read);
    let end = end_slots.get(index).copied().flatten().map_or(start, read);
    (start, end)
}

/// The mutable block of a message view: what `__mut` builds on.
#[inline(always)]
pub fn split_mut<const BL: usize>(
    bytes: &mut [u8],
    has_tail: bool,
) -> Option<(&mut [u8; BL], &mut [u8], usize)> {
    let tail_start = if has_tail {
        usize::from(read_u16(bytes, 0)?)
    } else {
        BL
    };
    let (block, rest) = bytes.split_at_mut_checked(BL)?;
    Some((block.try_into().ok()?, rest, tail_start))
}

/// `Field::validate` of an enum type.
#[inline(always)]
pub fn validate_enum<E: WireEnum, M: Mode>(s: Slots<'_>) -> Result<(), Error> {
    let raw = E::Repr::read(s.block);
    if M::CHECKED && E::from_raw(raw).is_none() {
        return Err(Error::new(
            ErrorKind::UnknownEnumValue {
                enum_name: E::ENUM_SCHEMA.name,
                value: raw.into(),
            },
            s.block_at,
        ));
    }
    Ok(())
}

/// `Field::get` of an enum type; `fallback` is never returned for validated bytes.
#[inline(always)]
pub fn get_enum<E: WireEnum>(block: &[u8], fallback: E) -> E {
    E::from_raw(E::Repr::read(block)).unwrap_or(fallback)
}

/// `Field::write` of an enum type.
#[inline(always)]
pub fn write_enum<E: WireEnum>(value: E, block: &mut [u8]) {
    value.to_raw().write(block, &mut []);
}

/// A field type that is a message, for the `<field>_mut()` accessor of a field whose
/// type the derive cannot see into (the lifetime keeps the bound from being decided
/// when the accessor is declared, so that enum fields get no error).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a nested message",
    note = "enum fields are overwritten with `set_<field>`"
)]
pub trait MsgField<'v> {
    /// The message's mutable view.
    type Mut<'m>
    where
        Self: 'm;

    /// The mutable view of a nested message field (see [`message_mut`]).
    fn mut_of<'m>(
        part: &'m mut [u8],
        rest: &'m mut [u8],
        region: (usize, usize),
        block_len: usize,
    ) -> Option<Self::Mut<'m>>
    where
        Self: 'm;
}

impl<T: WireMsg> MsgField<'_> for T {
    type Mut<'m>
        = T::Mut<'m>
    where
        Self: 'm;

    #[inline(always)]
    fn mut_of<'m>(
        part: &'m mut [u8],
        rest: &'m mut [u8],
        region: (usize, usize),
        block_len: usize,
    ) -> Option<T::Mut<'m>>
    where
        Self: 'm,
    {
        message_mut::<T>(part, rest, region, block_len)
    }
}
