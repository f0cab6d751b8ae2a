//! On-demand validation: views whose accessors each check the bytes they read
//! (`WireMsg::view_lazy`), beside the up-front validation of `validated.rs`.
//!
//! Obtaining an on-demand view checks the message's header alone (its block length
//! against the bytes), in O(1). Each accessor then checks what it reads with the
//! same code up-front validation runs for that field (its slot, its end offsets, its
//! kind's `validate`), and only then reads it, so that a value read on demand is one
//! up-front validation would have accepted at that place. A nested message or list
//! is itself an on-demand view ([`LazyMsg`], [`LazyList`]), and so is an option's
//! present value and a union's payload: a read deep inside a large message checks
//! the regions on its path and nothing else. An element of a split list checks its
//! block length when it is read, and its tail's bounds when a tail field is. A map
//! ([`LazyMap`](crate::LazyMap), `lazy_map.rs`) checks its keys and their order when
//! it is read and each entry when that entry is. The other kinds (text, numbers,
//! enums, arrays, tuples) are checked whole when their field is read, then read as
//! the up-front view reads them.
//!
//! Errors are those of up-front validation: the same kinds, with byte offsets from
//! the start of the root message and the path from it. A view keeps only its
//! [`Root`] (the root's bytes and how to walk them): the path is found when an error
//! is built, by a walk from the root to the view (`locate`), which allocates; reads
//! never do.

use crate::field::{Element, Field, ListEncoding};
use crate::kind::Invariant;
use crate::layout::{At, Layout, block_length, has_block_length, min_block_length, offset, prefix};
use crate::layout::{FieldList, FieldPos, Walk};
use crate::mode::Checked;
use crate::mode::sealed::{INTERNAL, Internal, Place};
use crate::primitives_le::read_u32;
use crate::trust::shape::{Kind, dense};
use crate::validated::{
    FieldAt, Validated, bad_end_offset, block_header, block_length_too_small, check_depth,
    validate_message, validate_split_block,
};
use crate::{Error, WireMsg};
use alloc::vec::Vec;
use core::any::TypeId;
use core::cell::Cell;
use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// What an accessor of an on-demand view returns for a field of type `F`: the
/// on-demand view of a nested message (`{Name}Lazy<'v>`), a [`LazyList`] for a list,
/// a [`LazyMap`](crate::LazyMap) for a map, and for every other type the value the
/// up-front view's accessor returns
/// ([`ViewOf`](crate::ViewOf)), checked when it was read.
pub type LazyOf<'v, F> = <<F as Field>::Kind as Kind>::Lazy<'v>;

/// One step of a path from the root message: into a field (or a union's variant),
/// or into a list element.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum Step {
    Field(&'static str),
    Index(usize),
}

/// What an on-demand view is, for [`Root::error`] to find its path: the address of
/// the bytes its offsets count from, and for a message the address of its block and
/// its layout's type (an inline message may start where the one holding it does, and
/// two elements of a split list may share an origin).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Target {
    addr: usize,
    what: What,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    /// A message, known by its block (unique: two elements of a split list may
    /// share an origin, never a block) and its layout (an inline message may start
    /// where the message that holds it does).
    Message {
        block: usize,
        layout: TypeId,
    },
    List,
}

impl Target {
    /// True if `block` is the block of the message of layout `L` this is.
    #[inline]
    fn is_message<L: Layout>(&self, block: &[u8]) -> bool {
        self.what
            == What::Message {
                block: block.as_ptr().addr(),
                layout: TypeId::of::<L>(),
            }
    }

    /// True if `region` is the list this is.
    #[inline]
    fn is_list(&self, region: &[u8]) -> bool {
        self.what == What::List && self.addr == region.as_ptr().addr()
    }

    /// True if the address is inside `bytes`.
    #[inline]
    pub(crate) fn inside(&self, bytes: &[u8]) -> bool {
        let start = bytes.as_ptr().addr();
        (start..start + bytes.len()).contains(&self.addr)
    }

    /// The address, from the start of `bytes`, if it is inside them.
    #[inline]
    pub(crate) fn offset_in(&self, bytes: &[u8]) -> Option<usize> {
        self.inside(bytes)
            .then(|| self.addr - bytes.as_ptr().addr())
    }
}

/// Finds the path from a root message (or union value) to an on-demand view: the
/// root's kind's `locate`, for [`Root::error`].
type Locate = fn(&[u8], &Target, &mut Vec<Step>) -> bool;

/// The root of an on-demand view: the bytes it was made from, and how to find the
/// path of a view inside them. Every view holds it (three words), so that its errors
/// name the path and offset from the root that up-front validation gives; the path
/// is found when an error is built, by a walk from the root to the view along the
/// offsets the view's reads checked on their way down.
#[derive(Clone, Copy)]
pub struct Root<'v> {
    bytes: &'v [u8],
    locate: Locate,
}

impl fmt::Debug for Root<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Root")
            .field("len", &self.bytes.len())
            .finish_non_exhaustive()
    }
}

impl<'v> Root<'v> {
    /// The root of a message of layout `L` over `bytes`.
    #[inline(always)]
    pub(crate) fn message<L: Layout>(bytes: &'v [u8]) -> Self {
        Root {
            bytes,
            locate: locate_message::<L>,
        }
    }

    /// The root of message `M` after a message header (FORMAT.md §8), in `frame`
    /// (header and message): offsets count from the header's start and paths from
    /// the message, as [`Template::view_with_header`](crate::Template::view_with_header)'s.
    #[inline(always)]
    pub(crate) fn framed<M: crate::Template>(frame: &'v [u8]) -> Self {
        Root {
            bytes: frame,
            locate: locate_framed::<M>,
        }
    }

    /// The root of a value of union `L` over `bytes`.
    #[inline(always)]
    pub(crate) fn union<L: crate::union::UnionLayout>(bytes: &'v [u8]) -> Self {
        Root {
            bytes,
            locate: crate::union::locate_union::<L>,
        }
    }

