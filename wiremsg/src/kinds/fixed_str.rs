//! `FixedStr<N, PAD>`: fixed-width text such as an 8-byte ticker (FORMAT.md §4.3).

use crate::field::{DecodeField, Element, Field};
use crate::trust::shape::fixed_str::unpadded;
use crate::{Error, ErrorKind, TypeSchema};
use core::fmt;

/// Text in exactly `N` bytes: UTF-8, left-aligned, right-padded with the byte `PAD`:
/// a space (0x20, the default) or NUL (`FixedStr<N, 0>`).
///
/// Space padding follows the alpha fields of exchange feeds (Nasdaq TotalView-ITCH 5.0
/// pads stock symbols with spaces on the right); NUL padding follows SBE's and FIX's
/// fixed-length character arrays (SBE 1.0: a shorter value is padded with NUL), so
/// `"NQ\0\0\0\0\0\0"` reads back as `"NQ"`. The value is the text without its trailing
/// padding bytes, so a value cannot itself end with the padding character:
/// [`FixedStr::new`] rejects one, and nothing written is lost on the way back. (A
/// padding byte inside the text is kept: `"A\0B"` is a 3-byte NUL-padded value.)
/// On the wire the unpadded bytes must be UTF-8; other bytes fail validation.
/// `PAD` must be an ASCII byte (a compile error otherwise).
///
/// # Examples
///
/// ```
/// use wiremsg::{FixedStr, FixedStrError};
///
/// let symbol = FixedStr::<8>::new("AAPL").unwrap();
/// assert_eq!(symbol.as_str(), "AAPL");
/// assert_eq!(symbol.as_bytes(), b"AAPL    ");
///
/// // SBE / FIX style: NUL padding, built at compile time.
/// const NQ: FixedStr<8, 0> = match FixedStr::new("NQ") {
///     Ok(text) => text,
///     Err(_) => panic!("symbol too long"),
/// };
/// assert_eq!(NQ.as_bytes(), b"NQ\0\0\0\0\0\0");
/// assert_eq!(NQ, "NQ");
///
/// let err = FixedStr::<4>::new("GOOGL").unwrap_err();
/// assert_eq!(err, FixedStrError::TooLong { len: 5, capacity: 4 });
/// let err = FixedStr::<4, 0>::new("A\0").unwrap_err();
/// assert_eq!(err, FixedStrError::EndsWithPadding { at: 1, pad: 0 });
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FixedStr<const N: usize, const PAD: u8 = b' '> {
    bytes: [u8; N],
}

/// Why text cannot be a [`FixedStr`]: what [`FixedStr::new`] returns.
///
/// A small `Copy` value, so that `new` can be `const`; `?` converts it into an
/// [`Error`] ([`ErrorKind::FixedStrTooLong`] or [`ErrorKind::FixedStrTrailingSpace`]).
///
/// # Examples
///
/// ```
/// use wiremsg::{ErrorKind, FixedStr};
///
/// fn symbol(text: &str) -> Result<FixedStr<4>, wiremsg::Error> {
///     Ok(FixedStr::new(text)?)
/// }
/// let err = symbol("GOOGL").unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::FixedStrTooLong { len: 5, capacity: 4 });
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum FixedStrError {
    /// The text is longer than the `N` bytes of the field.
    TooLong {
        /// Byte length of the text.
        len: usize,
        /// Capacity in bytes (`N`).
        capacity: usize,
    },
    /// The text ends with the padding character, which would read back as padding.
    EndsWithPadding {
        /// Byte offset of that last character in the text.
        at: usize,
        /// The padding byte (`PAD`).
        pad: u8,
    },
}

impl fmt::Display for FixedStrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FixedStrError::TooLong { len, capacity } => write!(
                f,
                "text of {len} bytes does not fit a {capacity}-byte fixed string"
            ),
            FixedStrError::EndsWithPadding { at, pad } => write!(
                f,
                "text for a fixed string ends with its padding byte {pad:#04x} at byte {at}, which would read back as padding"
            ),
        }
    }
}

