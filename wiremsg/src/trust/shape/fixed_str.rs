//! Fixed-width text (FORMAT.md §4.3): `N` bytes of UTF-8 padded with an ASCII byte,
//! read as the `&str` before the padding once validation checked it.

use crate::field::{FixedKind, SetInPlace};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::trust::shape::Kind;
use crate::{Error, ErrorKind, Field, FixedStr, ListEncoding, Mode};

impl<const N: usize, const PAD: u8> Sealed for FixedStr<N, PAD> {}

/// The `N` bytes without the trailing `pad` bytes: trimmed as bytes (an ASCII byte is
/// a whole character), so that text becomes a `str` only once it is proven UTF-8.
#[inline(always)]
pub(crate) fn unpadded(block: &[u8], pad: u8) -> &[u8] {
    // Eight bytes at a time from the end: a word of padding XOR the padding word is
    // zero, and the highest non-zero byte of a little-endian word is its last
    // non-padding byte.
    let pads = u64::from_le_bytes([pad; 8]);
    let mut end = block.len();
    while let Some(chunk) = end.checked_sub(8).and_then(|start| block.get(start..end)) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ pads;
        if x != 0 {
            let last = (63 - x.leading_zeros() as usize) / 8;
            return &block[..end - 8 + last + 1];
        }
        end -= 8;
    }
    while end > 0 && block[end - 1] == pad {
        end -= 1;
    }
    &block[..end]
}

impl<const N: usize, const PAD: u8> Kind for FixedStr<N, PAD> {
    const BLOCK_SIZE: usize = {
        let () = Self::PAD_IS_ASCII;
        N
    };
    const IN_TAIL: bool = false;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = N;
    type Reads = Self;
    type View<'v> = &'v str;
    crate::trust::shape::eager_lazy!();

    #[inline(always)]
    fn validate<M: Mode>(i: Internal, place: Place<'_>, mode: &M, _: u32) -> Result<(), Error> {
        mode.text(i, unpadded(place.block, PAD))
            .map_err(|valid_up_to| {
                Error::new(
                    ErrorKind::InvalidUtf8 { valid_up_to },
                    place.block_at.wrapping_add(valid_up_to),
                )
            })
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> &'v str {
        // SAFETY: the caller promises `block` holds the `N` bytes and that validation
        // accepted them: their unpadded prefix is UTF-8.
        unsafe { crate::validated::str_of(unpadded(crate::validated::range(block, 0, N), PAD)) }
    }

    fn default_bytes(_: Internal, view: &str) -> Option<alloc::vec::Vec<u8>> {
        let mut out = alloc::vec![0; N];
        FixedStr::<N>::new(view).ok()?.write(&mut out, &mut []);
        Some(out)
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: &'v str,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        s.serialize_str(view)
    }

    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: &'v str, b: &'v str) -> bool
    where
        Self: 'v,
    {
        a == b
    }
}

/// Writes the value's bytes if their text before the padding is UTF-8, as validation
/// requires: checked here rather than taken from `FixedStr::new`, so that the bytes of
/// a validated view stay valid whatever the type's own code does (at most `N` bytes).
impl<'v, const N: usize, const PAD: u8> SetInPlace<'v, FixedStr<N, PAD>> for FixedStr<N, PAD> {
    #[inline(always)]
    fn set(_: Internal, value: &FixedStr<N, PAD>, block: &mut [u8]) -> bool {
        let bytes = value.as_bytes();
        match block.first_chunk_mut::<N>() {
            Some(out) if core::str::from_utf8(unpadded(bytes, PAD)).is_ok() => {
                *out = *bytes;
                true
            }
            _ => false,
        }
    }
}

impl<const N: usize, const PAD: u8> FixedKind for FixedStr<N, PAD> {}
