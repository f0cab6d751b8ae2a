//! Lists (FORMAT.md §6): their validation (packed, strided and table lists), their
//! views ([`List`], [`ListIter`]) and mutable views ([`ListMut`], [`ListIterMut`]),
//! which read elements at the offsets validation checked.

use crate::field::{Element, Field, ListEncoding, Scalar, ViewOf};
use crate::kind::{BoundedListOf, ListOf};
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::primitives_le::{read_u16, read_u32};
use crate::trust::shape::{Kind, dense};
use crate::union::NestedMut;
use crate::validated::{NestedKind, range, range_mut};
use crate::{Error, ErrorKind, Mode};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;
use core::ptr::NonNull;

/// The validated view of a list field: O(1) `len` and random access by index.
///
/// Elements are read on access; elements with tail data (messages, strings) are
/// located through the list's offset table. Bytes (`Vec<u8>`, `&[u8]`) are viewed as
/// `&[u8]` instead.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Prices {
///     levels: Vec<i64>,
/// }
///
/// let bytes = Prices { levels: vec![101, 102, 105] }.to_bytes().unwrap();
/// let view = Prices::view(&bytes).unwrap();
/// let levels = view.levels();
/// assert_eq!(levels.len(), 3);
/// assert_eq!(levels.get(2), Some(105));
/// assert_eq!(levels.get(3), None);
/// assert_eq!(levels.iter().sum::<i64>(), 308);
/// ```
pub struct List<'v, T> {
    /// The list's whole tail region, which passed validation as a list of `T` (only
    /// this crate makes a `List`, and only from such bytes).
    bytes: &'v [u8],
    len: usize,
    /// Element size for packed and strided lists.
    stride: usize,
    _element: crate::kind::Invariant<T>,
}

impl<T> Clone for List<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for List<'_, T> {}

impl<T> Default for List<'_, T> {
    /// The empty list (what a list field added in a later version reads as on older
    /// bytes).
    fn default() -> Self {
        List {
            bytes: &[],
            len: 0,
            stride: 0,
            _element: PhantomData,
        }
    }
}

impl<'v> List<'v, u8> {
    /// A list of bytes: every byte pattern is one, so any slice is valid.
    pub(crate) fn of_bytes(bytes: &'v [u8]) -> Self {
        List {
            bytes,
            len: bytes.len(),
            stride: 1,
            _element: PhantomData,
        }
    }
}

impl<'v, T: Element> List<'v, T> {
    /// The list over a region that passed validation as a list of `T`: O(1), it
    /// reads no element.
    ///
    /// # Safety
    ///
    /// `bytes` passed validation as a list of `T` (FORMAT.md §6).
    #[inline(always)]
    pub(crate) unsafe fn from_validated(bytes: &'v [u8]) -> Self {
        let (len, stride) = shape::<T>(bytes);
        List {
            bytes,
            len,
            stride,
            _element: PhantomData,
        }
    }

    /// The list over a validated region whose shape (`shape::<T>(bytes)`) is
    /// `(len, stride)`, known already: O(1), it reads nothing.
    ///
    /// # Safety
    ///
    /// `bytes` passed validation as a list of `T`, and `(len, stride)` is its shape.
    #[inline(always)]
    pub(crate) unsafe fn from_parts(bytes: &'v [u8], len: usize, stride: usize) -> Self {
        List {
            bytes,
            len,
            stride,
            _element: PhantomData,
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the list has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The list's bytes as they are on the wire (its whole tail region).
    #[inline]
    pub fn as_bytes(&self) -> &'v [u8] {
        self.bytes
    }

    /// The elements' blocks, back to back, if `T` is plain ([`Field::PLAIN`]) and
    /// each block is a whole `T` (a strided list of an older or newer version's
    /// blocks is not): what decoding copies whole.
    #[inline]
    fn plain_elements(&self) -> Option<&'v [u8]> {
        if !crate::plain::same_layout::<T>() || self.stride != core::mem::size_of::<T>() {
            return None;
        }
        let start = match <T::Kind as Kind>::LIST_ENCODING {
            ListEncoding::Packed => 0,
            ListEncoding::Strided => 2,
            ListEncoding::Table | ListEncoding::Split | ListEncoding::Dense => return None,
        };
        self.bytes
            .get(start..start + self.len.checked_mul(self.stride)?)
    }

    /// The elements as a vector by one copy of their bytes, if `T` is plain and each
    /// block is a whole `T` (see `plain_elements`); `None` otherwise.
    #[inline]
    pub(crate) fn plain_vec(&self) -> Option<Vec<T>> {
        let elements = self.plain_elements()?;
        // SAFETY: the list passed validation as a list of `T` whose elements are the
        // `len` blocks of `size_of::<T>()` bytes in `elements`.
        Some(unsafe { crate::plain::vec_from_bytes(elements, self.len) })
    }

    /// The element at `index`, or `None` if `index >= len()`: O(1), it reads nothing
    /// of the element but what its view needs.
    #[inline]
    pub fn get(&self, index: usize) -> Option<ViewOf<'v, T>> {
        if index >= self.len {
            return None;
        }
        // SAFETY: `index < len`, and the list passed validation: the element's bytes
        // are inside the region and were validated as a `T`.
        Some(unsafe { self.get_unchecked(index) })
    }

    /// The element at `index`, without the bounds check.
    ///
    /// # Safety
    ///
    /// `index < self.len()`.
    #[inline(always)]
    pub unsafe fn get_unchecked(&self, index: usize) -> ViewOf<'v, T> {
        // SAFETY: the caller promises `index < len`; the list passed validation, so
        // each element's block bytes (packed, strided) or region (table) lie inside
        // it and were validated as a `T` (FORMAT.md §6).
        unsafe {
            if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Split {
                let (block, origin) =
                    split_at(NonNull::from(self.bytes).cast(), self.stride, index);
                return <T::Kind as Kind>::read_split(INTERNAL, block, origin);
            }
            if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Dense {
                let at = dense_at::<T>(self.bytes, self.stride, index);
                let payload = range(self.bytes, at.payload, at.payload + at.block);
                let same = self.stride & SAME_TABLE != 0;
                return with_tag::<T, _>(self.bytes, at.entry, at.k, same, |tag| {
                    <T::Kind as Kind>::read_dense(INTERNAL, tag, payload)
                });
            }
            let (start, end) = element_range::<T>(self.bytes, self.len, self.stride, index);
            let element = range(self.bytes, start, end);
            match <T::Kind as Kind>::LIST_ENCODING {
                ListEncoding::Table => <T::Kind as Kind>::read(INTERNAL, &[], element),
                _ => <T::Kind as Kind>::read(INTERNAL, element, &[]),
            }
        }
    }

    /// The same list as a list of `U`.
    ///
    /// # Safety
    ///
    /// `U::Kind` validates and reads as `T::Kind` does (the same kind).
    #[inline(always)]
    pub(crate) unsafe fn retype<U>(self) -> List<'v, U> {
        List {
            bytes: self.bytes,
            len: self.len,
            stride: self.stride,
            _element: PhantomData,
        }
    }

    /// The same list as a list of `U`, a type of the same kind (`&'static str` and
    /// `&'v str`, `Vec<T>` and `&[T]`): validation and reads go by the kind alone.
    #[inline(always)]
    pub(crate) fn same_kind<U: Element<Kind = T::Kind>>(self) -> List<'v, U> {
        self.same_kinds()
    }

    /// The same list as a list of `U`, a message type with the same layout (`T` with
    /// other lifetimes): its elements were validated by that layout, and read by it.
    #[doc(hidden)]
    #[inline(always)]
    pub fn same_layout<U>(self) -> List<'v, U>
    where
        T: crate::WireMsg,
        U: crate::WireMsg<Layout = T::Layout> + Element,
    {
        // A message's kind is keyed by its layout (`Kind::Reads`).
        self.same_kinds()
    }

    /// The same list as a list of `U`, whose kind reads as `T`'s
    /// ([`Kind::Reads`](crate::Kind): `BTreeMap<&'static str, u32>` and
    /// `BTreeMap<&'v str, u32>`, `Name<'static>` and `Name<'v>`). What the decoding of
    /// a message with a list of borrowed maps or tuples calls.
    #[doc(hidden)]
    #[inline(always)]
    pub fn same_kinds<U>(self) -> List<'v, U>
    where
        U: Element,
        U::Kind: Kind<Reads = <T::Kind as Kind>::Reads>,
    {
        // SAFETY: kinds with the same `Reads` validate and read alike (invariant 3 of
        // the trust module): a message's kind by its layout, a list, map, tuple,
        // array or option by its parts' kinds, any other kind as itself. A plain read
        // of `U`s as memory relies on `U`'s own `PLAIN` promise, checked where it reads.
        unsafe { self.retype() }
    }

    /// The first element, if any.
    #[inline]
    pub fn first(&self) -> Option<ViewOf<'v, T>> {
        self.get(0)
    }

    /// The last element, if any.
    #[inline]
    pub fn last(&self) -> Option<ViewOf<'v, T>> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// The elements in order.
    #[inline]
    pub fn iter(&self) -> ListIter<'v, T> {
        let packed = <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Packed;
        ListIter {
            list: *self,
            next: 0,
            rest: Cursor::new(if packed { self.bytes } else { &[] }),
        }
    }
}

