//! How validation checks text: one string at a time ([`Checked`]) or gathered and
//! checked in one batch ([`Gather`], see `batch.rs`).
//!
//! Both modes make every other check; neither is visible outside the crate. There is
//! no "trusted" mode any more: reading without checks is not a way of validating but
//! a separate, `unsafe` path (`validated.rs`), reachable only through a proof of
//! validation that this crate alone can make.

/// The private token that every hidden method of the sealed traits takes, so that
/// code outside this crate can neither call them nor implement them.
pub(crate) mod sealed {
    /// Proof of being inside this crate: only this crate can make one.
    #[derive(Debug, Clone, Copy)]
    pub struct Internal(());

    pub(crate) const INTERNAL: Internal = Internal(());

    /// Supertrait of the traits only this crate implements.
    pub trait Sealed {}

    /// Where a field's bytes are, for its validation. Offsets are relative to the
    /// start of the message that holds the field, so that errors can name a byte.
    #[derive(Debug, Clone, Copy)]
    pub struct Place<'v> {
        /// The field's bytes in the block (exactly its block size).
        pub(crate) block: &'v [u8],
        /// Offset of `block` in the message.
        pub(crate) block_at: usize,
        /// The field's region in the tail (empty for a fixed-size field).
        pub(crate) region: &'v [u8],
        /// Offset of `region` in the message.
        pub(crate) region_at: usize,
    }

    impl<'v> Place<'v> {
        /// A field with no tail data, alone in `block`.
        pub(crate) fn block(block: &'v [u8], block_at: usize) -> Self {
            Place {
                block,
                block_at,
                region: &[],
                region_at: 0,
            }
        }
    }
}

/// How validation treats text (and nothing else): every other check is the same.
///
/// Implemented only inside this crate, by its two modes (text checked one string at
/// a time, or gathered and checked in one batch); users never name it. Either way,
/// text that is not UTF-8 is an error:
///
/// ```
/// use wiremsg::{ErrorKind, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Note { text: String }
///
/// let err = Note::view(&[6, 0, 7, 0, 0, 0, 0xFF]).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 0 });
/// assert_eq!((err.offset(), err.path().as_str()), (6, "text"));
/// ```
pub trait Mode: Copy {
    /// True for the mode that checks text later, in one batch: a message whose tail
    /// holds only text is then walked in [`Skim`] mode and its tail handed over as
    /// one run, instead of string by string.
    #[doc(hidden)]
    const GATHERS: bool = false;

    /// Checks (or gathers, to check later) that `bytes` are UTF-8; on failure, the
    /// length of the valid prefix.
    fn text(&self, _: sealed::Internal, bytes: &[u8]) -> Result<(), usize>;
}

/// Every fact about the bytes is checked on the spot.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Checked;

impl Mode for Checked {
    /// Short ASCII text (most names, codes and symbols, under 64 bytes) in one
    /// branch-free scan; other short text by SIMD in a padded copy (`short_utf8`);
    /// text from 64 bytes by SIMD (`simdutf8`); the error's position by
    /// `core::str::from_utf8`. Measured on the on-demand read of every string of
    /// 10,000 log entries (five short ASCII strings each): the call of `from_utf8`
    /// per string was most of the read; on `order`'s short Vietnamese names, 23 %.
    #[inline(always)]
    fn text(&self, _: sealed::Internal, bytes: &[u8]) -> Result<(), usize> {
        // One pass over long text (simdutf8 has its own ASCII path), one scan over
        // short text before the SIMD check.
        let valid = if bytes.len() >= 64 {
            simdutf8::basic::from_utf8(bytes).is_ok()
        } else {
            crate::scan::bytes_within(bytes, 0x7F) || short_utf8(bytes)
        };
        if valid {
            return Ok(());
        }
        match core::str::from_utf8(bytes) {
            Ok(_) => Ok(()),
            Err(e) => Err(e.valid_up_to()),
        }
    }
}

/// Short text with other characters than ASCII, checked by SIMD in a 64-byte copy
/// padded with zeros (valid UTF-8, and a sequence cut short by the padding stays
/// invalid): `simdutf8` leaves text under 64 bytes to `core::str::from_utf8`, which
/// takes a branch per character there.
#[inline(never)]
fn short_utf8(bytes: &[u8]) -> bool {
    let mut padded = [0u8; 64];
    match padded.get_mut(..bytes.len()) {
        Some(head) => head.copy_from_slice(bytes),
        None => return false,
    }
    simdutf8::basic::from_utf8(&padded).is_ok()
}

