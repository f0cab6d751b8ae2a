//! Validation of a message with a tail that checks UTF-8 once per message instead of
//! once per string.
//!
//! Checking each string on its own costs a call per string, and most strings are short:
//! for the reference order (12 strings, 190 bytes of mostly Vietnamese text) that was
//! 70% of `view`. Here validation runs in [`Gather`](crate::mode::Gather) mode, which
//! makes every other check but hands each string to a [`Buffer`] instead of checking
//! it. One UTF-8 check of what the buffer collected then proves every string at once:
//! a concatenation of pieces, each starting at a character boundary, is valid UTF-8
//! exactly when every piece is. Only then is the view returned; on any failure a
//! checked pass finds the precise error (field path and offset).
//!
//! The strings of one message lie back to back in its tail (FORMAT.md §3), so the
//! buffer first joins pieces that touch into one run of the input, copying nothing;
//! a run of ASCII (the common case: ids, dates, request lines) is then recognised in
//! place by a word scan, and only a run holding other characters is copied into the
//! batch for the SIMD check.

use crate::Error;
use crate::layout::{FieldList, Layout};
use crate::mode::{Checked, Gather, is_continuation, offset_in};
use crate::validated::validate_message;
use core::cell::{Cell, RefCell};

/// Bytes of non-ASCII text gathered before they are checked (on the stack of
/// `view`); a fuller buffer is checked and reused, a longer run checked on its own.
const CAPACITY: usize = 256;

/// What [`Gather`] hands strings to. The run is in cells, so that the inlined common
/// case (a string right after the last one) is two compares and an add.
pub(crate) struct Buffer<'i> {
    /// The bytes being validated: every string handed over lies in them.
    input: &'i [u8],
    /// The run of touching strings not yet checked, as offsets into `input`.
    run_start: Cell<usize>,
    run_end: Cell<usize>,
    /// Some string started inside a character (ORed, checked at the end).
    split: Cell<bool>,
    batch: RefCell<Batch>,
}

/// Non-ASCII text copied for one SIMD check.
struct Batch {
    /// Made (zeroed) at the first non-ASCII run: ASCII text pays nothing for it.
    bytes: Option<[u8; CAPACITY]>,
    len: usize,
    valid: bool,
}

impl<'i> Buffer<'i> {
    fn new(input: &'i [u8]) -> Self {
        Buffer {
            input,
            run_start: Cell::new(0),
            run_end: Cell::new(0),
            split: Cell::new(false),
            batch: RefCell::new(Batch {
                bytes: None,
                len: 0,
                valid: true,
            }),
        }
    }

    /// Takes one string: joined to the pending run when it follows it (the inlined
    /// common case), else the run is checked and a new one starts.
    #[inline(always)]
    pub(crate) fn push(&self, text: &[u8]) {
        let Some(&first) = text.first() else {
            return;
        };
        // A piece that starts inside a character would pass inside the concatenation.
        self.split.set(self.split.get() | is_continuation(first));
        // Text outside the input (never the case for the derive's fields) is
        // checked alone.
        let Some(at) = offset_in(self.input, text) else {
            return self.gather_outside(text);
        };
        let (run_start, run_end) = (self.run_start.get(), self.run_end.get());
        if at == run_end {
            self.run_end.set(run_end + text.len());
            return;
        }
        if run_start != run_end {
            self.end_run();
        }
        self.run_start.set(at);
        self.run_end.set(at + text.len());
    }

    /// Checks the pending run before a new one starts (out of line: once per message
    /// or block, not per string).
    #[inline(never)]
    fn end_run(&self) {
        self.flush();
    }

    #[cold]
    #[inline(never)]
    fn gather_outside(&self, text: &[u8]) {
        self.batch.borrow_mut().gather(text);
    }

    /// Checks the pending run: in place if ASCII, else gathered.
    #[inline(always)]
    fn flush(&self) {
        let (start, end) = (self.run_start.get(), self.run_end.get());
        if start != end {
            match self.input.get(start..end) {
                Some(run) if crate::scan::bytes_within(run, 0x7f) => {}
                run => self.gather_run(run),
            }
            self.run_start.set(end);
        }
    }

    /// A run that is not all ASCII (or, never the case, not in the input).
    #[inline]
    fn gather_run(&self, run: Option<&[u8]>) {
        let mut batch = self.batch.borrow_mut();
        match run {
            Some(run) => batch.gather(run),
            None => batch.valid = false,
        }
    }

    /// Whether every string pushed is UTF-8.
    #[inline(always)]
    fn finish(&self) -> bool {
        self.flush();
        let mut batch = self.batch.borrow_mut();
        batch.check();
        batch.valid && !self.split.get()
    }
}

