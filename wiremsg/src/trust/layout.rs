//! A message's layout as types: the list of its field types, from which this crate
//! alone computes every offset, validates, and reads (FORMAT.md §2, §3, §5).
//!
//! The derive names a message's fields as a balanced type-level tree
//! (`Pair<Leaf<u64>, Leaf<String>>`) and each accessor as a type-level path into it
//! (`Right<Here>`). Validation walks the list; an accessor finds its field's type,
//! offset and tail region from the same list and index. Since both come from one
//! type, what a read relies on is exactly what validation checked: no code outside
//! this crate can make them disagree (the traits are sealed).

use crate::field::{Field, FixedKind, Kind};
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::primitives_le::read_u32;
use crate::trust::shape::ByteCheck;
use crate::trust::shape::byte_check::byte_check;
use crate::validated::{bad_end_offset, block_length_too_small};
use crate::{Error, Mode};
use core::marker::PhantomData;

/// The layout of a message type: implemented by `#[derive(WireMsg)]` on the type with
/// its lifetimes set to `'static` (proofs of validation are keyed by it).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a wiremsg message",
    label = "not a message",
    note = "add `#[derive(WireMsg)]` to the struct `{Self}`"
)]
#[doc(hidden)]
pub trait Layout: 'static {
    /// The field types in wire order, as a tree of [`Pair`]s and [`Leaf`]s.
    type Fields: FieldList;
    /// The field names in wire order, for error paths.
    const FIELD_NAMES: &'static [&'static str];
    /// [`Yes`] if the message starts with its `u16` block length although no field
    /// has tail data (`#[wire(block_length)]`), so that later versions can add such
    /// fields; else [`No`].
    type BlockLengthField: Prefixed<Self::Fields>;
    /// The value of [`BlockLengthField`](Self::BlockLengthField).
    const BLOCK_LENGTH_FIELD: bool = <Self::BlockLengthField as Flag>::VALUE;
}

/// A yes or no known to the type system: [`Yes`] or [`No`].
pub trait Flag: Sealed {
    /// The flag as a value.
    const VALUE: bool;
}

/// The flag that is set.
#[derive(Debug)]
pub struct Yes;

/// The flag that is not set.
#[derive(Debug)]
pub struct No;

impl Sealed for Yes {}
impl Sealed for No {}

impl Flag for Yes {
    const VALUE: bool = true;
}

impl Flag for No {
    const VALUE: bool = false;
}

/// What a message's [`Layout::BlockLengthField`] decides about its shape as a field,
/// given its field list `F`. [`Yes`] decides alone: the message has a block length
/// field and nests in the tail, and none of these constants mentions `F`, so a
/// message that holds itself (whose fields' sizes depend on its own) has its shape
/// without asking them. [`No`] asks the fields.
pub trait Prefixed<F: FieldList>: Flag {
    /// True if the message starts with its `u16` block length.
    const HAS_BLOCK_LENGTH: bool;
    /// Bytes the message takes in the block that holds it: its block when inline,
    /// else its slot (an end offset).
    const SLOT_SIZE: usize;
    /// The smallest stride of a strided list of it, or its slot.
    const MIN_SLOT_SIZE: usize;
    /// True if its bytes need checking (anything with a tail does).
    const CHECKS: bool;
    /// Its [`Kind::BYTE_CHECK`](crate::Kind): its fields', where it has no tail.
    const BYTE_CHECK: ByteCheck;
    /// True if it is inline and its block grows in later versions.
    const EVOLVES: bool;
}

impl<F: FieldList> Prefixed<F> for Yes {
    const HAS_BLOCK_LENGTH: bool = true;
    const SLOT_SIZE: usize = 4;
    const MIN_SLOT_SIZE: usize = 4;
    const CHECKS: bool = true;
    const BYTE_CHECK: ByteCheck = ByteCheck::Other;
    const EVOLVES: bool = false;
}

