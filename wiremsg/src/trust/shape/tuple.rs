//! Tuples (FORMAT.md §4.11): laid out exactly as a message of version 1 whose
//! fields are the elements, and validated by the message's walk over the same
//! type-level field list; the view reads each element at the offsets that walk
//! checked, in the same order.

use crate::field::{Field, FixedKind, Scalar, SetInPlace, ViewOf};
use crate::kind::Tup;
use crate::layout::{FieldList, Leaf, Pair};
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::primitives_le::{read_u16, read_u32};
use crate::trust::shape::Kind;
use crate::validated::validate_block;
use crate::{Error, ListEncoding, Mode};

/// The names of a tuple's elements in error paths (`pos.1`) and schemas.
pub(crate) const ELEMENT_NAMES: &[&str] =
    &["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"];

/// Bytes before a tuple's first element: its `u16` block length if it has a tail.
pub(crate) const fn prefix<F: FieldList>() -> usize {
    if F::IN_TAIL { 2 } else { 0 }
}

/// The tuple's block length: its block length field, if any, and its elements' slots.
pub(crate) const fn block_len<F: FieldList>() -> usize {
    prefix::<F>() + F::SIZE
}

/// Validates a tuple with fields `F` at `place` as the message it is laid out as: in
/// its tail region with a block length (one level of nesting, as a message with a
/// tail counts), or inline in its block bytes.
#[inline]
fn validate<F: FieldList, M: Mode>(place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
    if F::IN_TAIL {
        validate_block::<F, M>(
            place.region,
            true,
            block_len::<F>(),
            ELEMENT_NAMES,
            mode,
            depth + 1,
        )
        .map_err(|e| e.shift(place.region_at))
    } else {
        validate_block::<F, M>(place.block, false, F::SIZE, ELEMENT_NAMES, mode, depth)
            .map_err(|e| e.shift(place.block_at))
    }
}

/// Reads the elements of a validated tuple one after another, at the offsets that
/// validation walked: each element's slot follows the previous one's, and each tail
/// region starts where the previous one ended (at the block length for the first).
struct Cursor<'v> {
    /// The tuple's block.
    block: &'v [u8],
    /// The bytes its end offsets count in (the tuple's own, or for an element of a
    /// split list the list's from its origin, FORMAT.md §6.3).
    tail: &'v [u8],
    off: usize,
    prev_end: usize,
}

impl<'v> Cursor<'v> {
    /// The cursor at the first element of a tuple whose bytes (its region, or its
    /// block bytes) are `bytes`.
    #[inline(always)]
    fn new(bytes: &'v [u8], prefixed: bool) -> Self {
        if prefixed {
            let declared = read_u16(bytes, 0).map_or(0, usize::from);
            Cursor {
                block: bytes,
                tail: bytes,
                off: 2,
                prev_end: declared,
            }
        } else {
            Cursor {
                block: bytes,
                tail: bytes,
                off: 0,
                prev_end: 0,
            }
        }
    }

    /// The cursor at the first element of a tuple that is an element of a split list:
    /// its block, and the bytes from its origin to its last end offset.
    #[inline(always)]
    fn split(block: &'v [u8], tail: &'v [u8]) -> Self {
        Cursor {
            block,
            tail,
            off: 2,
            prev_end: read_u16(block, 0).map_or(0, usize::from),
        }
    }

    /// The view of the next element, of kind `K`.
    ///
    /// # Safety
    ///
    /// The bytes passed validation as a tuple whose next element is of kind `K`, and
    /// the elements before it were read through this cursor.
    #[inline(always)]
    unsafe fn next<K: Kind>(&mut self) -> K::View<'v> {
        let size = K::BLOCK_SIZE;
        let block = self
            .block
            .get(self.off..self.off + size)
            .unwrap_or_default();
        let region = if K::IN_TAIL {
            let end = read_u32(block, size - 4).map_or(0, |end| end as usize);
            let region = self.tail.get(self.prev_end..end).unwrap_or_default();
            self.prev_end = end;
            region
        } else {
            &[]
        };
        self.off += size;
        // SAFETY: validation (`validate_block` over the tuple's field list) walked the
        // elements in this order with these same offsets, found every element's slot
        // inside the block (a tuple has no absent elements: its block must be whole)
        // and its region inside the tuple, and accepted the element at exactly these
        // block bytes and region.
        unsafe { K::read(INTERNAL, block, region) }
    }
}

/// Tuples up to this many block bytes are staged on the stack to be set in place.
const STAGE_LEN: usize = 256;