impl Batch {
    /// Adds text that starts on a character boundary.
    #[inline]
    fn gather(&mut self, text: &[u8]) {
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

    #[inline]
    fn check(&mut self) {
        if let (true, Some(bytes)) = (self.len > 0, &self.bytes) {
            self.valid &= utf8_ok(&bytes[..self.len]);
        }
        self.len = 0;
    }
}

/// One UTF-8 check of many strings at once, with SIMD where the CPU has it
/// (`simdutf8`; with the `std` feature it picks AVX2 or SSE4.2 at run time).
fn utf8_ok(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

/// The mode of a root message whose tail holds only text: that tail, handed over
/// as one run by `validate_block`, is checked at once, in place (an ASCII word scan,
/// else one SIMD check). Its strings are walked in `Skim` mode.
#[derive(Clone, Copy)]
struct WholeTail;

impl crate::Mode for WholeTail {
    const GATHERS: bool = true;

    #[inline(always)]
    fn text(&self, _: crate::mode::sealed::Internal, run: &[u8]) -> Result<(), usize> {
        // UTF-8 never starts with a continuation byte, so the run's first string
        // starts on a boundary. Where it fails does not matter: the checked pass
        // names the error.
        if crate::scan::bytes_within(run, 0x7f) || utf8_ok(run) {
            Ok(())
        } else {
            Err(0)
        }
    }
}

/// Validation of `WireMsg::view`: a tail of text only checked as one run, other
/// tails' strings checked in one batch, one checked pass for a message without a
/// tail or with no text in it.
#[inline]
pub(crate) fn check<L: Layout>(bytes: &[u8]) -> Result<(), Error> {
    if !<L::Fields as FieldList>::IN_TAIL || <L::Fields as FieldList>::TAIL_TEXTLESS {
        // Nothing to gather: no tail (a message may have a block length field and
        // no text), or a tail of plain lists only (text in the block is checked on
        // the spot).
        return validate_message::<L, Checked>(bytes, &Checked, 0);
    }
    if <L::Fields as FieldList>::TAIL_TEXT {
        // The tail is one run of text (`validate_block`): checked on the spot, with
        // no buffer to keep.
        return match validate_message::<L, WholeTail>(bytes, &WholeTail, 0) {
            Ok(()) => Ok(()),
            Err(_) => validate_message::<L, Checked>(bytes, &Checked, 0),
        };
    }
    let buffer = Buffer::new(bytes);
    let gathered = validate_message::<L, Gather<'_, '_>>(bytes, &Gather::new(&buffer), 0);
    let valid = buffer.finish();
    match gathered {
        // Every string is now proven UTF-8.
        Ok(()) if valid => Ok(()),
        // Something failed: the checked pass names it.
        _ => validate_message::<L, Checked>(bytes, &Checked, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::Buffer;
    use crate::layout::{FieldList, Layout};
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Whether `view` of `T` takes the one checked pass with nothing to gather.
    fn textless<T: crate::WireMsg>() -> bool {
        <<T::Layout as Layout>::Fields as FieldList>::TAIL_TEXTLESS
    }

    #[test]
    fn only_a_tail_of_plain_lists_is_textless() {
        use crate::{FixedStr, WireMsg};
        #[derive(WireMsg)]
        struct Px {
            x: f32,
            y: u32,
        }
        #[derive(WireMsg)]
        struct Plain {
            id: u64,
            symbol: FixedStr<4>,
            pxs: Vec<Px>,
            raw: Vec<u8>,
        }
        #[derive(WireMsg)]
        struct Named {
            ids: Vec<u32>,
            name: String,
        }
        #[derive(WireMsg)]
        struct Nested {
            inner: Vec<Named>,
        }
        #[derive(WireMsg)]
        struct Tree {
            leaves: Vec<u32>,
            children: Vec<Tree>,
        }
        // Numbers are plain on little-endian targets only (`Field::PLAIN`).
        assert_eq!(textless::<Plain>(), cfg!(target_endian = "little"));
        assert!(!textless::<Named>());
        assert!(!textless::<Nested>());
        assert!(!textless::<Tree>());
        // Text in the block is still checked, in the checked pass.
        let bytes = Plain {
            id: 1,
            symbol: FixedStr::new("AB").unwrap(),
            pxs: vec![],
            raw: vec![],
        };
        let mut bytes = bytes.to_bytes().unwrap();
        bytes[10] = 0xFF;
        let err = Plain::view(&bytes).unwrap_err();
        assert_eq!((err.path().as_str(), err.offset()), ("symbol", 10));
    }

    fn all_valid(input: &[u8], pieces: &[&[u8]]) -> bool {
        let buffer = Buffer::new(input);
        for piece in pieces {
            buffer.push(piece);
        }
        buffer.finish()
    }

    #[test]
    fn runs_in_the_input_and_text_from_elsewhere_are_both_checked() {
        // "é" is bytes 8..10, "ầ" bytes 11..14.
        let input = "id=7 café ầ end".as_bytes();
        // Touching pieces (one run), pieces with a gap, a run cut inside "é" or "ầ".
        assert!(all_valid(
            input,
            &[&input[..4], &input[4..10], &input[10..]]
        ));
        assert!(all_valid(input, &[&input[..3], &input[5..]]));
        assert!(!all_valid(input, &[&input[..9], &input[9..]]));
        assert!(!all_valid(input, &[&input[..4], &input[11..13]]));
        // Text that is not in the input, longer than it too, is checked on its own.
        let long = vec![b'a'; 2 * input.len()];
        let mut bad = long.clone();
        bad[3] = 0xFF;
        assert!(all_valid(input, &[&input[..4], &long, &input[4..]]));
        assert!(!all_valid(input, &[&input[..4], &bad]));
        assert!(!all_valid(input, &[&bad]));
        assert!(!all_valid(input, &[&"é".as_bytes()[1..]]));
    }
}
