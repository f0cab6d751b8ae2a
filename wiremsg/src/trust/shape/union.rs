//! Tagged unions: the trait `#[derive(WireUnion)]` implements, and the union kind
//! that validates and reads them (FORMAT.md §4.10).
//!
//! A union's bytes are a tag, then the payload of the variant it names: nothing for a
//! unit variant, a message for the others. The derive describes the variants as a
//! type-level tree ([`VPair`], [`VOne`]) of markers that each name a tag and a
//! payload kind ([`Unit`], [`Carries`] a message, or [`Raw`] bytes for the
//! catch-all); validation and reads walk that one tree, so what a read relies on is
//! what validation checked. Generated code only wraps the payload views this module
//! hands it into the user's view enum.

use crate::field::{DecodeField, Field, ListEncoding};
use crate::kind::UnionOf;
use crate::layout::{FieldList, Layout, has_block_length, min_block_length};
use crate::message::{EnumRepr, check_budget, decode_budget};
use crate::mode::Checked;
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::trust::shape::byte_check::byte_check;
use crate::trust::shape::{ByteCheck, Kind};
use crate::validated::{NestedKind, check_depth, mut_of, validate_message, view_of};
use crate::{Error, ErrorKind, Mode, UnionSchema, WireMsg};
use alloc::vec::Vec;
use core::fmt::Debug;

/// A tagged union: implemented by `#[derive(WireUnion)]` (see its docs for the
/// attributes and generated items, and FORMAT.md §4.10 for the bytes).
///
/// A union is a field type (it nests in the tail of a message, in an `Option`, in a
/// list), and a value of its own: [`view`](Self::view), [`encode`](Self::encode) and
/// [`decode`](Self::decode) work on its bytes alone (the tag, then the payload).
///
/// # Examples
///
/// ```
/// use wiremsg::{ErrorKind, WireMsg, WireUnion};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Limit { price: i64, qty: u32 }
///
/// #[derive(WireUnion, Debug, PartialEq)]
/// #[repr(u8)]
/// enum Instr {
///     Market = 0,
///     Limit(Limit) = 1,
///     Stop { trigger: i64 } = 2,
/// }
///
/// let instr = Instr::Limit(Limit { price: 1000, qty: 5 });
/// let bytes = instr.to_bytes()?;
/// assert_eq!(bytes, [1, 0xe8, 3, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0]); // tag 1, then `Limit`
/// match Instr::view(&bytes)? {
///     InstrView::Limit(limit) => assert_eq!((limit.price(), limit.qty()), (1000, 5)),
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(Instr::decode(&bytes)?, instr);
///
/// let err = Instr::view(&[7]).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::UnknownVariant { union_name: "Instr".into(), tag: 7 });
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a wiremsg tagged union",
    label = "not a wire union",
    note = "add `#[derive(WireUnion)]` and `#[repr(u8)]` (or `u16`, `u32`, `u64`) to the enum `{Self}`"
)]
pub trait WireUnion: Field<Kind = UnionOf<Self::Layout>> + Sized {
    /// The union's current schema version (`#[wire(version = N)]`, default 1).
    const VERSION: u16;
    /// The schema descriptor: the tag type, the variants with their tags and payload
    /// messages.
    const UNION_SCHEMA: &'static UnionSchema;

    /// The layout that validation and the views read by: the type itself, with its
    /// lifetimes set to `'static`.
    #[doc(hidden)]
    type Layout: UnionLayout;

    /// Validates `bytes` (a tag and a payload) once and returns the view
    /// (`{Name}View`): an enum of the variants' views.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Truncated`] without a whole tag, [`ErrorKind::UnknownVariant`] for
    /// a tag no variant has (without a catch-all variant), and any error of the
    /// payload's validation, its path starting with the variant's name.
    #[inline]
    fn view(bytes: &[u8]) -> Result<UnionView<'_, Self>, Error> {
        validate_union::<Self::Layout, Checked>(bytes, &Checked, 0)?;
        // SAFETY: validated just above.
        Ok(unsafe { read_union::<Self::Layout>(bytes) })
    }

    /// The on-demand view (`{Name}Lazy`) of the union value `bytes`: its tag checked
    /// as [`view`](Self::view) checks it, and the present variant's payload read on
    /// demand (a message: its on-demand view, whose accessors check what they read;
    /// see [`WireMsg::view_lazy`]).
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view) for the tag, and the payload message's header errors.
    #[inline]
    fn view_lazy(bytes: &[u8]) -> Result<UnionLazy<'_, Self>, Error> {
        lazy_union::<Self::Layout>(bytes, &crate::lazy::Root::union::<Self::Layout>(bytes), 0)
    }

    /// Validates `bytes` like [`view`](Self::view) and returns the mutable view
    /// (`{Name}Mut`): the present variant's mutable view.
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view).
    #[inline]
    fn view_mut(bytes: &mut [u8]) -> Result<UnionMut<'_, Self>, Error> {
        validate_union::<Self::Layout, Checked>(bytes, &Checked, 0)?;
        // SAFETY: validated just above.
        Ok(unsafe { read_union_mut::<Self::Layout>(bytes) })
    }

    /// The view over bytes known to be valid, without validating them.
    ///
    /// # Safety
    ///
    /// `Self::view(bytes)` returns `Ok`.
    #[inline(always)]
    unsafe fn view_unchecked(bytes: &[u8]) -> UnionView<'_, Self> {
        // SAFETY: forwarded to the caller.
        unsafe { read_union::<Self::Layout>(bytes) }
    }

    /// Bytes [`encode_into`](Self::encode_into) writes: the tag and the payload;
    /// `usize::MAX` for a value it refuses (its checks run first, so that measuring
    /// a value of any depth takes bounded stack).
    #[inline]
    fn encoded_len(&self) -> usize {
        if self.check_value(0).is_err() {
            return usize::MAX;
        }
        self.tail_len()
    }

    /// Encodes into the start of `out` without allocating; returns the bytes written.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BufferTooSmall`] if `out` is shorter than
    /// [`encoded_len`](Self::encoded_len), [`ErrorKind::TooLarge`] past `u32::MAX`
    /// bytes, [`ErrorKind::CatchAllKnownTag`] for a catch-all variant that holds a
    /// known tag, and the payload's own refusals (a list over its `max_len`, a null
    /// sentinel as a value): nothing is written.
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
        // As `encode`, which writes into zeros: bytes a hand-made `Field` counts but
        // does not write are zeros, not what the slice held.
        out.fill(0);
        self.write(&mut [], out);
        Ok(len)
    }

    /// Appends the encoding to `out`; returns the bytes appended.
    ///
    /// # Errors
    ///
    /// As [`encode_into`](Self::encode_into), except `BufferTooSmall`.
    #[inline]
    fn encode(&self, out: &mut Vec<u8>) -> Result<usize, Error> {
        let len = checked_len(self)?;
        let start = out.len();
        out.resize(start + len, 0);
        self.write(&mut [], &mut out[start..]);
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

    /// Decodes `bytes` to the owned value, allocating at most
    /// [`decode_budget`]`(bytes.len())` bytes on the heap (as
    /// [`WireMsg::decode`]).
    ///
    /// # Errors
    ///
    /// As [`view`](Self::view), and [`ErrorKind::DecodeBudgetExceeded`] (nothing is
    /// allocated).
    #[inline]
    fn decode<'v>(bytes: &'v [u8]) -> Result<Self, Error>
    where
        Self: DecodeField<'v, Kind = UnionOf<Self::Layout>>,
    {
        let view = Self::view(bytes)?;
        check_budget(Self::decoded_size(view), decode_budget(bytes.len()))?;
        Ok(Self::decode_view(view))
    }
}

