//! Proofs of validation, and the unchecked reads they allow: the crate's `unsafe`.
//!
//! A [`Validated`] is a message's bytes together with the fact that they passed
//! validation for one layout. Only this module makes one: after validating the bytes
//! itself, or in the `unsafe` [`view_unchecked`], whose caller promises it. Every
//! read through it finds its field from the same type-level layout that validation
//! walked (`layout.rs`), so each `unsafe` read below relies on a fact that this crate
//! checked, on these bytes, for this layout. A view is a `Validated` and nothing
//! more: each accessor resolves its own field in O(1) loads, and nothing is built
//! for fields that are not read.

use crate::field::{Field, FixedKind, Kind, Scalar, SetInPlace, ViewOf};
use crate::layout::{
    At, FieldList, FieldPos, FixedLayout, Layout, Prefixed, Walk, block_length, has_block_length,
    min_block_length, offset, prefix,
};
use crate::mode::sealed::{INTERNAL, Internal, Place};
use crate::mode::{Checked, Skim};
use crate::{Error, ErrorKind, ListMut, MAX_DEPTH, Mode, WireMsg};
use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// `N` bytes at `at`.
///
/// # Safety
///
/// `at + N <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn array_at<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    debug_assert!(at + N <= bytes.len());
    // SAFETY: in bounds by the caller's promise.
    unsafe { array_ptr(NonNull::from(bytes).cast(), at) }
}

/// `bytes[start..end]`.
///
/// # Safety
///
/// `start <= end <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn range(bytes: &[u8], start: usize, end: usize) -> &[u8] {
    debug_assert!(start <= end && end <= bytes.len());
    // SAFETY: in bounds by the caller's promise.
    unsafe { bytes.get_unchecked(start..end) }
}

/// `bytes[start..end]`, mutably.
///
/// # Safety
///
/// `start <= end <= bytes.len()`.
#[inline(always)]
pub(crate) unsafe fn range_mut(bytes: &mut [u8], start: usize, end: usize) -> &mut [u8] {
    debug_assert!(start <= end && end <= bytes.len());
    // SAFETY: in bounds by the caller's promise.
    unsafe { bytes.get_unchecked_mut(start..end) }
}

/// `bytes` as text.
///
/// # Safety
///
/// `bytes` are UTF-8.
#[inline(always)]
pub(crate) unsafe fn str_of(bytes: &[u8]) -> &str {
    debug_assert!(core::str::from_utf8(bytes).is_ok());
    // SAFETY: UTF-8 by the caller's promise.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}

/// `N` bytes at `ptr + at`.
///
/// # Safety
///
/// The `N` bytes are inside the allocation `ptr` points into and readable for `'_`.
#[inline(always)]
unsafe fn array_ptr<const N: usize>(ptr: NonNull<u8>, at: usize) -> [u8; N] {
    // SAFETY: forwarded to the caller; `[u8; N]` has alignment 1.
    unsafe { ptr.as_ptr().add(at).cast::<[u8; N]>().read() }
}

/// The little-endian `u16` at `ptr + at`. # Safety: as [`array_ptr`].
#[inline(always)]
unsafe fn u16_at(ptr: NonNull<u8>, at: usize) -> usize {
    // SAFETY: forwarded to the caller.
    usize::from(u16::from_le_bytes(unsafe { array_ptr(ptr, at) }))
}

/// The little-endian `u32` at `ptr + at`. # Safety: as [`array_ptr`].
#[inline(always)]
unsafe fn u32_at(ptr: NonNull<u8>, at: usize) -> usize {
    // SAFETY: forwarded to the caller.
    u32::from_le_bytes(unsafe { array_ptr(ptr, at) }) as usize
}

/// The bytes from `ptr + start` to `ptr + end`.
///
/// # Safety
///
/// `start <= end`, the bytes are inside the allocation `ptr` points into, and nothing
/// writes them for `'v`.
#[inline(always)]
unsafe fn slice_at<'v>(ptr: NonNull<u8>, start: usize, end: usize) -> &'v [u8] {
    // SAFETY: forwarded to the caller.
    unsafe { core::slice::from_raw_parts(ptr.as_ptr().add(start), end - start) }
}

/// The bytes from `ptr + start` to `ptr + end`, mutably.
///
/// # Safety
///
/// As [`slice_at`], and nothing else reads or writes them for `'v`.
#[inline(always)]
unsafe fn slice_at_mut<'v>(ptr: NonNull<u8>, start: usize, end: usize) -> &'v mut [u8] {
    // SAFETY: forwarded to the caller.
    unsafe { core::slice::from_raw_parts_mut(ptr.as_ptr().add(start), end - start) }
}

/// Start and end, from the start of the message, of the tail region of field `I`:
/// from the end offset of the previous tail field (or the block length) to its own
/// end offset (FORMAT.md §3).
///
/// # Safety
///
/// The bytes at `ptr` passed validation as a message of layout `L`, and field `I` is
/// present and has tail data: validation then proved both offsets in the block, and
/// the region ordered and inside the message.
#[inline(always)]
unsafe fn region_of<L: Layout, I>(ptr: NonNull<u8>) -> (usize, usize)
where
    L::Fields: At<I>,
{
    let end_slot = offset::<L, I>() + <<FieldAt<L, I> as Field>::Kind as Kind>::BLOCK_SIZE - 4;
    // SAFETY: forwarded to the caller.
    unsafe { region_at::<L>(ptr, end_slot, <L::Fields as At<I>>::PREV_END) }
}

/// [`region_of`] of the tail field whose end-offset slot is at `end_slot` from the
/// start of the message, `prev_end` its [`At::PREV_END`].
///
/// # Safety
///
/// As [`region_of`], for the field of `L` with these slots.
#[inline(always)]
unsafe fn region_at<L: Layout>(
    ptr: NonNull<u8>,
    end_slot: usize,
    prev_end: Option<usize>,
) -> (usize, usize) {
    // SAFETY: forwarded to the caller.
    unsafe {
        let start = match prev_end {
            Some(slot) => u32_at(ptr, prefix::<L>() + slot),
            None => u16_at(ptr, 0),
        };
        (start, u32_at(ptr, end_slot))
    }
}

/// Where a proof's end offsets count from, given where its block starts (`ptr`) and
/// how long the block it knows is: for a message with a block length field, its
/// origin (the message's start; for an element of a split list, FORMAT.md §6.3, its
/// tail start minus its block length); for one without, the end of the block this
/// reader knows (it has no tail), from which `known_end` is recovered.
///
/// # Safety
///
/// `ptr` points to `len` bytes of one allocation.
#[inline(always)]
unsafe fn tail_of<L: Layout>(ptr: NonNull<u8>, len: usize) -> NonNull<u8> {
    // SAFETY: `known_end_of` is at most `len`: the result is inside the bytes or one
    // past their end.
    unsafe { ptr.add(known_end_of::<L>(len)) }
}

/// What a proof keeps besides the start of the bytes: for a message without a block
/// length field, the end of its block as far as this reader knows it (the bytes it was
/// given, up to its own block length); nothing for one with the field, which states it.
#[inline(always)]
fn known_end_of<L: Layout>(len: usize) -> usize {
    if has_block_length::<L>() {
        0
    } else {
        len.min(block_length::<L>())
    }
}

/// Validates `bytes` as one message of layout `L` (FORMAT.md §2, §3, §5, §7).
#[inline]
pub(crate) fn validate_message<L: Layout, M: Mode>(
    bytes: &[u8],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    validate_block::<L::Fields, M>(
        bytes,
        has_block_length::<L>(),
        min_block_length::<L>(),
        L::FIELD_NAMES,
        mode,
        depth,
    )
}

/// Validates `bytes` as the block (and tail) of fields `F`, named `names`: a message,
/// or a tuple, which is laid out as one (FORMAT.md §4.11). `prefixed` says whether a
/// `u16` block length comes first; `min` is the block every writer's bytes hold.
#[inline]
pub(crate) fn validate_block<F: FieldList, M: Mode>(
    bytes: &[u8],
    prefixed: bool,
    min: usize,
    names: &'static [&'static str],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    check_depth(depth)?;
    let declared = block_header::<F>(bytes, prefixed, min)?;
    let block = bytes.get(..declared).unwrap_or_default();
    walk_fields::<F, M>(
        block,
        0,
        bytes,
        if prefixed { 2 } else { 0 },
        names,
        mode,
        depth,
    )
}