/// Writes a fixed-size tuple in place through `write`, which writes every element
/// into the staging copy and says whether each one wrote: the block changes only if
/// all did (an element that is a hand-made message may refuse its own encoding).
fn set_staged(block: &mut [u8], len: usize, write: impl FnOnce(&mut [u8]) -> bool) -> bool {
    let Some(block) = block.get_mut(..len) else {
        return false;
    };
    let mut stack = [0u8; STAGE_LEN];
    let mut heap = alloc::vec::Vec::new();
    let stage = if len <= STAGE_LEN {
        &mut stack[..len]
    } else {
        heap.resize(len, 0);
        &mut heap[..]
    };
    stage.copy_from_slice(block);
    if !write(stage) {
        return false;
    }
    block.copy_from_slice(stage);
    true
}

/// The type-level field list of a tuple's element types: a chain of pairs.
macro_rules! fields {
    ($T:ident) => { Leaf<$T, 1> };
    ($T:ident, $($rest:ident),+) => { Pair<Leaf<$T, 1>, fields!($($rest),+)> };
}

pub(crate) use fields;

macro_rules! tuple {
    ($len:literal: $($T:ident $i:tt),+) => {
        impl<$($T: Field),+> Sealed for Tup<($($T,)+)> {}

        /// A tuple of this arity, laid out as a message of version 1 whose fields are
        /// its elements (FORMAT.md §4.11).
        impl<$($T: Field),+> Kind for Tup<($($T,)+)> {
            const BLOCK_SIZE: usize = {
                // Inline blocks are frozen (FORMAT.md §4.7): an element's block cannot
                // grow in a later version, since the tuple's elements sit inline in it.
                assert!(
                    !(false $(|| <$T::Kind as Kind>::EVOLVES)+),
                    "wiremsg: a tuple's elements are inline in its block, which is frozen: a fixed-size message with fields added in later versions cannot be a tuple element"
                );
                // Laid out as a message, with a `u16` block length when it has a tail;
                // a fixed-size tuple's block is a list's or map's `u16` stride.
                assert!(
                    block_len::<fields!($($T),+)>() <= 65535,
                    "wiremsg: a tuple's block is longer than 65535 bytes (its u16 block length or stride); move large arrays into a `Vec`"
                );
                if <Self as Kind>::IN_TAIL {
                    4
                } else {
                    <fields!($($T),+) as FieldList>::SIZE
                }
            };
            const IN_TAIL: bool = <fields!($($T),+) as FieldList>::IN_TAIL;
            const CHECKS: bool =
                <Self as Kind>::IN_TAIL || <fields!($($T),+) as FieldList>::CHECKS;
            const BYTE_CHECK: crate::trust::shape::ByteCheck = if <Self as Kind>::IN_TAIL {
                crate::trust::shape::ByteCheck::Other
            } else {
                <fields!($($T),+) as FieldList>::BYTE_CHECK
            };
            const EVOLVES: bool = false;
            const LIST_ENCODING: ListEncoding = if <Self as Kind>::IN_TAIL {
                ListEncoding::Split
            } else {
                ListEncoding::Strided
            };
            const MIN_ELEMENT_SIZE: usize = if <Self as Kind>::IN_TAIL {
                4
            } else {
                <fields!($($T),+) as FieldList>::SIZE
            };
            // As a message with a tail: its end offsets say where its data ends.
            const SELF_DELIMITED: bool = <Self as Kind>::IN_TAIL;
            const SPLIT_BLOCK: usize = block_len::<fields!($($T),+)>();
            const MIN_SPLIT_BLOCK: usize = block_len::<fields!($($T),+)>();
            type Reads = Tup<($(<$T::Kind as Kind>::Reads,)+)>;
            type View<'v> = ($(ViewOf<'v, $T>,)+);
            crate::trust::shape::eager_lazy!();

            #[inline]
            fn lazy_split<'v>(
                i: Internal,
                block: &'v [u8],
                list: &'v [u8],
                index: usize,
                count: usize,
                _: &crate::lazy::Root<'v>,
                depth: u32,
            ) -> Result<Self::View<'v>, Error> {
                crate::lazy::eager_split_element::<Self>(i, block, list, index, count, depth)
            }

            #[inline]
            fn validate_split<M: Mode>(
                _: Internal,
                block: &[u8],
                block_at: usize,
                origin: &[u8],
                mode: &M,
                depth: u32,
            ) -> Result<(), Error> {
                // A tuple has no versions: its block is whole (the list checked that
                // every element's block length is the first's; this, the reader's).
                let full = block_len::<fields!($($T),+)>();
                if block.len() < full {
                    return Err(crate::validated::block_length_too_small(block.len(), full, 1)
                        .shift(block_at));
                }
                crate::validated::validate_split_block::<fields!($($T),+), M>(
                    block, block_at, origin, ELEMENT_NAMES, mode, depth + 1,
                )
            }

            #[inline(always)]
            unsafe fn read_split<'v>(
                _: Internal,
                block: core::ptr::NonNull<u8>,
                origin: core::ptr::NonNull<u8>,
            ) -> Self::View<'v> {
                // SAFETY: validation accepted the element with this block (at least
                // the tuple's block length, which a tuple always has: no absent
                // elements) and origin: its regions, up to the last end offset in its
                // block, lie in the bytes after `origin`, borrowed for `'v`.
                unsafe {
                    let len = block_len::<fields!($($T),+)>();
                    let block = core::slice::from_raw_parts(block.as_ptr(), len);
                    let last = match <fields!($($T),+) as FieldList>::LAST_END {
                        Some(slot) => read_u32(block, 2 + slot).map_or(0, |n| n as usize),
                        None => 0,
                    };
                    let tail = core::slice::from_raw_parts(origin.as_ptr(), last);
                    let mut cursor = Cursor::split(block, tail);
                    ($(cursor.next::<$T::Kind>(),)+)
                }
            }

            #[inline]
            fn validate<M: Mode>(
                _: Internal,
                place: Place<'_>,
                mode: &M,
                depth: u32,
            ) -> Result<(), Error> {
                validate::<fields!($($T),+), M>(place, mode, depth)
            }

            /// The elements' block bytes back to back, for a fixed-size tuple whose
            /// elements all have a byte form.
            fn default_bytes(
                i: Internal,
                view: Self::View<'_>,
            ) -> Option<alloc::vec::Vec<u8>> {
                if <Self as Kind>::IN_TAIL {
                    return None;
                }
                let mut out = alloc::vec::Vec::new();
                $(out.extend(<$T::Kind as Kind>::default_bytes(i, view.$i)?);)+
                Some(out)
            }

            /// A tuple of its elements (a JSON array).
            #[cfg(feature = "serde")]
            fn serialize_view<'v, S: serde::Serializer>(
                _: Internal,
                view: Self::View<'v>,
                s: S,
            ) -> Result<S::Ok, S::Error>
            where
                Self: 'v,
            {
                use serde::ser::SerializeTuple;
                let mut out = s.serialize_tuple($len)?;
                $(out.serialize_element(&crate::serde_view::SerializeView::<$T::Kind>(view.$i))?;)+
                out.end()
            }

            #[inline(always)]
            unsafe fn read<'v>(_: Internal, block: &'v [u8], region: &'v [u8]) -> Self::View<'v> {
                let in_tail = <Self as Kind>::IN_TAIL;
                let mut cursor = Cursor::new(if in_tail { region } else { block }, in_tail);
                // SAFETY: the caller promises validation accepted exactly these bytes as
                // this tuple, which it validated element by element in this order.
                unsafe { ($(cursor.next::<$T::Kind>(),)+) }
            }

            #[inline]
            fn view_eq<'v>(i: Internal, a: Self::View<'v>, b: Self::View<'v>) -> bool
            where
                Self: 'v,
            {
                true $(&& <$T::Kind as Kind>::view_eq(i, a.$i, b.$i))+
            }
        }

        /// A tuple of fixed-size elements is set in place as a whole; nothing is
        /// written unless every element is.
        impl<'v, $($T: Scalar<'v>),+> SetInPlace<'v, ($($T,)+)> for Tup<($($T,)+)> {
            #[inline]
            fn set(i: Internal, value: &($($T,)+), block: &mut [u8]) -> bool {
                set_staged(block, <Self as Kind>::BLOCK_SIZE, |stage| {
                    let mut all = true;
                    let mut _off = 0;
                    $(
                        let size = <$T::Kind as Kind>::BLOCK_SIZE;
                        all &= match stage.get_mut(_off.._off + size) {
                            Some(part) => value.$i.write_scalar(i, part),
                            None => false,
                        };
                        _off += size;
                    )+
                    all
                })
            }
        }

        impl<$($T: Field),+> FixedKind for Tup<($($T,)+)> where $($T::Kind: FixedKind),+ {}

    };
}

tuple!(1: A 0);
tuple!(2: A 0, B 1);
tuple!(3: A 0, B 1, C 2);
tuple!(4: A 0, B 1, C 2, D 3);
tuple!(5: A 0, B 1, C 2, D 3, E 4);
tuple!(6: A 0, B 1, C 2, D 3, E 4, F 5);
tuple!(7: A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple!(8: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);
tuple!(9: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8);
tuple!(10: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9);
tuple!(11: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10);
tuple!(12: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7, I 8, J 9, K 10, L 11);