/// Start and end, in a validated list region, of element `index`: its block bytes
/// (packed, strided) or its region (table) (FORMAT.md §6).
///
/// # Safety
///
/// `bytes` passed validation as a list of `len` elements of `T` with this `stride`,
/// and `index < len`.
#[inline(always)]
unsafe fn element_range<T: Element>(
    bytes: &[u8],
    len: usize,
    stride: usize,
    index: usize,
) -> (usize, usize) {
    match <T::Kind as Kind>::LIST_ENCODING {
        // A packed element is its kind's block, whatever the list holds in `stride`
        // (the same number, `shape_of`): as a constant, a loop over the list steps by
        // an immediate instead of a multiply by a loaded stride (the game's `u16`,
        // `f32` and `bool` lists, issue 31's profile of `game/read_unchecked`).
        ListEncoding::Packed => {
            let size = <T::Kind as Kind>::BLOCK_SIZE;
            debug_assert_eq!(size, stride);
            (index * size, (index + 1) * size)
        }
        ListEncoding::Strided => {
            let start = 2 + index * stride;
            (start, start + stride)
        }
        ListEncoding::Table if <T::Kind as Kind>::SELF_DELIMITED => {
            // The element's own offsets say where it ends (see `SELF_DELIMITED`).
            // SAFETY: the table holds `len` start offsets and `index < len`.
            let start = u32::from_le_bytes(unsafe { crate::validated::array_at(bytes, 4 * index) });
            (start as usize, bytes.len())
        }
        // SAFETY: forwarded to the caller.
        ListEncoding::Table => unsafe { table_range(bytes, len, index) },
        // Split and dense elements are not one range: read by `split_at` and
        // `dense_at`, never through here.
        ListEncoding::Split | ListEncoding::Dense => (0, 0),
    }
}

/// Where element `index` of a validated split list (FORMAT.md §6.3) that starts at
/// `list` has its block, and the origin its end offsets count from (its tail start
/// minus its block length): one load, of the element's tail start. Through a pointer,
/// so that mutable views of several elements can be made from one list.
///
/// # Safety
///
/// The bytes at `list` passed validation as a split list of elements `stride` bytes
/// apart, are readable, and `index` is less than its count.
#[inline(always)]
unsafe fn split_at(list: NonNull<u8>, stride: usize, index: usize) -> (NonNull<u8>, NonNull<u8>) {
    let at = index * stride;
    // SAFETY: the element's tail start and block are inside the list's blocks, and
    // validation proved `start >= count * stride > stride - 4`, the block length, so
    // both pointers are inside the list.
    unsafe {
        let start = u32::from_le_bytes(list.add(at).cast::<[u8; 4]>().read()) as usize;
        (list.add(at + 4), list.add(start - (stride - 4)))
    }
}

/// The tag of element `index` of a validated dense list (FORMAT.md §6.8) and the
/// start and length of its payload: a load of its entry index, then of the entry's
/// tag and block length, in the variant table at the list's start.
///
/// # Safety
///
/// `bytes` passed validation as a dense list of `T` with this `stride`, and `index`
/// is less than its count.
#[inline(always)]
unsafe fn dense_at<T: Element>(bytes: &[u8], stride: usize, index: usize) -> DenseAt {
    let tag = <T::Kind as Kind>::DENSE_TAG;
    // SAFETY: validation read the header, every entry index below the entry count,
    // and every entry inside the list (`dense::header`, `dense::element`).
    unsafe {
        let entries = usize::from(u16::from_le_bytes(crate::validated::array_at(bytes, 2)));
        let start = dense::entry_at(entries, tag) + index * (stride & !SAME_TABLE);
        let k = uint_at(bytes, start, tag) as usize;
        let entry = dense::entry_at(k, tag);
        let block = u16::from_le_bytes(crate::validated::array_at(bytes, entry + tag));
        DenseAt {
            k,
            entry,
            payload: start + tag,
            block: usize::from(block),
        }
    }
}

/// An element of a validated dense list, as [`dense_at`] finds it.
#[derive(Clone, Copy)]
struct DenseAt {
    /// The element's entry index.
    k: usize,
    /// Where its entry starts in the list.
    entry: usize,
    /// Where its payload starts in the list.
    payload: usize,
    /// The payload's bytes: the entry's block length.
    block: usize,
}

/// `read(tag)` of the tag of entry `k` of a validated dense list, which starts at
/// `entry` in `bytes`: with the reader's own variant's tag at place `k`, a constant,
/// where the table is the reader's (`same`, [`same_table`]), so that the dispatch in
/// `read` is on `k` itself; else with the tag loaded from the entry. Two calls, so
/// that the first folds to a dispatch on the index.
///
/// # Safety
///
/// The entry is inside `bytes`, and `same` only if [`same_table`] holds for them.
#[inline(always)]
unsafe fn with_tag<T: Element, R>(
    bytes: &[u8],
    entry: usize,
    k: usize,
    same: bool,
    read: impl FnOnce(u64) -> R,
) -> R {
    if same {
        read(<T::Kind as Kind>::dense_tag_at(INTERNAL, k as u64))
    } else {
        // SAFETY: forwarded from the caller.
        read(unsafe { uint_at(bytes, entry, <T::Kind as Kind>::DENSE_TAG) })
    }
}

/// Set in a dense list view's stride (at most 65,535 bytes) when the list's variant
/// table is the reader's own ([`same_table`]).
const SAME_TABLE: usize = 1 << 16;

/// True if the variant table of the validated dense list `bytes` is the one this
/// reader writes: no more entries than its variants, each entry's tag the tag of
/// the variant at its place. An element's entry index is then its variant's place,
/// and a read dispatches on it, without loading the entry's tag: the entry index,
/// not a load after it, decides the variant (`events/read_unchecked` 0.89x).
#[inline]
fn same_table<T: Element>(bytes: &[u8]) -> bool {
    let tag = <T::Kind as Kind>::DENSE_TAG;
    let entries = usize::from(read_u16(bytes, 2).unwrap_or(u16::MAX));
    entries <= <T::Kind as Kind>::DENSE_ENTRIES
        && (0..entries).all(|k| {
            let at = dense::entry_at(k, tag);
            dense::read_uint(bytes, at, tag)
                == Some(<T::Kind as Kind>::dense_tag_at(INTERNAL, k as u64))
        })
}

