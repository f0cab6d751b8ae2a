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
    /// Checks (or gathers, to check later) that `bytes` are UTF-8; on failure, the
    /// length of the valid prefix.
    fn text(&self, _: sealed::Internal, bytes: &[u8]) -> Result<(), usize>;
}

/// Every fact about the bytes is checked on the spot.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Checked;

impl Mode for Checked {
    #[inline(always)]
    fn text(&self, _: sealed::Internal, bytes: &[u8]) -> Result<(), usize> {
        match core::str::from_utf8(bytes) {
            Ok(_) => Ok(()),
            Err(e) => Err(e.valid_up_to()),
        }
    }
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
    #[inline(always)]
    fn text(&self, _: sealed::Internal, bytes: &[u8]) -> Result<(), usize> {
        self.buffer.push(bytes);
        Ok(())
    }
}