/// The encoded length of `value`, after its own checks (`check_value`); `TooLarge`
/// past `u32::MAX` bytes (FORMAT.md §1).
fn checked_len<U: WireUnion>(value: &U) -> Result<usize, Error> {
    value.check_value(0)?;
    let len = value.tail_len();
    if len > u32::MAX as usize || len == usize::MAX {
        return Err(Error::new(ErrorKind::TooLarge { len }, 0));
    }
    Ok(len)
}

/// The view of union `U`: `{Name}View<'v>`.
pub type UnionView<'v, U> = <<U as WireUnion>::Layout as UnionLayout>::View<'v>;

/// The on-demand view of union `U`: `{Name}Lazy<'v>`.
pub type UnionLazy<'v, U> = <<U as WireUnion>::Layout as UnionLayout>::Lazy<'v>;

/// The mutable view of union `U`: `{Name}Mut<'v>`.
pub type UnionMut<'v, U> = <<U as WireUnion>::Layout as UnionLayout>::Mut<'v>;

/// The layout of a union type: implemented by `#[derive(WireUnion)]` on the type with
/// its lifetimes set to `'static`.
#[doc(hidden)]
pub trait UnionLayout: Sized + 'static {
    /// The tag's integer type (`u8`, `u16`, `u32`, `u64`).
    type Tag: EnumRepr;
    /// The variants, as a tree of [`VPair`] and [`VOne`] of variant markers (the catch-all, if
    /// any, last).
    type Variants: VariantList<Self>;
    /// The union's name, for errors.
    const NAME: &'static str;
    /// The view enum.
    type View<'v>: Copy + Debug + PartialEq;
    /// The mutable view enum.
    type Mut<'v>: Debug;
    /// The on-demand view enum (`{Name}Lazy`): the present variant's payload read
    /// on demand.
    type Lazy<'v>: Clone + Debug;

    /// Serializes a view as serde's externally tagged enums are (feature `serde`).
    #[cfg(feature = "serde")]
    fn __serialize_view<S: serde::Serializer>(
        view: &Self::View<'_>,
        serializer: S,
    ) -> Result<S::Ok, S::Error>;
}

/// One variant of union `L`: its tag, its payload kind, and how its payload's view
/// becomes the union's view. Implemented by `#[derive(WireUnion)]` on a marker type
/// per variant.
#[doc(hidden)]
pub trait Variant<L: UnionLayout>: 'static {
    /// What follows the tag.
    type Payload: Payload;
    /// The tag (ignored for the catch-all, whose payload is [`Raw`]).
    const TAG: u64;
    /// The variant's name, for error paths.
    const NAME: &'static str;
    /// The version that added the variant (`#[wire(since = N)]`, default 1).
    const SINCE: u16 = 1;
    /// The union's view of this variant, from the payload's view.
    fn wrap<'v>(tag: u64, payload: <Self::Payload as Payload>::View<'v>) -> L::View<'v>;
    /// The union's mutable view of this variant, from the payload's mutable view.
    fn wrap_mut<'v>(tag: u64, payload: <Self::Payload as Payload>::Mut<'v>) -> L::Mut<'v>;
    /// The union's on-demand view of this variant, from the payload's.
    fn wrap_lazy<'v>(tag: u64, payload: <Self::Payload as Payload>::Lazy<'v>) -> L::Lazy<'v>;
}

/// What a variant carries after the tag (sealed: [`Unit`], [`Carries`], [`Raw`]).
#[doc(hidden)]
pub trait Payload: Sealed {
    /// What a read returns.
    type View<'v>: Copy;
    /// What a mutable read returns.
    type Mut<'v>;
    /// What an on-demand read returns.
    type Lazy<'v>: Clone;
    /// True for the catch-all: it takes any tag.
    const CATCH_ALL: bool;
    /// What [`lazy`](Self::lazy) checks of the payload before it is a view, as
    /// numbers; `None` for the catch-all, which checks nothing but has no tag of its
    /// own to be found by.
    const HEADER: Option<Header>;
    /// The payload's block length if it is fixed-size (a unit's 0, a message's
    /// without a tail), so that a union of such payloads lays its lists out densely
    /// (FORMAT.md §6.8); `None` for a message with a tail and for the catch-all.
    const FIXED_BLOCK: Option<usize>;
    /// What decides a payload once another of its length passed
    /// [`validate`](Self::validate) at the same depth ([`ByteCheck`]): `Free` for a
    /// payload whose bytes need no check (a message of numbers, [`Kind::CHECKS`]).
    const BYTE_CHECK: ByteCheck;

    /// Finds the on-demand view `target` in the payload (`lazy.rs`).
    #[doc(hidden)]
    fn locate(
        _: Internal,
        bytes: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        let _ = (bytes, target, steps);
        false
    }

    /// Checks what an on-demand read of the payload needs (a message's header) and
    /// reads it; errors count from the payload.
    #[doc(hidden)]
    fn lazy<'v>(
        _: Internal,
        bytes: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<Self::Lazy<'v>, Error>;

    /// [`lazy`](Self::lazy) once its checks passed: `HEADER`'s block length of these
    /// bytes is `declared`.
    ///
    /// # Safety
    ///
    /// `HEADER` is `Some(h)`, `h.declared(bytes) == Some(declared)`, and
    /// `check_depth(depth)` passed.
    #[doc(hidden)]
    unsafe fn lazy_checked<'v>(
        _: Internal,
        bytes: &'v [u8],
        declared: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Self::Lazy<'v>;