/// The block of a message or tuple of fields `F` over `bytes`, checked (FORMAT.md §2,
/// §3): `prefixed`, its `u16` block length, at least `min` and inside the bytes;
/// else the bytes given, at least `min`, up to the fields' size. Returns the block's
/// length; errors count from `bytes`' start. Shared by up-front validation and the
/// on-demand views (`lazy.rs`), so that both fail alike.
#[inline(always)]
pub(crate) fn block_header<F: FieldList>(
    bytes: &[u8],
    prefixed: bool,
    min: usize,
) -> Result<usize, Error> {
    block_header_sized(bytes, prefixed, min, F::SIZE)
}

/// [`block_header`] with the reader's block length `size` as a number: the
/// schema-driven reader's check of a message's block (`dynamic/walk.rs`) too.
#[inline(always)]
pub(crate) fn block_header_sized(
    bytes: &[u8],
    prefixed: bool,
    min: usize,
    size: usize,
) -> Result<usize, Error> {
    if prefixed {
        let Some(declared) = bytes.first_chunk::<2>() else {
            return Err(truncated(2, bytes.len()));
        };
        let declared = usize::from(u16::from_le_bytes(*declared));
        if declared < min {
            return Err(block_length_too_small(declared, min, 1));
        }
        if declared > bytes.len() {
            return Err(truncated(declared, bytes.len()));
        }
        Ok(declared)
    } else {
        if bytes.len() < min {
            return Err(truncated(min, bytes.len()));
        }
        Ok(bytes.len().min(size))
    }
}

/// Validates an element of a split list (FORMAT.md §6.3) as the block and tail of
/// fields `F`, named `names`: its `block`, whose block length field the list checked
/// (its length is that block length, at least the reader's version-1 block), and
/// `origin`, the list's bytes from where its end offsets count (its tail start minus
/// its block length) to the end of its tail region. `block_at` is where the block is
/// from `origin`'s start (wrapping: before it), for errors, which count from
/// `origin`'s start.
#[inline]
pub(crate) fn validate_split_block<F: FieldList, M: Mode>(
    block: &[u8],
    block_at: usize,
    origin: &[u8],
    names: &'static [&'static str],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    check_depth(depth)?;
    walk_fields::<F, M>(block, block_at, origin, 2, names, mode, depth)
}

/// The walk of fields `F` over a block of `block.len()` bytes (the block length on
/// the wire, or the bytes given) whose first field is at `prefix`, and whose tail
/// regions, from `block.len()` on, are in `bytes` (FORMAT.md §3).
#[inline(always)]
fn walk_fields<F: FieldList, M: Mode>(
    block: &[u8],
    block_at: usize,
    bytes: &[u8],
    prefix: usize,
    names: &'static [&'static str],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    let declared = block.len();
    let mut walk = Walk {
        block,
        block_at,
        bytes,
        known_end: declared.min(prefix + F::SIZE),
        prev_end: declared,
        names,
    };
    if M::GATHERS && F::IN_TAIL && F::TAIL_TEXT {
        // The tail is all text: one run from the block's end to the last region's,
        // whose strings need only start and end on character boundaries (`Skim`).
        let skim = Skim::new(bytes, declared);
        F::validate(INTERNAL, &mut walk, prefix, 0, &skim, depth)?;
        // The walk proved `declared <= prev_end <= len`; were it not so, no string
        // could pass unchecked.
        let failed = |valid_up_to| {
            Error::new(
                ErrorKind::InvalidUtf8 { valid_up_to },
                declared + valid_up_to,
            )
        };
        let tail = bytes
            .get(declared..walk.prev_end)
            .ok_or_else(|| failed(0))?;
        return mode.text(INTERNAL, tail).map_err(failed);
    }
    F::validate(INTERNAL, &mut walk, prefix, 0, mode, depth)
}

/// `DepthLimitExceeded` (at offset 0) for a message or tuple block at nesting `depth`
/// past [`MAX_DEPTH`]: validation calls it for every block it enters, and encoding
/// (`Field::check_value`) for every value it would write as one, so that a writer
/// refuses exactly the values whose bytes a reader would refuse.
#[inline(always)]
pub fn check_depth(depth: u32) -> Result<(), Error> {
    if depth > MAX_DEPTH {
        return Err(depth_exceeded());
    }
    Ok(())
}

