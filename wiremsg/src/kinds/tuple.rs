//! Tuples `(T0, T1, ..)` of field types (up to 12 elements): laid out exactly as a
//! message of version 1 whose fields are the elements, in order (FORMAT.md §4.11).
//!
//! A tuple of fixed-size elements is their slots back to back, inline like a
//! fixed-size message (§4.7); a tuple with an element that has tail data nests in the
//! tail like a message with a tail: its own `u16` block length, the elements' slots,
//! then their tail data. Validation is the message's (`validated::validate_block`,
//! over the same type-level field list), so the two cannot disagree; its error paths
//! name elements by index (`pos.1`). The view is a Rust tuple of the elements' views,
//! each read in O(1) by the offsets validation walked.

use crate::field::{DecodeField, Field, Kind, ViewOf, list_element};
use crate::kind::Tup;
use crate::layout::{Leaf, Pair};
use crate::validated::nested_depth;
use crate::{Error, Node, TypeSchema};
use alloc::borrow::Cow;

pub(crate) use crate::trust::shape::tuple::ELEMENT_NAMES;
use crate::trust::shape::tuple::{block_len, fields, prefix};

/// Writes the elements of a tuple: `out` is the tuple's encoding (its region, for a
/// tuple with a tail, or its block bytes), exactly as long as the tuple encodes to.
/// `write` writes element `i` at block offset `off` (the cursor's bookkeeping is
/// that of a message's writer, `__private::write_field`).
pub(crate) struct Writer<'o> {
    block: &'o mut [u8],
    tail: &'o mut [u8],
    off: usize,
    cursor: usize,
    block_len: usize,
}

impl<'o> Writer<'o> {
    pub(crate) fn new(out: &'o mut [u8], block_len: usize, prefixed: bool) -> Self {
        let (block, tail) = crate::__private::split_message(out, block_len, prefixed);
        Writer {
            block,
            tail,
            off: if prefixed { 2 } else { 0 },
            cursor: 0,
            block_len,
        }
    }

    #[inline(always)]
    pub(crate) fn write<F: Field>(&mut self, value: &F) {
        crate::__private::write_field(
            value,
            self.block,
            self.off,
            self.tail,
            &mut self.cursor,
            self.block_len,
        );
        self.off += <F::Kind as Kind>::BLOCK_SIZE;
    }
}

macro_rules! tuple {
    ($len:literal: $($T:ident $i:tt),+) => {
        impl<$($T: Field),+> Field for ($($T,)+) {
            type Kind = Tup<($($T,)+)>;
            const TYPE: &'static TypeSchema =
                &TypeSchema::Tuple(Cow::Borrowed(&[$(Node::Static($T::TYPE)),+]));
            const __NAME_TYPE: &'static TypeSchema =
                &TypeSchema::Tuple(Cow::Borrowed(&[$(Node::Static($T::__NAME_TYPE)),+]));

            #[inline]
            fn tail_len(&self) -> usize {
                // Its block fits its `u16` block length: the assertion in `BLOCK_SIZE`,
                // here for a tuple the message's own assertions do not reach.
                const {
                    let _ = <Self::Kind as Kind>::BLOCK_SIZE;
                };
                if !<Self::Kind as Kind>::IN_TAIL {
                    return 0;
                }
                // Saturating, as every size sum: `encode` refuses a sum past `u32::MAX`.
                block_len::<fields!($($T),+)>()
                    $(.saturating_add(self.$i.tail_len()))+
            }

            #[inline]
            fn check_value(&self, depth: u32) -> Result<(), Error> {
                // In the tail, a tuple is a nesting level, as validation counts it.
                let depth = nested_depth(<Self::Kind as Kind>::IN_TAIL, depth)?;
                let mut _off = prefix::<fields!($($T),+)>();
                $(
                    self.$i
                        .check_value(depth)
                        .map_err(|e| e.shift(_off).in_field(ELEMENT_NAMES[$i]))?;
                    _off += <$T::Kind as Kind>::BLOCK_SIZE;
                )+
                Ok(())
            }

            #[inline]
            fn write(&self, block: &mut [u8], tail: &mut [u8]) {
                let in_tail = <Self::Kind as Kind>::IN_TAIL;
                let out = if in_tail { tail } else { block };
                let mut writer = Writer::new(out, block_len::<fields!($($T),+)>(), in_tail);
                $(writer.write(&self.$i);)+
            }

            #[inline]
            fn append_split(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>) {
                let block_len = block_len::<fields!($($T),+)>();
                crate::primitives_le::write_u16(block, 0, block_len as u16);
                let mut _off = 2;
                $(
                    crate::__private::append_field(&self.$i, block, _off, tail, block_len);
                    _off += <$T::Kind as Kind>::BLOCK_SIZE;
                )+
            }
        }

        impl<'v, $($T: DecodeField<'v>),+> DecodeField<'v> for ($($T,)+) {
            #[inline]
            fn decode_view(view: ViewOf<'v, Self>) -> Self {
                ($($T::decode_view(view.$i),)+)
            }

            #[inline]
            fn decoded_size(view: ViewOf<'v, Self>) -> usize {
                0usize $(.saturating_add($T::decoded_size(view.$i)))+
            }
        }

        list_element!([impl<$($T: Field),+> crate::field::Element for ($($T,)+)]);
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