    /// Validates the payload bytes (the union's region after the tag); errors carry
    /// offsets relative to the payload.
    #[doc(hidden)]
    fn validate<M: Mode>(_: Internal, bytes: &[u8], mode: &M, depth: u32) -> Result<(), Error>;

    /// Reads the payload.
    ///
    /// # Safety
    ///
    /// [`validate`](Self::validate) accepted exactly these bytes.
    #[doc(hidden)]
    unsafe fn read<'v>(_: Internal, bytes: &'v [u8]) -> Self::View<'v>;

    /// Reads the payload mutably.
    ///
    /// # Safety
    ///
    /// As [`read`](Self::read).
    #[doc(hidden)]
    unsafe fn read_mut<'v>(_: Internal, bytes: &'v mut [u8]) -> Self::Mut<'v>;
}

/// The header check of a payload read on demand, as numbers (a message's,
/// `validated::block_header`'s): with them in a table by tag, the check comes before
/// the dispatch on the tag, and the dispatch's arms do alike (see [`lazy_union`]).
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct Header {
    /// The payload starts with its `u16` block length.
    prefixed: bool,
    /// The least block length the reader accepts.
    min: u16,
    /// The reader's block length, where the block length is not on the wire.
    size: u16,
}

impl Header {
    /// The header of message layout `L` read on demand; `None` if a length does
    /// not fit the table's `u16` (a block the derive refuses anyway).
    const fn of<L: Layout>() -> Option<Self> {
        let (min, size) = (min_block_length::<L>(), <L::Fields as FieldList>::SIZE);
        if min > u16::MAX as usize || size > u16::MAX as usize {
            return None;
        }
        Some(Header {
            prefixed: has_block_length::<L>(),
            min: min as u16,
            size: size as u16,
        })
    }

    /// The block length `block_header` finds in `payload` with these numbers, or
    /// `None` where it fails (the read then takes the path that names the error).
    ///
    /// The same rule as `block_header`'s, written apart on purpose (`LazyMsg::
    /// from_header` asserts they agree in every debug run): `block_header` made of
    /// this function plus a cold error path changed how the dispatch's arms were
    /// merged, and `events/read_some_lazy` took 1.47x as long (`benches/ab.py`, 4
    /// rounds, 2026-12-05).
    #[inline(always)]
    fn declared(self, payload: &[u8]) -> Option<usize> {
        let (min, size) = (usize::from(self.min), usize::from(self.size));
        if self.prefixed {
            let declared = usize::from(u16::from_le_bytes(*payload.first_chunk::<2>()?));
            (declared >= min && declared <= payload.len()).then_some(declared)
        } else {
            (payload.len() >= min).then(|| payload.len().min(size))
        }
    }
}

/// The payload of a unit variant: nothing (bytes after the tag are ignored).
#[derive(Debug)]
pub struct Unit;

/// The payload of a variant that carries message `M`: `M`'s encoding.
#[derive(Debug)]
pub struct Carries<M>(crate::kind::Invariant<M>);

/// The payload of the catch-all variant: the bytes after the tag, whatever they are.
#[derive(Debug)]
pub struct Raw;

impl Sealed for Unit {}
impl<M> Sealed for Carries<M> {}
impl Sealed for Raw {}

impl Payload for Unit {
    type View<'v> = ();
    type Mut<'v> = ();
    type Lazy<'v> = ();
    const CATCH_ALL: bool = false;
    // Nothing to check: every payload passes, with no block.
    const HEADER: Option<Header> = Some(Header {
        prefixed: false,
        min: 0,
        size: 0,
    });
    const FIXED_BLOCK: Option<usize> = Some(0);
    const BYTE_CHECK: ByteCheck = ByteCheck::Free;

    #[inline(always)]
    fn lazy(_: Internal, _: &[u8], _: &crate::lazy::Root<'_>, _: u32) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    unsafe fn lazy_checked(_: Internal, _: &[u8], _: usize, _: &crate::lazy::Root<'_>, _: u32) {}

    #[inline(always)]
    fn validate<M: Mode>(_: Internal, _: &[u8], _: &M, _: u32) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    unsafe fn read(_: Internal, _: &[u8]) {}

    #[inline(always)]
    unsafe fn read_mut(_: Internal, _: &mut [u8]) {}
}

impl<M: WireMsg> Payload for Carries<M> {
    type View<'v> = M::View<'v>;
    type Mut<'v> = M::Mut<'v>;
    type Lazy<'v> = M::Lazy<'v>;
    const CATCH_ALL: bool = false;
    const HEADER: Option<Header> = Header::of::<M::Layout>();
    const FIXED_BLOCK: Option<usize> = if crate::layout::has_block_length::<M::Layout>() {
        None
    } else {
        Some(M::BLOCK_LENGTH)
    };
    const BYTE_CHECK: ByteCheck = byte_check::<<M as crate::Field>::Kind>();

    #[inline(always)]
    fn lazy<'v>(
        _: Internal,
        bytes: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<M::Lazy<'v>, Error> {
        crate::lazy::payload::<M>(bytes, root, depth)
    }

    #[inline(always)]
    unsafe fn lazy_checked<'v>(
        _: Internal,
        bytes: &'v [u8],
        declared: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> M::Lazy<'v> {
        // SAFETY: `HEADER` holds the numbers of `M::Layout`'s header check, which the
        // caller promises passed with `declared`, and the depth check passed.
        unsafe { crate::lazy::checked_payload::<M>(bytes, declared, root, depth) }
    }

    fn locate(
        _: Internal,
        bytes: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        crate::lazy::locate_message::<M::Layout>(bytes, target, steps)
    }

    #[inline]
    fn validate<Mo: Mode>(_: Internal, bytes: &[u8], mode: &Mo, depth: u32) -> Result<(), Error> {
        validate_message::<M::Layout, Mo>(bytes, mode, depth)
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, bytes: &'v [u8]) -> M::View<'v> {
        // SAFETY: the caller promises these bytes passed validation as a message of
        // `M::Layout` (`validate` above).
        unsafe { view_of::<M>(bytes) }
    }

    #[inline(always)]
    unsafe fn read_mut<'v>(_: Internal, bytes: &'v mut [u8]) -> M::Mut<'v> {
        // SAFETY: as in `read`.
        unsafe { mut_of::<M>(bytes) }
    }
}

