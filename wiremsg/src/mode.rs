//! Checked, gathered and trusted reading: the only module with `unsafe`.
//!
//! Every view is built by one routine generic over a [`Mode`]. [`Checked`] proves each
//! fact it needs (bounds, UTF-8) and returns an error when a fact does not hold.
//! [`Trusted`] takes the facts as given: it can only be obtained through the `unsafe`
//! [`view_unchecked`], whose caller promises that the bytes
//! pass `view`. The generated code never contains `unsafe`.

/// Whether facts about the bytes are checked ([`Checked`]) or assumed ([`Trusted`]).
///
/// Sealed: only this crate implements it, and only this crate can call the reads it
/// makes (they live on a private supertrait), so that outside code cannot use a
/// [`Trusted`] to read unchecked.
pub trait Mode: sealed::Sealed + Copy {
    /// True when every check runs; false when the bytes are trusted.
    const CHECKED: bool;
}

pub(crate) mod sealed {
    use super::Trusted;

    /// Proof of being inside this crate: every read of [`Sealed`] takes one, and only
    /// this crate can make one, so that no outside code (which can see these methods
    /// through a `Mode` bound) can call them.
    #[derive(Debug, Clone, Copy)]
    pub struct Internal(());

    /// A [`Trusted`] kept by a value that outside code can hold (the `Stored` of an
    /// array field) but not open.
    #[derive(Debug, Clone, Copy)]
    pub struct Kept(pub(crate) Trusted);

    pub(crate) const INTERNAL: Internal = Internal(());

    /// The reads a mode makes; callable only inside this crate.
    pub trait Sealed {
        /// `bytes[start..end]`, or `None` if the range is not inside `bytes`.
        fn slice<'v>(
            &self,
            _: Internal,
            bytes: &'v [u8],
            start: usize,
            end: usize,
        ) -> Option<&'v [u8]>;

        /// The first `N` bytes as an array, or `None` if there are fewer.
        fn array<'v, const N: usize>(&self, _: Internal, bytes: &'v [u8]) -> Option<&'v [u8; N]>;

        /// `bytes` as text, or the length of the valid UTF-8 prefix.
        fn utf8<'v>(&self, _: Internal, bytes: &'v [u8]) -> Result<&'v str, usize>;

        /// The token for reading again, later, what this mode validated: lists and
        /// arrays keep it (privately) to read their elements on access.
        fn validated(&self, _: Internal) -> Trusted;
    }
}

/// Every fact about the bytes is checked.
#[derive(Debug, Clone, Copy, Default)]
pub struct Checked;

/// The bytes are known to pass validation; nothing is checked again.
///
/// Only [`view_unchecked`] (an `unsafe fn`) and lists built
/// from trusted bytes make one.
#[derive(Debug, Clone, Copy)]
pub struct Trusted {
    _private: (),
}

impl Trusted {
    /// # Safety
    ///
    /// The bytes that will be read with this token pass `view` for the type read.
    pub(crate) const unsafe fn new() -> Self {
        Trusted { _private: () }
    }
}

impl Mode for Checked {
    const CHECKED: bool = true;
}

impl sealed::Sealed for Checked {
    #[inline(always)]
    fn slice<'v>(
        &self,
        _: sealed::Internal,
        bytes: &'v [u8],
        start: usize,
        end: usize,
    ) -> Option<&'v [u8]> {
        bytes.get(start..end)
    }

    #[inline(always)]
    fn array<'v, const N: usize>(
        &self,
        _: sealed::Internal,
        bytes: &'v [u8],
    ) -> Option<&'v [u8; N]> {
        bytes.first_chunk::<N>()
    }

    #[inline(always)]
    fn utf8<'v>(&self, _: sealed::Internal, bytes: &'v [u8]) -> Result<&'v str, usize> {
        core::str::from_utf8(bytes).map_err(|e| e.valid_up_to())
    }

    #[inline(always)]
    fn validated(&self, _: sealed::Internal) -> Trusted {
        // SAFETY: called only after a checked validation of the bytes succeeded
        // (lists and arrays, once every element passed); the token reads those same
        // bytes again. The derive generates each `validate` as one routine for both
        // modes, so what the checked pass proved is what the trusted pass reads.
        unsafe { Trusted::new() }
    }
}

impl Mode for Trusted {
    const CHECKED: bool = false;
}

