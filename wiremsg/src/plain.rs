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

/// A type's answer to "is the Rust value its wire block?" ([`Field::PLAIN`]). No is
/// the default; yes is a promise that only `unsafe` code can make
/// ([`promise`](Self::promise)), because this module copies memory on it: a
/// hand-written `Field` impl in safe code cannot claim it.
#[derive(Clone, Copy, Debug)]
pub struct Plain(bool);

impl Plain {
    /// Not plain: every list of the type goes element by element.
    pub const NO: Plain = Plain(false);

    /// Plain.
    ///
    /// # Safety
    ///
    /// For the type `T` whose `Field::PLAIN` this is: `size_of::<T>()` is its block
    /// size, and every byte of a `T` is initialized and is the byte at the same
    /// offset of the value's wire block (no padding, no pointers), so that the memory
    /// of a `T` is its block and every block validation accepts is a valid `T`; and
    /// `T`'s `check_value` refuses no value (lists of plain values skip it).
    pub const unsafe fn promise() -> Plain {
        Plain(true)
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
