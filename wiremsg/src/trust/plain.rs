//! Lists copied whole. Where a type's Rust value is, byte for byte, its wire block
//! ([`Field::PLAIN`], proven at compile time for each type), a packed or strided list
//! of it is one copy each way: encoding copies the slice's memory, decoding copies
//! the elements' bytes into the vector's buffer, instead of a write or a read per
//! field of every element. This is the one module that views a value's memory as
//! bytes, or bytes as values.
//!
//! `PLAIN` holds for numbers on a little-endian target, `bool`, arrays of plain
//! types, and fixed-size messages whose fields are plain and sit at their wire
//! offsets in the Rust struct (`core::mem::offset_of!`), with no byte between or
//! after them (`size_of::<Self>()` equals the block length). Anything else takes
//! the per-element path, which gives the same bytes.

use crate::field::{Field, Kind};
use alloc::vec::Vec;

/// `T`'s answer to "is the Rust value its wire block?" ([`Field::PLAIN`]). No is the
/// default; yes is a promise that only `unsafe` code can make
/// ([`promise`](Self::promise)), because this module copies memory on it.
///
/// The promise names its type and is invariant in it, so it cannot be copied from
/// another type's impl: `const PLAIN: Plain<Self> = <u64 as Field>::PLAIN;` in a
/// hand-written `impl Field for Foo` is a type error (`Plain<u64>` is not
/// `Plain<Foo>`), and so is any subtyping coercion between two types' promises
/// (`tests/ui/copied-plain-promise.rs`).
pub struct Plain<T: ?Sized>(bool, crate::kind::Invariant<*const T>);

impl<T: ?Sized> Clone for Plain<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Plain<T> {}

impl<T: ?Sized> core::fmt::Debug for Plain<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("Plain").field(&self.0).finish()
    }
}

impl<T: ?Sized> Plain<T> {
    /// Not plain: every list of the type goes element by element.
    pub const NO: Plain<T> = Plain(false, core::marker::PhantomData);

    /// Plain.
    ///
    /// # Safety
    ///
    /// `T` is the type whose `Field::PLAIN` this is, and: `size_of::<T>()` is its
    /// block size, and every byte of a `T` is initialized and is the byte at the same
    /// offset of the value's wire block (no padding, no pointers), so that the memory
    /// of a `T` is its block and every block validation accepts is a valid `T`; and
    /// `T`'s `check_value` refuses no value (lists of plain values skip it).
    pub const unsafe fn promise() -> Plain<T> {
        Plain(true, core::marker::PhantomData)
    }

    /// Whether the type is plain.
    pub const fn get(self) -> bool {
        self.0
    }
}

/// The wire bytes of `items`: their memory.
#[inline]
pub(crate) fn as_bytes<T: Field>(items: &[T]) -> &[u8] {
    assert!(same_layout::<T>());
    // SAFETY: `T::PLAIN` is a promise (`Plain::promise`) that every byte of a `T`
    // is initialized, a byte of its wire block, so all `size_of_val(items)` bytes
    // are; `u8` has alignment 1 and the slice lives as long as `items`.
    unsafe {
        core::slice::from_raw_parts(items.as_ptr().cast::<u8>(), core::mem::size_of_val(items))
    }
}

/// The `len` elements in `bytes` (`len * size_of::<T>()` bytes, back to back), as
/// a vector.
///
/// # Safety
///
/// `bytes` passed validation as `len` elements of `T` of block size
/// `size_of::<T>()` (so a `bool` in them is 0 or 1).
#[inline]
pub(crate) unsafe fn vec_from_bytes<T: Field>(bytes: &[u8], len: usize) -> Vec<T> {
    let size = core::mem::size_of::<T>();
    assert!(same_layout::<T>() && size > 0);
    let total = len
        .checked_mul(size)
        .expect("a validated list fits its buffer");
    let bytes = &bytes[..total];
    let mut out = Vec::<T>::with_capacity(len);
    // SAFETY: the buffer holds `len` elements (`total` bytes) and does not overlap
    // `bytes`. `T::PLAIN` promises that the bytes of a block validation accepts are
    // a valid `T` (numbers take every bit pattern; validation accepted only 0 and 1
    // for each bool: the caller's promise). After the copy, the first `len` elements
    // are initialized.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr().cast::<u8>(), total);
        out.set_len(len);
    }
    out
}