    /// `err`, whose offset counts from `origin` (the bytes of the view `target`) and
    /// whose path from the view, as up-front validation of the root reports it: its
    /// offset from the root's start, and the path to the view before its own. If the
    /// view cannot be found (only bytes whose order up-front validation refuses
    /// elsewhere can hide it), the path starts at the view.
    // By value, as the views' error paths call it: a view whose address reached a
    // call, even on a cold path, stays in memory, and its hot reads then reload it
    // (a 16-byte reload of two 8-byte stores stalled `order`'s read on demand).
    #[cold]
    #[inline(never)]
    pub(crate) fn error(self, err: Error, origin: &[u8], target: Target) -> Error {
        let mut err = err.shift(
            origin
                .as_ptr()
                .addr()
                .wrapping_sub(self.bytes.as_ptr().addr()),
        );
        let mut steps = Vec::new();
        if (self.locate)(self.bytes, &target, &mut steps) {
            for step in steps.iter().rev() {
                err = match *step {
                    Step::Field(name) => err.in_field(name),
                    Step::Index(index) => err.in_element(index),
                };
            }
        }
        err
    }
}

/// Finds the message `target` in the message of layout `L` over `bytes` (a field's
/// bytes: its region, or its block inline), pushing the steps to it; false if it is
/// not there. Follows the reads of the on-demand views, without their checks: where
/// they are broken, there is no view to find.
pub(crate) fn locate_message<L: Layout>(
    bytes: &[u8],
    target: &Target,
    steps: &mut Vec<Step>,
) -> bool {
    let Ok(declared) =
        block_header::<L::Fields>(bytes, has_block_length::<L>(), min_block_length::<L>())
    else {
        return false;
    };
    let block = bytes.get(..declared).unwrap_or_default();
    if target.is_message::<L>(block) {
        return true;
    }
    locate_fields::<L>(block, 0, bytes, target, steps)
}

/// Finds the message `target` in message `M` after the header at the start of
/// `frame`, as [`locate_message`] does in the message alone.
fn locate_framed<M: crate::Template>(frame: &[u8], target: &Target, steps: &mut Vec<Step>) -> bool {
    crate::MessageHeader::read(frame)
        .and_then(|header| crate::header::body_range::<M>(header, frame))
        .is_ok_and(|body| {
            let body = frame.get(body).unwrap_or_default();
            locate_message::<M::Layout>(body, target, steps)
        })
}

/// Finds the message `target` in the element of a split list of messages of layout
/// `L` with this block and origin.
pub(crate) fn locate_split<L: Layout>(
    block: &[u8],
    block_at: usize,
    origin: &[u8],
    target: &Target,
    steps: &mut Vec<Step>,
) -> bool {
    if target.is_message::<L>(block) {
        return true;
    }
    locate_fields::<L>(block, block_at, origin, target, steps)
}

/// Finds `target` in the field of layout `L` whose block or region holds it.
fn locate_fields<L: Layout>(
    block: &[u8],
    block_at: usize,
    bytes: &[u8],
    target: &Target,
    steps: &mut Vec<Step>,
) -> bool {
    let declared = block.len();
    let mut walk = Walk {
        block,
        block_at,
        bytes,
        known_end: declared.min(block_length::<L>()),
        prev_end: declared,
        names: L::FIELD_NAMES,
    };
    L::Fields::locate(INTERNAL, &mut walk, prefix::<L>(), 0, target, steps).unwrap_or(false)
}

/// Finds `target` in the list of `T` in `region`.
pub(crate) fn locate_list<T: Element>(
    region: &[u8],
    target: &Target,
    steps: &mut Vec<Step>,
) -> bool {
    type K<T> = <T as Field>::Kind;
    if region.is_empty() {
        return false;
    }
    if target.is_list(region) {
        return true;
    }
    let (Some(rel), Ok((len, stride))) = (target.offset_in(region), header::<T>(region, 0)) else {
        return false;
    };
    match <K<T> as Kind>::LIST_ENCODING {
        ListEncoding::Packed | ListEncoding::Strided => {
            let first = if <K<T> as Kind>::LIST_ENCODING == ListEncoding::Packed {
                0
            } else {
                2
            };
            let Some(i) = rel
                .checked_sub(first)
                .map(|r| r / stride.max(1))
                .filter(|&i| i < len)
            else {
                return false;
            };
            let at = first + i * stride;
            let block = region.get(at..at + stride).unwrap_or_default();
            steps.push(Step::Index(i));
            <K<T> as Kind>::locate(INTERNAL, Place::block(block, 0), target, steps)
        }
        ListEncoding::Split => {
            let block_len = stride;
            let stride = block_len + 4;
            let tail_start = |i: usize| {
                if i < len {
                    read_u32(region, i * stride).map(|t| t as usize)
                } else {
                    Some(region.len())
                }
            };
            // The element whose block is the target's (elements with empty tails
            // share an origin), else the one whose slot or tail holds it.
            let own = match target.what {
                What::Message { block, .. } => block
                    .checked_sub(region.as_ptr().addr() + 4)
                    .filter(|b| b % stride == 0 && b / stride < len)
                    .map(|b| b / stride),
                What::List => None,
            };
            // Found by position, not by a scan: an error of each of N elements then
            // costs O(log N) here, not O(N) (N errors, O(N²)).
            let held = || {
                let i = if rel < len * stride {
                    rel / stride
                } else {
                    last_at_or_before(len, rel, |i| tail_start(i).unwrap_or(0))?
                };
                let slot = region.get(i * stride..(i + 1) * stride).unwrap_or_default();
                let tail = match (tail_start(i), tail_start(i + 1)) {
                    (Some(start), Some(end)) => region.get(start..end).unwrap_or_default(),
                    _ => &[],
                };
                (target.inside(slot) || target.inside(tail)).then_some(i)
            };
            let Some(i) = own.or_else(held) else {
                return false;
            };
            let (Some(start), Some(end)) = (tail_start(i), tail_start(i + 1)) else {
                return false;
            };
            let block = region
                .get(i * stride + 4..(i + 1) * stride)
                .unwrap_or_default();
            let origin_at = start.saturating_sub(block_len);
            let origin = region.get(origin_at..end).unwrap_or_default();
            steps.push(Step::Index(i));
            let block_at = (i * stride + 4).wrapping_sub(origin_at);
            <K<T> as Kind>::locate_split(INTERNAL, block, block_at, origin, target, steps)
        }
        ListEncoding::Dense => {
            let tag = <K<T> as Kind>::DENSE_TAG;
            let d = dense::Dense::of(region, len, stride, tag);
            let Some(i) = rel
                .checked_sub(d.first)
                .map(|r| r / stride.max(1))
                .filter(|&i| i < len)
            else {
                return false;
            };
            let Ok((value, start, block)) = dense::element(region, 0, &d, i, tag) else {
                return false;
            };
            let payload = region.get(start..start + block).unwrap_or_default();
            steps.push(Step::Index(i));
            <K<T> as Kind>::locate_dense(INTERNAL, value, payload, target, steps)
        }
        ListEncoding::Table => {
            // The last element that starts at or before the target: elements that
            // start there before it are empty (as in the split list, by a binary
            // search rather than a scan).
            let start_of = |i: usize| read_u32(region, 4 * i).map_or(0, |t| t as usize);
            let Some(i) = last_at_or_before(len, rel, start_of) else {
                return false;
            };
            let end = if i + 1 < len {
                start_of(i + 1)
            } else {
                region.len()
            };
            match region.get(start_of(i)..end) {
                Some(element) if target.inside(element) => {
                    steps.push(Step::Index(i));
                    let place = Place {
                        block: &[],
                        block_at: 0,
                        region: element,
                        region_at: 0,
                    };
                    <K<T> as Kind>::locate(INTERNAL, place, target, steps)
                }
                _ => false,
            }
        }
    }
}

