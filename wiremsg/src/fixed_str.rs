//! `FixedStr<N>`: fixed-width text such as an 8-byte ticker (FORMAT.md §4.3).

use crate::field::{DecodeField, Element, Field, FixedKind, Kind, ListEncoding, SetInPlace};
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::{Error, ErrorKind, Mode, TypeSchema};
use core::fmt;

/// Text in exactly `N` bytes: UTF-8, left-aligned, right-padded with spaces (0x20).
///
/// The padding rule follows fixed-width alpha fields of exchange feeds (Nasdaq
/// TotalView-ITCH 5.0 pads stock symbols with spaces on the right). The value is the
/// text without its trailing spaces, so a value cannot itself end with a space:
/// [`FixedStr::new`] rejects one, and nothing written is lost on the way back.
/// On the wire the `N` bytes must be UTF-8; other bytes fail validation.
///
/// # Examples
///
/// ```
/// use wiremsg::{ErrorKind, FixedStr};
///
/// let symbol = FixedStr::<8>::new("AAPL").unwrap();
/// assert_eq!(symbol.as_str(), "AAPL");
/// assert_eq!(symbol.as_bytes(), b"AAPL    ");
///
/// let err = FixedStr::<4>::new("GOOGL").unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::FixedStrTooLong { len: 5, capacity: 4 });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FixedStr<const N: usize> {
    bytes: [u8; N],
}

impl<const N: usize> FixedStr<N> {
    /// `text` padded to `N` bytes with spaces.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FixedStrTooLong`] if `text` is longer than `N` bytes;
    /// [`ErrorKind::FixedStrTrailingSpace`] (at the offset of that space) if it ends
    /// with a space, which would read back as padding.
    pub fn new(text: &str) -> Result<Self, Error> {
        let len = text.len();
        if len > N {
            return Err(Error::new(
                ErrorKind::FixedStrTooLong { len, capacity: N },
                0,
            ));
        }
        if text.ends_with(' ') {
            return Err(Error::new(ErrorKind::FixedStrTrailingSpace, len - 1));
        }
        let mut bytes = [b' '; N];
        bytes[..len].copy_from_slice(text.as_bytes());
        Ok(FixedStr { bytes })
    }

    /// The text, without its padding.
    pub fn as_str(&self) -> &str {
        // The bytes are UTF-8 by construction (`new`); the fallback is never taken.
        core::str::from_utf8(unpadded(&self.bytes)).unwrap_or("")
    }

    /// The `N` bytes as they are on the wire, padding included.
    pub fn as_bytes(&self) -> &[u8; N] {
        &self.bytes
    }
}

impl<const N: usize> Default for FixedStr<N> {
    /// The empty text: `N` spaces.
    fn default() -> Self {
        FixedStr { bytes: [b' '; N] }
    }
}

impl<const N: usize> fmt::Debug for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize> fmt::Display for FixedStr<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize> TryFrom<&str> for FixedStr<N> {
    type Error = Error;

    fn try_from(text: &str) -> Result<Self, Error> {
        FixedStr::new(text)
    }
}

impl<const N: usize> PartialEq<str> for FixedStr<N> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize> PartialEq<&str> for FixedStr<N> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<const N: usize> Sealed for FixedStr<N> {}

/// The `N` bytes without the padding: trimmed as bytes (spaces are whole characters),
/// so that text becomes a `str` only once it is proven UTF-8.
#[inline(always)]
fn unpadded(block: &[u8]) -> &[u8] {
    // Eight bytes at a time from the end: a word of spaces XOR 0x20.. is zero, and
    // the highest non-zero byte of a little-endian word is its last non-space byte.
    let mut end = block.len();
    while let Some(chunk) = end.checked_sub(8).and_then(|start| block.get(start..end)) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let x = u64::from_le_bytes(word) ^ 0x2020_2020_2020_2020;
        if x != 0 {
            let last = (63 - x.leading_zeros() as usize) / 8;
            return &block[..end - 8 + last + 1];
        }
        end -= 8;
    }
    while end > 0 && block[end - 1] == b' ' {
        end -= 1;
    }
    &block[..end]
}

impl<const N: usize> Kind for FixedStr<N> {
    const BLOCK_SIZE: usize = N;
    const IN_TAIL: bool = false;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = N;
    type View<'v> = &'v str;

    #[inline(always)]
    fn validate<M: Mode>(i: Internal, place: Place<'_>, mode: &M, _: u32) -> Result<(), Error> {
        mode.text(i, unpadded(place.block)).map_err(|valid_up_to| {
            Error::new(
                ErrorKind::InvalidUtf8 { valid_up_to },
                place.block_at + valid_up_to,
            )
        })
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], _: &'v [u8]) -> &'v str {
        // SAFETY: the caller promises `block` holds the `N` bytes and that validation
        // accepted them: their unpadded prefix is UTF-8.
        unsafe { crate::validated::str_of(unpadded(crate::validated::range(block, 0, N))) }
    }

    #[inline(always)]
    fn view_eq<'v>(_: Internal, a: &'v str, b: &'v str) -> bool
    where
        Self: 'v,
    {
        a == b
    }
}

impl<const N: usize> Field for FixedStr<N> {
    type Kind = FixedStr<N>;
    const TYPE: &'static TypeSchema = &TypeSchema::FixedStr { len: N };

    #[inline(always)]
    fn tail_len(&self) -> usize {
        0
    }

    #[inline(always)]
    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        if let Some(out) = block.first_chunk_mut::<N>() {
            *out = self.bytes;
        }
    }
}

crate::field::list_element!([impl<const N: usize> Element for FixedStr<N>]);

impl<'v, const N: usize> DecodeField<'v> for FixedStr<N> {
    fn decode_view(view: &'v str) -> Self {
        // A validated view is at most N bytes and does not end in a space.
        FixedStr::new(view).unwrap_or_default()
    }
}

/// The bytes of a `FixedStr` are UTF-8 by construction ([`FixedStr::new`]).
impl<'v, const N: usize> SetInPlace<'v, FixedStr<N>> for FixedStr<N> {
    #[inline(always)]
    fn set(_: Internal, value: &FixedStr<N>, block: &mut [u8]) -> bool {
        value.write(block, &mut []);
        true
    }
}

impl<const N: usize> FixedKind for FixedStr<N> {}