impl<F: FieldList> Prefixed<F> for No {
    const HAS_BLOCK_LENGTH: bool = F::IN_TAIL;
    const SLOT_SIZE: usize = if F::IN_TAIL { 4 } else { F::SIZE };
    const MIN_SLOT_SIZE: usize = if F::IN_TAIL { 4 } else { F::MIN_SIZE };
    const CHECKS: bool = F::IN_TAIL || F::CHECKS;
    const BYTE_CHECK: ByteCheck = if F::IN_TAIL {
        ByteCheck::Other
    } else {
        F::BYTE_CHECK
    };
    const EVOLVES: bool = !F::IN_TAIL && F::MIN_SIZE != F::SIZE;
}

/// A field list whose fields are all fixed-size and inline ([`FixedKind`]).
pub trait AllFixed: FieldList {}

impl AllFixed for Nil {}

impl<F: Field, const SINCE: u16> AllFixed for Leaf<F, SINCE> where F::Kind: FixedKind {}

impl<A: AllFixed, B: AllFixed> AllFixed for Pair<A, B> {}

/// The layout of a message without tail data and without a block length field: its
/// encoding is its block, which nests inline and can be set in place as a whole.
pub trait FixedLayout: Layout {}

impl<L: Layout> FixedLayout for L
where
    L::Fields: AllFixed,
    L::BlockLengthField: Inline,
{
}

/// The [`Layout::BlockLengthField`] of a message that nests inline: [`No`].
#[diagnostic::on_unimplemented(
    message = "a message with `#[wire(block_length)]` nests in the tail, so it cannot be set in place as a whole",
    note = "set its fields one by one through the `<field>_mut()` accessor"
)]
pub trait Inline: Flag {}

impl Inline for No {}

/// A message without fields.
#[derive(Debug)]
pub struct Nil;

/// One field of type `F`, added in version `SINCE`.
#[derive(Debug)]
pub struct Leaf<F, const SINCE: u16 = 1>(crate::kind::Invariant<F>);

/// The fields of `A`, then those of `B`. The derive builds a balanced tree of pairs,
/// so that the compiler's work per field grows with the logarithm of the number of
/// fields, not with the number.
#[derive(Debug)]
pub struct Pair<A, B>(crate::kind::Invariant<(A, B)>);

/// The index of a [`Leaf`]'s field.
#[derive(Debug)]
pub struct Here;

/// An index into the first half `A` of a [`Pair`].
#[derive(Debug)]
pub struct Left<I>(crate::kind::Invariant<I>);

/// An index into the second half `B` of a [`Pair`].
#[derive(Debug)]
pub struct Right<I>(crate::kind::Invariant<I>);

/// What validation of one message carries from field to field.
#[derive(Debug)]
pub struct Walk<'v> {
    /// The message's block (its block length field, if any, and the slots).
    pub(crate) block: &'v [u8],
    /// Where `block` is, from the start of `bytes` (wrapping: an element of a split
    /// list, FORMAT.md §6.3, has its block before its tail's origin), for errors.
    pub(crate) block_at: usize,
    /// The bytes the end offsets count in: the whole message (for a root message,
    /// the whole buffer), or for an element of a split list the list from its origin.
    pub(crate) bytes: &'v [u8],
    /// The end of the block bytes this reader knows: `min(block length, its own)`.
    pub(crate) known_end: usize,
    /// Where the next tail region starts.
    pub(crate) prev_end: usize,
    pub(crate) names: &'static [&'static str],
}