impl core::error::Error for FixedStrError {}

impl From<FixedStrError> for Error {
    fn from(err: FixedStrError) -> Error {
        match err {
            FixedStrError::TooLong { len, capacity } => {
                Error::new(ErrorKind::FixedStrTooLong { len, capacity }, 0)
            }
            FixedStrError::EndsWithPadding { at, .. } => {
                Error::new(ErrorKind::FixedStrTrailingSpace, at)
            }
        }
    }
}

impl<const N: usize, const PAD: u8> FixedStr<N, PAD> {
    /// Refuses a padding byte that is not ASCII: the unpadded text must stay UTF-8
    /// whatever the padding.
    pub(crate) const PAD_IS_ASCII: () = assert!(
        PAD < 0x80,
        "wiremsg: the padding byte of a FixedStr must be ASCII (a space or NUL)"
    );

    /// `text` padded to `N` bytes with `PAD`. A `const fn`: a constant symbol is
    /// checked at compile time.
    ///
    /// # Errors
    ///
    /// [`FixedStrError::TooLong`] if `text` is longer than `N` bytes;
    /// [`FixedStrError::EndsWithPadding`] (at the offset of that byte) if it ends with
    /// the padding character, which would read back as padding.
    pub const fn new(text: &str) -> Result<Self, FixedStrError> {
        let () = Self::PAD_IS_ASCII;
        let text = text.as_bytes();
        let len = text.len();
        if len > N {
            return Err(FixedStrError::TooLong { len, capacity: N });
        }
        if len > 0 && text[len - 1] == PAD {
            return Err(FixedStrError::EndsWithPadding {
                at: len - 1,
                pad: PAD,
            });
        }
        let mut bytes = [PAD; N];
        let mut i = 0;
        while i < len {
            bytes[i] = text[i];
            i += 1;
        }
        Ok(FixedStr { bytes })
    }

    /// The text, without its padding.
    pub fn as_str(&self) -> &str {
        // The bytes are UTF-8 by construction (`new`); the fallback is never taken.
        core::str::from_utf8(unpadded(&self.bytes, PAD)).unwrap_or("")
    }

    /// The `N` bytes as they are on the wire, padding included.
    pub const fn as_bytes(&self) -> &[u8; N] {
        &self.bytes
    }
}

impl<const N: usize, const PAD: u8> Default for FixedStr<N, PAD> {
    /// The empty text: `N` padding bytes.
    fn default() -> Self {
        FixedStr { bytes: [PAD; N] }
    }
}

impl<const N: usize, const PAD: u8> fmt::Debug for FixedStr<N, PAD> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl<const N: usize, const PAD: u8> fmt::Display for FixedStr<N, PAD> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl<const N: usize, const PAD: u8> TryFrom<&str> for FixedStr<N, PAD> {
    type Error = Error;

    fn try_from(text: &str) -> Result<Self, Error> {
        Ok(FixedStr::new(text)?)
    }
}

impl<const N: usize, const PAD: u8> PartialEq<str> for FixedStr<N, PAD> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<const N: usize, const PAD: u8> PartialEq<&str> for FixedStr<N, PAD> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<const N: usize, const PAD: u8> Field for FixedStr<N, PAD> {
    type Kind = FixedStr<N, PAD>;
    const TYPE: &'static TypeSchema = &if PAD == b' ' {
        TypeSchema::FixedStr { len: N }
    } else {
        TypeSchema::FixedStrPadded { len: N, pad: PAD }
    };

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

crate::field::list_element!([impl<const N: usize, const PAD: u8> Element for FixedStr<N, PAD>]);

impl<'v, const N: usize, const PAD: u8> DecodeField<'v> for FixedStr<N, PAD> {
    fn decode_view(view: &'v str) -> Self {
        // A validated view is at most N bytes and does not end in `PAD`.
        FixedStr::new(view).unwrap_or_default()
    }
}