/// The last of the `len` elements whose start (`start_of`, in increasing order where
/// the list is valid) is at or before `at`; `None` if none is. Where the starts are
/// out of order (bytes up-front validation refuses), the element found may not hold
/// `at`: the callers check that it does, and otherwise find no path.
fn last_at_or_before(len: usize, at: usize, start_of: impl Fn(usize) -> usize) -> Option<usize> {
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if start_of(mid) <= at {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo.checked_sub(1)
}

/// A field read on demand as up-front validation checks it, whole: its kind's
/// validation of its bytes, then its read.
#[inline(always)]
pub(crate) fn eager<'v, K: Kind>(
    i: Internal,
    place: Place<'v>,
    depth: u32,
) -> Result<K::View<'v>, Error> {
    K::validate(i, place, &Checked, depth)?;
    // SAFETY: validation accepted exactly these bytes for kind `K`.
    Ok(unsafe { K::read(i, place.block, place.region) })
}

/// An element of a split list read on demand, whole, as [`eager`].
#[inline(always)]
pub(crate) fn eager_split<'v, K: Kind>(
    i: Internal,
    block: &'v [u8],
    block_at: usize,
    origin: &'v [u8],
    depth: u32,
) -> Result<K::View<'v>, Error> {
    K::validate_split(i, block, block_at, origin, &Checked, depth)?;
    // SAFETY: validation accepted the element with this block and origin, both in
    // bytes borrowed for `'v`; `validate_split` accepts only kinds laid out so.
    Ok(unsafe { K::read_split(i, NonNull::from(block).cast(), NonNull::from(origin).cast()) })
}

/// A message of layout `L` whose header was checked and whose fields are checked as
/// they are read: what a generated `{Name}Lazy` view holds.
pub struct LazyMsg<'v, L> {
    /// The block: its block length bytes (or, without a block length field, the
    /// bytes given up to this reader's block length).
    block: &'v [u8],
    /// Where `block` is from the start of `bytes` (wrapping: before it, for an element
    /// of a split list).
    block_at: usize,
    /// The bytes the end offsets count in, from their origin to the end of the
    /// message's region (for a root message, the whole buffer); for an element of a
    /// split list, the list's region, in which its origin and its region's end are
    /// found (and checked) when a tail field is read.
    bytes: &'v [u8],
    /// For an element of a split list: its index and the list's element count.
    element: Option<(usize, usize)>,
    /// For an element of a split list, once a tail field was read: its origin and
    /// end in `bytes` (`origin << 32 | end`, both below 2^32 in a list), checked; 0
    /// before. A cache: the view is `Send` but not `Sync` (copy it to share it).
    tail: Cell<u64>,
    depth: u32,
    root: Root<'v>,
    _layout: Invariant<L>,
}

/// Why an on-demand read failed: at the view (its error counts from the view's
/// bytes, its path from the view), or already as up-front validation reports it.
enum Failure {
    View(Error),
    Done(Error),
}

impl From<Error> for Failure {
    #[inline(always)]
    fn from(err: Error) -> Self {
        Failure::View(err)
    }
}

impl<L> Clone for LazyMsg<'_, L> {
    #[inline(always)]
    fn clone(&self) -> Self {
        LazyMsg {
            block: self.block,
            block_at: self.block_at,
            bytes: self.bytes,
            element: self.element,
            tail: self.tail.clone(),
            depth: self.depth,
            root: self.root,
            _layout: PhantomData,
        }
    }
}

impl<L> fmt::Debug for LazyMsg<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazyMsg")
            .field("depth", &self.depth)
            .finish_non_exhaustive()
    }
}

impl<'v, L: Layout> LazyMsg<'v, L> {
    /// The on-demand view of a root message: its header checked.
    ///
    /// # Errors
    ///
    /// As up-front validation of the header: `Truncated`, `BlockLengthTooSmall`.
    #[inline]
    pub(crate) fn root(bytes: &'v [u8]) -> Result<Self, Error> {
        Self::enter(bytes, 0, Root::message::<L>(bytes))
    }

    /// The message over `bytes` at nesting `depth`, inside `root`; errors count from
    /// `bytes`' start and name no path.
    #[inline(always)]
    fn enter(bytes: &'v [u8], depth: u32, root: Root<'v>) -> Result<Self, Error> {
        check_depth(depth)?;
        let declared =
            block_header::<L::Fields>(bytes, has_block_length::<L>(), min_block_length::<L>())?;
        // SAFETY: both checks passed, just above.
        Ok(unsafe { Self::from_header(bytes, declared, depth, root) })
    }