/// True if `T`'s Rust layout is its wire block (the rule [`Field::PLAIN`] states).
#[inline(always)]
pub const fn same_layout<T: Field>() -> bool {
    T::PLAIN.get() && core::mem::size_of::<T>() == <T::Kind as Kind>::BLOCK_SIZE
}

/// Encoding output that is filled front to back: the bytes of `buf` before `len`
/// are initialized, those after may not be. `WireMsg::encode` writes through it into
/// a vector's spare capacity, so that no byte is zero-filled first only to be
/// overwritten (on a bulk list that fill costs as much as the copy itself). Only
/// three operations grow `len`, and each initializes the bytes it adds: appending
/// bytes, appending zeros, and a nested part ([`with_block`](Self::with_block)).
/// A write past the end is cut short, as a write into a short slice was.
#[doc(hidden)]
pub struct Out<'a> {
    buf: &'a mut [core::mem::MaybeUninit<u8>],
    len: usize,
}

impl core::fmt::Debug for Out<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Out")
            .field("len", &self.len)
            .field("capacity", &self.buf.len())
            .finish()
    }
}

impl<'a> Out<'a> {
    /// Output into `out`, overwriting it from the start.
    #[inline(always)]
    pub fn over(out: &'a mut [u8]) -> Out<'a> {
        // SAFETY: `MaybeUninit<u8>` has the layout of `u8`. An `Out` only ever
        // writes initialized bytes, so `out` stays initialized for its owner.
        let buf = unsafe {
            core::slice::from_raw_parts_mut(
                out.as_mut_ptr().cast::<core::mem::MaybeUninit<u8>>(),
                out.len(),
            )
        };
        Out { buf, len: 0 }
    }

    /// Bytes this output initialized, if it still is the output over `region`
    /// (start, length); 0 if `f` put another `Out` in its place, whose bytes say
    /// nothing about `region`'s.
    #[inline(always)]
    fn written_in(&self, region: (*const core::mem::MaybeUninit<u8>, usize)) -> usize {
        if (self.buf.as_ptr(), self.buf.len()) == region {
            self.len
        } else {
            0
        }
    }

    /// Bytes written so far.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True before the first byte is written.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `bytes` (as many as fit).
    #[inline(always)]
    pub fn append(&mut self, bytes: &[u8]) {
        let room = &mut self.buf[self.len..];
        let n = bytes.len().min(room.len());
        // SAFETY: `room` has at least `n` bytes, `bytes` at least `n`, and they do
        // not overlap (`room` is borrowed mutably); `MaybeUninit<u8>` has the layout
        // of `u8`.
        unsafe { copy_bytes(bytes.as_ptr(), room.as_mut_ptr().cast::<u8>(), n) };
        self.len += n;
    }

    /// Appends `n` zero bytes (as many as fit) and returns them, to be written in
    /// any order.
    #[inline(always)]
    pub fn zeroed(&mut self, n: usize) -> &mut [u8] {
        let start = self.len;
        let n = n.min(self.buf.len() - start);
        let part = &mut self.buf[start..start + n];
        part.fill(core::mem::MaybeUninit::new(0));
        self.len += n;
        // SAFETY: the `n` bytes were just initialized (to zero); `MaybeUninit<u8>`
        // has the layout of `u8`.
        unsafe { core::slice::from_raw_parts_mut(part.as_mut_ptr().cast::<u8>(), n) }
    }

    /// Appends a block of `block_len` bytes, zeroed, then whatever `f` appends after
    /// it: `f` gets the block, to write in any order, and the output after it, which
    /// starts empty (its `len()` is then the position relative to the block's end).
    /// Where the block does not fit (never, unless a `Field` impl's `tail_len`
    /// undercounts what it appends), the output is filled up with zeros and `f` is
    /// not called: writes past the end are cut short.
    #[inline(always)]
    pub fn with_block(&mut self, block_len: usize, f: impl FnOnce(&mut [u8], &mut Out<'_>)) {
        let start = self.len;
        if block_len > self.buf.len() - start {
            self.fill_up();
            return;
        }
        // `f` is called only with a block of exactly `block_len` bytes: inlined with
        // a constant length, the fill is a few stores and `f`'s writes into the block
        // need no bounds checks.
        let (head, rest) = self.buf[start..].split_at_mut(block_len);
        head.fill(core::mem::MaybeUninit::new(0));
        // SAFETY: `head` was just initialized (to zero).
        let block =
            unsafe { core::slice::from_raw_parts_mut(head.as_mut_ptr().cast::<u8>(), block_len) };
        let region = (rest.as_ptr(), rest.len());
        let mut after = Out { buf: rest, len: 0 };
        f(block, &mut after);
        self.len = start + block_len + after.written_in(region);
    }

    /// Zeros every byte left (out of line: only a lying `Field` impl gets here).
    #[cold]
    #[inline(never)]
    fn fill_up(&mut self) {
        self.zeroed(self.buf.len() - self.len);
    }
}

/// Copies `n` bytes from `src` to `dst`. Most of what encoding appends is a short
/// string (a symbol, a name: under 32 bytes), for which a call to `memcpy` costs
/// more than the copy: such a copy is two overlapping loads and stores, inline.
/// Longer ones are one `memcpy` (a loop of `MaybeUninit::write` was not always made
/// one).
///
/// # Safety
///
/// `src` is valid for reads and `dst` for writes of `n` bytes, and they do not
/// overlap.
#[inline(always)]
unsafe fn copy_bytes(src: *const u8, dst: *mut u8, n: usize) {
    use core::ptr::{read_unaligned as load, write_unaligned as store};
    // SAFETY: in every branch, each load reads `size_of` bytes at `src + k` with
    // `k + size_of <= n` and each store writes them at `dst + k` (unaligned
    // accesses of plain integers); the caller's ranges do not overlap.
    unsafe {
        if n > 32 {
            core::ptr::copy_nonoverlapping(src, dst, n);
        } else if n >= 16 {
            let (head, last) = (
                load(src.cast::<u128>()),
                load(src.add(n - 16).cast::<u128>()),
            );
            store(dst.cast::<u128>(), head);
            store(dst.add(n - 16).cast::<u128>(), last);
        } else if n >= 8 {
            let (head, last) = (load(src.cast::<u64>()), load(src.add(n - 8).cast::<u64>()));
            store(dst.cast::<u64>(), head);
            store(dst.add(n - 8).cast::<u64>(), last);
        } else if n >= 4 {
            let (head, last) = (load(src.cast::<u32>()), load(src.add(n - 4).cast::<u32>()));
            store(dst.cast::<u32>(), head);
            store(dst.add(n - 4).cast::<u32>(), last);
        } else if n > 0 {
            // One to three bytes: the first, the middle and the last.
            *dst = *src;
            *dst.add(n / 2) = *src.add(n / 2);
            *dst.add(n - 1) = *src.add(n - 1);
        }
    }
}

/// Writes `out` through an [`Out`] over it; bytes `write` leaves unwritten (none,
/// unless a `Field` impl's `tail_len` disagrees with what it writes) are zeroed, as
/// [`append_to_vec`] does: what the slice held before never reaches the wire.
#[inline(always)]
pub(crate) fn write_to_slice(out: &mut [u8], write: impl FnOnce(&mut Out<'_>)) {
    let mut o = Out::over(out);
    let region = (o.buf.as_ptr(), o.buf.len());
    write(&mut o);
    let written = o.written_in(region);
    if let Some(rest) = out.get_mut(written..) {
        rest.fill(0);
    }
}

/// Appends `len` bytes to `out`, written by `write` through an [`Out`] into the
/// vector's spare capacity; bytes `write` leaves unwritten (none, unless a `Field`
/// impl's `tail_len` disagrees with what it writes) are zero.
#[inline(always)]
pub(crate) fn append_to_vec(out: &mut Vec<u8>, len: usize, write: impl FnOnce(&mut Out<'_>)) {
    out.reserve(len);
    let start = out.len();
    let spare = &mut out.spare_capacity_mut()[..len];
    let region = (spare.as_ptr(), len);
    let mut o = Out { buf: spare, len: 0 };
    write(&mut o);
    let written = o.written_in(region);
    let mut o = Out {
        buf: &mut out.spare_capacity_mut()[..len],
        len: written,
    };
    o.zeroed(len - written);
    // SAFETY: the `len` bytes after `start` (capacity reserved above) are the
    // region `write` was given: it initialized the first `written` of them (an
    // `Out` initializes every byte it counts, and `written_in` counts only those of
    // this region), and `zeroed` the rest.
    unsafe { out.set_len(start + len) };
}