/// The unsigned little-endian number of `size` bytes (a union's repr) at `at`.
///
/// # Safety
///
/// `at + size <= bytes.len()`, and `size` is 1, 2, 4 or 8.
#[inline(always)]
unsafe fn uint_at(bytes: &[u8], at: usize, size: usize) -> u64 {
    // SAFETY: in bounds by the caller's promise.
    unsafe {
        match size {
            1 => u64::from(crate::validated::array_at::<1>(bytes, at)[0]),
            2 => u64::from(u16::from_le_bytes(crate::validated::array_at(bytes, at))),
            4 => u64::from(u32::from_le_bytes(crate::validated::array_at(bytes, at))),
            _ => u64::from_le_bytes(crate::validated::array_at(bytes, at)),
        }
    }
}

/// Start and end of element `index` of a table list (FORMAT.md §6.4).
///
/// # Safety
///
/// As [`element_range`].
#[inline(always)]
unsafe fn table_range(bytes: &[u8], len: usize, index: usize) -> (usize, usize) {
    let at = |i: usize| {
        // SAFETY: the table holds `len` offsets and `i < len`.
        u32::from_le_bytes(unsafe { crate::validated::array_at(bytes, 4 * i) }) as usize
    };
    let end = if index + 1 < len {
        at(index + 1)
    } else {
        bytes.len()
    };
    (at(index), end)
}

impl<'v, T: Element> IntoIterator for List<'v, T> {
    type Item = ViewOf<'v, T>;
    type IntoIter = ListIter<'v, T>;

    fn into_iter(self) -> ListIter<'v, T> {
        self.iter()
    }
}

impl<T: Element> fmt::Debug for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

/// Two lists are equal if they have the same elements: numbers and text by value,
/// enums by their wire value, messages field by field (see the views' `PartialEq`).
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Prices { bids: Vec<i64>, asks: Vec<i64> }
///
/// let bytes = Prices { bids: vec![1, 2], asks: vec![1, 2] }.to_bytes().unwrap();
/// let view = Prices::view(&bytes).unwrap();
/// assert_eq!(view.bids(), view.asks());
/// let other = Prices { bids: vec![1, 3], asks: vec![] }.to_bytes().unwrap();
/// assert_ne!(view.bids(), Prices::view(&other).unwrap().bids());
/// ```
impl<'v, T: Element + 'v> PartialEq for List<'v, T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len()
            && self
                .iter()
                .zip(other.iter())
                .all(|(a, b)| <T::Kind as Kind>::view_eq(INTERNAL, a, b))
    }
}

impl<'v, T: Element, U> PartialEq<[U]> for List<'v, T>
where
    ViewOf<'v, T>: PartialEq<U>,
{
    fn eq(&self, other: &[U]) -> bool {
        self.len == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

/// Iterator over the elements of a [`List`].
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Tags { names: Vec<String> }
///
/// let bytes = Tags { names: vec!["a".into(), "bc".into()] }.to_bytes().unwrap();
/// let view = Tags::view(&bytes).unwrap();
/// let names: Vec<&str> = view.names().iter().collect();
/// assert_eq!(names, ["a", "bc"]);
/// ```
pub struct ListIter<'v, T> {
    list: List<'v, T>,
    next: usize,
    /// A packed list's elements not yet returned, stepped through by the element's
    /// constant size as a slice iterator steps (empty for other lists).
    rest: Cursor<'v>,
}

/// The bytes from `at` to `end`, read as a slice iterator reads its elements: a
/// compare of two pointers, then a step of one element. Held as a `&[u8]` (a start
/// and a length, both stepped), the game's loop over a list of `bool`s was unrolled
/// by 4 where rkyv's slice loop is unrolled by 8, with more mispredicted branches on
/// short lists (callgrind's branch simulation: 156.8k a read against rkyv's 147.8k;
/// 146.8k with this). An end at a whole number of steps from `at` (which lets LLVM
/// unroll the `u16` and `f32` lists too) cost 9 % more instructions on those
/// short lists. A `core::slice::Iter<'v, u8>` stepped by `as_slice`,
/// `split_at_unchecked` and `iter` (no `unsafe impl`s) cost 54 % more instructions
/// on the game's read (6.00M to 9.25M a call): LLVM does not see that the end stays.
#[derive(Clone, Copy)]
struct Cursor<'v> {
    at: NonNull<u8>,
    end: NonNull<u8>,
    _bytes: PhantomData<&'v [u8]>,
}

// SAFETY: a `Cursor<'v>` is a `&'v [u8]` held as two pointers, and `&[u8]` is `Send`
// and `Sync`.
unsafe impl Send for Cursor<'_> {}
// SAFETY: as above.
unsafe impl Sync for Cursor<'_> {}

impl<'v> Cursor<'v> {
    #[inline(always)]
    fn new(bytes: &'v [u8]) -> Self {
        let at = NonNull::from(bytes).cast::<u8>();
        Cursor {
            at,
            // SAFETY: one past the end of `bytes`, in (or just past) its allocation.
            end: unsafe { at.add(bytes.len()) },
            _bytes: PhantomData,
        }
    }

    /// The bytes left.
    #[inline(always)]
    fn as_slice(&self) -> &'v [u8] {
        let len = self.end.as_ptr() as usize - self.at.as_ptr() as usize;
        // SAFETY: `at..end` lies inside the bytes `new` was given, alive for `'v`.
        unsafe { core::slice::from_raw_parts(self.at.as_ptr(), len) }
    }

    /// The next `size` bytes, or `None` at the end.
    ///
    /// # Safety
    ///
    /// The bytes left are a whole number of `size`-byte steps, `size` not 0 while
    /// any are left.
    #[inline(always)]
    unsafe fn step(&mut self, size: usize) -> Option<&'v [u8]> {
        if self.at == self.end {
            return None;
        }
        let at = self.at;
        // SAFETY: at least `size` bytes are left (the caller's promise), so both the
        // element and the step stay inside the bytes `new` was given, alive for `'v`.
        unsafe {
            self.at = at.add(size);
            Some(core::slice::from_raw_parts(at.as_ptr(), size))
        }
    }
}

impl<T: Element> fmt::Debug for ListIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListIter")
            .field("len", &self.list.len)
            .field("left", &self.size_hint().0)
            .finish()
    }
}

impl<'v, T: Element> Iterator for ListIter<'v, T> {
    type Item = ViewOf<'v, T>;

    #[inline]
    fn next(&mut self) -> Option<ViewOf<'v, T>> {
        if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Packed {
            let size = <T::Kind as Kind>::BLOCK_SIZE;
            // SAFETY: a packed list's region passed validation as a whole number of
            // elements of `size` bytes, `size` not 0 when the region is not empty
            // (`packed_count`, FORMAT.md §6.1), and `rest` is what is left of it after
            // whole elements: a non-empty `rest` holds the next element, which was
            // validated as a `T`.
            unsafe {
                let element = self.rest.step(size)?;
                return Some(<T::Kind as Kind>::read(INTERNAL, element, &[]));
            }
        }
        let item = self.list.get(self.next)?;
        self.next += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Packed {
            let size = <T::Kind as Kind>::BLOCK_SIZE;
            shape_of(ListEncoding::Packed, size, self.rest.as_slice()).0
        } else {
            self.list.len - self.next.min(self.list.len)
        };
        (left, Some(left))
    }
}

impl<T: Element> ExactSizeIterator for ListIter<'_, T> {}

/// Validates the tail region of a list (FORMAT.md §6). Errors carry offsets relative
/// to the message (`at` is the region's offset).
#[inline]
pub(crate) fn validate_list<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    if bytes.is_empty() {
        return Ok(());
    }
    match <T::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Packed => validate_packed::<T, M>(bytes, at, mode, depth),
        ListEncoding::Strided => validate_strided::<T, M>(bytes, at, mode, depth),
        ListEncoding::Table => validate_table::<T, M>(bytes, at, mode, depth),
        ListEncoding::Split => validate_split::<T, M>(bytes, at, mode, depth),
        ListEncoding::Dense => validate_dense::<T, M>(bytes, at, mode, depth),
    }
}

