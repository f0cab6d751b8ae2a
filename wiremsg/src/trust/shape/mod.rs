//! The wire shapes ([`Kind`]s): how each shape's bytes are validated, and read
//! without checks once validated. A shape's validation and its reads are one
//! contract, so both live here, beside the proofs they make and use; the field types
//! that name a shape (`crate::kinds`) only encode and decode through the views.

pub(crate) mod array;
pub(crate) mod byte_check;
pub(crate) mod decimal;
pub(crate) mod dense;
pub(crate) mod enums;
pub(crate) mod fixed_str;
pub(crate) mod list;
pub(crate) mod map;
pub(crate) mod null;
pub(crate) mod number;
pub(crate) mod option;
pub(crate) mod text;
pub(crate) mod tuple;
pub(crate) mod union;

use crate::mode::sealed::{Internal, Place, Sealed};
pub(crate) use byte_check::ByteCheck;

/// The on-demand read of a kind that is checked whole when its field is read: its
/// `Lazy` is its `View` (`lazy::eager`).
macro_rules! eager_lazy {
    () => {
        type Lazy<'v> = Self::View<'v>;

        #[inline(always)]
        fn lazy<'v>(
            i: crate::mode::sealed::Internal,
            place: crate::mode::sealed::Place<'v>,
            _: &crate::lazy::Root<'v>,
            depth: u32,
        ) -> Result<Self::View<'v>, crate::Error> {
            crate::lazy::eager::<Self>(i, place, depth)
        }
    };
}
use crate::{Error, ListEncoding, Mode};
use core::fmt::Debug;
pub(crate) use eager_lazy;