#[cold]
fn depth_exceeded() -> Error {
    Error::new(ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }, 0)
}

/// The nesting depth of a block held at `depth`: one level deeper in the tail (a
/// message or tuple with a tail, FORMAT.md §7), the same inline.
#[inline(always)]
pub const fn deeper(in_tail: bool, depth: u32) -> u32 {
    if in_tail {
        depth.saturating_add(1)
    } else {
        depth
    }
}

/// [`deeper`], then [`check_depth`] of the result.
#[inline(always)]
pub(crate) fn nested_depth(in_tail: bool, depth: u32) -> Result<u32, Error> {
    let depth = deeper(in_tail, depth);
    check_depth(depth)?;
    Ok(depth)
}

/// `Truncated` at offset 0: a block needs `needed` bytes of the `available` ones.
/// Shared with the schema-driven walk, so that both fail alike.
#[cold]
pub(crate) fn truncated(needed: usize, available: usize) -> Error {
    Error::new(ErrorKind::Truncated { needed, available }, 0)
}

/// `BlockLengthTooSmall` at offset 0: a block of `declared` bytes where a writer of
/// `version` or later writes at least `required`. Shared as [`truncated`] is.
#[cold]
pub(crate) fn block_length_too_small(declared: usize, required: usize, version: u16) -> Error {
    Error::new(
        ErrorKind::BlockLengthTooSmall {
            declared,
            required,
            version,
        },
        0,
    )
}

/// The error for an end offset `end` of the slot at `slot`, which is not inside
/// `start..=len` (FORMAT.md §3, §6.3). In the root message (`root`: its bytes are the
/// whole buffer given to the reader) an offset past the end is `Truncated`: the buffer
/// was cut short, such as by a short read, and a reader can wait for the rest.
/// Anywhere else (past the end of a nested message or list, whose region the buffer
/// holds whole), or before the end of the previous region, it is `OffsetOutOfRange`.
/// Shared by the typed validation and the schema-driven walk, so that both agree.
#[cold]
pub(crate) fn bad_end_offset(
    end: usize,
    start: usize,
    len: usize,
    slot: usize,
    root: bool,
) -> Error {
    let kind = if root && end > len {
        ErrorKind::Truncated {
            needed: end,
            available: len,
        }
    } else {
        ErrorKind::OffsetOutOfRange {
            end,
            min: start,
            max: len,
        }
    };
    Error::new(kind, slot)
}

/// Validates `bytes` as a message of layout `L` and returns the proof.
///
/// # Errors
///
/// Any error of validation.
///
/// Always inlined: the check behind it returns one word in a register (`Ok` is a
/// null error), where this function's two-word result would go through memory.
#[inline(always)]
pub(crate) fn validate<L: Layout>(bytes: &[u8]) -> Result<Validated<'_, L>, Error> {
    crate::batch::check::<L>(bytes)?;
    // SAFETY: validated just above.
    Ok(unsafe { Validated::new_unchecked(bytes) })
}

/// A non-null pointer without `NonNull`'s niche, for the views' proofs. A view made
/// in a loop (`ListIter::next`, `list.get_mut(i).expect(..)`) is an `Option` of one;
/// with the niche, the `Option`'s tag is the pointer's nullness, which the optimizer
/// does not prove for a pointer stepped by a stride, so each element cost a test and
/// a branch (profiles of `order/read_some_unchecked` and `order/update_unchecked`).
/// Without it the tag is a constant where the view is made, and the test folds away.
#[derive(Clone, Copy, PartialEq, Eq)]
struct NoNiche(*mut u8);

impl NoNiche {
    #[inline(always)]
    fn new(ptr: NonNull<u8>) -> Self {
        NoNiche(ptr.as_ptr())
    }

    #[inline(always)]
    fn get(self) -> NonNull<u8> {
        // SAFETY: made only from a `NonNull` (`new`).
        unsafe { NonNull::new_unchecked(self.0) }
    }
}

/// Bytes that passed validation as a message of layout `L`: what a generated view
/// holds. Copy, two words: where the message starts and, for a message without a
/// block length field, where its block ends (a message with one states it).
///
/// Only this crate makes one, so holding one proves the validation happened. It
/// borrows the bytes like a `&'v [u8]`; every read goes by the offsets that
/// validation checked, so no length is needed to stay inside them.
pub struct Validated<'v, L> {
    /// The block's start.
    ptr: NoNiche,
    /// See [`tail_of`]: the origin of the end offsets, or the end of the known block.
    tail: NoNiche,
    _bytes: PhantomData<&'v [u8]>,
    _layout: crate::kind::Invariant<L>,
}

// SAFETY: a `Validated` is a shared borrow of bytes (`&'v [u8]`), which is both.
unsafe impl<L> Send for Validated<'_, L> {}
// SAFETY: as above.
unsafe impl<L> Sync for Validated<'_, L> {}

impl<L> Clone for Validated<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for Validated<'_, L> {}

impl<L> fmt::Debug for Validated<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Validated")
            .field("at", &self.ptr.get())
            .finish_non_exhaustive()
    }
}

/// The type of field `I` of layout `L`.
pub type FieldAt<L, I> = <<L as Layout>::Fields as At<I>>::Ty;

impl<'v, L: Layout> Validated<'v, L> {
    /// The proof for `bytes`, without validating them.
    ///
    /// # Safety
    ///
    /// `bytes` pass validation as a message of layout `L`.
    #[inline(always)]
    pub(crate) unsafe fn new_unchecked(bytes: &'v [u8]) -> Self {
        let ptr = NonNull::from(bytes).cast();
        Validated {
            ptr: NoNiche::new(ptr),
            // SAFETY: `ptr` is `bytes`' start.
            tail: NoNiche::new(unsafe { tail_of::<L>(ptr, bytes.len()) }),
            _bytes: PhantomData,
            _layout: PhantomData,
        }
    }

    /// The proof for an element of a split list (FORMAT.md §6.3): its block starts
    /// at `block`, and its end offsets count from `origin` (its tail start minus its
    /// block length).
    ///
    /// # Safety
    ///
    /// `L` has a block length field; the element passed validation as a message of
    /// layout `L` with this block and origin; both point into bytes borrowed for `'v`.
    #[inline(always)]
    pub(crate) unsafe fn from_split(block: NonNull<u8>, origin: NonNull<u8>) -> Self {
        debug_assert!(has_block_length::<L>());
        Validated {
            ptr: NoNiche::new(block),
            tail: NoNiche::new(origin),
            _bytes: PhantomData,
            _layout: PhantomData,
        }
    }