/// Validates a dense list (FORMAT.md §6.8): its header ([`dense::header`]), then each
/// element's entry index ([`dense::element`]) and its payload as the entry's variant.
fn validate_dense<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    let tag = <T::Kind as Kind>::DENSE_TAG;
    let d = dense::header(bytes, at, tag)?;
    // As the reads: by the entry index where the table is this reader's.
    let same = same_table::<T>(bytes);
    // The payload is inside its element: the header checked `tag + block <= stride`.
    dense::try_each(bytes, at, &d, tag, |i, k, value, payload, start| {
        // One call on either tag: two (as `with_tag` makes for reads) made
        // `events/access` take 1.19x as long as the table layout's, this 0.90x.
        let value = if same {
            <T::Kind as Kind>::dense_tag_at(INTERNAL, k)
        } else {
            value
        };
        <T::Kind as Kind>::validate_dense(INTERNAL, value, payload, mode, depth)
            .map_err(|e| e.shift(at + start - tag).in_element(i))?;
        Ok(<T::Kind as Kind>::dense_byte_check(INTERNAL, value))
    })
}

/// Validates a split list (FORMAT.md §6.3): its header and each element's block
/// length and tail region ([`split_header`], [`split_element`]), then each element
/// as its kind, with its block and the bytes its end offsets count in.
fn validate_split<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    let (count, block) = split_header(
        bytes,
        at,
        <T::Kind as Kind>::MIN_SPLIT_BLOCK,
        <T::Kind as Kind>::SPLIT_BLOCK,
    )?;
    let stride = block + 4;
    let mut start = count * stride;
    for i in 0..count {
        let (element, end) = split_element(bytes, at, i, count, block, start)?;
        // `start >= count * stride > block`: the origin is inside the list.
        let origin_at = start - block;
        let origin = bytes.get(origin_at..end).unwrap_or_default();
        let block_at = (i * stride + 4).wrapping_sub(origin_at);
        <T::Kind as Kind>::validate_split(INTERNAL, element, block_at, origin, mode, depth)
            .map_err(|e| e.shift(at + origin_at).in_element(i))?;
        start = end;
    }
    Ok(())
}

/// Element count and stride of a list region that already passed validation: O(1),
/// it reads no element (FORMAT.md §6).
#[inline(always)]
pub(crate) fn shape<T: Element>(bytes: &[u8]) -> (usize, usize) {
    if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Dense {
        let (len, stride) = dense_shape(bytes, <T::Kind as Kind>::DENSE_TAG);
        let same = if same_table::<T>(bytes) {
            SAME_TABLE
        } else {
            0
        };
        return (len, stride | same);
    }
    if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Split {
        // A non-empty split list holds element 0's tail start and block length: one
        // test of the length for both reads (an empty one is the shape below).
        if let Some(head) = bytes.first_chunk::<6>() {
            // As in `split_header`: by the constant stride when it is the reader's own.
            let own = <T::Kind as Kind>::SPLIT_BLOCK + 4;
            let stride = usize::from(u16::from_le_bytes([head[4], head[5]])) + 4;
            let first = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
            let len = if stride == own {
                first as usize / own
            } else {
                quotient(first, stride)
            };
            return (len, stride);
        }
    }
    shape_of(
        <T::Kind as Kind>::LIST_ENCODING,
        <T::Kind as Kind>::BLOCK_SIZE,
        bytes,
    )
}

/// The element count and stride of a validated dense list region (FORMAT.md §6.8)
/// of a union with `tag`-byte tags: shared by the typed lists and the schema-driven
/// reader.
#[inline(always)]
pub(crate) fn dense_shape(bytes: &[u8], tag: usize) -> (usize, usize) {
    let stride = usize::from(read_u16(bytes, 0).unwrap_or(1)).max(1);
    let entries = usize::from(read_u16(bytes, 2).unwrap_or(0));
    let first = dense::entry_at(entries, tag);
    (bytes.len().saturating_sub(first) / stride, stride)
}

/// [`shape`] of a list laid out as `encoding` with elements of `size` block bytes:
/// shared by the typed lists and the schema-driven reader (dense lists: see
/// [`dense_shape`]).
#[inline(always)]
pub(crate) fn shape_of(encoding: ListEncoding, size: usize, bytes: &[u8]) -> (usize, usize) {
    match encoding {
        // The length over the constant element size, an empty list's too: no test
        // for emptiness before it (three instructions a list).
        ListEncoding::Packed => (bytes.len() / size.max(1), size),
        _ if bytes.is_empty() => (0, size),
        ListEncoding::Strided => {
            let stride = usize::from(read_u16(bytes, 0).unwrap_or(1)).max(1);
            let elements = bytes.len().saturating_sub(2);
            // As in `strided_header`: by the constant block when it is the stride.
            let size = size.max(1);
            let len = if stride == size {
                elements / size
            } else {
                quotient(elements as u32, stride)
            };
            (len, stride)
        }
        ListEncoding::Table => (read_u32(bytes, 0).map_or(0, |first| first as usize / 4), 0),
        // Its variant table's entries have the union's tag size, which `size` is not.
        ListEncoding::Dense => (0, size),
        ListEncoding::Split => {
            let stride = read_u16(bytes, 4).map_or(4, |b| usize::from(b) + 4);
            (
                read_u32(bytes, 0).map_or(0, |first| first as usize / stride),
                stride,
            )
        }
    }
}

/// `n / d` for a stride `d` of another version than the reader's, beside the
/// division by the reader's own, constant, stride (a multiply). In 32 bits, which
/// every list region's length fits in (FORMAT.md §3: `u32` end offsets), so that
/// LLVM cannot merge the two into one division by the stride read; and inline: a
/// call there made every caller save registers on its hot path.
#[inline(always)]
fn quotient(n: u32, d: usize) -> usize {
    (n / d as u32) as usize
}

/// The stride of a strided list region (FORMAT.md §6.2), checked against the
/// reader's `required` element block and the region's length; the elements follow
/// its 2 bytes. `at` is the region's offset, for errors. Shared by the typed lists
/// and the schema-driven reader, so that both fail alike.
#[inline(always)]
pub(crate) fn strided_header(
    bytes: &[u8],
    at: usize,
    required: usize,
    block: usize,
) -> Result<usize, Error> {
    let Some(stride) = read_u16(bytes, 0) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: 2,
                available: bytes.len(),
            },
            at,
        ));
    };
    let stride = usize::from(stride);
    if stride < required {
        return Err(Error::new(
            ErrorKind::StrideTooSmall { stride, required },
            at,
        ));
    }
    let elements = bytes.len() - 2;
    // The reader's own block (a constant where this is inlined) is the usual stride:
    // a remainder by a constant is a multiplication, not a division. Another
    // version's stride divides out of line, in a call that returns the result, so
    // that no register has to outlive it (and the hot path saves none).
    if stride != block {
        return other_stride(elements, stride, at);
    }
    if elements % block != 0 {
        return Err(length_mismatch(elements, stride, at));
    }
    Ok(stride)
}

/// The end of [`strided_header`] for a stride other than the reader's block.
#[inline(never)]
fn other_stride(elements: usize, stride: usize, at: usize) -> Result<usize, Error> {
    if elements % stride != 0 {
        return Err(length_mismatch(elements, stride, at));
    }
    Ok(stride)
}

/// `ListLengthMismatch` of the `elements` bytes after a stride at `at`.
#[cold]
#[inline(never)]
fn length_mismatch(elements: usize, stride: usize, at: usize) -> Error {
    Error::new(
        ErrorKind::ListLengthMismatch {
            len: elements,
            element_size: stride,
        },
        at + 2,
    )
}