impl Payload for Raw {
    type View<'v> = &'v [u8];
    type Mut<'v> = &'v mut [u8];
    type Lazy<'v> = &'v [u8];
    const CATCH_ALL: bool = true;
    const HEADER: Option<Header> = None;
    const FIXED_BLOCK: Option<usize> = None;
    const BYTE_CHECK: ByteCheck = ByteCheck::Free;

    #[inline(always)]
    fn lazy<'v>(
        _: Internal,
        bytes: &'v [u8],
        _: &crate::lazy::Root<'v>,
        _: u32,
    ) -> Result<&'v [u8], Error> {
        Ok(bytes)
    }

    #[inline(always)]
    unsafe fn lazy_checked<'v>(
        _: Internal,
        bytes: &'v [u8],
        _: usize,
        _: &crate::lazy::Root<'v>,
        _: u32,
    ) -> &'v [u8] {
        bytes
    }

    #[inline(always)]
    fn validate<M: Mode>(_: Internal, _: &[u8], _: &M, _: u32) -> Result<(), Error> {
        Ok(())
    }

    #[inline(always)]
    unsafe fn read(_: Internal, bytes: &[u8]) -> &[u8] {
        bytes
    }

    #[inline(always)]
    unsafe fn read_mut(_: Internal, bytes: &mut [u8]) -> &mut [u8] {
        bytes
    }
}

/// The variants of `A`, then those of `B`: a node of a balanced tree, so that a
/// union of `n` variants is a type `log2(n)` deep (the trait solver recurses that
/// deep, where a list would be `n` deep).
#[derive(Debug)]
pub struct VPair<A, B>(crate::kind::Invariant<(A, B)>);

/// Variant `V` alone: a leaf. A read that reaches it takes it without comparing its
/// tag (validation proved that a variant of the tree takes the tag, and the walk
/// went down only into subtrees with one that takes it).
#[derive(Debug)]
pub struct VOne<V>(crate::kind::Invariant<V>);

impl<A, B> Sealed for VPair<A, B> {}
impl<V> Sealed for VOne<V> {}

/// A type-level tree of the variants of union `L` (sealed: [`VPair`], [`VOne`]),
/// whose leaves in order are the variants in order.
///
/// A variant takes a tag if it is the catch-all or has that tag; the first that
/// takes it is the one validated and read. Validation and the reads walk the same
/// tree alike: down into the first half if one of its variants takes the tag
/// ([`takes`](Self::takes)), else into the second; so a read reaches the leaf
/// validation chose, and takes it there without comparing again.
#[doc(hidden)]
pub trait VariantList<L: UnionLayout>: Sealed {
    /// True if a variant of the tree takes `tag`.
    #[doc(hidden)]
    fn takes(tag: u64) -> bool;

    /// Validates `payload` as the variant that takes `tag`; `None` if none does.
    #[doc(hidden)]
    fn validate<M: Mode>(
        _: Internal,
        tag: u64,
        payload: &[u8],
        mode: &M,
        depth: u32,
    ) -> Option<Result<(), Error>>;

    /// The [`Payload::BYTE_CHECK`] of the variant that takes `tag`; `Other` if none
    /// does.
    #[doc(hidden)]
    fn byte_check(_: Internal, tag: u64) -> ByteCheck;

    /// The view of the variant that takes `tag`.
    ///
    /// # Safety
    ///
    /// [`validate`](Self::validate) returned `Some(Ok(()))` for this tag and payload.
    #[doc(hidden)]
    unsafe fn read<'v>(_: Internal, tag: u64, payload: &'v [u8]) -> L::View<'v>;

    /// The mutable view of the variant that takes `tag`.
    ///
    /// # Safety
    ///
    /// As [`read`](Self::read).
    #[doc(hidden)]
    unsafe fn read_mut<'v>(_: Internal, tag: u64, payload: &'v mut [u8]) -> L::Mut<'v>;

    /// Finds `target` in the payload of the variant that takes `tag`, pushing the
    /// variant's name and the steps inside it.
    #[doc(hidden)]
    fn locate(
        _: Internal,
        tag: u64,
        payload: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool;

    /// The on-demand view of the variant that takes `tag`, as [`validate`]
    /// (Self::validate) finds it; `None` if none does. Errors count from
    /// the payload; errors name the variant.
    #[doc(hidden)]
    fn lazy<'v>(
        _: Internal,
        tag: u64,
        payload: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Option<Result<L::Lazy<'v>, Error>>;

    /// True if a variant other than the catch-all has `tag`.
    #[doc(hidden)]
    fn knows(tag: u64) -> bool;

    /// The largest payload block of the variants if every payload is fixed-size
    /// ([`Payload::FIXED_BLOCK`]; so no catch-all): the union is then fixed-size and
    /// its lists dense (FORMAT.md §6.8). `None` otherwise.
    #[doc(hidden)]
    const DENSE_BLOCK: Option<usize>;

    /// True if the variants of version 1 (a catch-all among them) make a fixed-size
    /// union: then every later variant must keep it one (see
    /// [`keeps_its_list_shape`]).
    #[doc(hidden)]
    const FIXED_AT_V1: bool;

    /// The number of variants.
    #[doc(hidden)]
    const COUNT: usize;

    /// Writes the entries of the variant table of a dense list for these variants,
    /// in order: each one's tag (`tag` bytes) and its payload's `u16` block length.
    #[doc(hidden)]
    fn write_entries(out: &mut [u8], tag: usize);

    /// The place of the first variant with `tag` in the list (its entry index in a
    /// dense list); the number of variants if none has it.
    #[doc(hidden)]
    fn position(tag: u64) -> u64;

    /// The tag of the variant at `position` (`u64::MAX` past the last).
    #[doc(hidden)]
    fn tag_at(position: u64) -> u64;

    /// The least tag of a variant other than the catch-all (`u64::MAX` if none): the
    /// tag of [`HEADERS`](Self::HEADERS)' first slot.
    #[doc(hidden)]
    const LEAST_TAG: u64;

    /// The header of the variant that takes each tag of the window of [`TAG_WINDOW`]
    /// tags from [`LEAST_TAG`](Self::LEAST_TAG), if every variant has a tag in it and
    /// a [`Payload::HEADER`] (no catch-all); `None` otherwise, and in the slots of
    /// tags no variant has.
    #[doc(hidden)]
    const HEADERS: Option<[Option<Header>; TAG_WINDOW]>;

    /// [`lazy`](Self::lazy) once the header of the variant that takes `tag` passed.
    ///
    /// # Safety
    ///
    /// `HEADERS` is `Some(t)`, `t[tag - LEAST_TAG]` is `Some(h)`, `h.declared(payload) ==
    /// Some(declared)`, and `check_depth(depth)` passed.
    #[doc(hidden)]
    unsafe fn lazy_checked<'v>(
        _: Internal,
        tag: u64,
        payload: &'v [u8],
        declared: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> L::Lazy<'v>;
}