    /// The block length this reader knows: the one on the wire, up to its own.
    #[inline(always)]
    fn known_end(self) -> usize {
        if has_block_length::<L>() {
            // SAFETY: validation proved the 2-byte block length is present.
            unsafe { u16_at(self.ptr.get(), 0) }.min(block_length::<L>())
        } else {
            self.tail.get().as_ptr().addr() - self.ptr.get().as_ptr().addr()
        }
    }

    /// Field `I`, which every version has (its slot is inside the block of version 1;
    /// a compile error otherwise).
    #[inline(always)]
    pub fn get<I>(self) -> ViewOf<'v, FieldAt<L, I>>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        const {
            assert!(
                offset::<L, I>() + <<FieldAt<L, I> as Field>::Kind as Kind>::BLOCK_SIZE
                    <= min_block_length::<L>(),
                "wiremsg: `get` of a field that older versions do not have; use `try_get`"
            )
        };
        // SAFETY: the field's slot is inside the block of version 1, which validation
        // found in every valid message.
        unsafe { self.read::<I>() }
    }

    /// Field `I`, or `None` if the writer's version did not have it (FORMAT.md §5).
    #[inline(always)]
    pub fn try_get<I>(self) -> Option<ViewOf<'v, FieldAt<L, I>>>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        if self.has::<I>() {
            // SAFETY: the field's slot ends before the known end of the block, so
            // validation found the field present and checked it.
            Some(unsafe { self.read::<I>() })
        } else {
            None
        }
    }

    /// True if the writer's version had field `I`.
    #[inline(always)]
    pub fn has<I>(self) -> bool
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        self.present(
            offset::<L, I>(),
            <<FieldAt<L, I> as Field>::Kind as Kind>::BLOCK_SIZE,
        )
    }

    /// Reads field `I`.
    ///
    /// # Safety
    ///
    /// The field is present (its slot ends at or before `known_end()`).
    #[inline(always)]
    unsafe fn read<I>(self) -> ViewOf<'v, FieldAt<L, I>>
    where
        L::Fields: At<I>,
    {
        // SAFETY: forwarded to the caller; the offsets are field `I`'s.
        unsafe { self.read_at::<FieldAt<L, I>>(offset::<L, I>(), <L::Fields as At<I>>::PREV_END) }
    }

    /// True if the field of `size` block bytes whose slot is at `off` from the start
    /// of the message is present: inside the block of version 1, or of the writer's.
    #[inline(always)]
    fn present(self, off: usize, size: usize) -> bool {
        // Every block holds the fields of version 1: no load for those.
        off + size <= min_block_length::<L>() || off + size <= self.known_end()
    }

    /// Reads the field of type `F` whose slot is at `off` from the start of the
    /// message, `prev_end` its [`At::PREV_END`].
    ///
    /// # Safety
    ///
    /// `F`, `off` and `prev_end` are those of one field of `L` (its `At` type,
    /// [`offset`] and `PREV_END`), and the field is present ([`Self::present`]).
    #[inline(always)]
    unsafe fn read_at<F: Field>(self, off: usize, prev_end: Option<usize>) -> ViewOf<'v, F> {
        let size = <F::Kind as Kind>::BLOCK_SIZE;
        // SAFETY: a present field was validated with exactly these block bytes, and,
        // for a tail field, with its region (`region_at`).
        unsafe {
            let block = slice_at(self.ptr.get(), off, off + size);
            let region = if <F::Kind as Kind>::IN_TAIL {
                let (start, end) = region_at::<L>(self.ptr.get(), off + size - 4, prev_end);
                slice_at(self.tail.get(), start, end)
            } else {
                &[]
            };
            <F::Kind as Kind>::read(INTERNAL, block, region)
        }
    }

    /// The field at `pos`, `None` if the writer's version did not have it.
    #[inline]
    pub(crate) fn field<F: Field>(self, pos: FieldPos<L, F>) -> Option<ViewOf<'v, F>> {
        let prev_end = pos.prev.map(|(_, slot)| slot);
        self.present(pos.off, <F::Kind as Kind>::BLOCK_SIZE)
            // SAFETY: only the walk of `L`'s fields makes a `FieldPos<L, F>`, with the
            // `At` facts of a field of type `F` (`layout::visit_fields`), and it is
            // present.
            .then(|| unsafe { self.read_at::<F>(pos.off, prev_end) })
    }

    /// The message's bytes as far as this reader knows them: its block and the tail
    /// data of the fields it knows; `None` for an element of a split list (FORMAT.md
    /// §6.3) whose block and tail are apart (one whose tail directly follows its
    /// block, such as the only element of a list, is one piece: its bytes).
    #[inline]
    pub fn as_bytes(self) -> Option<&'v [u8]> {
        mir_inline_barrier!(L);
        if has_block_length::<L>() && self.tail != self.ptr {
            return None;
        }
        let known_end = self.known_end();
        // SAFETY: validation proved the block (`tail_start` bytes, with the block
        // length field) inside the message, and every end offset read from it at most
        // the message's length; the message's block and tail are together (its origin
        // is its block's start).
        unsafe {
            let end = if has_block_length::<L>() {
                let tail_start = u16_at(self.ptr.get(), 0);
                let block = slice_at(self.ptr.get(), 0, tail_start);
                L::Fields::last_end(INTERNAL, block, prefix::<L>(), known_end, tail_start)
            } else {
                known_end
            };
            Some(slice_at(self.ptr.get(), 0, end))
        }
    }
}

/// Bytes that passed validation as a message of layout `L`, borrowed mutably: what a
/// generated mutable view holds. Writes keep the bytes valid: only scalars that are
/// always valid values are written, and lengths never change.
pub struct ValidatedMut<'v, L> {
    ptr: NoNiche,
    /// As [`Validated`]'s.
    tail: NoNiche,
    _bytes: PhantomData<&'v mut [u8]>,
    _layout: crate::kind::Invariant<L>,
}

// SAFETY: a `ValidatedMut` is an exclusive borrow of bytes (`&'v mut [u8]`), which is
// both.
unsafe impl<L> Send for ValidatedMut<'_, L> {}
// SAFETY: as above.
unsafe impl<L> Sync for ValidatedMut<'_, L> {}