/// The element count and block length of a split list region (FORMAT.md §6.3), from
/// element 0's tail start and block length, checked: the block length is at least
/// `required` (the reader's version-1 block of the element), and the first tail start
/// a non-zero multiple of the stride (4 + block length) inside the region, which
/// bounds the count by the input size. `at` is the region's offset, for errors.
/// Shared by the typed lists and the schema-driven reader, so that both fail alike.
#[inline(always)]
pub(crate) fn split_header(
    bytes: &[u8],
    at: usize,
    required: usize,
    own: usize,
) -> Result<(usize, usize), Error> {
    split_header_of(bytes, at, required, own).map_err(|e| format_1_or(e, bytes, at, required))
}

/// `err`, or `UnsupportedFormat` if the list that failed as a split list has the shape
/// format 1 gave a list of messages with a tail (FORMAT.md "Format versions"): a
/// table of start offsets whose first element starts with a block length this reader
/// accepts. Only on the error path: valid format-3 bytes never get here. Corrupt
/// bytes can have that shape by chance, so the error keeps `err` and says both
/// ([`Error::format_by_shape`]).
#[cold]
#[inline(never)]
fn format_1_or(err: Error, bytes: &[u8], at: usize, required: usize) -> Error {
    let table = || -> Option<()> {
        let first = read_u32(bytes, 0)? as usize;
        let block = usize::from(read_u16(bytes, first)?);
        let second = if first > 4 {
            read_u32(bytes, 4)? as usize
        } else {
            bytes.len()
        };
        let ok = first % 4 == 0
            && block >= required.max(2)
            && first + block <= bytes.len()
            && (first..=bytes.len()).contains(&second);
        ok.then_some(())
    };
    match table() {
        Some(()) => Error::format_by_shape(1, at, err),
        None => err,
    }
}

/// [`split_header`] without the format-1 diagnosis.
#[inline(always)]
fn split_header_of(
    bytes: &[u8],
    at: usize,
    required: usize,
    own: usize,
) -> Result<(usize, usize), Error> {
    let (Some(first), Some(block)) = (read_u32(bytes, 0), read_u16(bytes, 4)) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: 6,
                available: bytes.len(),
            },
            at,
        ));
    };
    let (first, block) = (first as usize, usize::from(block));
    if block < required.max(2) {
        return Err(
            crate::validated::block_length_too_small(block, required.max(2), 1)
                .shift(at + 4)
                .in_element(0),
        );
    }
    let stride = block + 4;
    // The reader's own block (a constant where this is inlined) is the usual one:
    // a quotient by a constant is a multiplication, not a division, which on a list
    // of a few elements costs more than reading them.
    let (count, rest) = if block == own {
        (first / (own + 4), first % (own + 4))
    } else {
        divide(first, stride)
    };
    if first == 0 || rest != 0 {
        return Err(Error::new(
            ErrorKind::ListLengthMismatch {
                len: first,
                element_size: stride,
            },
            at,
        ));
    }
    if first > bytes.len() {
        return Err(Error::new(
            ErrorKind::ListCountTooLarge {
                count,
                available: bytes.len(),
            },
            at,
        ));
    }
    Ok((count, block))
}

/// Quotient and remainder by another version's stride, out of line (see
/// [`quotient`]).
#[inline(never)]
fn divide(n: usize, d: usize) -> (usize, usize) {
    (n / d, n % d)
}

/// Element `i` of a split list region of `count` elements of `block` bytes whose
/// tail starts at `start` (FORMAT.md §6.3), checked: its block length is the list's
/// ([`split_block`]) and its tail region, up to the next element's tail start (or the
/// end of the list), is in order and inside the list ([`split_end`]). Returns the
/// element's block bytes and its tail region's end. `i < count` and `(count, block)`
/// come from [`split_header`].
#[inline(always)]
pub(crate) fn split_element(
    bytes: &[u8],
    at: usize,
    i: usize,
    count: usize,
    block: usize,
    start: usize,
) -> Result<(&[u8], usize), Error> {
    let element = split_block(bytes, at, i, block)?;
    Ok((element, split_end(bytes, at, i, count, block, start)?))
}

/// The block of element `i` of a split list region whose elements have blocks of
/// `block` bytes, checked: inside the region (`Truncated`), its block length the
/// list's (`StrideMismatch`, in element `i`). `at` is the region's offset, for errors.
/// Shared with the on-demand reads (`lazy.rs`), which check an element's tail only
/// when a tail field is read.
#[inline(always)]
pub(crate) fn split_block(bytes: &[u8], at: usize, i: usize, block: usize) -> Result<&[u8], Error> {
    let block_at = i * (block + 4) + 4;
    let Some(element) = bytes.get(block_at..block_at + block) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: block_at + block,
                available: bytes.len(),
            },
            at,
        ));
    };
    let declared = read_u16(element, 0).map_or(0, usize::from);
    if declared != block {
        return Err(Error::new(
            ErrorKind::StrideMismatch {
                block_length: declared,
                expected: block,
            },
            at + block_at,
        )
        .in_element(i));
    }
    Ok(element)
}

/// The end of element `i`'s tail region, which starts at `start`: the next element's
/// tail start, or the end of the list, checked in order and inside the list
/// (`OffsetOutOfRange`, in element `i + 1`).
#[inline(always)]
pub(crate) fn split_end(
    bytes: &[u8],
    at: usize,
    i: usize,
    count: usize,
    block: usize,
    start: usize,
) -> Result<usize, Error> {
    let stride = block + 4;
    let end = if i + 1 < count {
        read_u32(bytes, (i + 1) * stride).unwrap_or(0) as usize
    } else {
        bytes.len()
    };
    if end < start || end > bytes.len() {
        return Err(crate::validated::bad_end_offset(
            end,
            start,
            bytes.len(),
            at + (i + 1) * stride,
            false,
        )
        .in_element(i + 1));
    }
    Ok(end)
}

/// The element count of a table list region (FORMAT.md §6.4), from its first start
/// offset, checked: a non-zero multiple of 4 inside the region (which bounds the
/// count by the input size). Shared as [`strided_header`] is.
#[inline(always)]
pub(crate) fn table_count(bytes: &[u8], at: usize) -> Result<usize, Error> {
    let Some(first) = read_u32(bytes, 0) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: 4,
                available: bytes.len(),
            },
            at,
        ));
    };
    let first = first as usize;
    if first == 0 || first % 4 != 0 {
        return Err(Error::new(
            ErrorKind::BadTableStart {
                start: first,
                len: bytes.len(),
            },
            at,
        ));
    }
    if first > bytes.len() {
        return Err(Error::new(
            ErrorKind::ListCountTooLarge {
                count: first / 4,
                available: bytes.len(),
            },
            at,
        ));
    }
    Ok(first / 4)
}

/// The region of element `i` of a table list whose element `i` starts at `start`
/// (FORMAT.md §6.4): up to the next start offset, or the end of the list; an offset
/// out of order or past the end is `OffsetOutOfRange`, in element `i + 1`.
#[inline(always)]
pub(crate) fn table_element(
    bytes: &[u8],
    at: usize,
    i: usize,
    count: usize,
    start: usize,
) -> Result<(&[u8], usize), Error> {
    let end = if i + 1 < count {
        read_u32(bytes, 4 * i + 4).unwrap_or(0) as usize
    } else {
        bytes.len()
    };
    match bytes.get(start..end) {
        Some(region) => Ok((region, end)),
        None => {
            Err(
                crate::validated::bad_end_offset(end, start, bytes.len(), at + 4 * i + 4, false)
                    .in_element(i + 1),
            )
        }
    }
}