/// Writes variant `V`'s entry of a dense list's variant table (FORMAT.md §6.8) at the
/// start of `out`: its tag in `tag` bytes, then its payload's block length.
#[inline]
fn write_entry<L: UnionLayout, V: Variant<L>>(out: &mut [u8], tag: usize) {
    let block = <V::Payload as Payload>::FIXED_BLOCK.unwrap_or(0) as u16;
    if let Some(entry) = out.get_mut(..tag + 2) {
        let n = tag.min(8);
        entry[..n].copy_from_slice(&V::TAG.to_le_bytes()[..n]);
        entry[tag..].copy_from_slice(&block.to_le_bytes());
    }
}

/// False if `V` is of version 1 and not fixed-size (FORMAT.md §4.10).
const fn fixed_at_v1<L: UnionLayout, V: Variant<L>>() -> bool {
    V::SINCE > 1 && !<V::Payload as Payload>::CATCH_ALL
        || <V::Payload as Payload>::FIXED_BLOCK.is_some()
}

/// Whether a union is fixed-size is fixed by its version-1 variants (FORMAT.md
/// §4.10), as a message's block length field is (§5): a union whose version-1
/// variants make it fixed-size has dense lists (§6.8), which a later variant with a
/// tail would turn into table lists under every deployed reader. False if union `L`
/// breaks that rule; asserted by the derive, whose error names the rule at the union.
#[doc(hidden)]
pub const fn keeps_its_list_shape<L: UnionLayout>() -> bool {
    !<L::Variants as VariantList<L>>::FIXED_AT_V1 || is_dense::<L>()
}

/// True if union `L` is fixed-size (FORMAT.md §4.10), with at most 65,535 variants
/// (a dense list's `u16` entry count): its lists are dense (§6.8).
const fn is_dense<L: UnionLayout>() -> bool {
    <L::Variants as VariantList<L>>::DENSE_BLOCK.is_some()
        && <L::Variants as VariantList<L>>::COUNT <= 65535
}

/// The tags from a union's least tag up to this many more are found in a table by
/// [`VariantList::HEADERS`]: C-like numbering from 0, as a union's variants usually
/// have, or a protocol's own kind bytes (ITCH's are letters, `b'A'` to `b'h'`).
pub(crate) const TAG_WINDOW: usize = 64;

/// `table` with `V`'s header in the slot of its tag, if it has both (a tag in the
/// window from the union's least tag, [`TAG_WINDOW`] wide, and a header).
const fn with_header<L: UnionLayout, V: Variant<L>>(
    table: Option<[Option<Header>; TAG_WINDOW]>,
) -> Option<[Option<Header>; TAG_WINDOW]> {
    let (Some(mut table), Some(header)) = (table, <V::Payload as Payload>::HEADER) else {
        return None;
    };
    // `V`'s slot: its tag from the least (never below it: `least_of`).
    let slot = V::TAG - least_tag::<L>();
    if slot >= TAG_WINDOW as u64 {
        return None;
    }
    table[slot as usize] = Some(header);
    Some(table)
}

/// The least tag of union `L`'s variants, the first of its table's window
/// ([`VariantList::LEAST_TAG`]).
const fn least_tag<L: UnionLayout>() -> u64 {
    <L::Variants as VariantList<L>>::LEAST_TAG
}

/// The least tag of `V` and of the variants after it (`rest`).
const fn least_of<L: UnionLayout, V: Variant<L>>(rest: u64) -> u64 {
    if !<V::Payload as Payload>::CATCH_ALL && V::TAG < rest {
        V::TAG
    } else {
        rest
    }
}

/// True if variant `V` takes `tag`.
#[inline(always)]
fn takes<L: UnionLayout, V: Variant<L>>(tag: u64) -> bool {
    <V::Payload as Payload>::CATCH_ALL || tag == V::TAG
}

/// The payload read on demand as variant `V`'s; errors name the variant.
#[inline(always)]
fn lazy_variant<'v, L: UnionLayout, V: Variant<L>>(
    tag: u64,
    payload: &'v [u8],
    root: &crate::lazy::Root<'v>,
    depth: u32,
) -> Result<L::Lazy<'v>, Error> {
    <V::Payload as Payload>::lazy(INTERNAL, payload, root, depth)
        .map(|p| V::wrap_lazy(tag, p))
        .map_err(|e| e.in_field(V::NAME))
}

/// Validates the payload as variant `V`'s; errors name the variant.
#[inline(always)]
fn validate_variant<L: UnionLayout, V: Variant<L>, M: Mode>(
    payload: &[u8],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    <V::Payload as Payload>::validate(INTERNAL, payload, mode, depth)
        .map_err(|e| e.in_field(V::NAME))
}

impl<L: UnionLayout, A: VariantList<L>, B: VariantList<L>> VariantList<L> for VPair<A, B> {
    #[inline(always)]
    fn takes(tag: u64) -> bool {
        A::takes(tag) || B::takes(tag)
    }

    #[inline(always)]
    fn byte_check(i: Internal, tag: u64) -> ByteCheck {
        if A::takes(tag) {
            A::byte_check(i, tag)
        } else {
            B::byte_check(i, tag)
        }
    }

    #[inline(always)]
    fn validate<M: Mode>(
        i: Internal,
        tag: u64,
        payload: &[u8],
        mode: &M,
        depth: u32,
    ) -> Option<Result<(), Error>> {
        if A::takes(tag) {
            A::validate(i, tag, payload, mode, depth)
        } else {
            B::validate(i, tag, payload, mode, depth)
        }
    }