impl<L> fmt::Debug for ValidatedMut<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidatedMut")
            .field("at", &self.ptr.get())
            .finish_non_exhaustive()
    }
}

/// A kind that is a message (sealed): the message type it reads as.
pub trait MessageKind: Kind {
    /// The message type.
    type Msg: WireMsg;
}

/// A kind whose field has a mutable view of its own (sealed): a message (its
/// `{Name}Mut`) or a union (its `{Name}Mut`, the present variant's), made from the
/// field's bytes.
pub trait NestedKind: Kind {
    /// The mutable view.
    type Mut<'m>;

    /// The mutable view over the field's bytes (its block bytes inline, else its
    /// region).
    ///
    /// # Safety
    ///
    /// [`Kind::validate`] accepted exactly these bytes for this kind.
    #[doc(hidden)]
    unsafe fn read_mut(_: Internal, bytes: &mut [u8]) -> Self::Mut<'_>;

    /// The mutable view of an element of a split list (FORMAT.md §6.3).
    ///
    /// # Safety
    ///
    /// As [`Kind::read_split`], and the element's block and tail regions are borrowed
    /// mutably for `'m` through these pointers alone.
    #[doc(hidden)]
    unsafe fn read_split_mut<'m>(
        _: Internal,
        block: NonNull<u8>,
        origin: NonNull<u8>,
    ) -> Self::Mut<'m> {
        let _ = (block, origin);
        unreachable!("wiremsg: only kinds laid out as split lists are read as their elements")
    }

    /// The mutable view of the payload of an element of a dense list (FORMAT.md
    /// §6.8).
    ///
    /// # Safety
    ///
    /// As [`Kind::read_dense`].
    #[doc(hidden)]
    unsafe fn read_dense_mut(_: Internal, tag: u64, payload: &mut [u8]) -> Self::Mut<'_> {
        let _ = (tag, payload);
        unreachable!("wiremsg: only fixed-size unions are read as elements of dense lists")
    }
}

impl<M: WireMsg> NestedKind for crate::kind::Msg<M> {
    type Mut<'m> = M::Mut<'m>;

    #[inline(always)]
    unsafe fn read_mut(_: Internal, bytes: &mut [u8]) -> M::Mut<'_> {
        // SAFETY: a message's validation validates exactly its bytes as a message of
        // `M::Layout`; forwarded to the caller.
        unsafe { mut_of::<M>(bytes) }
    }

    #[inline(always)]
    unsafe fn read_split_mut<'m>(
        _: Internal,
        block: NonNull<u8>,
        origin: NonNull<u8>,
    ) -> M::Mut<'m> {
        // SAFETY: forwarded to the caller.
        M::__mut_of(unsafe { ValidatedMut::from_split(block, origin) })
    }
}

/// A kind that is a list (sealed): its element type.
pub trait ListKind: Kind {
    /// The element type.
    type Element: crate::Element;
}

/// The mutable view of a message field of type `F`: `{Name}Mut<'m>` for a
/// `#[derive(WireMsg)]` type `Name`.
///
/// ```
/// use wiremsg::{MutOf, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Px { mantissa: i64 }
///
/// fn double(mut px: MutOf<'_, Px>) {
///     px.set_mantissa(px.mantissa() * 2);
/// }
///
/// let mut bytes = Px { mantissa: 21 }.to_bytes().unwrap();
/// double(Px::view_mut(&mut bytes).unwrap());
/// assert_eq!(Px::view(&bytes).unwrap().mantissa(), 42);
/// ```
pub type MutOf<'m, F> = <<<F as Field>::Kind as MessageKind>::Msg as WireMsg>::Mut<'m>;

impl<'v, L: Layout> ValidatedMut<'v, L> {
    /// The proof for `bytes`, without validating them.
    ///
    /// # Safety
    ///
    /// `bytes` pass validation as a message of layout `L`.
    #[inline(always)]
    pub(crate) unsafe fn new_unchecked(bytes: &'v mut [u8]) -> Self {
        let len = bytes.len();
        let ptr = NonNull::from(bytes).cast();
        ValidatedMut {
            ptr: NoNiche::new(ptr),
            // SAFETY: `ptr` is `bytes`' start.
            tail: NoNiche::new(unsafe { tail_of::<L>(ptr, len) }),
            _bytes: PhantomData,
            _layout: PhantomData,
        }
    }

    /// The mutable proof for an element of a split list (FORMAT.md §6.3), as
    /// [`Validated::from_split`].
    ///
    /// # Safety
    ///
    /// As [`Validated::from_split`], and the element's block and tail regions are
    /// borrowed mutably for `'v` through these pointers alone (they may overlap other
    /// bytes, such as other elements' blocks, that nothing here reads or writes:
    /// reads and writes go by the offsets validation checked).
    #[inline(always)]
    pub(crate) unsafe fn from_split(block: NonNull<u8>, origin: NonNull<u8>) -> Self {
        debug_assert!(has_block_length::<L>());
        ValidatedMut {
            ptr: NoNiche::new(block),
            tail: NoNiche::new(origin),
            _bytes: PhantomData,
            _layout: PhantomData,
        }
    }