/// The element count of a packed list region of elements of `size` bytes
/// (FORMAT.md §6.1), checked: a whole number of elements (`ListLengthMismatch` at
/// `at`, the region's offset). Shared with the on-demand reads (`lazy.rs`).
#[inline(always)]
pub(crate) fn packed_count(bytes: &[u8], at: usize, size: usize) -> Result<usize, Error> {
    if size == 0 || bytes.len() % size != 0 {
        return Err(Error::new(
            ErrorKind::ListLengthMismatch {
                len: bytes.len(),
                element_size: size,
            },
            at,
        ));
    }
    Ok(bytes.len() / size)
}

fn validate_packed<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    let size = <T::Kind as Kind>::BLOCK_SIZE;
    packed_count(bytes, at, size)?;
    if !<T::Kind as Kind>::CHECKS {
        return Ok(());
    }
    if let Some(bits) = <T::Kind as Kind>::BYTE_BITS {
        // Measured on the game bench's `Vec<bool>` flags (0-16 per contact): the
        // byte-at-a-time loop below was a quarter of `view`.
        if crate::scan::bytes_within(bytes, bits) {
            return Ok(());
        }
    }
    for (i, block) in bytes.chunks_exact(size).enumerate() {
        <T::Kind as Kind>::validate(INTERNAL, Place::block(block, 0), mode, depth)
            .map_err(|e| e.shift(at + i * size).in_element(i))?;
    }
    Ok(())
}

#[inline]
fn validate_strided<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    // An older writer's elements may be shorter than this reader's block, down to the
    // fields every version has (FORMAT.md §6.2).
    let required = <T::Kind as Kind>::MIN_ELEMENT_SIZE.max(1);
    let block = <T::Kind as Kind>::BLOCK_SIZE.max(1);
    let stride = strided_header(bytes, at, required, block)?;
    let elements = &bytes[2..];
    let complete = <T::Kind as Kind>::MIN_ELEMENT_SIZE >= <T::Kind as Kind>::BLOCK_SIZE;
    if !<T::Kind as Kind>::CHECKS && (complete || stride >= <T::Kind as Kind>::BLOCK_SIZE) {
        // Every byte pattern is valid and every element holds all the fields this
        // reader knows (always, where every version's element is the whole block):
        // nothing more to check.
        return Ok(());
    }
    for (i, block) in elements.chunks_exact(stride).enumerate() {
        <T::Kind as Kind>::validate(INTERNAL, Place::block(block, 0), mode, depth)
            .map_err(|e| e.shift(at + 2 + i * stride).in_element(i))?;
    }
    Ok(())
}

fn validate_table<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    let count = table_count(bytes, at)?;
    let mut start = 4 * count;
    for i in 0..count {
        let (region, end) = table_element(bytes, at, i, count, start)?;
        let place = Place {
            block: &[],
            block_at: 0,
            region,
            region_at: 0,
        };
        <T::Kind as Kind>::validate(INTERNAL, place, mode, depth)
            .map_err(|e| e.shift(at + start).in_element(i))?;
        start = end;
    }
    Ok(())
}

impl<T: Element> Sealed for ListOf<T> {}

impl<T: Element> Kind for ListOf<T> {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const LIST_BYTE_BITS: Option<u8> = match <T::Kind as Kind>::BLOCK_SIZE {
        1 => <T::Kind as Kind>::BYTE_BITS,
        _ => None,
    };
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Table;
    const MIN_ELEMENT_SIZE: usize = 4;
    const TAIL_TEXTLESS: bool = crate::plain::same_layout::<T>();
    type Reads = ListOf<<T::Kind as Kind>::Reads>;
    type View<'v> = T::ListView<'v>;
    type Lazy<'v> = crate::LazyList<'v, T>;

    #[inline(always)]
    fn lazy<'v>(
        _: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<crate::LazyList<'v, T>, Error> {
        crate::LazyList::enter(place.region, place.region_at, root, depth)
    }

    fn locate(
        _: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut Vec<crate::lazy::Step>,
    ) -> bool {
        crate::lazy::locate_list::<T>(place.region, target, steps)
    }

    #[inline]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        validate_list::<T, M>(place.region, place.region_at, mode, depth)
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: T::ListView<'v>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        s.collect_seq(
            T::list_of(view)
                .iter()
                .map(crate::serde_view::SerializeView::<T::Kind>),
        )
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, _: &'v [u8], region: &'v [u8]) -> T::ListView<'v> {
        // SAFETY: the caller promises validation accepted `region` as a list of `T`.
        T::list_view(unsafe { List::from_validated(region) })
    }

    #[inline]
    fn view_eq<'v>(_: Internal, a: T::ListView<'v>, b: T::ListView<'v>) -> bool
    where
        Self: 'v,
    {
        T::list_of(a) == T::list_of(b)
    }
}

/// A mutable view of a list field, from a message's mutable view: elements keep their
/// place and the list its length; fixed-size parts of elements can be overwritten.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Book {
///     sizes: Vec<u32>,
/// }
///
/// let mut bytes = Book { sizes: vec![100, 200] }.to_bytes().unwrap();
/// let mut book = Book::view_mut(&mut bytes).unwrap();
/// assert!(book.sizes_mut().set(1, &250));
/// assert!(!book.sizes_mut().set(2, &1)); // out of range: nothing written
/// assert_eq!(Book::decode(&bytes).unwrap().sizes, [100, 250]);
/// ```
pub struct ListMut<'v, T> {
    /// The list's region, which passed validation as a list of `T`.
    bytes: &'v mut [u8],
    len: usize,
    stride: usize,
    _element: crate::kind::Invariant<T>,
}