    #[inline(always)]
    unsafe fn read<'v>(i: Internal, tag: u64, payload: &'v [u8]) -> L::View<'v> {
        if A::takes(tag) {
            // SAFETY: validation went down into `A` for this tag, as this does, and
            // `A` validated the payload: forwarded.
            unsafe { A::read(i, tag, payload) }
        } else {
            // SAFETY: as above, into `B`.
            unsafe { B::read(i, tag, payload) }
        }
    }

    #[inline(always)]
    unsafe fn read_mut<'v>(i: Internal, tag: u64, payload: &'v mut [u8]) -> L::Mut<'v> {
        if A::takes(tag) {
            // SAFETY: as in `read`.
            unsafe { A::read_mut(i, tag, payload) }
        } else {
            // SAFETY: as in `read`.
            unsafe { B::read_mut(i, tag, payload) }
        }
    }

    #[inline(always)]
    fn lazy<'v>(
        i: Internal,
        tag: u64,
        payload: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Option<Result<L::Lazy<'v>, Error>> {
        if A::takes(tag) {
            A::lazy(i, tag, payload, root, depth)
        } else {
            B::lazy(i, tag, payload, root, depth)
        }
    }

    fn locate(
        i: Internal,
        tag: u64,
        payload: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        if A::takes(tag) {
            A::locate(i, tag, payload, target, steps)
        } else {
            B::locate(i, tag, payload, target, steps)
        }
    }

    #[inline(always)]
    fn knows(tag: u64) -> bool {
        A::knows(tag) || B::knows(tag)
    }

    const DENSE_BLOCK: Option<usize> = match (A::DENSE_BLOCK, B::DENSE_BLOCK) {
        (Some(a), Some(b)) => Some(if a > b { a } else { b }),
        _ => None,
    };

    const FIXED_AT_V1: bool = A::FIXED_AT_V1 && B::FIXED_AT_V1;

    const COUNT: usize = A::COUNT + B::COUNT;

    #[inline]
    fn write_entries(out: &mut [u8], tag: usize) {
        A::write_entries(out, tag);
        let rest = out.get_mut(A::COUNT * (tag + 2)..).unwrap_or_default();
        B::write_entries(rest, tag);
    }

    #[inline(always)]
    fn position(tag: u64) -> u64 {
        let a = A::position(tag);
        if a < A::COUNT as u64 {
            a
        } else {
            A::COUNT as u64 + B::position(tag)
        }
    }

    #[inline(always)]
    fn tag_at(position: u64) -> u64 {
        if position < A::COUNT as u64 {
            A::tag_at(position)
        } else {
            B::tag_at(position - A::COUNT as u64)
        }
    }

    const LEAST_TAG: u64 = if A::LEAST_TAG < B::LEAST_TAG {
        A::LEAST_TAG
    } else {
        B::LEAST_TAG
    };

    // `A`'s over `B`'s: of two variants with one tag, the first takes it.
    const HEADERS: Option<[Option<Header>; TAG_WINDOW]> = over(A::HEADERS, B::HEADERS);

    #[inline(always)]
    unsafe fn lazy_checked<'v>(
        i: Internal,
        tag: u64,
        payload: &'v [u8],
        declared: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> L::Lazy<'v> {
        if A::takes(tag) {
            // SAFETY: the first variant that takes `tag` is in `A`, whose table has
            // its header in the slot of `tag` as the whole tree's does: forwarded.
            unsafe { A::lazy_checked(i, tag, payload, declared, root, depth) }
        } else {
            // SAFETY: no variant of `A` takes `tag`: the first that does is in `B`,
            // as above.
            unsafe { B::lazy_checked(i, tag, payload, declared, root, depth) }
        }
    }
}

/// The headers of `a`, and of `b` in the slots `a` leaves empty; `None` if either
/// is (a variant without a header or a tag in the window).
const fn over(
    a: Option<[Option<Header>; TAG_WINDOW]>,
    b: Option<[Option<Header>; TAG_WINDOW]>,
) -> Option<[Option<Header>; TAG_WINDOW]> {
    let (Some(mut a), Some(b)) = (a, b) else {
        return None;
    };
    let mut slot = 0;
    while slot < TAG_WINDOW {
        if a[slot].is_none() {
            a[slot] = b[slot];
        }
        slot += 1;
    }
    Some(a)
}

impl<L: UnionLayout, V: Variant<L>> VariantList<L> for VOne<V> {
    #[inline(always)]
    fn takes(tag: u64) -> bool {
        takes::<L, V>(tag)
    }

    #[inline(always)]
    fn byte_check(_: Internal, tag: u64) -> ByteCheck {
        if takes::<L, V>(tag) {
            <V::Payload as Payload>::BYTE_CHECK
        } else {
            ByteCheck::Other
        }
    }

    #[inline(always)]
    fn validate<M: Mode>(
        _: Internal,
        tag: u64,
        payload: &[u8],
        mode: &M,
        depth: u32,
    ) -> Option<Result<(), Error>> {
        takes::<L, V>(tag).then(|| validate_variant::<L, V, M>(payload, mode, depth))
    }

    #[inline(always)]
    unsafe fn read<'v>(i: Internal, tag: u64, payload: &'v [u8]) -> L::View<'v> {
        // SAFETY: no earlier variant took the tag, and validation found one that did:
        // this one, which validated the payload as its.
        V::wrap(tag, unsafe { <V::Payload as Payload>::read(i, payload) })
    }

    #[inline(always)]
    unsafe fn read_mut<'v>(i: Internal, tag: u64, payload: &'v mut [u8]) -> L::Mut<'v> {
        // SAFETY: as in `read`.
        V::wrap_mut(tag, unsafe {
            <V::Payload as Payload>::read_mut(i, payload)
        })
    }

    #[inline(always)]
    fn lazy<'v>(
        _: Internal,
        tag: u64,
        payload: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Option<Result<L::Lazy<'v>, Error>> {
        takes::<L, V>(tag).then(|| lazy_variant::<L, V>(tag, payload, root, depth))
    }

    fn locate(
        i: Internal,
        tag: u64,
        payload: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        steps.push(crate::lazy::Step::Field(V::NAME));
        takes::<L, V>(tag) && <V::Payload as Payload>::locate(i, payload, target, steps)
    }

    #[inline(always)]
    fn knows(tag: u64) -> bool {
        !<V::Payload as Payload>::CATCH_ALL && tag == V::TAG
    }

    const DENSE_BLOCK: Option<usize> = <V::Payload as Payload>::FIXED_BLOCK;

    const FIXED_AT_V1: bool = fixed_at_v1::<L, V>();

    const COUNT: usize = 1;

    #[inline]
    fn write_entries(out: &mut [u8], tag: usize) {
        write_entry::<L, V>(out, tag);
    }

    #[inline(always)]
    fn position(tag: u64) -> u64 {
        u64::from(tag != V::TAG)
    }

    #[inline(always)]
    fn tag_at(position: u64) -> u64 {
        if position == 0 { V::TAG } else { u64::MAX }
    }

    const LEAST_TAG: u64 = least_of::<L, V>(u64::MAX);

    const HEADERS: Option<[Option<Header>; TAG_WINDOW]> =
        with_header::<L, V>(Some([None; TAG_WINDOW]));

    #[inline(always)]
    unsafe fn lazy_checked<'v>(
        i: Internal,
        tag: u64,
        payload: &'v [u8],
        declared: usize,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> L::Lazy<'v> {
        // SAFETY: the slot of `tag` holds a header, and no earlier variant takes
        // `tag`: `V` does, and the header is `V`'s; forwarded from the caller.
        V::wrap_lazy(tag, unsafe {
            <V::Payload as Payload>::lazy_checked(i, payload, declared, root, depth)
        })
    }
}

