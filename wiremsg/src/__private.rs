//! Helpers that generated code calls. Not public API: paths and signatures may change
//! in any release.

pub use crate::field::{DecodeField, Element, Field, ListEncoding, Scalar, Slots};
pub use crate::header::{MessageHeader, Template, view_body};
pub use crate::list::ListMut;
pub use crate::message::{EnumRepr, WireEnum, WireMsg};
pub use crate::mode::Mode;
pub use crate::schema::{EnumSchema, FieldSchema, MessageSchema, TypeSchema};
pub use crate::{Error, ErrorKind, List, MAX_DEPTH};
pub use alloc::vec::Vec;
pub use core::fmt::{Debug, Formatter, Result as FmtResult};
pub use core::marker::PhantomData;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};

use crate::primitives_le::{read_u16, read_u32, write_u16, write_u32};

/// Where a message's block is, as validation found it (FORMAT.md §2, §3, §5).
#[derive(Debug, Clone, Copy)]
pub struct Block<'v, const MIN: usize> {
    /// The bytes every version has (the fields of version 1).
    pub min: &'v [u8; MIN],
    /// The end of the block bytes this reader knows: `min(block length, BLOCK_LENGTH)`.
    pub known_end: usize,
    /// Where the tail starts: the block length on the wire.
    pub tail_start: usize,
}

/// The block of a message (FORMAT.md §2, §3): at least `MIN` bytes (the fields of
/// version 1); a fixed-size message's block length is its byte count, up to
/// `block_length` (bytes past it belong to a newer version).
#[inline(always)]
pub fn message_block<'v, const MIN: usize, M: Mode>(
    bytes: &'v [u8],
    has_tail: bool,
    block_length: usize,
    mode: &M,
    depth: u32,
) -> Result<Block<'v, MIN>, Error> {
    if M::CHECKED && depth > MAX_DEPTH {
        return Err(Error::new(
            ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH },
            0,
        ));
    }
    let declared = if has_tail {
        let declared = match read_u16(bytes, 0) {
            Some(n) => usize::from(n),
            None if M::CHECKED => {
                return Err(truncated(2, bytes.len()));
            }
            None => block_length,
        };
        if M::CHECKED && declared < MIN {
            return Err(Error::new(
                ErrorKind::BlockLengthTooSmall {
                    declared,
                    required: MIN,
                },
                0,
            ));
        }
        if M::CHECKED && declared > bytes.len() {
            return Err(truncated(declared, bytes.len()));
        }
        declared
    } else {
        bytes.len().min(block_length)
    };
    match mode.array::<MIN>(crate::mode::sealed::INTERNAL, bytes) {
        Some(min) => Ok(Block {
            min,
            known_end: declared.min(block_length),
            tail_start: declared,
        }),
        None => Err(truncated(MIN, bytes.len())),
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

/// Validates field `F` added in a later version (`since` > 1): absent (`None`) when
/// the block on the wire ends before it (an older writer); an error when the block
/// ends inside it (FORMAT.md §5).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn field_since<'v, F: Field, M: Mode>(
    msg: &'v [u8],
    known_end: usize,
    off: usize,
    prev_end: &mut usize,
    mode: &M,
    depth: u32,
    name: &'static str,
) -> Result<Option<F::Stored<'v>>, Error> {
    let end = off + F::BLOCK_SIZE;
    if end <= known_end {
        let block = msg.get(..known_end).unwrap_or_default();
        field::<F, M>(block, off, msg, prev_end, mode, depth, name).map(Some)
    } else if M::CHECKED && off < known_end {
        Err(Error::new(
            ErrorKind::BlockLengthTooSmall {
                declared: known_end,
                required: end,
            },
            0,
        )
        .in_field(name))
    } else {
        Ok(None)
    }
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