impl<T> fmt::Debug for ListMut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListMut")
            .field("len", &self.len)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl<'v, T: Element> ListMut<'v, T> {
    /// The mutable view over a list region that passed validation (O(1)).
    ///
    /// # Safety
    ///
    /// `bytes` passed validation as a list of `T`.
    #[inline(always)]
    pub(crate) unsafe fn from_validated(bytes: &'v mut [u8]) -> Self {
        let (len, stride) = shape::<T>(bytes);
        ListMut {
            bytes,
            len,
            stride,
            _element: PhantomData,
        }
    }

    /// The empty list (a list field the writer's version did not have).
    pub(crate) fn empty() -> Self {
        ListMut {
            bytes: &mut [],
            len: 0,
            stride: <T::Kind as Kind>::BLOCK_SIZE,
            _element: PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the list has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The list, read-only.
    #[inline]
    pub fn as_list(&self) -> List<'_, T> {
        List {
            bytes: self.bytes,
            len: self.len,
            stride: self.stride,
            _element: PhantomData,
        }
    }

    /// The element at `index`, or `None` if `index >= len()`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<ViewOf<'_, T>> {
        self.as_list().get(index)
    }

    /// Overwrites element `index` with `value` (a number, `bool`, enum, `FixedStr`, or
    /// a fixed-size message as a whole); returns false (and writes nothing) if
    /// `index >= len()`, or if the element is a message of an older version than this
    /// reader's (its stride is shorter than the block to write). A newer writer's
    /// element keeps the bytes after this reader's block.
    ///
    /// ```
    /// use wiremsg::WireMsg;
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// struct Level { price: i64, size: u32 }
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// struct Book { sizes: Vec<u32>, levels: Vec<Level> }
    ///
    /// let book = Book { sizes: vec![1, 2], levels: vec![Level { price: 10, size: 1 }] };
    /// let mut bytes = book.to_bytes().unwrap();
    /// let mut edit = Book::view_mut(&mut bytes).unwrap();
    /// assert!(edit.sizes_mut().set(1, &5));
    /// assert!(edit.levels_mut().set(0, &Level { price: 11, size: 3 }));
    /// assert!(!edit.levels_mut().set(1, &Level { price: 0, size: 0 })); // no element 1
    /// assert_eq!(
    ///     Book::decode(&bytes).unwrap(),
    ///     Book { sizes: vec![1, 5], levels: vec![Level { price: 11, size: 3 }] }
    /// );
    /// ```
    #[inline]
    #[must_use = "nothing is written when the index is out of range or the element too old"]
    pub fn set(&mut self, index: usize, value: &T) -> bool
    where
        T: Scalar<'v>,
    {
        match self.scalar_block(index) {
            Some(block) => value.write_scalar(INTERNAL, block),
            None => false,
        }
    }

    /// The block bytes of element `index` of a packed or strided list, or `None` if
    /// `index >= len()` or the list keeps its elements otherwise (table and split
    /// lists hold no element that is set as a whole).
    #[inline(always)]
    fn scalar_block(&mut self, index: usize) -> Option<&mut [u8]> {
        if index >= self.len
            || matches!(
                <T::Kind as Kind>::LIST_ENCODING,
                ListEncoding::Table | ListEncoding::Split | ListEncoding::Dense
            )
        {
            return None;
        }
        // SAFETY: `index < len` in a validated packed or strided list: the element's
        // `stride` bytes are inside the region (FORMAT.md §6.1, §6.2).
        unsafe {
            let (start, end) = element_range::<T>(self.bytes, self.len, self.stride, index);
            Some(range_mut(self.bytes, start, end))
        }
    }

    /// Updates element `index` in place in one step: `f` maps its value (a number,
    /// `bool`, enum or decimal, [`Update`](crate::Update)) to the new one, which is
    /// stored; false (nothing called or written) if `index >= len()`.
    ///
    /// ```
    /// use wiremsg::WireMsg;
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// struct Scores { points: Vec<u32> }
    ///
    /// let mut bytes = Scores { points: vec![1, 2, 3] }.to_bytes().unwrap();
    /// let mut scores = Scores::view_mut(&mut bytes).unwrap();
    /// let mut points = scores.points_mut();
    /// for i in 0..points.len() {
    ///     points.update(i, |p| p * 2);
    /// }
    /// assert!(!points.update(3, |p| p)); // out of range
    /// assert_eq!(Scores::decode(&bytes).unwrap().points, [2, 4, 6]);
    /// ```
    #[inline]
    pub fn update(&mut self, index: usize, f: impl FnOnce(T) -> T) -> bool
    where
        T: crate::Update<'v>,
    {
        let Some(block) = self.scalar_block(index) else {
            return false;
        };
        // SAFETY: these bytes passed validation as a `T`, whose view is the value
        // itself (it borrows nothing, so `block` is free to be written after).
        let view = unsafe { <T::Kind as Kind>::read(INTERNAL, block, &[]) };
        f(T::from_view(view)).write_scalar(INTERNAL, block)
    }

    /// The mutable view of element `index` of a list of messages or of a tagged
    /// union (its present variant's mutable view, FORMAT.md §4.10), or `None` if
    /// `index >= len()`: O(1).
    ///
    /// ```
    /// use wiremsg::{WireMsg, WireUnion};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// struct Limit { price: i64, qty: u32 }
    ///
    /// #[derive(WireUnion, Debug, PartialEq)]
    /// #[repr(u8)]
    /// enum Instr { Market, Limit(Limit) }
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// struct Batch { instrs: Vec<Instr> }
    ///
    /// let batch = Batch { instrs: vec![Instr::Market, Instr::Limit(Limit { price: 5, qty: 1 })] };
    /// let mut bytes = batch.to_bytes().unwrap();
    /// let mut edit = Batch::view_mut(&mut bytes).unwrap();
    /// let mut instrs = edit.instrs_mut();
    /// if let Some(InstrMut::Limit(mut limit)) = instrs.get_mut(1) {
    ///     limit.set_qty(7);
    /// }
    /// assert!(instrs.get_mut(2).is_none());
    /// assert_eq!(
    ///     Batch::decode(&bytes).unwrap().instrs[1],
    ///     Instr::Limit(Limit { price: 5, qty: 7 })
    /// );
    /// ```
    #[inline]
    pub fn get_mut(&mut self, index: usize) -> Option<NestedMut<'_, T>>
    where
        T::Kind: NestedKind,
    {
        if index >= self.len {
            return None;
        }
        // SAFETY: `index < len`; the element's bytes lie inside the validated region
        // and were validated as one value of the element's kind (a message's block
        // and tail, or a union's region).
        unsafe {
            if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Split {
                let list = NonNull::from(&mut *self.bytes).cast();
                let (block, origin) = split_at(list, self.stride, index);
                return Some(<T::Kind as NestedKind>::read_split_mut(
                    INTERNAL, block, origin,
                ));
            }
            if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Dense {
                let at = dense_at::<T>(self.bytes, self.stride, index);
                let same = self.stride & SAME_TABLE != 0;
                // The table is before the payload: apart from it.
                let (table, rest) = self.bytes.split_at_mut_unchecked(at.payload);
                let payload = range_mut(rest, 0, at.block);
                return Some(with_tag::<T, _>(table, at.entry, at.k, same, |tag| {
                    <T::Kind as NestedKind>::read_dense_mut(INTERNAL, tag, payload)
                }));
            }
            let (start, end) = element_range::<T>(self.bytes, self.len, self.stride, index);
            let bytes = range_mut(self.bytes, start, end);
            Some(<T::Kind as NestedKind>::read_mut(INTERNAL, bytes))
        }
    }

    /// The mutable view of inner list `index` of a list of lists, or `None` if
    /// `index >= len()`: O(1), two reads of the offset table (FORMAT.md §6.5).
    ///
    /// ```
    /// use wiremsg::WireMsg;
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// struct Grid { rows: Vec<Vec<u16>> }
    ///
    /// let mut bytes = Grid { rows: vec![vec![1, 2], vec![3]] }.to_bytes().unwrap();
    /// let mut grid = Grid::view_mut(&mut bytes).unwrap();
    /// assert!(grid.rows_mut().list_mut(1).unwrap().set(0, &30));
    /// assert!(grid.rows_mut().list_mut(2).is_none());
    /// assert_eq!(Grid::decode(&bytes).unwrap(), Grid { rows: vec![vec![1, 2], vec![30]] });
    /// ```
    #[inline]
    pub fn list_mut<U: Element>(&mut self, index: usize) -> Option<ListMut<'_, U>>
    where
        T: Field<Kind = ListOf<U>>,
    {
        if index >= self.len {
            return None;
        }
        // SAFETY: `index < len` in a validated table list: the element's region lies
        // inside the list's, and was validated as a list of `U` (its kind `ListOf<U>`).
        unsafe {
            let (start, end) = element_range::<T>(self.bytes, self.len, self.stride, index);
            Some(ListMut::from_validated(range_mut(self.bytes, start, end)))
        }
    }

    /// The mutable views of the message (or union) elements, in order.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::WireMsg;
    ///
    /// #[derive(WireMsg, Debug)]
    /// struct Level { price: i64, size: u32 }
    ///
    /// #[derive(WireMsg, Debug)]
    /// struct Book { levels: Vec<Level> }
    ///
    /// let book = Book { levels: vec![Level { price: 10, size: 1 }, Level { price: 11, size: 2 }] };
    /// let mut bytes = book.to_bytes().unwrap();
    /// let mut view = Book::view_mut(&mut bytes).unwrap();
    /// for mut level in view.levels_mut().iter_mut() {
    ///     let doubled = level.size() * 2;
    ///     level.set_size(doubled);
    /// }
    /// let sizes: Vec<u32> = Book::view(&bytes).unwrap().levels().iter().map(|l| l.size()).collect();
    /// assert_eq!(sizes, [2, 4]);
    /// ```
    pub fn iter_mut(&mut self) -> ListIterMut<'_, T>
    where
        T::Kind: NestedKind,
    {
        let len = self.len;
        let stride = self.stride;
        let split = NonNull::from(&mut *self.bytes).cast::<u8>();
        let (table, rest): (&[u8], &mut [u8]) = match <T::Kind as Kind>::LIST_ENCODING {
            // Elements are read through `split` alone: their blocks and tails are
            // apart, and an element's origin may lie in another's block bytes.
            ListEncoding::Split => (&[], &mut []),
            // The header, whose variant table each element's entry index names, then
            // the elements at the stride.
            ListEncoding::Dense => {
                let entries = usize::from(read_u16(self.bytes, 2).unwrap_or(0));
                let first = dense::entry_at(entries, <T::Kind as Kind>::DENSE_TAG);
                let (table, rest) = self.bytes.split_at_mut(first.min(self.bytes.len()));
                (&*table, rest)
            }
            ListEncoding::Table => {
                let split = (4 * len).min(self.bytes.len());
                let (table, rest) = self.bytes.split_at_mut(split);
                (&*table, rest)
            }
            _ => {
                let split = 2.min(self.bytes.len());
                (&[], &mut self.bytes[split..])
            }
        };
        ListIterMut {
            table,
            rest,
            split,
            len,
            stride,
            next: 0,
            start: 4 * len,
            _element: PhantomData,
        }
    }
}