/// Bytes of the tag of union `L`.
#[inline(always)]
const fn tag_size<L: UnionLayout>() -> usize {
    <<L::Tag as Field>::Kind as Kind>::BLOCK_SIZE
}

/// The tag of the union value `bytes` and the payload after it (FORMAT.md §4.10):
/// `Truncated` (at offset 0) if the bytes do not hold the tag. Shared by validation,
/// the on-demand read and the walk to an on-demand view, so that all three split the
/// value alike.
#[inline(always)]
fn tag_and_payload<L: UnionLayout>(bytes: &[u8]) -> Result<(u64, &[u8]), Error> {
    let size = tag_size::<L>();
    let Some(payload) = bytes.get(size..) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: size,
                available: bytes.len(),
            },
            0,
        ));
    };
    Ok((L::Tag::read(bytes).into(), payload))
}

/// `UnknownVariant` (at offset 0) for a tag no variant of `L` takes.
#[cold]
fn unknown_variant<L: UnionLayout>(tag: u64) -> Error {
    Error::new(
        ErrorKind::UnknownVariant {
            union_name: alloc::borrow::Cow::Borrowed(L::NAME),
            tag,
        },
        0,
    )
}

/// Validates `bytes` as one value of union `L`: the tag, then the payload of the
/// variant that takes it, one nesting level deeper (FORMAT.md §4.10). Offsets are
/// relative to `bytes`.
#[inline]
pub(crate) fn validate_union<L: UnionLayout, M: Mode>(
    bytes: &[u8],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    let (tag, payload) = tag_and_payload::<L>(bytes)?;
    validate_payload::<L, M>(tag, payload, mode, depth)
}

/// Validates `payload` as the payload of the variant of union `L` that takes `tag`:
/// [`validate_union`] after the tag, and the check of an element of a dense list
/// (FORMAT.md §6.8). The errors count from the tag.
#[inline(always)]
fn validate_payload<L: UnionLayout, M: Mode>(
    tag: u64,
    payload: &[u8],
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    match L::Variants::validate(INTERNAL, tag, payload, mode, depth + 1) {
        Some(result) => result.map_err(|e| e.shift(tag_size::<L>())),
        None => Err(unknown_variant::<L>(tag)),
    }
}

/// The on-demand view of the union value `bytes`: the tag checked as
/// [`validate_union`] checks it, the payload's message by its header alone. The
/// errors count from `bytes`.
#[inline(always)]
pub(crate) fn lazy_union<'v, L: UnionLayout>(
    bytes: &'v [u8],
    root: &crate::lazy::Root<'v>,
    depth: u32,
) -> Result<L::Lazy<'v>, Error> {
    let (tag, payload) = tag_and_payload::<L>(bytes)?;
    lazy_payload::<L>(tag, payload, root, depth)
}

/// The on-demand view of the variant of union `L` that takes `tag`, whose payload is
/// `payload`: [`lazy_union`] after the tag, and the read of an element of a dense
/// list (FORMAT.md §6.8). The errors count from the tag.
#[inline(always)]
fn lazy_payload<'v, L: UnionLayout>(
    tag: u64,
    payload: &'v [u8],
    root: &crate::lazy::Root<'v>,
    depth: u32,
) -> Result<L::Lazy<'v>, Error> {
    // The header check by a table of the variants' headers, before the dispatch:
    // with it in the dispatch, each arm compared the payload with its own variant's
    // minimum, and a `match` on the variant afterwards was one indirect jump per
    // element (`perf annotate` of `events/read_some_lazy`: the jump table was 7 % of
    // its samples and the arms' compares another 9 %). Where a check fails, the
    // dispatch below finds the error as before.
    // By reference: a `static` of its slots, not a copy of them for each value.
    let headers: &'static Option<[Option<Header>; TAG_WINDOW]> = const { &L::Variants::HEADERS };
    if let Some(table) = headers {
        let header = usize::try_from(tag.wrapping_sub(least_tag::<L>()))
            .ok()
            .and_then(|t| table.get(t).copied().flatten());
        if let Some(declared) = header.and_then(|h| h.declared(payload)) {
            if check_depth(depth + 1).is_ok() {
                // SAFETY: the slot of `tag` (`tag - LEAST_TAG`: in the window, so
                // `tag` is that slot's variant's own) holds a header, which passed
                // with `declared`, and so did the depth check.
                return Ok(unsafe {
                    L::Variants::lazy_checked(INTERNAL, tag, payload, declared, root, depth + 1)
                });
            }
        }
    }
    match L::Variants::lazy(INTERNAL, tag, payload, root, depth + 1) {
        Some(result) => result.map_err(|e| e.shift(tag_size::<L>())),
        None => Err(unknown_variant::<L>(tag)),
    }
}

/// Finds the on-demand view `target` in the union value `bytes` (`lazy.rs`).
pub(crate) fn locate_union<L: UnionLayout>(
    bytes: &[u8],
    target: &crate::lazy::Target,
    steps: &mut alloc::vec::Vec<crate::lazy::Step>,
) -> bool {
    match tag_and_payload::<L>(bytes) {
        Ok((tag, payload)) => L::Variants::locate(INTERNAL, tag, payload, target, steps),
        Err(_) => false,
    }
}

/// The view of the union value `bytes`.
///
/// # Safety
///
/// [`validate_union`] accepted exactly these bytes for `L`.
#[inline(always)]
pub(crate) unsafe fn read_union<L: UnionLayout>(bytes: &[u8]) -> L::View<'_> {
    let size = tag_size::<L>();
    // SAFETY: validation proved the tag inside the bytes; the rest is the payload it
    // validated for this tag.
    unsafe {
        let payload = crate::validated::range(bytes, size, bytes.len());
        L::Variants::read(INTERNAL, L::Tag::read(bytes).into(), payload)
    }
}

