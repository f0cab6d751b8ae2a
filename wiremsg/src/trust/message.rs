//! The message trait: what `#[derive(WireMsg)]` implements, and the only way to a
//! message's views: validation (`view`, `view_mut`), or the `unsafe` promise of the
//! caller (`view_unchecked`, `view_mut_unchecked`).

use crate::field::{DecodeField, Field};
use crate::layout::Layout;
use crate::message::{check_budget, checked_len, decode_budget, unchecked_len};
use crate::validated::{Validated, ValidatedMut};
use crate::{Error, ErrorKind, MessageSchema};
use alloc::vec::Vec;
use core::fmt::Debug;

/// A struct with a wire layout: implemented by `#[derive(WireMsg)]`.
///
/// See the [crate docs](crate) for the layout, the [derive](derive@crate::WireMsg) for
/// its attributes and the items it generates, and `FORMAT.md` for the bytes.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(version = 2)]
/// struct Quote {
///     price: i64,
///     venue: String,
///     #[wire(since = 2)]
///     size: u32,
/// }
///
/// // Block: 2 (block length) + 8 + 4 (end offset) + 4; version 1 lacks `size`.
/// assert_eq!((Quote::BLOCK_LENGTH, Quote::MIN_BLOCK_LENGTH, Quote::VERSION), (18, 14, 2));
///
/// let quote = Quote { price: -5, venue: "XNAS".into(), size: 10 };
/// assert_eq!(quote.encoded_len(), 22);
/// let mut buf = [0u8; 32];
/// let len = quote.encode_into(&mut buf)?; // no allocation
/// assert_eq!(&buf[..len], quote.to_bytes()?);
///
/// let view = Quote::view(&buf[..len])?;
/// assert_eq!((view.price(), view.venue(), view.size()), (-5, "XNAS", 10));
/// assert_eq!(Quote::decode(&buf[..len])?, quote);
/// assert!(Quote::view(&buf[..10]).is_err()); // cut short
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a wiremsg message",
    label = "not a message",
    note = "add `#[derive(WireMsg)]` to the struct `{Self}`"
)]
pub trait WireMsg: Field<Kind = crate::kind::Msg<Self>> + Sized {
    /// Bytes of the block: for a message without a tail, the whole encoding; for a
    /// message with a tail, the offset where the tail starts (its 2-byte block length
    /// field included).
    const BLOCK_LENGTH: usize;
    /// Bytes of the block of version 1 (the fields without `since`): the least a
    /// reader of any version needs. Equal to `BLOCK_LENGTH` for a message whose
    /// fields all have version 1.
    const MIN_BLOCK_LENGTH: usize;
    /// The message's current schema version (`#[wire(version = N)]`, default 1).
    const VERSION: u16;
    /// The schema descriptor: field names, offsets, sizes and types.
    const SCHEMA: &'static MessageSchema;

    /// The layout that validation and the views read by: the type itself, with its
    /// lifetimes set to `'static`.
    #[doc(hidden)]
    type Layout: Layout;
    /// The validated view (`{Name}View`): accessors that read fields in place;
    /// `PartialEq` compares them field by field.
    type View<'v>: Copy + Debug + PartialEq;
    /// The mutable view (`{Name}Mut`): getters, and setters for fixed-size fields, in
    /// place; `Debug` prints its fields as the view does.
    type Mut<'v>: Debug;
    /// The on-demand view (`{Name}Lazy`): accessors that each check what they read
    /// and return a `Result`.
    type Lazy<'v>: Clone + Debug;