/// A type-level tree of field types (sealed: [`Leaf`], [`Pair`] and [`Nil`] only).
pub trait FieldList: Sealed {
    /// Number of fields.
    const COUNT: usize;
    /// Bytes of the fields' slots.
    const SIZE: usize;
    /// Bytes of the slots of the leading fields of version 1: what every block holds.
    const MIN_SIZE: usize;
    /// True if any field has tail data.
    const IN_TAIL: bool;
    /// True if any field's bytes need checking.
    const CHECKS: bool;
    /// What decides the fields' block, of fixed-size fields, once another block of
    /// its length passed ([`ByteCheck`], offsets from the first field's slot).
    const BYTE_CHECK: ByteCheck;
    /// Offset (from the start of the list) of the last tail field's end-offset slot.
    const LAST_END: Option<usize>;
    /// Index (from the start of the list) of the last tail field, whose slot is
    /// [`LAST_END`](Self::LAST_END).
    const LAST_INDEX: Option<usize>;
    /// True if every field with tail data keeps only text there ([`Kind::TAIL_TEXT`]).
    const TAIL_TEXT: bool;
    /// True if no field keeps text in the tail ([`Kind::TAIL_TEXTLESS`]).
    const TAIL_TEXTLESS: bool;

    /// Validates the fields from block offset `off` on; `index` is the first one's.
    #[doc(hidden)]
    fn validate<M: Mode>(
        _: Internal,
        walk: &mut Walk<'_>,
        off: usize,
        index: usize,
        mode: &M,
        depth: u32,
    ) -> Result<(), Error>;

    /// Finds the on-demand view `target` in the field from `off` on (index `index`
    /// on) whose slot or region holds it, pushing its name and the steps inside it;
    /// `None` if no field holds it (`lazy.rs`).
    #[doc(hidden)]
    fn locate(
        _: Internal,
        walk: &mut Walk<'_>,
        off: usize,
        index: usize,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> Option<bool>;

    /// The end offset of the last tail region among the fields from `off` on whose
    /// slots lie before `known_end`, or `last` if there is none.
    #[doc(hidden)]
    fn last_end(_: Internal, bytes: &[u8], off: usize, known_end: usize, last: usize) -> usize;

    /// Bytes of the slots of the fields of versions up to `version`.
    #[doc(hidden)]
    fn size_until(_: Internal, version: u16) -> usize;

    /// Hands `visit` the position of each field from `at` on, in wire order, and
    /// moves `at` past them ([`visit_fields`]).
    ///
    /// # Safety
    ///
    /// `Self` is the part of `L::Fields` whose first field `at` points to:
    /// `L::Fields` itself from [`Cursor::default`], or the second half of a [`Pair`]
    /// after its first. (A [`FieldPos`] made otherwise would read the wrong bytes.)
    #[doc(hidden)]
    unsafe fn visit<L: Layout, V: Visit<L>>(_: Internal, at: &mut Cursor, visit: &mut V)
    where
        Self: 'static;
}

/// Where [`FieldList::visit`] is in a field list: the next field's slot offset from
/// the start of the list, its index, and the last tail field before it (its index
/// and end-offset slot).
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Cursor {
    off: usize,
    index: usize,
    prev: Option<(usize, usize)>,
}

/// Where field `F` of layout `L` is: what [`At`] says of it, found by a walk of the
/// layout's fields ([`visit_fields`]) rather than a path. Only that walk makes one,
/// so that the readers given one (`Validated::field`, `LazyMsg::field`) read exactly
/// the bytes validation checked for `F`. Invariant in `L` and `F`, as every type that
/// carries a proof (`tests/variance.rs`).
#[doc(hidden)]
pub struct FieldPos<L, F> {
    /// Offset of the slot from the start of the message (`offset`).
    pub(crate) off: usize,
    /// Index in the field list (`At::INDEX`).
    pub(crate) index: usize,
    /// The version that added the field (`At::SINCE`).
    pub(crate) since: u16,
    /// Index and end-offset slot (from the start of the list) of the last tail field
    /// before it (`At::PREV_INDEX`, `At::PREV_END`).
    pub(crate) prev: Option<(usize, usize)>,
    _field: crate::kind::Invariant<(L, F)>,
}

impl<L, F> Clone for FieldPos<L, F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L, F> Copy for FieldPos<L, F> {}

impl<L, F> core::fmt::Debug for FieldPos<L, F> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("FieldPos")
            .field("off", &self.off)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl<L, F> FieldPos<L, F> {
    /// The field's index in the field list (its name's in `Layout::FIELD_NAMES`).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The schema version that added the field.
    pub fn since(&self) -> u16 {
        self.since
    }
}

/// What [`visit_fields`] hands the position of each field of layout `L` to.
#[doc(hidden)]
pub trait Visit<L> {
    /// Field `F`, at `pos`.
    fn field<F: Field + 'static>(&mut self, pos: FieldPos<L, F>);
}

/// Hands `visit` the position of each field of layout `L`, in wire order: one generic
/// walk for what goes over every field of any message (the views' `Debug` and
/// `PartialEq`), rather than a body per message in every crate that derives them.
pub(crate) fn visit_fields<L: Layout, V: Visit<L>>(visit: &mut V) {
    // SAFETY: `L::Fields` from its first field.
    unsafe { L::Fields::visit::<L, V>(INTERNAL, &mut Cursor::default(), visit) }
}

impl Sealed for Nil {}

impl FieldList for Nil {
    const COUNT: usize = 0;
    const SIZE: usize = 0;
    const MIN_SIZE: usize = 0;
    const IN_TAIL: bool = false;
    const CHECKS: bool = false;
    const BYTE_CHECK: ByteCheck = ByteCheck::Free;
    const LAST_END: Option<usize> = None;
    const LAST_INDEX: Option<usize> = None;
    const TAIL_TEXT: bool = true;
    const TAIL_TEXTLESS: bool = true;