/// The mutable view of the union value `bytes`.
///
/// # Safety
///
/// As [`read_union`].
#[inline(always)]
pub(crate) unsafe fn read_union_mut<L: UnionLayout>(bytes: &mut [u8]) -> L::Mut<'_> {
    let size = tag_size::<L>();
    let tag: u64 = L::Tag::read(bytes).into();
    let len = bytes.len();
    // SAFETY: as in `read_union`.
    unsafe {
        let payload = crate::validated::range_mut(bytes, size, len);
        L::Variants::read_mut(INTERNAL, tag, payload)
    }
}

impl<L: UnionLayout> Sealed for UnionOf<L> {}

/// A tag and the variant's payload, in the tail (FORMAT.md §4.10).
impl<L: UnionLayout> Kind for UnionOf<L> {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = if is_dense::<L>() {
        ListEncoding::Dense
    } else {
        ListEncoding::Table
    };
    const MIN_ELEMENT_SIZE: usize = 4;
    const DENSE_TAG: usize = if is_dense::<L>() { tag_size::<L>() } else { 0 };
    const DENSE_ENTRIES: usize = <L::Variants as VariantList<L>>::COUNT;
    const DENSE_STRIDE: usize = match <L::Variants as VariantList<L>>::DENSE_BLOCK {
        Some(block) => tag_size::<L>() + block,
        None => 0,
    };
    type Reads = Self;
    type View<'v> = L::View<'v>;
    type Lazy<'v> = L::Lazy<'v>;

    fn write_dense_table(_: Internal, out: &mut [u8]) {
        L::Variants::write_entries(out, tag_size::<L>());
    }

    #[inline(always)]
    fn dense_index(_: Internal, tag: u64) -> u64 {
        L::Variants::position(tag)
    }

    #[inline(always)]
    fn dense_tag_at(_: Internal, position: u64) -> u64 {
        L::Variants::tag_at(position)
    }

    #[inline]
    fn validate_dense<M: Mode>(
        _: Internal,
        tag: u64,
        payload: &[u8],
        mode: &M,
        depth: u32,
    ) -> Result<(), Error> {
        validate_payload::<L, M>(tag, payload, mode, depth)
    }

    #[inline(always)]
    fn dense_byte_check(_: Internal, tag: u64) -> ByteCheck {
        L::Variants::byte_check(INTERNAL, tag)
    }

    #[inline(always)]
    unsafe fn read_dense<'v>(_: Internal, tag: u64, payload: &'v [u8]) -> L::View<'v> {
        // SAFETY: forwarded from the caller: `validate_dense` accepted this tag and
        // payload, so the first variant that takes the tag validated the payload.
        unsafe { L::Variants::read(INTERNAL, tag, payload) }
    }

    #[inline(always)]
    fn lazy_dense<'v>(
        _: Internal,
        tag: u64,
        payload: &'v [u8],
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<L::Lazy<'v>, Error> {
        lazy_payload::<L>(tag, payload, root, depth)
    }

    fn locate_dense(
        _: Internal,
        tag: u64,
        payload: &[u8],
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        L::Variants::locate(INTERNAL, tag, payload, target, steps)
    }

    /// The tag checked as [`validate`](Kind::validate) checks it, then the present
    /// variant's payload read on demand (a message: its on-demand view).
    #[inline(always)]
    fn lazy<'v>(
        _: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<L::Lazy<'v>, Error> {
        lazy_union::<L>(place.region, root, depth).map_err(|e| e.shift(place.region_at))
    }

    fn locate(
        _: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        locate_union::<L>(place.region, target, steps)
    }

    #[inline]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        validate_union::<L, M>(place.region, mode, depth).map_err(|e| e.shift(place.region_at))
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: L::View<'v>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        L::__serialize_view(&view, s)
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, _: &'v [u8], region: &'v [u8]) -> L::View<'v> {
        // SAFETY: the caller promises `region` was validated as this union.
        unsafe { read_union::<L>(region) }
    }

    #[inline]
    fn view_eq<'v>(_: Internal, a: L::View<'v>, b: L::View<'v>) -> bool
    where
        Self: 'v,
    {
        a == b
    }
}

/// A union field's mutable view is the union's own: the present variant's.
impl<L: UnionLayout> NestedKind for UnionOf<L> {
    type Mut<'m> = L::Mut<'m>;

    #[inline(always)]
    unsafe fn read_mut(_: Internal, bytes: &mut [u8]) -> L::Mut<'_> {
        // SAFETY: forwarded to the caller.
        unsafe { read_union_mut::<L>(bytes) }
    }

    #[inline(always)]
    unsafe fn read_dense_mut(_: Internal, tag: u64, payload: &mut [u8]) -> L::Mut<'_> {
        // SAFETY: forwarded from the caller, as in `read_dense`.
        unsafe { L::Variants::read_mut(INTERNAL, tag, payload) }
    }
}

/// Hidden helpers of the generated code.
impl<L: UnionLayout> UnionOf<L> {
    /// `CatchAllKnownTag` if a catch-all value holds `tag`, which a variant has.
    ///
    /// # Errors
    ///
    /// As described.
    #[doc(hidden)]
    #[inline]
    pub fn check_catch_all(tag: u64) -> Result<(), Error> {
        if L::Variants::knows(tag) {
            return Err(Error::new(
                ErrorKind::CatchAllKnownTag {
                    union_name: alloc::borrow::Cow::Borrowed(L::NAME),
                    tag,
                },
                0,
            ));
        }
        Ok(())
    }
}

/// The element type of a list of union `U`, whatever `U`'s lifetimes: its `'static`
/// layout, which validates and reads it.
impl<'v, U: WireUnion> crate::List<'v, U> {
    /// The same list as a list of `V`, a union with the same layout (`U` with other
    /// lifetimes).
    #[doc(hidden)]
    #[inline(always)]
    pub fn same_union_layout<V>(self) -> crate::List<'v, V>
    where
        U: crate::Element,
        V: WireUnion<Layout = U::Layout> + crate::Element,
    {
        // SAFETY: a union's kind is `UnionOf<Self::Layout>`, which validates and reads
        // by its layout alone: `U` and `V` have the same one.
        unsafe { self.retype() }
    }
}

/// The mutable view of a union or message field of type `F`, as the generated
/// `<field>_mut()` returns it.
pub type NestedMut<'m, F> = <<F as Field>::Kind as NestedKind>::Mut<'m>;