    /// The read-only proof, for getters (it borrows `self`, so no write can happen
    /// while it lives).
    #[inline(always)]
    pub fn as_ref(&self) -> Validated<'_, L> {
        mir_inline_barrier!(L);
        Validated {
            ptr: self.ptr,
            tail: self.tail,
            _bytes: PhantomData,
            _layout: PhantomData,
        }
    }

    /// Overwrites field `I` in place; false (nothing written) if the writer's version
    /// did not have it, or if it is a message whose encoding does not validate (only
    /// a hand-made `WireMsg` can encode such bytes).
    #[inline(always)]
    pub fn set<I>(&mut self, value: &FieldAt<L, I>) -> bool
    where
        L::Fields: At<I>,
        FieldAt<L, I>: Scalar<'v>,
    {
        mir_inline_barrier!(L);
        match self.field_bytes::<I>() {
            Some(block) => value.write_scalar(INTERNAL, block),
            None => false,
        }
    }

    /// Updates field `I` in place in one step: `f` maps its value to the new one,
    /// which is stored; false (nothing read or written) if the writer's version did
    /// not have it.
    #[inline(always)]
    pub fn update<I>(&mut self, f: impl FnOnce(FieldAt<L, I>) -> FieldAt<L, I>) -> bool
    where
        L::Fields: At<I>,
        FieldAt<L, I>: crate::Update<'v>,
    {
        mir_inline_barrier!(L);
        // A scalar is fixed-size: its bytes are its slot in the block.
        let Some(block) = self.field_bytes::<I>() else {
            return false;
        };
        // SAFETY: the slot passed validation as the field's kind, whose view is the
        // value itself (it borrows nothing, so `block` is free to be written after).
        let view = unsafe { <<FieldAt<L, I> as Field>::Kind as Kind>::read(INTERNAL, block, &[]) };
        let value = f(<FieldAt<L, I> as crate::Update<'v>>::from_view(view));
        value.write_scalar(INTERNAL, block)
    }

    /// The bytes of present field `I`: its block bytes, or its tail region.
    #[inline(always)]
    fn field_bytes<I>(&mut self) -> Option<&mut [u8]>
    where
        L::Fields: At<I>,
    {
        if !self.as_ref().has::<I>() {
            return None;
        }
        // SAFETY: the field is present.
        Some(unsafe { self.field_slice::<I>() })
    }

    /// The bytes of field `I`: its block bytes, or its tail region.
    ///
    /// # Safety
    ///
    /// Field `I` is present: validation then proved its bytes inside the message
    /// (`start <= end <= len`); `&mut self` is the only access to them while the
    /// slice lives.
    #[inline(always)]
    unsafe fn field_slice<I>(&mut self) -> &mut [u8]
    where
        L::Fields: At<I>,
    {
        // SAFETY: forwarded to the caller.
        unsafe {
            if <<FieldAt<L, I> as Field>::Kind as Kind>::IN_TAIL {
                let (start, end) = region_of::<L, I>(self.ptr.get());
                slice_at_mut(self.tail.get(), start, end)
            } else {
                let off = offset::<L, I>();
                let size = <<FieldAt<L, I> as Field>::Kind as Kind>::BLOCK_SIZE;
                slice_at_mut(self.ptr.get(), off, off + size)
            }
        }
    }

    /// The mutable view of nested message or union field `I`, which every version
    /// has (a compile error otherwise).
    #[inline(always)]
    pub fn nested<I>(&mut self) -> <<FieldAt<L, I> as Field>::Kind as NestedKind>::Mut<'_>
    where
        L::Fields: At<I>,
        <FieldAt<L, I> as Field>::Kind: NestedKind,
    {
        const {
            assert!(
                offset::<L, I>() + <<FieldAt<L, I> as Field>::Kind as Kind>::BLOCK_SIZE
                    <= min_block_length::<L>(),
                "wiremsg: `nested` of a field that older versions do not have; use `try_nested`"
            )
        };
        // SAFETY: the field is in the block of version 1, so present; validation of
        // the field validated exactly these bytes (block or region) as its kind.
        unsafe {
            let bytes = self.field_slice::<I>();
            <<FieldAt<L, I> as Field>::Kind as NestedKind>::read_mut(INTERNAL, bytes)
        }
    }

    /// The mutable view of nested message or union field `I`, or `None` if the
    /// writer's version did not have it.
    #[inline(always)]
    pub fn try_nested<I>(
        &mut self,
    ) -> Option<<<FieldAt<L, I> as Field>::Kind as NestedKind>::Mut<'_>>
    where
        L::Fields: At<I>,
        <FieldAt<L, I> as Field>::Kind: NestedKind,
    {
        let bytes = self.field_bytes::<I>()?;
        // SAFETY: validation of the present field validated exactly these bytes as
        // its kind.
        Some(unsafe { <<FieldAt<L, I> as Field>::Kind as NestedKind>::read_mut(INTERNAL, bytes) })
    }

    /// The mutable view of list field `I` (empty if the writer's version did not have
    /// it).
    #[inline(always)]
    pub fn list<I>(&mut self) -> ListMut<'_, <<FieldAt<L, I> as Field>::Kind as ListKind>::Element>
    where
        L::Fields: At<I>,
        <FieldAt<L, I> as Field>::Kind: ListKind,
    {
        mir_inline_barrier!(L);
        match self.field_bytes::<I>() {
            // SAFETY: validation of the field (kind `ListOf<T>`) validated exactly
            // this region as a list of `T`.
            Some(bytes) => unsafe { ListMut::from_validated(bytes) },
            None => ListMut::empty(),
        }
    }

    /// The whole message's bytes, read-only (`None` where its block and tail are
    /// apart, as [`Validated::as_bytes`]).
    #[inline]
    pub fn as_bytes(&self) -> Option<&[u8]> {
        mir_inline_barrier!(L);
        self.as_ref().as_bytes()
    }
}

/// The view of message `M` over `bytes`.
///
/// # Safety
///
/// `bytes` pass validation as a message of `M::Layout`.
#[inline(always)]
pub(crate) unsafe fn view_of<M: WireMsg>(bytes: &[u8]) -> M::View<'_> {
    // SAFETY: forwarded to the caller.
    M::__view_of(unsafe { Validated::new_unchecked(bytes) })
}

/// The mutable view of message `M` over `bytes`.
///
/// # Safety
///
/// `bytes` pass validation as a message of `M::Layout`.
#[inline(always)]
pub(crate) unsafe fn mut_of<M: WireMsg>(bytes: &mut [u8]) -> M::Mut<'_> {
    // SAFETY: forwarded to the caller.
    M::__mut_of(unsafe { ValidatedMut::new_unchecked(bytes) })
}

/// The block length flag of message `M`.
type Flags<M> = <<M as WireMsg>::Layout as Layout>::BlockLengthField;
/// The field list of message `M`.
type FieldsOf<M> = <<M as WireMsg>::Layout as Layout>::Fields;

/// `Kind` of every message type: validation and reads by `M`'s layout.
impl<M: WireMsg> crate::mode::sealed::Sealed for crate::kind::Msg<M> {}