    #[inline(always)]
    fn validate<M: Mode>(
        _: Internal,
        _: &mut Walk<'_>,
        _: usize,
        _: usize,
        _: &M,
        _: u32,
    ) -> Result<(), Error> {
        Ok(())
    }

    fn locate(
        _: Internal,
        _: &mut Walk<'_>,
        _: usize,
        _: usize,
        _: &crate::lazy::Target,
        _: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> Option<bool> {
        None
    }

    #[inline(always)]
    fn last_end(_: Internal, _: &[u8], _: usize, _: usize, last: usize) -> usize {
        last
    }

    fn size_until(_: Internal, _: u16) -> usize {
        0
    }

    unsafe fn visit<L: Layout, V: Visit<L>>(_: Internal, _: &mut Cursor, _: &mut V) {}
}

/// Whether a list of `len` one-byte elements that ends at `end` in `message`, at most
/// 16 long, has no byte with a bit outside `bits`: one 16-byte load that ends where
/// the list ends, the bytes before it masked off, with no branch on `len`. A list's
/// length varies from message to message, and the branches of
/// [`bytes_within`](crate::scan::bytes_within) on it were most of `view` on the game
/// bench (0-16 `bool` flags per contact). False sends the list to its element-by-
/// element check, which also names a bad element.
#[inline(always)]
fn short_list_within(message: &[u8], end: usize, len: usize, bits: u8) -> bool {
    let window = message.get(..end).and_then(|m| m.last_chunk::<16>());
    match window {
        Some(window) if len <= 16 => crate::scan::last_within(window, len, bits),
        _ => false,
    }
}

impl<F: Field, const SINCE: u16> Sealed for Leaf<F, SINCE> {}

impl<F: Field, const SINCE: u16> FieldList for Leaf<F, SINCE> {
    const COUNT: usize = 1;
    const SIZE: usize = <F::Kind as Kind>::BLOCK_SIZE;
    const MIN_SIZE: usize = if SINCE <= 1 {
        <F::Kind as Kind>::BLOCK_SIZE
    } else {
        0
    };
    const IN_TAIL: bool = <F::Kind as Kind>::IN_TAIL;
    const CHECKS: bool = <F::Kind as Kind>::CHECKS;
    const BYTE_CHECK: ByteCheck = byte_check::<F::Kind>();
    const LAST_END: Option<usize> = if <F::Kind as Kind>::IN_TAIL {
        Some(<F::Kind as Kind>::BLOCK_SIZE - 4)
    } else {
        None
    };
    const LAST_INDEX: Option<usize> = if <F::Kind as Kind>::IN_TAIL {
        Some(0)
    } else {
        None
    };
    const TAIL_TEXT: bool = !<F::Kind as Kind>::IN_TAIL || <F::Kind as Kind>::TAIL_TEXT;
    const TAIL_TEXTLESS: bool = !<F::Kind as Kind>::IN_TAIL || <F::Kind as Kind>::TAIL_TEXTLESS;