    /// The message over `bytes` whose header check (`enter`'s) was made: by `enter`,
    /// or elsewhere with the same numbers (a union's payload, checked by the union's
    /// table of its variants' headers before the dispatch on the tag,
    /// `union::lazy_union`, so that the dispatch's arms are alike).
    ///
    /// # Safety
    ///
    /// `check_depth(depth)` passed, and `block_header::<L::Fields>(bytes,
    /// has_block_length::<L>(), min_block_length::<L>())` returned `Ok(declared)`.
    #[inline(always)]
    pub(crate) unsafe fn from_header(
        bytes: &'v [u8],
        declared: usize,
        depth: u32,
        root: Root<'v>,
    ) -> Self {
        debug_assert_eq!(
            block_header::<L::Fields>(bytes, has_block_length::<L>(), min_block_length::<L>()).ok(),
            Some(declared)
        );
        // SAFETY: the header check passed with `declared` (the caller's promise), and
        // it lets no block shorter than the minimum through. Said here for callers
        // whose check's numbers came from a table: reads of version-1 fields then
        // need no test of the block's length.
        unsafe { core::hint::assert_unchecked(declared >= min_block_length::<L>()) };
        LazyMsg {
            block: bytes.get(..declared).unwrap_or_default(),
            block_at: 0,
            bytes,
            element: None,
            tail: Cell::new(0),
            depth,
            root,
            _layout: PhantomData,
        }
    }

    /// The nested message in `place`, a field at nesting `depth`: a message with a
    /// tail in its region, one level deeper; a fixed-size one in its block bytes.
    #[inline(always)]
    fn nested(place: Place<'v>, root: &Root<'v>, depth: u32) -> Result<Self, Error> {
        let (bytes, at, depth) = if has_block_length::<L>() {
            (place.region, place.region_at, depth.saturating_add(1))
        } else {
            (place.block, place.block_at, depth)
        };
        Self::enter(bytes, depth, *root).map_err(|e| e.shift(at))
    }

    /// Element `index` of the `count` of the split list `list` (FORMAT.md §6.3),
    /// whose block (of the list's block length) the list checked; errors count from
    /// the list and name the element. Its tail start and end are checked when a tail
    /// field is read: a read of its block alone needs neither.
    #[inline(always)]
    fn split(
        block: &'v [u8],
        list: &'v [u8],
        index: usize,
        count: usize,
        root: &Root<'v>,
        depth: u32,
    ) -> Result<Self, Error> {
        let depth = depth.saturating_add(1);
        if let Err(err) = check_depth(depth) {
            // Where up-front validation reports it: at the element's origin.
            let origin_at = split_start(list, index, block.len()).wrapping_sub(block.len());
            return Err(err.shift(origin_at).in_element(index));
        }
        Ok(LazyMsg {
            block,
            block_at: index * (block.len() + 4) + 4,
            bytes: list,
            element: Some((index, count)),
            tail: Cell::new(0),
            depth,
            root: *root,
            _layout: PhantomData,
        })
    }

    /// Where the end offsets count from, from the start of `bytes`, and where the
    /// message's bytes end: for an element of a split list, its tail start minus its
    /// block length and its tail's end, checked as up-front validation checks them
    /// (errors as it reports them); otherwise the whole of `bytes`.
    #[inline(always)]
    fn origin(&self) -> Result<(usize, usize), Failure> {
        match self.element {
            None => Ok((0, self.bytes.len())),
            Some((index, count)) => {
                let known = self.tail.get();
                if known != 0 {
                    return Ok(((known >> 32) as usize, known as u32 as usize));
                }
                let (origin, end) = split_origin(self.bytes, index, count, self.block.len())
                    .map_err(|e| Failure::Done(self.list_error(e)))?;
                // Both inside a list region, whose offsets are `u32`s; the origin is
                // past the first tail start slot, so the cache is never 0.
                self.tail.set(((origin as u64) << 32) | end as u64);
                Ok((origin, end))
            }
        }
    }

    /// An error of the split list that holds this element, as up-front validation
    /// reports it.
    #[inline(always)]
    fn list_error(&self, err: Error) -> Error {
        list_error(self.root, self.bytes, err)
    }

    /// `err`, counting from this message's bytes with its path from here, as up-front
    /// validation of the root reports it.
    #[inline(always)]
    fn error(&self, err: Error) -> Error {
        message_error::<L>(self.root, self.bytes, self.block.as_ptr().addr(), err)
    }

    /// The end of the block this reader knows: `min(block length, its own)`.
    #[inline(always)]
    fn known_end(&self) -> usize {
        self.block.len().min(block_length::<L>())
    }