/// Iterator over the mutable views of the message elements of a [`ListMut`].
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Fill { qty: u32 }
///
/// #[derive(WireMsg, Debug)]
/// struct Report { fills: Vec<Fill> }
///
/// let mut bytes = Report { fills: vec![Fill { qty: 1 }, Fill { qty: 2 }] }.to_bytes().unwrap();
/// let mut report = Report::view_mut(&mut bytes).unwrap();
/// for mut fill in report.fills_mut().iter_mut() {
///     fill.set_qty(fill.qty() * 10);
/// }
/// assert_eq!(Report::view(&bytes).unwrap().fills().get(1).unwrap().qty(), 20);
/// ```
pub struct ListIterMut<'m, T> {
    /// The offset table of a table list, the header of a dense list (empty otherwise).
    table: &'m [u8],
    /// The elements not yet returned (empty for a split list).
    rest: &'m mut [u8],
    /// The start of a split list, whose elements are read through it.
    split: NonNull<u8>,
    len: usize,
    stride: usize,
    next: usize,
    /// Offset of the next element from the start of a table list.
    start: usize,
    _element: crate::kind::Invariant<T>,
}

impl<T> fmt::Debug for ListIterMut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListIterMut")
            .field("len", &self.len)
            .field("next", &self.next)
            .finish()
    }
}

impl<'m, T: Element> Iterator for ListIterMut<'m, T>
where
    T::Kind: NestedKind,
{
    type Item = NestedMut<'m, T>;

    fn next(&mut self) -> Option<NestedMut<'m, T>> {
        if self.next >= self.len {
            return None;
        }
        let i = self.next;
        self.next += 1;
        // SAFETY: the list passed validation: its table holds `len` start offsets that
        // never decrease and stay in the region, and strided elements are `stride`
        // bytes, so element `i` is the next `size` bytes of `rest`, validated as one
        // value of the element's kind.
        unsafe {
            if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Split {
                // SAFETY (also): the list's bytes are borrowed mutably for `'m`, and
                // each element's block and tail regions are its own, apart from every
                // other element's (validation), so the views never overlap in what
                // they read or write.
                let (block, origin) = split_at(self.split, self.stride, i);
                return Some(<T::Kind as NestedKind>::read_split_mut(
                    INTERNAL, block, origin,
                ));
            }
            let size = match <T::Kind as Kind>::LIST_ENCODING {
                ListEncoding::Table => {
                    let end = if i + 1 < self.len {
                        let next = crate::validated::array_at(self.table, 4 * (i + 1));
                        u32::from_le_bytes(next) as usize
                    } else {
                        self.start + self.rest.len()
                    };
                    end - self.start
                }
                // A dense list's stride may carry `SAME_TABLE`.
                _ => self.stride & !SAME_TABLE,
            };
            self.start += size;
            let rest = core::mem::take(&mut self.rest);
            let (element, rest) = rest.split_at_mut_unchecked(size);
            self.rest = rest;
            if <T::Kind as Kind>::LIST_ENCODING == ListEncoding::Dense {
                // SAFETY (also): `table` is the list's header, whose entries
                // validation checked, and the element's entry index is below their
                // count; the entry's payload fits in the element (`dense::header`).
                let tag = <T::Kind as Kind>::DENSE_TAG;
                let k = uint_at(element, 0, tag) as usize;
                let entry = dense::entry_at(k, tag);
                let block = u16::from_le_bytes(crate::validated::array_at(self.table, entry + tag));
                let payload = range_mut(element, tag, tag + usize::from(block));
                let same = self.stride & SAME_TABLE != 0;
                return Some(with_tag::<T, _>(self.table, entry, k, same, |value| {
                    <T::Kind as NestedKind>::read_dense_mut(INTERNAL, value, payload)
                }));
            }
            Some(<T::Kind as NestedKind>::read_mut(INTERNAL, element))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.len - self.next.min(self.len);
        (left, Some(left))
    }
}

impl<'m, T: Element> ExactSizeIterator for ListIterMut<'m, T> where T::Kind: NestedKind {}

impl<T: Element, const MAX: usize> Sealed for BoundedListOf<T, MAX> {}

/// A list (FORMAT.md §6) whose element count validation also checks against `MAX`.
impl<T: Element, const MAX: usize> Kind for BoundedListOf<T, MAX> {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Table;
    const MIN_ELEMENT_SIZE: usize = 4;
    const TAIL_TEXTLESS: bool = crate::plain::same_layout::<T>();
    type Reads = BoundedListOf<<T::Kind as Kind>::Reads, MAX>;
    type View<'v> = T::ListView<'v>;
    type Lazy<'v> = crate::LazyList<'v, T>;

    #[inline]
    fn lazy<'v>(
        i: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<crate::LazyList<'v, T>, Error> {
        let list = <ListOf<T> as Kind>::lazy(i, place, root, depth)?;
        if list.len() > MAX {
            // The error up-front validation gives: an element's comes first, since it
            // checks the count after the list (FORMAT.md §6.5). Only on this error
            // path, in time linear in the list, as up-front validation takes.
            <ListOf<T> as Kind>::validate(i, place, &crate::mode::Checked, depth)?;
            return Err(Error::new(
                ErrorKind::ListTooLong {
                    len: list.len(),
                    max: MAX,
                },
                place.region_at,
            ));
        }
        Ok(list)
    }

    fn locate(
        i: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut Vec<crate::lazy::Step>,
    ) -> bool {
        <ListOf<T> as Kind>::locate(i, place, target, steps)
    }

    #[inline]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        validate_list::<T, M>(place.region, place.region_at, mode, depth)?;
        // The list is valid: its shape is its element count.
        let (len, _) = shape::<T>(place.region);
        if len > MAX {
            return Err(Error::new(
                ErrorKind::ListTooLong { len, max: MAX },
                place.region_at,
            ));
        }
        Ok(())
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        i: Internal,
        view: T::ListView<'v>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        <ListOf<T> as Kind>::serialize_view(i, view, s)
    }

    #[inline]
    fn view_eq<'v>(i: Internal, a: T::ListView<'v>, b: T::ListView<'v>) -> bool
    where
        Self: 'v,
    {
        <ListOf<T> as Kind>::view_eq(i, a, b)
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, _: &'v [u8], region: &'v [u8]) -> T::ListView<'v> {
        // SAFETY: the caller promises validation accepted `region` as a list of `T`.
        T::list_view(unsafe { List::from_validated(region) })
    }
}

impl<T: Element, const MAX: usize> crate::validated::ListKind for BoundedListOf<T, MAX> {
    type Element = T;
}