    // Inlined into one routine per message in optimized builds; a plain hint in
    // unoptimized ones, which then keep one small frame per field instead of one
    // frame per message holding every field's locals: that bounds the stack deep
    // recursive messages need there.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn validate<M: Mode>(
        i: Internal,
        walk: &mut Walk<'_>,
        off: usize,
        index: usize,
        mode: &M,
        depth: u32,
    ) -> Result<(), Error> {
        let size = <F::Kind as Kind>::BLOCK_SIZE;
        let name = walk.names.get(index).copied().unwrap_or("?");
        let end = off + size;
        if end > walk.known_end {
            // A block that ends before a field leaves it (and every later one) absent;
            // one that ends inside it is no version's block (FORMAT.md §5).
            if off < walk.known_end {
                return Err(block_length_too_small(walk.known_end, end, SINCE)
                    .shift(walk.block_at)
                    .in_field(name));
            }
            return Ok(());
        }
        let block = walk.block.get(off..end).unwrap_or_default();
        let place = if <F::Kind as Kind>::IN_TAIL {
            let slot = end.saturating_sub(4);
            let region_end = read_u32(walk.block, slot).unwrap_or(0) as usize;
            let start = walk.prev_end;
            let Some(region) = walk.bytes.get(start..region_end) else {
                return Err(bad_end_offset(
                    region_end,
                    start,
                    walk.bytes.len(),
                    walk.block_at.wrapping_add(slot),
                    depth == 0,
                )
                .in_field(name));
            };
            walk.prev_end = region_end;
            if let Some(bits) = <F::Kind as Kind>::LIST_BYTE_BITS {
                if short_list_within(walk.bytes, region_end, region.len(), bits) {
                    return Ok(());
                }
            }
            Place {
                block,
                block_at: walk.block_at.wrapping_add(off),
                region,
                region_at: start,
            }
        } else {
            Place::block(block, walk.block_at.wrapping_add(off))
        };
        <F::Kind as Kind>::validate(i, place, mode, depth).map_err(|e| e.in_field(name))
    }