/// The bytes of a nested message field, for its mutable view: its block part (a
/// fixed-size message, inline) or its tail region. `None` when the field is absent
/// (added in a version newer than the writer's).
#[inline(always)]
pub fn nested_mut<'m, F: Field>(
    block: &'m mut [u8],
    rest: &'m mut [u8],
    known_end: usize,
    off: usize,
    region: (usize, usize),
) -> Option<&'m mut [u8]> {
    let min = block.len();
    if off + F::BLOCK_SIZE > known_end {
        return None;
    }
    if F::IN_TAIL {
        region_of(rest, region, min)
    } else if off < min {
        block.get_mut(off..off + F::BLOCK_SIZE)
    } else {
        rest.get_mut(off - min..off - min + F::BLOCK_SIZE)
    }
}

/// The bytes of a fixed-size field for a setter: in the version-1 block or after it;
/// `None` when absent.
#[inline(always)]
pub fn field_mut<'m>(
    block: &'m mut [u8],
    rest: &'m mut [u8],
    known_end: usize,
    off: usize,
    size: usize,
) -> Option<&'m mut [u8]> {
    let min = block.len();
    if off + size > known_end {
        None
    } else if off < min {
        block.get_mut(off..off + size)
    } else {
        rest.get_mut(off - min..off - min + size)
    }
}

/// The mutable view of a list field's tail region (`rest` starts at offset `base`).
#[inline(always)]
pub fn list_mut<T: Element>(
    rest: &mut [u8],
    region: (usize, usize),
    base: usize,
) -> ListMut<'_, T> {
    ListMut::from_validated(region_of(rest, region, base).unwrap_or_default())
}

fn region_of(rest: &mut [u8], (start, end): (usize, usize), base: usize) -> Option<&mut [u8]> {
    rest.get_mut(start.checked_sub(base)?..end.checked_sub(base)?)
}

/// Start and end (offsets in the message) of the tail region of field `index`, given
/// the end-offset slot of every field that has one (`None` for fixed-size fields).
/// Slots at or past `known_end` belong to fields the writer did not know.
#[inline(always)]
pub fn tail_region(
    block: &[u8],
    rest: &[u8],
    known_end: usize,
    tail_start: usize,
    end_slots: &[Option<usize>],
    index: usize,
) -> (usize, usize) {
    let min = block.len();
    let read = |slot: usize| {
        let value = if slot < min {
            read_u32(block, slot)
        } else {
            read_u32(rest, slot - min)
        };
        value.map_or(0, |n| n as usize)
    };
    let present = |slot: &Option<usize>| slot.filter(|s| s + 4 <= known_end);
    let start = end_slots
        .get(..index)
        .unwrap_or_default()
        .iter()
        .rev()
        .find_map(present)
        .map_or(tail_start, read);
    let end = end_slots.get(index).and_then(present).map_or(start, read);
    (start, end)
}

/// Splits a message that passed `view` for its mutable view: the version-1 block,
/// the bytes after it, the end of the known block, and where the tail starts.
#[inline(always)]
pub fn split_mut<const MIN: usize>(
    bytes: &mut [u8],
    has_tail: bool,
    block_length: usize,
) -> Option<(&mut [u8; MIN], &mut [u8], usize, usize)> {
    let declared = if has_tail {
        usize::from(read_u16(bytes, 0)?)
    } else {
        bytes.len().min(block_length)
    };
    let (block, rest) = bytes.split_at_mut_checked(MIN)?;
    Some((
        block.try_into().ok()?,
        rest,
        declared.min(block_length),
        declared,
    ))
}

/// `Default` with a lifetime, so that a bound on it is decided where it is used (the
/// decoding of a field added in a later version needs its type's `Default`).
pub trait DefaultFor<'v>: Default {}

impl<T: Default> DefaultFor<'_> for T {}

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

    /// The mutable view over a nested message's bytes (see [`nested_mut`]).
    fn mut_of(bytes: &mut [u8]) -> Option<Self::Mut<'_>>;
}

impl<T: WireMsg> MsgField<'_> for T {
    type Mut<'m>
        = T::Mut<'m>
    where
        Self: 'm;

    #[inline(always)]
    fn mut_of(bytes: &mut [u8]) -> Option<T::Mut<'_>> {
        T::__mut(bytes)
    }
}