impl<M: WireMsg> Kind for crate::kind::Msg<M> {
    // Each from the block length flag's type (`Prefixed`), which for a message that
    // holds itself decides without naming the fields' constants (they name these).
    const BLOCK_SIZE: usize = <Flags<M> as Prefixed<FieldsOf<M>>>::SLOT_SIZE;
    const IN_TAIL: bool = has_block_length::<M::Layout>();
    const CHECKS: bool = <Flags<M> as Prefixed<FieldsOf<M>>>::CHECKS;
    const BYTE_CHECK: crate::trust::shape::ByteCheck =
        <Flags<M> as Prefixed<FieldsOf<M>>>::BYTE_CHECK;
    const EVOLVES: bool = <Flags<M> as Prefixed<FieldsOf<M>>>::EVOLVES;
    const LIST_ENCODING: crate::ListEncoding = if <Self as Kind>::IN_TAIL {
        crate::ListEncoding::Split
    } else {
        crate::ListEncoding::Strided
    };
    const SPLIT_BLOCK: usize = block_length::<M::Layout>();
    const MIN_SPLIT_BLOCK: usize = min_block_length::<M::Layout>();
    const MIN_ELEMENT_SIZE: usize = <Flags<M> as Prefixed<FieldsOf<M>>>::MIN_SLOT_SIZE;
    // With a block length field, validation reads only inside the regions its end
    // offsets name (each at most the message length), and every read goes by those
    // offsets: appending bytes keeps a valid message valid and reads it the same.
    const SELF_DELIMITED: bool = <Self as Kind>::IN_TAIL;
    type Reads = crate::kind::Msg<M::Layout>;
    type View<'v> = M::View<'v>;
    type Lazy<'v> = M::Lazy<'v>;

    #[inline(always)]
    fn lazy<'v>(
        _: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<M::Lazy<'v>, Error> {
        Self::lazy_of(place, root, depth)
    }

    #[inline(always)]
    fn lazy_split<'v>(
        _: Internal,
        block: &'v [u8],
        list: &'v [u8],
        index: usize,
        count: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<M::Lazy<'v>, Error> {
        Self::lazy_split_of(block, list, index, count, root, depth)
    }

    fn locate(
        _: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        let bytes = if <Self as Kind>::IN_TAIL {
            place.region
        } else {
            place.block
        };
        crate::lazy::locate_message::<M::Layout>(bytes, target, steps)
    }

    fn locate_split(
        _: Internal,
        block: &[u8],
        block_at: usize,
        origin: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        crate::lazy::locate_split::<M::Layout>(block, block_at, origin, target, steps)
    }

    #[inline]
    fn validate<Mo: Mode>(
        _: Internal,
        place: Place<'_>,
        mode: &Mo,
        depth: u32,
    ) -> Result<(), Error> {
        // A message with a tail nests in its region and counts towards the depth
        // limit; a fixed-size one is its block bytes, inline, and cannot recurse.
        let (bytes, at, depth) = if <Self as Kind>::IN_TAIL {
            (place.region, place.region_at, depth + 1)
        } else {
            (place.block, place.block_at, depth)
        };
        validate_message::<M::Layout, Mo>(bytes, mode, depth).map_err(|e| e.shift(at))
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: M::View<'v>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        M::__serialize_view(&view, s)
    }

    #[inline]
    fn validate_split<Mo: Mode>(
        _: Internal,
        block: &[u8],
        block_at: usize,
        origin: &[u8],
        mode: &Mo,
        depth: u32,
    ) -> Result<(), Error> {
        // An element with a tail is a nesting level, as a nested message with one.
        validate_split_block::<FieldsOf<M>, Mo>(
            block,
            block_at,
            origin,
            <M::Layout as Layout>::FIELD_NAMES,
            mode,
            depth + 1,
        )
    }

    #[inline(always)]
    unsafe fn read_split<'v>(_: Internal, block: NonNull<u8>, origin: NonNull<u8>) -> M::View<'v> {
        // SAFETY: forwarded to the caller: validation accepted the element as a
        // message of `M::Layout` with this block and origin (a message with a tail,
        // the only kind of message laid out as a split list).
        M::__view_of(unsafe { Validated::from_split(block, origin) })
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], region: &'v [u8]) -> M::View<'v> {
        let bytes = if <Self as Kind>::IN_TAIL {
            region
        } else {
            block
        };
        // SAFETY: the caller promises validation accepted exactly these bytes, which
        // it validated as a message of `M::Layout`.
        unsafe { view_of::<M>(bytes) }
    }

    #[inline]
    fn view_eq<'v>(_: Internal, a: M::View<'v>, b: M::View<'v>) -> bool
    where
        Self: 'v,
    {
        a == b
    }
}

/// A message without tail data or block length field is fixed-size and inline.
impl<M: WireMsg> FixedKind for crate::kind::Msg<M> where M::Layout: FixedLayout {}

/// Messages up to this many bytes are staged on the stack to be set in place.
const STAGE_LEN: usize = 256;

/// A fixed-size message is set in place as a whole: its encoding, which validation
/// checks before it is copied in (a hand-made `WireMsg` could encode anything), unless
/// every byte pattern of its block is a valid value. Nothing is written if the
/// encoding does not validate.
impl<'v, M: WireMsg> SetInPlace<'v, M> for crate::kind::Msg<M>
where
    M::Layout: FixedLayout,
{
    #[inline]
    fn set(_: Internal, value: &M, block: &mut [u8]) -> bool {
        let len = block_length::<M::Layout>();
        let Some(block) = block.get_mut(..len) else {
            return false;
        };
        if !<Self as Kind>::CHECKS {
            value.__write(block);
            return true;
        }
        let mut stack = [0u8; STAGE_LEN];
        let mut heap = alloc::vec::Vec::new();
        let stage = if len <= STAGE_LEN {
            &mut stack[..len]
        } else {
            heap.resize(len, 0);
            &mut heap[..]
        };
        value.__write(stage);
        if validate_message::<M::Layout, Checked>(stage, &Checked, 0).is_err() {
            return false;
        }
        block.copy_from_slice(stage);
        true
    }
}

/// A box of a fixed-size message is set in place as the message is.
impl<'v, M: crate::WireMsg> crate::field::SetInPlace<'v, alloc::boxed::Box<M>>
    for crate::kind::Msg<M>
where
    M::Layout: crate::layout::FixedLayout,
{
    #[inline(always)]
    fn set(
        i: crate::mode::sealed::Internal,
        value: &alloc::boxed::Box<M>,
        block: &mut [u8],
    ) -> bool {
        <Self as crate::field::SetInPlace<'v, M>>::set(i, value, block)
    }
}

impl<M: WireMsg> MessageKind for crate::kind::Msg<M> {
    type Msg = M;
}

impl<T: crate::Element> ListKind for crate::kind::ListOf<T> {
    type Element = T;
}