    fn locate(
        i: Internal,
        walk: &mut Walk<'_>,
        off: usize,
        index: usize,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> Option<bool> {
        let end = off + <F::Kind as Kind>::BLOCK_SIZE;
        if end > walk.known_end {
            return None;
        }
        let block = walk.block.get(off..end)?;
        let block_at = walk.block_at.wrapping_add(off);
        let place = if <F::Kind as Kind>::IN_TAIL {
            let region_end = read_u32(walk.block, end - 4)? as usize;
            let start = core::mem::replace(&mut walk.prev_end, region_end);
            let region = walk.bytes.get(start..region_end).unwrap_or_default();
            Place {
                block,
                block_at,
                region,
                region_at: start,
            }
        } else {
            Place::block(block, block_at)
        };
        if !target.inside(place.block) && !target.inside(place.region) {
            return None;
        }
        steps.push(crate::lazy::Step::Field(
            walk.names.get(index).copied().unwrap_or("?"),
        ));
        Some(<F::Kind as Kind>::locate(i, place, target, steps))
    }

    #[inline]
    fn last_end(_: Internal, bytes: &[u8], off: usize, known_end: usize, last: usize) -> usize {
        let end = off + <F::Kind as Kind>::BLOCK_SIZE;
        if end > known_end || !<F::Kind as Kind>::IN_TAIL {
            return last;
        }
        read_u32(bytes, end - 4).map_or(last, |n| n as usize)
    }

    fn size_until(_: Internal, version: u16) -> usize {
        if SINCE <= version {
            <F::Kind as Kind>::BLOCK_SIZE
        } else {
            0
        }
    }

    unsafe fn visit<L: Layout, V: Visit<L>>(_: Internal, at: &mut Cursor, visit: &mut V)
    where
        Self: 'static,
    {
        // The caller's cursor is at this field: these are its `At` facts (the
        // sizes and the last tail field of the fields before it, as `At` sums them).
        let pos = FieldPos {
            off: prefix::<L>() + at.off,
            index: at.index,
            since: SINCE,
            prev: at.prev,
            _field: PhantomData,
        };
        at.off += <F::Kind as Kind>::BLOCK_SIZE;
        if <F::Kind as Kind>::IN_TAIL {
            at.prev = Some((at.index, at.off - 4));
        }
        at.index += 1;
        visit.field::<F>(pos);
    }
}

impl<A: FieldList, B: FieldList> Sealed for Pair<A, B> {}

impl<A: FieldList, B: FieldList> FieldList for Pair<A, B> {
    const COUNT: usize = A::COUNT + B::COUNT;
    const SIZE: usize = A::SIZE + B::SIZE;
    const MIN_SIZE: usize = if A::MIN_SIZE == A::SIZE {
        A::SIZE + B::MIN_SIZE
    } else {
        A::MIN_SIZE
    };
    const IN_TAIL: bool = A::IN_TAIL || B::IN_TAIL;
    const CHECKS: bool = A::CHECKS || B::CHECKS;
    const BYTE_CHECK: ByteCheck = A::BYTE_CHECK.then(B::BYTE_CHECK, A::SIZE);
    const LAST_END: Option<usize> = match B::LAST_END {
        Some(slot) => Some(A::SIZE + slot),
        None => A::LAST_END,
    };
    const LAST_INDEX: Option<usize> = match B::LAST_INDEX {
        Some(index) => Some(A::COUNT + index),
        None => A::LAST_INDEX,
    };
    const TAIL_TEXT: bool = A::TAIL_TEXT && B::TAIL_TEXT;
    const TAIL_TEXTLESS: bool = A::TAIL_TEXTLESS && B::TAIL_TEXTLESS;

    // Inlined as `Leaf::validate` is, for the same reason.
    #[cfg_attr(debug_assertions, inline)]
    #[cfg_attr(not(debug_assertions), inline(always))]
    fn validate<M: Mode>(
        i: Internal,
        walk: &mut Walk<'_>,
        off: usize,
        index: usize,
        mode: &M,
        depth: u32,
    ) -> Result<(), Error> {
        A::validate(i, walk, off, index, mode, depth)?;
        B::validate(i, walk, off + A::SIZE, index + A::COUNT, mode, depth)
    }