    /// Validates `bytes` once and returns the view (`{Name}View`), whose accessors
    /// then cannot fail.
    ///
    /// Bytes after the message (after the block, for a message without a tail) are
    /// ignored: a newer writer may have appended them.
    ///
    /// The bytes carry no type: a message without a tail (FORMAT.md §2) has no
    /// length or id of its own, so `view` reads any bytes at least as long as its
    /// block as this message, including another message's or ones that start with
    /// a message header (`encode_with_header`). Read those with
    /// [`Template::view_with_header`](crate::Template::view_with_header) (or a
    /// `#[derive(WireDispatch)]` enum's `view`), which checks the template id.
    ///
    /// # Errors
    ///
    /// Any [`ErrorKind`] of validation: truncated block, end offsets out of range,
    /// invalid UTF-8, `bool` or presence bytes other than 0/1, unknown enum values,
    /// malformed lists, nesting deeper than [`MAX_DEPTH`](crate::MAX_DEPTH). The error names the field
    /// path and byte offset. Where `bytes` are a frame that
    /// [`Template::view_with_header`](crate::Template::view_with_header) accepts
    /// (`encode_with_header` read without the header), the error's
    /// [`hint`](Error::hint) says so, in builds with debug assertions.
    #[inline]
    fn view(bytes: &[u8]) -> Result<Self::View<'_>, Error> {
        let view = crate::validated::validate::<Self::Layout>(bytes).map(Self::__view_of);
        // A diagnostic for builds with debug assertions only: a call on the error
        // path, even a cold one, made LLVM stop inlining the validation into the
        // caller (release, `codegen-units = 1`).
        if cfg!(debug_assertions) {
            view.map_err(|err| crate::header::hint_header::<Self>(bytes, err))
        } else {
            view
        }
    }

    /// The on-demand view (`{Name}Lazy`) of `bytes`: checks the message's header
    /// alone (O(1)), and each accessor then checks the bytes it reads, with the
    /// checks of [`view`](Self::view) for that field, and returns a `Result`. For a
    /// reader of a few fields of a large message from an untrusted source: it pays
    /// for what it reads, not for the whole message. `to_view()` validates the rest
    /// and returns the up-front view.
    ///
    /// A value read on demand is the value the up-front view reads where `view`
    /// accepts the bytes; an accessor fails where `view` would refuse a region on
    /// its field's path, with the same error (kind, byte offset from the start of
    /// `bytes`, field path). Fields it does not read are not checked: `view` may
    /// refuse bytes whose fields read on demand all succeed if some were not read.
    ///
    /// ```
    /// use wiremsg::WireMsg;
    ///
    /// #[derive(WireMsg, Debug)]
    /// struct Note { id: u32, text: String }
    ///
    /// let mut bytes = Note { id: 7, text: "hi".into() }.to_bytes()?;
    /// bytes[10] = 0xFF; // not UTF-8
    /// let note = Note::view_lazy(&bytes)?; // the header alone
    /// assert_eq!(note.id()?, 7); // never looks at the text
    /// let err = note.text().unwrap_err();
    /// assert_eq!((err.offset(), err.path().as_str()), (10, "text"));
    /// assert_eq!(err.kind(), Note::view(&bytes).unwrap_err().kind()); // as `view`
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    ///
    /// Memory: none on the heap (`tests/peak_memory.rs`); each view is a few hundred
    /// bytes on the stack, and nesting stops at [`MAX_DEPTH`](crate::MAX_DEPTH) along
    /// any path, as in `view`. Only an error allocates (its kind and path).
    ///
    /// # Errors
    ///
    /// The header's: [`ErrorKind::Truncated`] (fewer bytes than the block length, or
    /// than 2 for it), [`ErrorKind::BlockLengthTooSmall`].
    #[inline]
    fn view_lazy(bytes: &[u8]) -> Result<Self::Lazy<'_>, Error> {
        crate::lazy::view_of::<Self>(bytes)
    }

    /// Validates `bytes` like [`view`](Self::view) and returns the mutable view.
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view).
    #[inline]
    fn view_mut(bytes: &mut [u8]) -> Result<Self::Mut<'_>, Error> {
        if let Err(err) = crate::validated::validate::<Self::Layout>(bytes) {
            // As in `view`: with debug assertions only.
            return Err(if cfg!(debug_assertions) {
                crate::header::hint_header::<Self>(bytes, err)
            } else {
                err
            });
        }
        // SAFETY: validated just above.
        Ok(unsafe { crate::validated::mut_of::<Self>(bytes) })
    }

    /// The view over bytes known to be valid, without validating them: O(1), no
    /// reads. The same as [`view_unchecked`](crate::view_unchecked).
    ///
    /// # Safety
    ///
    /// `Self::view(bytes)` returns `Ok`, `view` being the provided method (as for
    /// every derived type: a hand-written `view` proves nothing here, since the
    /// validation of `Self::Layout` is what is trusted).
    #[inline(always)]
    unsafe fn view_unchecked(bytes: &[u8]) -> Self::View<'_> {
        // SAFETY: forwarded to the caller.
        unsafe { crate::validated::view_of::<Self>(bytes) }
    }

    /// The mutable view over bytes known to be valid, without validating them: O(1).
    ///
    /// # Safety
    ///
    /// `Self::view(bytes)` returns `Ok`, `view` being the provided method (as for
    /// every derived type: a hand-written `view` proves nothing here, since the
    /// validation of `Self::Layout` is what is trusted).
    #[inline(always)]
    unsafe fn view_mut_unchecked(bytes: &mut [u8]) -> Self::Mut<'_> {
        // SAFETY: forwarded to the caller.
        unsafe { crate::validated::mut_of::<Self>(bytes) }
    }

    /// Decodes `bytes` to the owned value (borrowing strings and byte strings from
    /// `bytes` where the type's fields are `&str` / `&[u8]`).
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view).
    ///
    /// Decoding allocates at most [`decode_budget`]`(bytes.len())` bytes on the heap
    /// (64 times the input, and at least 1 MiB): a newer reader's decoding of an
    /// older writer's list can otherwise multiply the input many times over (each
    /// element takes this reader's size). The budget bounds the *peak*: each
    /// collection is counted at what it allocates while it is built (a `Vec` at its
    /// length, a `BTreeMap` at the most its nodes can take, a `HashMap` at its
    /// reserved table), and `tests/peak_memory.rs` checks the peak against it with a
    /// counting allocator. [`decode_with_budget`](Self::decode_with_budget) sets
    /// another budget; the view's own `decode()` has none.
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view), and [`ErrorKind::DecodeBudgetExceeded`] (nothing is
    /// allocated) when the value would take more heap than the budget.
    #[inline]
    fn decode<'v>(bytes: &'v [u8]) -> Result<Self, Error>
    where
        Self: DecodeField<'v>,
    {
        Self::decode_with_budget(bytes, decode_budget(bytes.len()))
    }

    /// Decodes `bytes` like [`decode`](Self::decode), allocating at most `budget`
    /// bytes on the heap.
    ///
    /// # Errors
    ///
    /// As [`decode`](Self::decode).
    #[inline]
    fn decode_with_budget<'v>(bytes: &'v [u8], budget: usize) -> Result<Self, Error>
    where
        Self: DecodeField<'v>,
    {
        let view = Self::view(bytes)?;
        check_budget(Self::decoded_size(view), budget)?;
        Ok(Self::decode_view(view))
    }

    /// Bytes [`encode_into`](Self::encode_into) writes; `usize::MAX` for a value it
    /// refuses (a list over its `max_len`, a null sentinel as a value, nesting past
    /// [`MAX_DEPTH`](crate::MAX_DEPTH): the checks of encoding run first, so that measuring a value of
    /// any depth takes bounded stack).
    #[inline]
    fn encoded_len(&self) -> usize {
        if self.__check(0).is_err() {
            return usize::MAX;
        }
        unchecked_len(self)
    }

    /// Encodes into the start of `out` without allocating; returns the bytes written.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BufferTooSmall`] if `out` is shorter than
    /// [`encoded_len`](Self::encoded_len) (nothing is written);
    /// [`ErrorKind::TooLarge`] if the message exceeds `u32::MAX` bytes.
    #[inline]
    fn encode_into(&self, out: &mut [u8]) -> Result<usize, Error> {
        let len = checked_len(self)?;
        let available = out.len();
        let Some(out) = out.get_mut(..len) else {
            return Err(Error::new(
                ErrorKind::BufferTooSmall {
                    needed: len,
                    available,
                },
                0,
            ));
        };
        self.__write(out);
        Ok(len)
    }

    /// Appends the encoding to `out`; returns the bytes appended.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::TooLarge`] if the message exceeds `u32::MAX` bytes (nothing is
    /// appended).
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) -> Result<usize, Error> {
        let len = checked_len(self)?;
        if out.len().checked_add(len).is_none() {
            return Err(Error::new(ErrorKind::TooLarge { len }, 0));
        }
        // Into the spare capacity: no byte is zero-filled before it is written.
        crate::plain::append_to_vec(out, len, |o| self.__append(o));
        Ok(len)
    }

    /// The encoding in a new `Vec`.
    ///
    /// # Errors
    ///
    /// As [`encode`](Self::encode).
    fn to_bytes(&self) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.encode(&mut out)?;
        Ok(out)
    }

    /// Wraps a proof of validation as the view.
    #[doc(hidden)]
    fn __view_of<'v>(validated: Validated<'v, Self::Layout>) -> Self::View<'v>;

    /// Wraps a checked header as the on-demand view.
    #[doc(hidden)]
    fn __lazy_of<'v>(lazy: crate::lazy::LazyMsg<'v, Self::Layout>) -> Self::Lazy<'v>;

    /// Wraps a proof of validation as the mutable view.
    #[doc(hidden)]
    fn __mut_of<'v>(validated: ValidatedMut<'v, Self::Layout>) -> Self::Mut<'v>;

    /// Writes the encoding into `out`, exactly `encoded_len()` bytes.
    #[doc(hidden)]
    #[inline(always)]
    fn __write(&self, out: &mut [u8]) {
        crate::plain::write_to_slice(out, |o| self.__append(o));
    }

    /// Appends the encoding to `out`, `encoded_len()` bytes: the block, then the
    /// tail data in field order.
    #[doc(hidden)]
    fn __append(&self, out: &mut crate::plain::Out<'_>);

    /// Writes the fields into `block` (zeroed, the block length field not written)
    /// and appends their tail data to `tail`, end offsets counted from where the
    /// block would start if the tail followed it: the body of
    /// [`__append`](Self::__append), and of an element of a split list (FORMAT.md
    /// §6.3), whose tail is apart from its block.
    #[doc(hidden)]
    fn __append_block(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>);

    /// Checks that the value can be encoded (`Field::check_value` of each field),
    /// its block at nesting `depth` as validation counts it (0 at the top):
    /// `DepthLimitExceeded` past [`MAX_DEPTH`](crate::MAX_DEPTH), before anything is written.
    #[doc(hidden)]
    fn __check(&self, depth: u32) -> Result<(), Error>;

    /// Serializes a view as a struct of its readable fields (feature `serde`).
    #[cfg(feature = "serde")]
    #[doc(hidden)]
    fn __serialize_view<S: serde::Serializer>(
        view: &Self::View<'_>,
        serializer: S,
    ) -> Result<S::Ok, S::Error>;
}

/// [`WireMsg::view`] of the message `bytes` without the error's hint: for a message
/// found behind its header (`view_with_header`), where "the bytes start with this
/// message's header" would be wrong.
#[inline]
pub(crate) fn view_of_message<M: WireMsg>(bytes: &[u8]) -> Result<M::View<'_>, Error> {
    crate::validated::validate::<M::Layout>(bytes).map(M::__view_of)
}

/// [`WireMsg::view_mut`] without the error's hint, as [`view_of_message`].
#[inline]
pub(crate) fn view_mut_of_message<M: WireMsg>(bytes: &mut [u8]) -> Result<M::Mut<'_>, Error> {
    crate::validated::validate::<M::Layout>(bytes)?;
    // SAFETY: validated just above.
    Ok(unsafe { crate::validated::mut_of::<M>(bytes) })
}
