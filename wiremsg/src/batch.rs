//! Validation of a message with a tail in two passes, so that UTF-8 is checked once per
//! message instead of once per string.
//!
//! Checking each string on its own costs a call per string, and most strings are short:
//! for the reference order (12 strings, 190 bytes of mostly Vietnamese text) that was
//! 70% of `view`. Pass 1 runs the full validation in [`Gather`] mode, which copies
//! every string into one buffer instead of checking it (and checks that each string
//! starts on a character boundary). One UTF-8 check of the buffer then proves every
//! string: a concatenation of strings is valid UTF-8, with each piece starting at a
//! character boundary, exactly when every piece is. Pass 2 builds the view in trusted
//! mode from bytes now known to pass. On any failure, a checked pass finds the precise
//! error (field path and offset).

use crate::mode::sealed::{Internal, Sealed};
use crate::mode::{Checked, Trusted};
use crate::{Error, Mode, WireMsg};
use core::cell::RefCell;

/// Bytes of strings gathered before they are checked (on the stack of `view`).
const CAPACITY: usize = 512;

struct Buffer {
    bytes: [u8; CAPACITY],
    len: usize,
    valid: bool,
    /// True once a non-empty text was replaced by a placeholder in pass 1's view.
    gathered: bool,
}

impl Buffer {
    fn check(&mut self) {
        self.valid &= utf8_ok(&self.bytes[..self.len]);
        self.len = 0;
    }

    fn push(&mut self, text: &[u8]) {
        if text.is_empty() {
            return;
        }
        self.gathered = true;
        // A piece that starts inside a character would pass inside the concatenation.
        if is_continuation(text[0]) {
            self.valid = false;
            return;
        }
        if self.len + text.len() > CAPACITY {
            self.check();
        }
        if text.len() > CAPACITY {
            self.valid &= utf8_ok(text);
        } else {
            self.bytes[self.len..self.len + text.len()].copy_from_slice(text);
            self.len += text.len();
        }
    }
}

/// One UTF-8 check of many strings at once, with SIMD where the CPU has it
/// (`simdutf8`; with the `std` feature it picks AVX2 or SSE4.2 at run time).
fn utf8_ok(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

fn is_continuation(byte: u8) -> bool {
    byte & 0xC0 == 0x80
}

/// Pass 1's mode: every check of [`Checked`], except that text is gathered.
#[derive(Clone, Copy)]
pub(crate) struct Gather<'b> {
    buffer: &'b RefCell<Buffer>,
}

impl Mode for Gather<'_> {
    const CHECKED: bool = true;
}

impl Sealed for Gather<'_> {
    #[inline(always)]
    fn slice<'v>(
        &self,
        i: Internal,
        bytes: &'v [u8],
        start: usize,
        end: usize,
    ) -> Option<&'v [u8]> {
        Checked.slice(i, bytes, start, end)
    }

    #[inline(always)]
    fn array<'v, const N: usize>(&self, i: Internal, bytes: &'v [u8]) -> Option<&'v [u8; N]> {
        Checked.array(i, bytes)
    }

    /// Gathers the text and answers with a placeholder: pass 1's view is thrown away.
    #[inline(always)]
    fn utf8<'v>(&self, _: Internal, bytes: &'v [u8]) -> Result<&'v str, usize> {
        self.buffer.borrow_mut().push(bytes);
        Ok("")
    }

    #[inline(always)]
    fn validated(&self, i: Internal) -> Trusted {
        // Pass 1's lists keep a token only inside the view that is thrown away.
        Checked.validated(i)
    }
}

/// `WireMsg::view`: two passes for a message with a tail, one checked pass otherwise.
#[inline]
pub(crate) fn view<T: WireMsg>(bytes: &[u8]) -> Result<T::View<'_>, Error> {
    if !T::IN_TAIL {
        return T::__view(bytes, &Checked, 0);
    }
    let buffer = RefCell::new(Buffer {
        bytes: [0; CAPACITY],
        len: 0,
        valid: true,
        gathered: false,
    });
    let structure = T::__view(bytes, &Gather { buffer: &buffer }, 0);
    let mut buffer = buffer.into_inner();
    if let Ok(view) = structure {
        if !buffer.gathered {
            // No text at all: pass 1's view holds no placeholder and is the view.
            return Ok(view);
        }
    }
    buffer.check();
    if structure.is_ok() && buffer.valid {
        let trusted = Checked.validated(crate::mode::sealed::INTERNAL);
        if let Ok(view) = T::__view(bytes, &trusted, 0) {
            return Ok(view);
        }
    }
    // Something failed: the checked pass names it.
    T::__view(bytes, &Checked, 0)
}