impl sealed::Sealed for Trusted {
    #[inline(always)]
    fn slice<'v>(
        &self,
        _: sealed::Internal,
        bytes: &'v [u8],
        start: usize,
        end: usize,
    ) -> Option<&'v [u8]> {
        // SAFETY: a `Trusted` exists only for bytes that pass `view`, and validation
        // proved `start <= end <= bytes.len()` for every range read from them.
        Some(unsafe { bytes.get_unchecked(start..end) })
    }

    #[inline(always)]
    fn array<'v, const N: usize>(
        &self,
        _: sealed::Internal,
        bytes: &'v [u8],
    ) -> Option<&'v [u8; N]> {
        // SAFETY: as above, validation proved `bytes.len() >= N`; `[u8; N]` has
        // alignment 1, so the cast pointer is aligned.
        Some(unsafe { &*bytes.as_ptr().cast::<[u8; N]>() })
    }

    #[inline(always)]
    fn utf8<'v>(&self, _: sealed::Internal, bytes: &'v [u8]) -> Result<&'v str, usize> {
        // SAFETY: as above, validation proved these bytes are UTF-8.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    }

    #[inline(always)]
    fn validated(&self, _: sealed::Internal) -> Trusted {
        *self
    }
}

/// Builds the view of a message over bytes known to be valid, skipping every check.
///
/// This is the fast path for bytes this process wrote itself or already validated
/// (for example, bytes kept after a successful `view`). On bytes that were never
/// validated, use [`WireMsg::view`](crate::WireMsg::view).
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Note {
///     id: u32,
///     text: String,
/// }
///
/// let bytes = Note { id: 7, text: "hi".into() }.to_bytes().unwrap();
/// assert!(Note::view(&bytes).is_ok());
/// // SAFETY: `view` accepted these bytes just above.
/// let note = unsafe { wiremsg::view_unchecked::<Note>(&bytes) };
/// assert_eq!(note.text(), "hi");
/// ```
///
/// # Safety
///
/// `T::view(bytes)` must return `Ok`. Reading bytes that do not pass `view` through
/// this function is undefined behaviour (out-of-bounds reads, invalid `str`).
#[inline]
pub unsafe fn view_unchecked<T: crate::WireMsg>(bytes: &[u8]) -> T::View<'_> {
    // SAFETY: the caller promises the bytes pass `view`, the contract of `Trusted`.
    let trusted = unsafe { Trusted::new() };
    match T::__view(bytes, &trusted, 0) {
        Ok(view) => view,
        // SAFETY: a trusted build makes no check, so it cannot fail on bytes that pass
        // `view` (the caller's promise).
        Err(_) => unsafe { core::hint::unreachable_unchecked() },
    }
}

/// The mode of [`batch::view`](crate::batch): every check of [`Checked`], except that
/// text is gathered into a buffer and checked in one batch after the view is built.
///
/// The view built in this mode holds `&str`s whose UTF-8 is not proven yet. That is
/// sound because [`batch::view`](crate::batch) returns it only after the batch check
/// passes (and drops it otherwise), and because nothing reads those `&str`s as text
/// before then: validation only stores them (fixed-width text is trimmed as bytes
/// before it becomes a `&str`).
#[derive(Clone, Copy)]
pub(crate) struct Gather<'b> {
    buffer: &'b core::cell::RefCell<crate::batch::Buffer>,
}

impl<'b> Gather<'b> {
    pub(crate) fn new(buffer: &'b core::cell::RefCell<crate::batch::Buffer>) -> Self {
        Gather { buffer }
    }
}

impl Mode for Gather<'_> {
    const CHECKED: bool = true;
}

impl sealed::Sealed for Gather<'_> {
    #[inline(always)]
    fn slice<'v>(
        &self,
        i: sealed::Internal,
        bytes: &'v [u8],
        start: usize,
        end: usize,
    ) -> Option<&'v [u8]> {
        Checked.slice(i, bytes, start, end)
    }

    #[inline(always)]
    fn array<'v, const N: usize>(
        &self,
        i: sealed::Internal,
        bytes: &'v [u8],
    ) -> Option<&'v [u8; N]> {
        Checked.array(i, bytes)
    }

    #[inline(always)]
    fn utf8<'v>(&self, _: sealed::Internal, bytes: &'v [u8]) -> Result<&'v str, usize> {
        self.buffer.borrow_mut().push(bytes);
        // SAFETY: see the type's docs: this `&str` reaches the caller of `view` only
        // once the batch has proven these bytes UTF-8, and is not read as text before.
        Ok(unsafe { core::str::from_utf8_unchecked(bytes) })
    }

    #[inline(always)]
    fn validated(&self, i: sealed::Internal) -> Trusted {
        // Lists keep the token inside the view, which is returned only if the whole
        // validation, batch included, passes.
        Checked.validated(i)
    }
}