    /// True if the writer's version had field `I` (its slot is inside the block).
    #[inline]
    pub fn has<I>(&self) -> bool
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        offset::<L, I>() + <<FieldAt<L, I> as Field>::Kind as Kind>::BLOCK_SIZE <= self.known_end()
    }

    /// Field `I`, checked as up-front validation checks it; `None` if the writer's
    /// version did not have it.
    ///
    /// # Errors
    ///
    /// What up-front validation reports for the field: its slot cut by the block
    /// length, its end offsets out of order or range, its bytes (text, `bool`, enum,
    /// presence bytes; a nested message's or list's header).
    #[inline(always)]
    pub fn try_get<I>(&self) -> Result<Option<LazyOf<'v, FieldAt<L, I>>>, Error>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        self.read::<I>().map_err(|failure| self.failure(failure))
    }

    /// The error a read's `failure` is, as up-front validation of the root reports it.
    #[inline(always)]
    fn failure(&self, failure: Failure) -> Error {
        match failure {
            Failure::View(err) => self.error(err),
            Failure::Done(err) => err,
        }
    }

    /// Field `I`, which every version has (a compile error otherwise).
    ///
    /// # Errors
    ///
    /// As [`try_get`](Self::try_get).
    #[inline(always)]
    pub fn get<I>(&self) -> Result<LazyOf<'v, FieldAt<L, I>>, Error>
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
        match self.try_get::<I>()? {
            Some(value) => Ok(value),
            None => Err(self.cut_block()),
        }
    }

    /// The error of a field of version 1 read as absent: never made, since the header
    /// check proved the block of version 1, which holds every such field.
    #[cold]
    pub(crate) fn cut_block(&self) -> Error {
        self.error(block_length_too_small(
            self.known_end(),
            min_block_length::<L>(),
            1,
        ))
    }

    /// The field at `pos`, checked as [`try_get`](Self::try_get) checks it.
    ///
    /// # Errors
    ///
    /// As [`try_get`](Self::try_get).
    #[inline]
    pub(crate) fn field<F: Field>(
        &self,
        pos: FieldPos<L, F>,
    ) -> Result<Option<LazyOf<'v, F>>, Error> {
        self.read_at::<F>(pos.off, pos.index, pos.since, pos.prev)
            .map_err(|failure| self.failure(failure))
    }

    /// [`try_get`](Self::try_get), errors counting from `bytes` with the field's name.
    #[inline(always)]
    fn read<I>(&self) -> Result<Option<LazyOf<'v, FieldAt<L, I>>>, Failure>
    where
        L::Fields: At<I>,
    {
        let prev = match (
            <L::Fields as At<I>>::PREV_INDEX,
            <L::Fields as At<I>>::PREV_END,
        ) {
            (Some(index), Some(slot)) => Some((index, slot)),
            _ => None,
        };
        self.read_at::<FieldAt<L, I>>(
            offset::<L, I>(),
            <L::Fields as At<I>>::INDEX,
            <L::Fields as At<I>>::SINCE,
            prev,
        )
    }

    /// Reads the field of type `F` whose slot is at `off` from the start of the
    /// message, index `index`, added in version `since`, after the tail field
    /// `prev` (its index and end-offset slot from the start of the field list):
    /// its `At` facts.
    #[inline(always)]
    fn read_at<F: Field>(
        &self,
        off: usize,
        index: usize,
        since: u16,
        prev: Option<(usize, usize)>,
    ) -> Result<Option<LazyOf<'v, F>>, Failure> {
        let name = field_name::<L>(index);
        let end = off + <F::Kind as Kind>::BLOCK_SIZE;
        let known_end = self.known_end();
        // A field of version 1 is in every block the header check let through: the
        // test folds away for it.
        if end > min_block_length::<L>() && end > known_end {
            // As the walk of up-front validation: absent, or cut (no version's block).
            if off < known_end {
                return Err(Failure::View(
                    block_length_too_small(known_end, end, since)
                        .shift(self.block_at)
                        .in_field(name),
                ));
            }
            return Ok(None);
        }
        let block = self.block.get(off..end).unwrap_or_default();
        let block_at = self.block_at.wrapping_add(off);
        let place = if <F::Kind as Kind>::IN_TAIL {
            let (start, region_end) = self.region(end - 4, name, prev)?;
            Place {
                block,
                block_at,
                region: self.bytes.get(start..region_end).unwrap_or_default(),
                region_at: start,
            }
        } else {
            Place::block(block, block_at)
        };
        <F::Kind as Kind>::lazy(INTERNAL, place, &self.root, self.depth)
            .map(Some)
            .map_err(|e| Failure::View(e.in_field(name)))
    }

    /// The tail region of the field whose end offset is at `slot` of the block, after
    /// the tail field `prev` (as [`read_at`](Self::read_at)): from the end offset of
    /// that field (or the block length) to its own, checked in order and inside the
    /// message's bytes, and not before the block length (FORMAT.md §3). Returned from
    /// the start of `bytes`.
    #[inline(always)]
    fn region(
        &self,
        slot: usize,
        name: &'static str,
        prev: Option<(usize, usize)>,
    ) -> Result<(usize, usize), Failure> {
        let (origin, end) = self.origin()?;
        let (start, end) = self.region_from_origin(slot, name, prev, end - origin)?;
        Ok((origin + start, origin + end))
    }

    /// [`region`](Self::region) from the origin, in the `len` bytes from there to the
    /// end of the message; errors count from `bytes`.
    #[inline(always)]
    fn region_from_origin(
        &self,
        slot: usize,
        name: &'static str,
        prev: Option<(usize, usize)>,
        len: usize,
    ) -> Result<(usize, usize), Error> {
        let declared = self.block.len();
        let root = self.depth == 0;
        let start = match prev {
            Some((index, prev)) => {
                let prev = prefix::<L>() + prev;
                let start = read_u32(self.block, prev).unwrap_or(0) as usize;
                if start < declared || start > len {
                    return Err(bad_end_offset(
                        start,
                        declared,
                        len,
                        self.block_at.wrapping_add(prev),
                        root,
                    )
                    .in_field(field_name::<L>(index)));
                }
                start
            }
            None => declared,
        };
        let end = read_u32(self.block, slot).unwrap_or(0) as usize;
        if end < start || end > len {
            return Err(
                bad_end_offset(end, start, len, self.block_at.wrapping_add(slot), root)
                    .in_field(name),
            );
        }
        Ok((start, end))
    }

    /// Validates the rest of the message, as up-front validation does, and returns
    /// the proof its up-front view holds.
    ///
    /// # Errors
    ///
    /// Any error of up-front validation of the message's bytes.
    #[inline]
    pub fn validate(&self) -> Result<Validated<'v, L>, Error> {
        if self.element.is_some() {
            let (origin_at, end) = self.origin().map_err(|failure| match failure {
                Failure::View(err) => self.error(err),
                Failure::Done(err) => err,
            })?;
            let origin = self.bytes.get(origin_at..end).unwrap_or_default();
            validate_split_block::<L::Fields, Checked>(
                self.block,
                self.block_at.wrapping_sub(origin_at),
                origin,
                L::FIELD_NAMES,
                &Checked,
                self.depth,
            )
            .map_err(|e| self.error(e.shift(origin_at)))?;
            // SAFETY: validated just above, as an element of a split list with this
            // block and origin, in bytes borrowed for `'v`; only messages with a
            // block length field are laid out so.
            return Ok(unsafe {
                Validated::from_split(
                    NonNull::from(self.block).cast(),
                    NonNull::from(origin).cast(),
                )
            });
        }
        let bytes = if has_block_length::<L>() {
            self.bytes
        } else {
            self.block
        };
        if self.depth == 0 {
            crate::batch::check::<L>(bytes).map_err(|e| self.error(e))?;
        } else {
            validate_message::<L, Checked>(bytes, &Checked, self.depth)
                .map_err(|e| self.error(e))?;
        }
        // SAFETY: validated just above as a message of layout `L`.
        Ok(unsafe { Validated::new_unchecked(bytes) })
    }
}

