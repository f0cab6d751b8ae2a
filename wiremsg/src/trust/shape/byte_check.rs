//! What decides the validity of a fixed-size block once one block of its length
//! passed: the summary that lets up-front validation of a dense list (FORMAT.md
//! §6.8) check each later element of a variant-table entry with one byte compare
//! (`dense::try_each`) instead of the variant's whole validation.

use crate::trust::shape::Kind;

/// How the validity of a fixed-size block of a kind depends on its bytes, given
/// that another block of the same length passed validation at the same depth: a
/// fact of the sealed [`Kind`], composed field by field (`FieldList::BYTE_CHECK`).
///
/// Validation trusts it: a block that `ByteCheck` accepts is read without checks.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ByteCheck {
    /// Every byte pattern of the block is valid ([`Kind::CHECKS`] false).
    Free,
    /// Valid exactly when byte `at` of the block, if the block holds it, is one of
    /// `lo`, `lo + 1`, .., `lo + span - 1` (`lo + span <= 256`); the other bytes are
    /// free. A `bool` (0 and 1), an enum of one-byte values without gaps.
    Range {
        /// The byte's offset in the block.
        at: usize,
        /// The least valid value.
        lo: u8,
        /// How many values from `lo` on are valid (1-256).
        span: u16,
    },
    /// Anything else: only the kind's validation decides.
    Other,
}

impl ByteCheck {
    /// The check of a block whose first `size` bytes are checked as `self` and the
    /// rest as `next`: two checked bytes are `Other`.
    pub(crate) const fn then(self, next: ByteCheck, size: usize) -> ByteCheck {
        match (self, next) {
            (ByteCheck::Free, ByteCheck::Range { at, lo, span }) => ByteCheck::Range {
                at: at + size,
                lo,
                span,
            },
            (ByteCheck::Free, ByteCheck::Free) => ByteCheck::Free,
            (ByteCheck::Range { .. }, ByteCheck::Free) => self,
            _ => ByteCheck::Other,
        }
    }

    /// The check of one byte whose valid values are `lo..=hi` (inclusive, as
    /// `u64`): `Free` if that is every byte, `Other` past a byte's values.
    pub(crate) const fn byte_values(lo: u64, hi: u64) -> ByteCheck {
        if lo == 0 && hi >= 255 {
            ByteCheck::Free
        } else if lo <= hi && hi <= 255 {
            ByteCheck::Range {
                at: 0,
                lo: lo as u8,
                span: (hi - lo + 1) as u16,
            }
        } else {
            ByteCheck::Other
        }
    }
}

/// The [`ByteCheck`] of kind `K`: `Free` where its bytes need no check.
pub(crate) const fn byte_check<K: Kind>() -> ByteCheck {
    if K::CHECKS {
        K::BYTE_CHECK
    } else {
        ByteCheck::Free
    }
}