/// A wire shape: how a field's bytes are laid out, validated and read.
///
/// Sealed: only this crate implements it (the types are in [`kind`](crate::kind)),
/// and its hidden methods take a token that only this crate can make.
///
/// ```
/// use wiremsg::{Field, Kind, ListEncoding, kind};
///
/// // A field type names its kind; the kind says how it is laid out.
/// type KindOf<F> = <F as Field>::Kind;
/// assert_eq!(<KindOf<Vec<String>> as Kind>::BLOCK_SIZE, 4);
/// assert_eq!(<kind::ListOf<String> as Kind>::LIST_ENCODING, ListEncoding::Table);
/// assert_eq!(<KindOf<u32> as Kind>::LIST_ENCODING, ListEncoding::Packed);
/// assert!(!<KindOf<u32> as Kind>::CHECKS); // every 4 bytes are a u32
/// assert!(<KindOf<bool> as Kind>::CHECKS); // only 0 and 1 are a bool
/// ```
pub trait Kind: Sealed {
    /// Bytes in the block: the value, or the slot ending in a `u32` end offset.
    const BLOCK_SIZE: usize;
    /// True if the field keeps data in the tail.
    const IN_TAIL: bool;
    /// False when every byte pattern of the block is a valid value (numbers, and
    /// messages and arrays of numbers): lists of such elements are validated by their
    /// length alone, in O(1).
    const CHECKS: bool;
    /// True for a fixed-size message with fields added in later versions: its block
    /// can grow, so it cannot nest inline (inline blocks are frozen, FORMAT.md §4.7).
    const EVOLVES: bool;
    /// How a list of this kind is laid out (FORMAT.md §6).
    const LIST_ENCODING: ListEncoding;
    /// The smallest stride of a strided list: the block of version 1 of a message.
    const MIN_ELEMENT_SIZE: usize;
    /// True if the value knows where its own tail data ends (a message with a block
    /// length field: its end offsets say it), so that bytes after its region never
    /// change its validity or its reads. A table list then hands an element its
    /// region up to the end of the list, and reads one offset instead of two.
    const SELF_DELIMITED: bool = false;
    /// `Some(bits)` if a block of this kind is valid exactly when none of its bytes
    /// has a bit outside `bits` (`bool`: 1). A packed list of such elements is then
    /// checked sixteen bytes at a time, branch-free, instead of element by element
    /// (which still runs to locate an error).
    #[doc(hidden)]
    const BYTE_BITS: Option<u8> = None;
    /// `Some(bits)` for a list (not bounded) of one-byte elements with `BYTE_BITS`
    /// `bits`: a field of this kind up to 16 elements long is checked by the walk of
    /// its message, which sees the bytes before its region (see `Leaf::validate`).
    #[doc(hidden)]
    const LIST_BYTE_BITS: Option<u8> = None;
    /// What decides a block of this kind once another of its length passed
    /// ([`ByteCheck`]); read only where [`CHECKS`](Self::CHECKS) is true. `Other`
    /// unless the kind says more.
    #[doc(hidden)]
    const BYTE_CHECK: ByteCheck = ByteCheck::Other;
    /// True if the field's tail region holds nothing but text (`String`,
    /// `Option<String>`): a message whose every tail field is such has a tail that is
    /// all text, which batched validation checks as one run (`mode::Skim`). A hint
    /// for speed only: a wrong `true` sends a valid message to the checked pass.
    #[doc(hidden)]
    const TAIL_TEXT: bool = false;
    /// True if the field's tail region holds no text at all (a list of plain
    /// elements: numbers, `bool`, arrays and fixed-size messages of them): a message
    /// whose every tail field is such has no string to gather, and is validated in
    /// one checked pass. A hint for speed only: either answer validates alike.
    #[doc(hidden)]
    const TAIL_TEXTLESS: bool = false;
    /// The block length of an element of a split list (FORMAT.md §6.3): the block of
    /// a message or tuple with a tail, its block length field included; 0 for other
    /// kinds.
    #[doc(hidden)]
    const SPLIT_BLOCK: usize = 0;
    /// The least block length of an element of a split list this reader accepts:
    /// the block of version 1 (of a message; a tuple's whole block).
    #[doc(hidden)]
    const MIN_SPLIT_BLOCK: usize = 0;
    /// The tag's bytes of a fixed-size union, whose lists are dense (FORMAT.md §6.8);
    /// 0 for other kinds.
    #[doc(hidden)]
    const DENSE_TAG: usize = 0;
    /// Entries of the variant table this writer writes in a dense list: one per
    /// variant of the union.
    #[doc(hidden)]
    const DENSE_ENTRIES: usize = 0;
    /// The stride this writer writes in a dense list: the tag's bytes plus the
    /// largest payload block of its variants.
    #[doc(hidden)]
    const DENSE_STRIDE: usize = 0;
    /// A key for retyping lists and maps (invariant 3 of the trust module): two
    /// kinds with the same `Reads` accept the same bytes and read them alike. A
    /// message's kind is keyed by its layout (`Msg<Name<'static>>` for both
    /// `Msg<Name<'v>>` and `Msg<Name<'static>>`, which differ only by the lifetime);
    /// an option, list, map, array or tuple by the same shape of its parts' keys; any
    /// other kind by itself. Only an equality key: it is not itself the kind to
    /// validate or read by (`Msg<L>` reads by `L`'s own layout, which may be another).
    #[doc(hidden)]
    type Reads;
    /// What an accessor of a validated view returns.
    type View<'v>: Copy + Debug;
    /// What an accessor of an on-demand view returns ([`LazyOf`](crate::LazyOf)): an
    /// on-demand view for a message or list, the checked value otherwise.
    type Lazy<'v>: Clone + Debug;

    /// Checks the field's bytes in `place` that an on-demand read of it needs, and
    /// reads it (`lazy.rs`): a message's or list's header, every other kind whole.
    /// `root` is the on-demand view's root, which nested views keep; errors count
    /// from the bytes `place`'s offsets count from and name no path.
    #[doc(hidden)]
    fn lazy<'v>(
        _: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<Self::Lazy<'v>, Error>;