/// The mode of [`batch::view`](crate::batch): text is gathered into a buffer and
/// checked in one batch after the rest of validation; no proof of validation is made
/// unless the batch passes too.
#[derive(Clone, Copy)]
pub(crate) struct Gather<'b, 'i> {
    buffer: &'b crate::batch::Buffer<'i>,
}

impl<'b, 'i> Gather<'b, 'i> {
    pub(crate) fn new(buffer: &'b crate::batch::Buffer<'i>) -> Self {
        Gather { buffer }
    }
}

impl Mode for Gather<'_, '_> {
    const GATHERS: bool = true;

    #[inline(always)]
    fn text(&self, _: sealed::Internal, bytes: &[u8]) -> Result<(), usize> {
        self.buffer.push(bytes);
        Ok(())
    }
}

/// The mode of the walk of one message whose tail holds only text, under [`Gather`]:
/// the caller checks the whole tail, from the block's end to the last region's, as
/// one run. A string in that run is then valid exactly when it starts and ends on a
/// character boundary, which is all this checks of it: its first byte and the byte
/// after it are not continuation bytes (the run's end is a boundary if the run is
/// UTF-8). Text elsewhere (a fixed-size string in the block) is checked in full.
///
/// A failure here is not an error the user sees: it fails the batched validation,
/// whose checked pass then names the error, or finds none (a string that ends where
/// unknown bytes of a newer writer begin with a continuation byte).
#[derive(Clone, Copy)]
pub(crate) struct Skim<'m> {
    message: &'m [u8],
    tail_start: usize,
}

impl<'m> Skim<'m> {
    /// For the walk of `message`, whose tail (the run the caller checks) starts at
    /// `tail_start`.
    pub(crate) fn new(message: &'m [u8], tail_start: usize) -> Self {
        Skim {
            message,
            tail_start,
        }
    }
}

impl Mode for Skim<'_> {
    #[inline(always)]
    fn text(&self, i: sealed::Internal, bytes: &[u8]) -> Result<(), usize> {
        let Some(&first) = bytes.first() else {
            return Ok(());
        };
        let Some(at) = offset_in(self.message, bytes).filter(|&at| at >= self.tail_start) else {
            return Checked.text(i, bytes);
        };
        let next = self.message.get(at + bytes.len()).copied().unwrap_or(0);
        if is_continuation(first) | is_continuation(next) {
            return Err(0);
        }
        Ok(())
    }
}

/// True for the second to fourth bytes of a UTF-8 sequence.
#[inline(always)]
pub(crate) fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Where `part` starts in `whole`, if it lies inside it (by address: the derive's
/// fields always do; text from elsewhere gets `None`).
#[inline(always)]
pub(crate) fn offset_in(whole: &[u8], part: &[u8]) -> Option<usize> {
    let at = part.as_ptr().addr().wrapping_sub(whole.as_ptr().addr());
    let len = whole.len();
    (part.len() <= len && at <= len - part.len()).then_some(at)
}

#[cfg(test)]
mod tests {
    use super::{Checked, Mode, sealed::INTERNAL};

    /// Every prefix and one-byte change of text with multi-byte characters around the
    /// 64-byte boundary between the short path (padded SIMD) and the long one: valid
    /// exactly when `core::str::from_utf8` says so, failing at its `valid_up_to`.
    #[test]
    fn checked_text_agrees_with_core_at_every_length() {
        let text = "Cà phê sữa đá 500ml, Bánh mì thịt nướng; Trà đào cam sả! ✓ 𝄞 end";
        let bytes = text.as_bytes();
        assert!(bytes.len() > 64);
        let expect = |b: &[u8]| {
            core::str::from_utf8(b)
                .map(|_| ())
                .map_err(|e| e.valid_up_to())
        };
        for len in 0..=bytes.len() {
            let prefix = &bytes[..len];
            assert_eq!(Checked.text(INTERNAL, prefix), expect(prefix), "{len}");
        }
        for at in 0..bytes.len() {
            for byte in [0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xE2, 0xF0, 0xFF] {
                let mut changed = bytes[..at.max(40)].to_vec();
                if let Some(b) = changed.get_mut(at) {
                    *b = byte;
                }
                assert_eq!(
                    Checked.text(INTERNAL, &changed),
                    expect(&changed),
                    "{at} {byte:#x}"
                );
            }
        }
    }
}