/// `err` of the list over `bytes`, counting from them with its path from there, as
/// up-front validation of `root` reports it. Out of line and given its parts by
/// value, so that no view's address reaches a call (see [`Root::error`]).
#[cold]
#[inline(never)]
fn list_error(root: Root<'_>, bytes: &[u8], err: Error) -> Error {
    let target = Target {
        addr: bytes.as_ptr().addr(),
        what: What::List,
    };
    root.error(err, bytes, target)
}

/// `err` of the message of layout `L` whose block starts at address `block` and
/// whose end offsets count in `bytes`, as [`list_error`] for a list.
#[cold]
#[inline(never)]
fn message_error<L: Layout>(root: Root<'_>, bytes: &[u8], block: usize, err: Error) -> Error {
    let target = Target {
        addr: bytes.as_ptr().addr(),
        what: What::Message {
            block,
            layout: TypeId::of::<L>(),
        },
    };
    root.error(err, bytes, target)
}

/// The tail start of element `index` of a split list `list` whose elements have
/// blocks of `block` bytes (0 where the list is too short: never, past its header).
#[inline(always)]
fn split_start(list: &[u8], index: usize, block: usize) -> usize {
    read_u32(list, index * (block + 4)).map_or(0, |t| t as usize)
}

/// The origin of element `index` of the `count` of split list `list` (its tail
/// start minus its block length) and its tail's end (the next tail start, or the
/// list's end), checked as up-front validation checks them: the tail start not
/// before the blocks' end nor past the list, the end not before it nor past the list
/// (FORMAT.md §6.3). Errors count from the list and name the element.
#[inline(always)]
pub(crate) fn split_origin(
    list: &[u8],
    index: usize,
    count: usize,
    block: usize,
) -> Result<(usize, usize), Error> {
    let stride = block + 4;
    let blocks_end = count * stride;
    let start = split_start(list, index, block);
    if start < blocks_end || start > list.len() {
        return Err(
            bad_end_offset(start, blocks_end, list.len(), index * stride, false).in_element(index),
        );
    }
    let end = crate::trust::shape::list::split_end(list, 0, index, count, block, start)?;
    // `start >= blocks_end > block`: the origin is inside the list.
    Ok((start - block, end))
}

/// The name of field `index` of layout `L`, for error paths.
#[inline(always)]
fn field_name<L: Layout>(index: usize) -> &'static str {
    L::FIELD_NAMES.get(index).copied().unwrap_or("?")
}

/// The on-demand view of `bytes` as message `M`, for [`WireMsg::view_lazy`].
#[inline]
pub(crate) fn view_of<M: WireMsg>(bytes: &[u8]) -> Result<M::Lazy<'_>, Error> {
    LazyMsg::<M::Layout>::root(bytes).map(M::__lazy_of)
}

/// The on-demand view of message `M` at `body` in `frame`, after its message header,
/// for [`Template::view_lazy_with_header`](crate::Template::view_lazy_with_header):
/// errors count from the header's start.
#[inline]
pub(crate) fn framed_view_of<M: crate::Template>(
    frame: &[u8],
    body: core::ops::Range<usize>,
) -> Result<M::Lazy<'_>, Error> {
    let start = body.start;
    let bytes = frame.get(body).unwrap_or_default();
    LazyMsg::<M::Layout>::enter(bytes, 0, Root::framed::<M>(frame))
        .map(M::__lazy_of)
        .map_err(|e| e.shift(start))
}

/// The kinds whose on-demand reads are on-demand views: messages.
impl<M: WireMsg> crate::kind::Msg<M> {
    #[inline(always)]
    pub(crate) fn lazy_of<'v>(
        place: Place<'v>,
        root: &Root<'v>,
        depth: u32,
    ) -> Result<M::Lazy<'v>, Error> {
        LazyMsg::<M::Layout>::nested(place, root, depth).map(M::__lazy_of)
    }

    #[inline(always)]
    pub(crate) fn lazy_split_of<'v>(
        block: &'v [u8],
        list: &'v [u8],
        index: usize,
        count: usize,
        root: &Root<'v>,
        depth: u32,
    ) -> Result<M::Lazy<'v>, Error> {
        LazyMsg::<M::Layout>::split(block, list, index, count, root, depth).map(M::__lazy_of)
    }
}

/// An element of a split list read on demand, whole (a tuple's): its origin and end
/// checked ([`split_origin`]), then [`eager_split`]. Errors count from the list and
/// name the element.
#[inline]
pub(crate) fn eager_split_element<'v, K: Kind>(
    i: Internal,
    block: &'v [u8],
    list: &'v [u8],
    index: usize,
    count: usize,
    depth: u32,
) -> Result<K::View<'v>, Error> {
    let (origin_at, end) = split_origin(list, index, count, block.len())?;
    let origin = list.get(origin_at..end).unwrap_or_default();
    let block_at = (index * (block.len() + 4) + 4).wrapping_sub(origin_at);
    eager_split::<K>(i, block, block_at, origin, depth)
        .map_err(|e| e.shift(origin_at).in_element(index))
}

/// The on-demand view of message `M` as a union's payload: `bytes`, at nesting
/// `depth` (the union's level below its holder, counted).
#[inline(always)]
pub(crate) fn payload<'v, M: WireMsg>(
    bytes: &'v [u8],
    root: &Root<'v>,
    depth: u32,
) -> Result<M::Lazy<'v>, Error> {
    LazyMsg::<M::Layout>::enter(bytes, depth, *root).map(M::__lazy_of)
}

/// [`payload`] whose header check was made: the on-demand view of message `M` over
/// `bytes`, a block of `declared` bytes.
///
/// # Safety
///
/// As [`LazyMsg::from_header`] for `M::Layout`.
#[inline(always)]
pub(crate) unsafe fn checked_payload<'v, M: WireMsg>(
    bytes: &'v [u8],
    declared: usize,
    root: &Root<'v>,
    depth: u32,
) -> M::Lazy<'v> {
    // SAFETY: forwarded to the caller.
    M::__lazy_of(unsafe { LazyMsg::<M::Layout>::from_header(bytes, declared, depth, *root) })
}