    /// Finds the on-demand view `target` in the field in `place`, pushing the steps
    /// to it (`lazy.rs`); false if it is not there (kinds read whole hold none).
    #[doc(hidden)]
    fn locate(
        _: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        let _ = (place, target, steps);
        false
    }

    /// [`locate`](Self::locate) in an element of a split list.
    #[doc(hidden)]
    fn locate_split(
        _: Internal,
        block: &[u8],
        block_at: usize,
        origin: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        let _ = (block, block_at, origin, target, steps);
        false
    }

    /// [`lazy`](Self::lazy) of element `index` of the `count` of the split list
    /// `list` (FORMAT.md §6.3; only kinds whose `LIST_ENCODING` is `Split`), whose
    /// `block` the list checked; errors count from the list and name the element.
    #[doc(hidden)]
    fn lazy_split<'v>(
        _: Internal,
        block: &'v [u8],
        list: &'v [u8],
        index: usize,
        count: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<Self::Lazy<'v>, Error> {
        let _ = (block, list, count, root, depth);
        Err(Error::new(
            crate::ErrorKind::ListLengthMismatch {
                len: 0,
                element_size: 0,
            },
            0,
        )
        .in_element(index))
    }

    /// Validates the field's bytes; errors carry offsets relative to the message.
    #[doc(hidden)]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error>;

    /// Validates an element of a split list (FORMAT.md §6.3; only kinds whose
    /// `LIST_ENCODING` is `Split`): its `block` (of the list's block length, checked
    /// by the list) and `origin`, the list's bytes from where its end offsets count to
    /// the end of its tail region; `block_at` is where the block is from `origin`'s
    /// start (wrapping), and errors count from `origin`'s start.
    #[doc(hidden)]
    fn validate_split<M: Mode>(
        _: Internal,
        block: &[u8],
        block_at: usize,
        origin: &[u8],
        mode: &M,
        depth: u32,
    ) -> Result<(), Error> {
        let _ = (block, origin, mode, depth);
        Err(Error::new(
            crate::ErrorKind::ListLengthMismatch {
                len: 0,
                element_size: 0,
            },
            block_at,
        ))
    }

    /// Reads an element of a split list without checks.
    ///
    /// # Safety
    ///
    /// [`validate_split`](Self::validate_split) accepted the element with a block at
    /// `block` and its end offsets counting from `origin`, in bytes borrowed for `'v`;
    /// the kind's `LIST_ENCODING` is `Split`.
    #[doc(hidden)]
    unsafe fn read_split<'v>(
        _: Internal,
        block: core::ptr::NonNull<u8>,
        origin: core::ptr::NonNull<u8>,
    ) -> Self::View<'v> {
        let _ = (block, origin);
        unreachable!("wiremsg: only kinds laid out as split lists are read as their elements")
    }

    /// Writes this writer's variant table of a dense list into `out`
    /// ([`DENSE_ENTRIES`](Self::DENSE_ENTRIES) entries: each variant's tag and its
    /// payload's `u16` block length, in declaration order; FORMAT.md §6.8).
    #[doc(hidden)]
    fn write_dense_table(_: Internal, out: &mut [u8]) {
        let _ = out;
    }

    /// The entry index this writer writes for the variant with `tag` (its place in
    /// the table of [`write_dense_table`](Self::write_dense_table)).
    #[doc(hidden)]
    fn dense_index(_: Internal, tag: u64) -> u64 {
        tag
    }

    /// The tag of this writer's variant at entry index `position` (the inverse of
    /// [`dense_index`](Self::dense_index)).
    #[doc(hidden)]
    fn dense_tag_at(_: Internal, position: u64) -> u64 {
        position
    }

    /// Validates the payload of an element of a dense list (FORMAT.md §6.8) as the
    /// variant with `tag`, one nesting level below `depth`; errors count from the
    /// element's start (its entry index), the payload [`DENSE_TAG`](Self::DENSE_TAG)
    /// bytes after it.
    #[doc(hidden)]
    fn validate_dense<M: Mode>(
        _: Internal,
        tag: u64,
        payload: &[u8],
        mode: &M,
        depth: u32,
    ) -> Result<(), Error> {
        let _ = (tag, payload, mode, depth);
        Err(not_dense())
    }

    /// What decides the payload of an element of a dense list as the variant with
    /// `tag`, once another of the same variant-table entry passed
    /// [`validate_dense`](Self::validate_dense) ([`ByteCheck`] of the variant's
    /// payload kind; `Other` if no variant takes `tag`): validation then checks
    /// each later element of that entry by one byte, or not at all.
    #[doc(hidden)]
    fn dense_byte_check(_: Internal, tag: u64) -> ByteCheck {
        let _ = tag;
        ByteCheck::Other
    }

    /// Reads the payload of an element of a dense list without checks.
    ///
    /// # Safety
    ///
    /// [`validate_dense`](Self::validate_dense) accepted this tag and payload, in bytes
    /// borrowed for `'v`.
    #[doc(hidden)]
    unsafe fn read_dense<'v>(_: Internal, tag: u64, payload: &'v [u8]) -> Self::View<'v> {
        let _ = (tag, payload);
        unreachable!("wiremsg: only fixed-size unions are read as elements of dense lists")
    }

    /// [`lazy`](Self::lazy) of an element of a dense list: the variant with `tag`
    /// read on demand from `payload`; errors count as
    /// [`validate_dense`](Self::validate_dense)'s.
    #[doc(hidden)]
    fn lazy_dense<'v>(
        _: Internal,
        tag: u64,
        payload: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<Self::Lazy<'v>, Error> {
        let _ = (tag, payload, root, depth);
        Err(not_dense())
    }

    /// [`locate`](Self::locate) in an element of a dense list.
    #[doc(hidden)]
    fn locate_dense(
        _: Internal,
        tag: u64,
        payload: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        let _ = (tag, payload, target, steps);
        false
    }

    /// The bytes a schema records for a declared default `view` (see
    /// [`DefaultValue`](crate::DefaultValue)): block bytes of a fixed-size value, UTF-8 of
    /// text; `None` where there is no byte form.
    #[doc(hidden)]
    fn default_bytes(_: Internal, _view: Self::View<'_>) -> Option<alloc::vec::Vec<u8>> {
        None
    }

    /// Serializes a view of this kind (feature `serde`): numbers, `bool` and text as
    /// themselves, bytes and lists as sequences, enums by variant name, messages as
    /// structs.
    #[cfg(feature = "serde")]
    #[doc(hidden)]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: Self::View<'v>,
        serializer: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v;

    /// Reads the field without checks.
    ///
    /// # Safety
    ///
    /// `block` starts at the field's block bytes and holds at least `BLOCK_SIZE` of
    /// them, `region` is its tail region, and [`validate`](Self::validate) accepted
    /// exactly these bytes.
    #[doc(hidden)]
    unsafe fn read<'v>(_: Internal, block: &'v [u8], region: &'v [u8]) -> Self::View<'v>;

    /// True if two views read as the same value: what `==` on views compares (enums
    /// by their wire value, lists and arrays element by element, floats as `f64 ==`
    /// does).
    #[doc(hidden)]
    fn view_eq<'v>(_: Internal, a: Self::View<'v>, b: Self::View<'v>) -> bool
    where
        Self: 'v;
}

/// The error of a dense-list method on a kind that is not laid out in dense lists
/// (never reached: lists call them only for kinds whose `LIST_ENCODING` is `Dense`).
#[cold]
fn not_dense() -> Error {
    Error::new(
        crate::ErrorKind::ListLengthMismatch {
            len: 0,
            element_size: 0,
        },
        0,
    )
}