/// The header of a frame's message (its bytes after the frame's `u32` length),
/// checked as [`Template::view_with_header`](crate::Template::view_with_header)
/// checks it, and the view of the message after it, not validated: the trusted path
/// for a stream of several message types. The header's checks are O(1) (its template
/// id, schema id, version and block length, against `T` and the bytes' length, as
/// FORMAT.md §8 states them); the
/// message is read as [`view_unchecked`] reads it. A frame of another type is an
/// error, so a reader of a trusted stream can pick each frame's type by its header
/// (below) or by trying each type.
///
/// # Examples
///
/// ```
/// use wiremsg::{FrameReader, FrameWriter, MessageHeader, Template, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 1)]
/// struct NewOrder { id: u64, qty: u32, symbol: String }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 2)]
/// struct Cancel { id: u64 }
///
/// let mut writer = FrameWriter::new(Vec::new());
/// writer.write(&NewOrder { id: 1, qty: 100, symbol: "ESZ6".into() })?;
/// writer.write(&Cancel { id: 1 })?;
/// let stream = writer.into_inner();
///
/// // This process wrote every frame: their messages are valid.
/// let mut reader = FrameReader::new(&stream[..]);
/// let mut read = Vec::new();
/// while let Some(frame) = reader.next_frame()? {
///     match MessageHeader::read(frame)?.template_id {
///         NewOrder::TEMPLATE_ID => {
///             // SAFETY: every frame of this stream naming NewOrder is a valid one.
///             let (_, order) = unsafe { wiremsg::view_unchecked_with_header::<NewOrder>(frame)? };
///             read.push((order.id(), order.symbol().to_owned()));
///         }
///         Cancel::TEMPLATE_ID => {
///             // SAFETY: as above, for Cancel.
///             let (_, cancel) = unsafe { wiremsg::view_unchecked_with_header::<Cancel>(frame)? };
///             read.push((cancel.id(), String::new()));
///         }
///         _ => {}
///     }
/// }
/// assert_eq!(read, [(1, "ESZ6".to_owned()), (1, String::new())]);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Errors
///
/// The header's errors of [`Template::view_with_header`](crate::Template::view_with_header):
/// [`ErrorKind::UnexpectedTemplate`] for a frame of another type,
/// [`ErrorKind::SchemaMismatch`], [`ErrorKind::BlockLengthTooSmall`],
/// [`ErrorKind::HeaderMismatch`], and [`ErrorKind::Truncated`] if the header is cut
/// short or, for a message without a block length field (FORMAT.md §3: no tail, no
/// `#[wire(block_length)]`), the block it announces. (A message with that field
/// states its own block length, which the header must repeat; that its bytes are
/// all there is the caller's promise, not checked.)
///
/// # Safety
///
/// Where the header passes (this function returns `Ok`), the message after it must
/// pass [`WireMsg::view`]: `T::view(message)` returns `Ok`, where `message` is the
/// bytes after the 8-byte header, all of them for a message with a block length field
/// (a variable-size message, or `#[wire(block_length)]`), and the header's block
/// length of them otherwise. For a type whose
/// [`Template::view_with_header`](crate::Template::view_with_header) and
/// [`WireMsg::view`] are the provided methods (every derived type), that is
/// `T::view_with_header(bytes)` returning `Ok`. What is trusted is the validation
/// of `T`'s layout, which the provided `view` runs: a hand-written `view` or
/// `view_with_header` proves nothing here (this function calls neither).
#[inline]
pub unsafe fn view_unchecked_with_header<T: crate::Template>(
    bytes: &[u8],
) -> Result<(crate::MessageHeader, T::View<'_>), Error> {
    let (header, body) = crate::header::framed_body::<T>(bytes)?;
    // SAFETY: `body` is the message the safety contract names (the provided
    // `view_with_header` views the same range, by `header_of` and `body_range`),
    // and the caller promises `T::view` of it is `Ok`.
    Ok((header, unsafe { T::view_unchecked(&bytes[body]) }))
}

/// [`view_unchecked_with_header`] for the mutable view: the header checked, the
/// message after it trusted, to update a frame of a trusted stream in place.
///
/// # Examples
///
/// ```
/// use wiremsg::{Template, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 4)]
/// struct Fill { order: u64, filled: u32 }
///
/// let mut frame = Vec::new();
/// Fill { order: 9, filled: 0 }.encode_with_header(&mut frame)?;
/// // SAFETY: written just above.
/// let (_, mut fill) = unsafe { wiremsg::view_mut_unchecked_with_header::<Fill>(&mut frame)? };
/// fill.set_filled(300);
/// assert_eq!(Fill::view_with_header(&frame)?.1.filled(), 300);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Errors
///
/// As [`view_unchecked_with_header`].
///
/// # Safety
///
/// As [`view_unchecked_with_header`].
#[inline]
pub unsafe fn view_mut_unchecked_with_header<T: crate::Template>(
    bytes: &mut [u8],
) -> Result<(crate::MessageHeader, T::Mut<'_>), Error> {
    let (header, body) = crate::header::framed_body::<T>(bytes)?;
    // SAFETY: as in `view_unchecked_with_header`.
    Ok((header, unsafe { T::view_mut_unchecked(&mut bytes[body]) }))
}

/// Builds the view of a message over bytes known to be valid, skipping every check:
/// O(1), it reads nothing.
///
/// This is the fast path for bytes this process wrote itself or already validated
/// (for example, bytes kept after a successful `view`). On bytes that were never
/// validated, use [`WireMsg::view`].
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Note {
///     id: u32,
///     text: String,
/// }
///
/// let bytes = Note { id: 7, text: "hi".into() }.to_bytes().unwrap();
/// assert!(Note::view(&bytes).is_ok());
/// // SAFETY: `view` accepted these bytes just above.
/// let note = unsafe { wiremsg::view_unchecked::<Note>(&bytes) };
/// assert_eq!(note.text(), "hi");
/// ```
///
/// # Safety
///
/// `T::view(bytes)` must return `Ok`, `view` being the provided method (every
/// derived type's: what is trusted is the validation of `T`'s layout, which it runs;
/// a hand-written `view` proves nothing here). Reading bytes that do not pass `view` through
/// this function is undefined behaviour (out-of-bounds reads, invalid `str`).
#[inline(always)]
pub unsafe fn view_unchecked<T: crate::WireMsg>(bytes: &[u8]) -> T::View<'_> {
    // SAFETY: forwarded to the caller.
    unsafe { T::view_unchecked(bytes) }
}