    fn locate(
        i: Internal,
        walk: &mut Walk<'_>,
        off: usize,
        index: usize,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> Option<bool> {
        A::locate(i, walk, off, index, target, steps)
            .or_else(|| B::locate(i, walk, off + A::SIZE, index + A::COUNT, target, steps))
    }

    #[inline]
    fn last_end(i: Internal, bytes: &[u8], off: usize, known_end: usize, last: usize) -> usize {
        let last = A::last_end(i, bytes, off, known_end, last);
        B::last_end(i, bytes, off + A::SIZE, known_end, last)
    }

    fn size_until(i: Internal, version: u16) -> usize {
        A::size_until(i, version) + B::size_until(i, version)
    }

    unsafe fn visit<L: Layout, V: Visit<L>>(i: Internal, at: &mut Cursor, visit: &mut V)
    where
        Self: 'static,
    {
        // SAFETY: `B`'s first field follows `A`'s last, where `A` leaves the cursor.
        unsafe {
            A::visit(i, at, visit);
            B::visit(i, at, visit);
        }
    }
}

/// The field at index `I` of a field list: its type and where its bytes are.
pub trait At<I>: FieldList {
    /// The field's type.
    type Ty: Field;
    /// Offset of the field's slot from the start of the list (the block, after its
    /// block length field if it has one).
    const OFFSET: usize;
    /// Offset, from the start of the list, of the end-offset slot of the last tail
    /// field before this one: where this field's tail region starts.
    const PREV_END: Option<usize>;
    /// The field's index in the list (its name's in `Layout::FIELD_NAMES`).
    const INDEX: usize;
    /// The index of the field whose slot is [`PREV_END`](Self::PREV_END).
    const PREV_INDEX: Option<usize>;
    /// The schema version that added the field.
    const SINCE: u16;
}

impl<F: Field, const SINCE: u16> At<Here> for Leaf<F, SINCE> {
    type Ty = F;
    const OFFSET: usize = 0;
    const PREV_END: Option<usize> = None;
    const INDEX: usize = 0;
    const PREV_INDEX: Option<usize> = None;
    const SINCE: u16 = SINCE;
}

impl<A: At<I>, B: FieldList, I> At<Left<I>> for Pair<A, B> {
    type Ty = A::Ty;
    const OFFSET: usize = A::OFFSET;
    const PREV_END: Option<usize> = A::PREV_END;
    const INDEX: usize = A::INDEX;
    const PREV_INDEX: Option<usize> = A::PREV_INDEX;
    const SINCE: u16 = A::SINCE;
}

impl<A: FieldList, B: At<I>, I> At<Right<I>> for Pair<A, B> {
    type Ty = B::Ty;
    const OFFSET: usize = A::SIZE + B::OFFSET;
    const PREV_END: Option<usize> = match B::PREV_END {
        Some(slot) => Some(A::SIZE + slot),
        None => A::LAST_END,
    };
    const INDEX: usize = A::COUNT + B::INDEX;
    const PREV_INDEX: Option<usize> = match B::PREV_INDEX {
        Some(index) => Some(A::COUNT + index),
        None => A::LAST_INDEX,
    };
    const SINCE: u16 = B::SINCE;
}

/// True if the message starts with its `u16` block length: it has tail data, or asks
/// for the field (FORMAT.md §3, §5). Such a message is variable-size.
///
/// Decided by the flag's type ([`Prefixed`]): a message that refers to itself has it
/// set (by the derive), so that whether it is variable-size is known without asking
/// its fields, whose answer would depend on this one.
#[inline(always)]
pub const fn has_block_length<L: Layout>() -> bool {
    <L::BlockLengthField as Prefixed<L::Fields>>::HAS_BLOCK_LENGTH
}

/// True if a field of the message keeps data in the tail (FORMAT.md §3).
#[inline(always)]
pub const fn has_tail<L: Layout>() -> bool {
    <L::Fields as FieldList>::IN_TAIL
}

/// Bytes before the first field: the `u16` block length, if the message has it.
#[inline(always)]
pub(crate) const fn prefix<L: Layout>() -> usize {
    if has_block_length::<L>() { 2 } else { 0 }
}

/// The block length of the message (FORMAT.md §2, §3).
#[inline(always)]
pub const fn block_length<L: Layout>() -> usize {
    prefix::<L>() + <L::Fields as FieldList>::SIZE
}

/// The block length of version 1: the least every writer's block holds.
#[inline(always)]
pub const fn min_block_length<L: Layout>() -> usize {
    prefix::<L>() + <L::Fields as FieldList>::MIN_SIZE
}

/// The block length of version `version` of the message (FORMAT.md §5).
pub(crate) fn block_length_of<L: Layout>(version: u16) -> usize {
    prefix::<L>() + L::Fields::size_until(crate::mode::sealed::INTERNAL, version)
}

/// Offset of field `I` from the start of the message.
#[inline(always)]
pub const fn offset<L: Layout, I>() -> usize
where
    L::Fields: At<I>,
{
    prefix::<L>() + <L::Fields as At<I>>::OFFSET
}