/// A list whose header was checked and whose elements are checked as they are read
/// (FORMAT.md §6): what an on-demand view returns for a list field.
///
/// [`get`](Self::get) checks element `i` (its block, its tail region's offsets, its
/// bytes) and nothing else; [`to_view`](Self::to_view) checks the rest and returns the
/// up-front view.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Leg { venue: String, qty: u32 }
///
/// #[derive(WireMsg, Debug)]
/// struct Order { id: u64, legs: Vec<Leg> }
///
/// let order = Order { id: 7, legs: vec![Leg { venue: "XNAS".into(), qty: 5 }] };
/// let bytes = order.to_bytes()?;
/// let lazy = Order::view_lazy(&bytes)?; // checks the header alone
/// let legs = lazy.legs()?; // the list's header
/// assert_eq!(legs.len(), 1);
/// let leg = legs.get(0).unwrap()?; // element 0's block and offsets
/// assert_eq!((leg.venue()?, leg.qty()?), ("XNAS", 5));
/// # Ok::<(), wiremsg::Error>(())
/// ```
pub struct LazyList<'v, T> {
    /// The list's tail region.
    bytes: &'v [u8],
    len: usize,
    /// The element size (packed), stride (strided) or block length (split).
    stride: usize,
    depth: u32,
    root: Root<'v>,
    _element: Invariant<T>,
}

impl<T> Clone for LazyList<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for LazyList<'_, T> {}

impl<T: Element> fmt::Debug for LazyList<'_, T> {
    /// The elements, each as read on demand (`Ok(value)` or `Err(error)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'v, T: Element> LazyList<'v, T> {
    /// The list in `region`, at `at` from the bytes the offsets of the field that
    /// holds it count from, for errors, which count from there and name no path.
    #[inline(always)]
    pub(crate) fn enter(
        region: &'v [u8],
        at: usize,
        root: &Root<'v>,
        depth: u32,
    ) -> Result<Self, Error> {
        let (len, stride) = if region.is_empty() {
            (0, 0)
        } else {
            header::<T>(region, at)?
        };
        Ok(LazyList {
            bytes: region,
            len,
            stride,
            depth,
            root: *root,
            _element: PhantomData,
        })
    }

    /// The number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the list has no element.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `index`, checked as far as obtaining it needs; `None` past the end.
    ///
    /// What is checked here: an element of a list of messages with a tail (a split
    /// list, FORMAT.md §6.3), its block length (the list's), while its tail's bounds
    /// are checked when one of its tail fields is read; an element of a table list
    /// (text, lists, unions), its start and end offsets, then as its kind (a string's
    /// UTF-8, a union's tag); a fixed-size element, its bytes as its kind (a
    /// message's fields when read). So `iter()` over a list does not validate it: the
    /// reads of its elements' fields do, or [`to_view`](Self::to_view).
    ///
    /// # Errors
    ///
    /// What up-front validation reports for the element's bytes checked here (a
    /// split list's `StrideMismatch`; a table entry out of order or range; invalid
    /// UTF-8, `bool`, enum values; a nested message's header).
    #[inline(always)]
    pub fn get(&self, index: usize) -> Option<Result<LazyOf<'v, T>, Error>> {
        if index >= self.len {
            return None;
        }
        Some(self.element(index).map_err(|e| self.error(e)))
    }

    /// The elements in order, each checked as it is read.
    #[inline]
    pub fn iter(&self) -> LazyListIter<'v, T> {
        LazyListIter {
            list: *self,
            next: 0,
            before: 0,
            start: None,
        }
    }

    /// Validates the whole list, as up-front validation does, and returns the list
    /// view the up-front view's accessor returns.
    ///
    /// # Errors
    ///
    /// Any error of up-front validation of the list.
    #[inline]
    pub fn to_view(&self) -> Result<crate::ViewOf<'v, alloc::vec::Vec<T>>, Error>
    where
        alloc::vec::Vec<T>: Field<Kind = crate::kind::ListOf<T>>,
    {
        self.validate_as::<crate::kind::ListOf<T>>()
    }

    /// The list's region validated whole as kind `K` (a list, or a map: the list of
    /// its entries and more), and read as it; errors as up-front validation reports
    /// them.
    #[inline]
    pub(crate) fn validate_as<K: Kind>(self) -> Result<K::View<'v>, Error> {
        let place = Place {
            block: &[],
            block_at: 0,
            region: self.bytes,
            region_at: 0,
        };
        eager::<K>(INTERNAL, place, self.depth).map_err(|e| self.error(e))
    }

    /// The list's region, element count, stride (as the field says) and depth.
    #[inline(always)]
    pub(crate) fn parts(&self) -> (&'v [u8], usize, usize, u32) {
        (self.bytes, self.len, self.stride, self.depth)
    }

    /// `err`, counting from the list's region with its path from here, as up-front
    /// validation of the root reports it.
    #[inline(always)]
    fn error(&self, err: Error) -> Error {
        list_error(self.root, self.bytes, err)
    }

    /// Element `i < len`, errors counting from the region with the element's index.
    #[inline(always)]
    fn element(&self, i: usize) -> Result<LazyOf<'v, T>, Error> {
        type K<T> = <T as Field>::Kind;
        let bytes = self.bytes;
        match <K<T> as Kind>::LIST_ENCODING {
            ListEncoding::Packed | ListEncoding::Strided => {
                // A strided list's elements follow its 2-byte stride.
                let first = if <K<T> as Kind>::LIST_ENCODING == ListEncoding::Packed {
                    0
                } else {
                    2
                };
                let size = self.stride;
                let at = first + i * size;
                let block = bytes.get(at..at + size).unwrap_or_default();
                <K<T> as Kind>::lazy(INTERNAL, Place::block(block, 0), &self.root, self.depth)
                    .map_err(|e| e.shift(at).in_element(i))
            }
            ListEncoding::Split => {
                // The element's block, whose block length is the list's (its tail is
                // checked when a tail field is read).
                let block = crate::trust::shape::list::split_block(bytes, 0, i, self.stride)?;
                <K<T> as Kind>::lazy_split(
                    INTERNAL, block, bytes, i, self.len, &self.root, self.depth,
                )
            }
            ListEncoding::Table => {
                // As up-front validation checks entry `i`, as the end of element
                // `i - 1`: not before that element's start (its own entry), nor past
                // the list. Checked against the table's end alone, an element read
                // first could overlap the one before and read where `view` refuses.
                self.table_element(i, self.entry_before(i), None).0
            }
            ListEncoding::Dense => {
                // The header's entries were checked when the list was opened: the
                // element's entry index, then its payload as the entry's variant.
                let tag = <K<T> as Kind>::DENSE_TAG;
                let d = dense::Dense::of(bytes, self.len, self.stride, tag);
                let (value, start, block) = dense::element(bytes, 0, &d, i, tag)?;
                let payload = bytes.get(start..start + block).unwrap_or_default();
                <K<T> as Kind>::lazy_dense(INTERNAL, value, payload, &self.root, self.depth)
                    .map_err(|e| e.shift(start - tag).in_element(i))
            }
        }
    }

    /// A table list's entry `i - 1`, which entry `i` is checked against (0 for the
    /// first element).
    #[inline(always)]
    fn entry_before(&self, i: usize) -> usize {
        i.checked_sub(1).map_or(0, |before| {
            read_u32(self.bytes, 4 * before).unwrap_or(0) as usize
        })
    }

    /// Element `i < len` of a table list whose entry `i - 1` holds `before` (0 for
    /// the first) and entry `i` holds `start`, if known (else it is read); with entry
    /// `i` and, where the element's end checked, entry `i + 1`: the next element's
    /// `before` and `start`. An iteration passes them on, so that each entry is
    /// loaded once.
    #[inline(always)]
    fn table_element(
        &self,
        i: usize,
        before: usize,
        start: Option<usize>,
    ) -> (Result<LazyOf<'v, T>, Error>, usize, Option<usize>) {
        type K<T> = <T as Field>::Kind;
        let bytes = self.bytes;
        let min = before.max(4 * self.len);
        let start = start.unwrap_or_else(|| read_u32(bytes, 4 * i).unwrap_or(0) as usize);
        if start < min || start > bytes.len() {
            let err = bad_end_offset(start, min, bytes.len(), 4 * i, false).in_element(i);
            return (Err(err), start, None);
        }
        let (region, end) =
            match crate::trust::shape::list::table_element(bytes, 0, i, self.len, start) {
                Ok(found) => found,
                Err(err) => return (Err(err), start, None),
            };
        let place = Place {
            block: &[],
            block_at: 0,
            region,
            region_at: 0,
        };
        let element = <K<T> as Kind>::lazy(INTERNAL, place, &self.root, self.depth)
            .map_err(|e| e.shift(start).in_element(i));
        (element, start, Some(end))
    }
}

