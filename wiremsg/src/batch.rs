//! Validation of a message with a tail that checks UTF-8 once per message instead of
//! once per string.
//!
//! Checking each string on its own costs a call per string, and most strings are short:
//! for the reference order (12 strings, 190 bytes of mostly Vietnamese text) that was
//! 70% of `view`. Here validation runs in [`Gather`](crate::mode::Gather) mode, which
//! makes every other check but copies each string into one buffer (checking that it
//! starts on a character boundary) instead of checking it. One SIMD UTF-8 check of the
//! buffer then proves every string at once: a concatenation of pieces, each starting
//! at a character boundary, is valid UTF-8 exactly when every piece is. Only then is
//! the view returned; on any failure a checked pass finds the precise error (field
//! path and offset).

use crate::Error;
use crate::layout::{FieldList, Layout};
use crate::mode::{Checked, Gather};
use crate::validated::validate_message;
use core::cell::RefCell;

/// Bytes of text gathered before they are checked (on the stack of `view`); a fuller
/// buffer is checked and reused, a longer string checked on its own.
const CAPACITY: usize = 256;

/// Strings shorter than this are checked for ASCII on the spot.
const SHORT: usize = 32;

pub(crate) struct Buffer {
    /// Made (zeroed) at the first string gathered: a message without text (a list
    /// of numbers) pays nothing for it.
    bytes: Option<[u8; CAPACITY]>,
    len: usize,
    valid: bool,
}

impl Buffer {
    #[inline]
    fn check(&mut self) {
        if let (true, Some(bytes)) = (self.len > 0, &self.bytes) {
            self.valid &= utf8_ok(&bytes[..self.len]);
        }
        self.len = 0;
    }

    pub(crate) fn push(&mut self, text: &[u8]) {
        // A short ASCII string (a symbol, an id) is cheaper to recognise than to
        // gather; longer text is cheaper to check in the batch (measured on the
        // login, order and log benches).
        if text.len() < SHORT && crate::scan::bytes_within(text, 0x7f) {
            return;
        }
        let Some(&first) = text.first() else {
            return;
        };
        // A piece that starts inside a character would pass inside the concatenation.
        if is_continuation(first) {
            self.valid = false;
            return;
        }
        if self.len + text.len() > CAPACITY {
            self.check();
        }
        if text.len() > CAPACITY {
            self.valid &= utf8_ok(text);
        } else {
            let bytes = self.bytes.get_or_insert([0; CAPACITY]);
            bytes[self.len..self.len + text.len()].copy_from_slice(text);
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

/// Validation of `WireMsg::view`: strings checked in one batch for a message with a
/// tail, one checked pass otherwise.
#[inline]
pub(crate) fn check<L: Layout>(bytes: &[u8]) -> Result<(), Error> {
    if !<L::Fields as FieldList>::IN_TAIL {
        // Nothing to gather (a message may have a block length field and no text).
        return validate_message::<L, Checked>(bytes, &Checked, 0);
    }
    let buffer = RefCell::new(Buffer {
        bytes: None,
        len: 0,
        valid: true,
    });
    let gathered = validate_message::<L, Gather<'_>>(bytes, &Gather::new(&buffer), 0);
    // Checked in place: moving the buffer out would copy it.
    let valid = {
        let mut buffer = buffer.borrow_mut();
        buffer.check();
        buffer.valid
    };
    match gathered {
        // Every string is now proven UTF-8.
        Ok(()) if valid => Ok(()),
        // Something failed: the checked pass names it.
        _ => validate_message::<L, Checked>(bytes, &Checked, 0),
    }
}