/// The element count and stride of a list region that is not empty, from its header
/// (FORMAT.md §6), checked as up-front validation checks it; `at` is the region's
/// offset, for errors.
#[inline(always)]
fn header<T: Element>(region: &[u8], at: usize) -> Result<(usize, usize), Error> {
    type K<T> = <T as Field>::Kind;
    match <K<T> as Kind>::LIST_ENCODING {
        ListEncoding::Packed => {
            let size = <K<T> as Kind>::BLOCK_SIZE;
            crate::trust::shape::list::packed_count(region, at, size).map(|count| (count, size))
        }
        ListEncoding::Strided => {
            let required = <K<T> as Kind>::MIN_ELEMENT_SIZE.max(1);
            let block = <K<T> as Kind>::BLOCK_SIZE.max(1);
            let stride = crate::trust::shape::list::strided_header(region, at, required, block)?;
            Ok(((region.len() - 2) / stride, stride))
        }
        ListEncoding::Split => crate::trust::shape::list::split_header(
            region,
            at,
            <K<T> as Kind>::MIN_SPLIT_BLOCK,
            <K<T> as Kind>::SPLIT_BLOCK,
        ),
        ListEncoding::Table => {
            crate::trust::shape::list::table_count(region, at).map(|count| (count, 0))
        }
        ListEncoding::Dense => {
            let d = dense::header(region, at, <K<T> as Kind>::DENSE_TAG)?;
            Ok((d.count, d.stride))
        }
    }
}

/// The elements of a [`LazyList`], each checked as it is read.
pub struct LazyListIter<'v, T> {
    list: LazyList<'v, T>,
    next: usize,
    /// A table list's entry `next - 1` (0 before the first), as read.
    before: usize,
    /// A table list's entry `next`, where the element before read it as its end.
    start: Option<usize>,
}

impl<T: Element> fmt::Debug for LazyListIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazyListIter")
            .field("next", &self.next)
            .field("len", &self.list.len)
            .finish()
    }
}

impl<'v, T: Element> Iterator for LazyListIter<'v, T> {
    type Item = Result<LazyOf<'v, T>, Error>;

    #[inline(always)]
    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        if <T::Kind as Kind>::LIST_ENCODING != ListEncoding::Table {
            let item = self.list.get(i)?;
            self.next += 1;
            return Some(item);
        }
        if i >= self.list.len {
            return None;
        }
        let (item, entry, next) = self.list.table_element(i, self.before, self.start);
        (self.next, self.before, self.start) = (i + 1, entry, next);
        Some(item.map_err(|e| self.list.error(e)))
    }

    /// Element `n` from here, read alone as `get` reads it: the elements skipped
    /// are not checked (an index past the end leaves the iterator at its end).
    fn nth(&mut self, n: usize) -> Option<Self::Item> {
        let i = self.next.saturating_add(n).min(self.list.len);
        (self.next, self.start) = (i, None);
        self.before = if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Table {
            self.list.entry_before(i)
        } else {
            0
        };
        self.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len - self.next;
        (left, Some(left))
    }
}

impl<T: Element> ExactSizeIterator for LazyListIter<'_, T> {}

impl<'v, T: Element> IntoIterator for LazyList<'v, T> {
    type Item = Result<LazyOf<'v, T>, Error>;
    type IntoIter = LazyListIter<'v, T>;

    fn into_iter(self) -> LazyListIter<'v, T> {
        self.iter()
    }
}
