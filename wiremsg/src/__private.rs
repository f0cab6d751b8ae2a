//! Helpers that generated code calls. Not public API: paths and signatures may change
//! in any release. Nothing here can make a view: views come only from validation.
//! The reads, writes, encoding, checks and decoding it calls start with
//! `mir_inline_barrier!`, which keeps the release build of the deriving crate from
//! inlining them at the MIR level (`crate::inline_barrier`).

pub use crate::field::{DecodeField, Element, Field, Kind, ListEncoding, Scalar, ViewOf};
pub use crate::field::{FixedKind, SetInPlace};
pub use crate::generic::{NameBuf, generic_name, name_str};
pub use crate::header::{MessageHeader, Template, view_body, view_body_lazy, view_body_mut};
pub use crate::kind::{EnumOf, Msg, UnionOf};
pub use crate::layout::{
    AllFixed, At, FieldList, FieldPos, FixedLayout, Flag, Here, Inline, Layout, Leaf, Left, Nil,
    No, Pair, Prefixed, Right, Yes, block_length, has_block_length, has_tail, min_block_length,
    offset,
};
pub use crate::lazy::{LazyMsg, Root, Step, Target};
pub use crate::list::{Bounded, ListMut};
pub use crate::message::{EnumRepr, WireEnum, WireMsg, check_budget, decode_budget};
pub use crate::null::{NullAs, NullRepr};
pub use crate::plain::{Out, Plain, same_layout};
use crate::schema::MessageRef;
pub use crate::schema::{EnumSchema, FieldSchema, MessageSchema, TypeSchema};
#[cfg(feature = "serde")]
pub use crate::serde_view::SerializeView;
pub use crate::trust::shape::byte_check::ByteCheck;
pub use crate::union::{
    Carries, Payload, Raw, UnionLayout, Unit, VOne, VPair, Variant, VariantList,
    keeps_its_list_shape,
};
pub use crate::validated::{
    FieldAt, MessageKind, MutOf, NestedKind, Validated, ValidatedMut, check_depth, deeper,
};
pub use crate::view_fields::{eq_encoded, eq_views, fmt_lazy, fmt_view};
pub use crate::{Error, ErrorKind, List, MAX_DEPTH};
pub use alloc::borrow::Cow;
pub use alloc::boxed::Box;
pub use alloc::vec::Vec;
pub use core::fmt::{Debug, Formatter, Result as FmtResult};
pub use core::marker::PhantomData;
pub use core::option::Option::{self, None, Some};
pub use core::result::Result::{self, Err, Ok};
// The primitive types by short paths for the derive's code (`__wiremsg_p_Order::u8`), where
// a bare name could be the user's (`type u8 = ...`).
pub use core::primitive::{bool, str, u8, u16, u32, u64, usize};
#[cfg(feature = "serde")]
pub use serde;

use crate::LazyOf;
use crate::primitives_le::{write_u16, write_u32};

/// The wire value of variant `I` of a derived enum or union (its discriminant or
/// `#[wire(tag = ...)]`). The derives copy the user's expression into an impl of this
/// trait, alone in its own `const _` block, so that no name the derive generates is in
/// scope where the expression is resolved (issue 30).
pub trait VariantValue<R, const I: usize> {
    /// The value.
    const VALUE: R;
}

/// A type that the derive names through `M`, a marker private to the deriving module:
/// a public impl's associated type is then a type parameter bound to `Ty`, not the
/// type itself, which may name field types more private than the message (E0446).
pub trait Named<M> {
    /// The named type.
    type Ty;
}

/// A variant of union `L` as the derive writes it, keyed by `K`, a marker private to
/// the deriving module: its payload may then name a type more private than the union
/// (E0446), and the marker's [`Variant`] impl forwards to it with the payload as a
/// type parameter.
pub trait VariantOf<L: UnionLayout, K> {
    /// [`Variant::Payload`].
    type Payload: Payload;
    /// [`Variant::wrap`].
    fn wrap<'v>(tag: u64, payload: <Self::Payload as Payload>::View<'v>) -> L::View<'v>;
    /// [`Variant::wrap_mut`].
    fn wrap_mut<'v>(tag: u64, payload: <Self::Payload as Payload>::Mut<'v>) -> L::Mut<'v>;
    /// [`Variant::wrap_lazy`].
    fn wrap_lazy<'v>(tag: u64, payload: <Self::Payload as Payload>::Lazy<'v>) -> L::Lazy<'v>;
}

/// Never implemented: the bound of the `set_<field>` a `{Name}Mut` has for a
/// variable-size field, so that calling it is an error saying why and what to do.
#[diagnostic::on_unimplemented(
    message = "a variable-size field (`{F}`) cannot be set in place",
    label = "its data is in the tail, which cannot grow or shrink in place",
    note = "encode a new message with the new value, or give the field a fixed-size type (`FixedStr<N>` for a string, an array `[T; N]` for a list) to set it in place"
)]
pub trait SetTailField<F: ?Sized> {}

/// Layout facts of `T` for the derive's compile-time checks, read without requiring
/// that `T` is a wire type: for a `T` that is one, the inherent constants (which take
/// precedence); for one that is not, [`ProbeFallback`]'s harmless values. A field
/// type without a wire derive is reported once, by the `where` clause of the
/// generated impls; the checks then add no error of their own.
#[derive(Debug)]
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: Field + ?Sized> Probe<T> {
    /// True: `T` is a field type (the guard of a type a box, option or map holds).
    pub const FIELD: bool = true;
    /// `T`'s `Field::IN_TAIL`.
    pub const IN_TAIL: bool = T::IN_TAIL;
    /// `T`'s `Field::BLOCK_SIZE`.
    pub const BLOCK_SIZE: usize = T::BLOCK_SIZE;
    /// `T`'s kind's `EVOLVES`.
    pub const EVOLVES: bool = <T::Kind as Kind>::EVOLVES;
    /// True if lists of `T` have an offset table.
    pub const TABLE: bool = matches!(<T::Kind as Kind>::LIST_ENCODING, ListEncoding::Table);
}

impl<T: Element> Probe<T> {
    /// True: `T` is a list element (the guard of a type a list holds).
    pub const ELEMENT: bool = true;
}

impl<T: crate::MapKey> Probe<T> {
    /// True: `T` is a map key (the guard of a map's key type).
    pub const MAP_KEY: bool = true;
}

impl<T: WireMsg> Probe<T> {
    /// `T`'s `WireMsg::BLOCK_LENGTH`.
    pub const BLOCK_LENGTH: usize = T::BLOCK_LENGTH;
    /// `T`'s message name (a union's check that its payload is named by it).
    pub const MESSAGE_NAME: Option<&'static str> = Some(message_name(T::SCHEMA));
}

impl<T: UnionLayout> Probe<T> {
    /// [`keeps_its_list_shape`] of union `T`: checked only where `T`'s payloads have
    /// their derives (its `UnionLayout` holds), so that a payload without one is the
    /// union's guard's error alone.
    pub const KEEPS_ITS_LIST_SHAPE: bool = keeps_its_list_shape::<T>();
    /// True: `T` is a union whose payloads have their derives (the gate of the
    /// retyping of its lists, see [`Held`]).
    pub const UNION: bool = true;
}

impl<T: crate::Template> Probe<T> {
    /// True: `T` has a template id.
    pub const IS_TEMPLATE: bool = true;
    /// `T`'s `Template::TEMPLATE_ID`.
    pub const TEMPLATE_ID: u16 = T::TEMPLATE_ID;
    /// `T`'s `Template::SCHEMA_ID`.
    pub const SCHEMA_ID: u16 = T::SCHEMA_ID;
}

/// A dispatch enum's check of distinct ids (FORMAT.md §8): of the variants' `(has a
/// template id, template id, schema id)` in `ids`, the first before `b` whose ids are
/// `b`'s, if both have them. One check per variant, each a loop over the earlier
/// ones, where one generated assertion per pair of variants made a 200-variant
/// dispatch enum 19,900 items.
pub const fn same_template_before(ids: &[(bool, u16, u16)], b: usize) -> Option<usize> {
    let (has, template, schema) = ids[b];
    let mut a = 0;
    while has && a < b {
        let (a_has, a_template, a_schema) = ids[a];
        if a_has && a_template == template && a_schema == schema {
            return Some(a);
        }
        a += 1;
    }
    None
}

/// A message composed at compile time from `&str` parts, for a constant check to
/// panic with (`panic!("{}", m.as_str())`: a constant's panic takes one `&str`, not
/// a format). Parts past its 1,024 bytes are left out whole.
#[derive(Debug)]
pub struct ConstMessage {
    bytes: [u8; 1024],
    len: usize,
}

impl ConstMessage {
    /// `parts`, one after another.
    pub const fn of(parts: &[&str]) -> ConstMessage {
        let mut m = ConstMessage {
            bytes: [0; 1024],
            len: 0,
        };
        let mut p = 0;
        while p < parts.len() {
            let part = parts[p].as_bytes();
            if m.len + part.len() <= m.bytes.len() {
                let mut i = 0;
                while i < part.len() {
                    m.bytes[m.len + i] = part[i];
                    i += 1;
                }
                m.len += part.len();
            }
            p += 1;
        }
        m
    }

    /// The message.
    pub const fn as_str(&self) -> &str {
        // Whole `&str` parts: always UTF-8.
        match core::str::from_utf8(self.bytes.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

/// The values [`Probe`] gives a type that is not a wire type (see there).
pub trait ProbeFallback {
    /// Not in the tail.
    const IN_TAIL: bool = false;
    /// One byte: not zero-size.
    const BLOCK_SIZE: usize = 1;
    /// Frozen.
    const EVOLVES: bool = false;
    /// No table.
    const TABLE: bool = false;
    /// Short.
    const BLOCK_LENGTH: usize = 0;
    /// Not a field type.
    const FIELD: bool = false;
    /// Not a list element.
    const ELEMENT: bool = false;
    /// Not a map key.
    const MAP_KEY: bool = false;
    /// No template id (a dispatch enum's check of distinct ids skips the type).
    const IS_TEMPLATE: bool = false;
    /// Unused (see `IS_TEMPLATE`).
    const TEMPLATE_ID: u16 = 0;
    /// Unused (see `IS_TEMPLATE`).
    const SCHEMA_ID: u16 = 0;
    /// Not a message: no name to check (its guard reports it).
    const MESSAGE_NAME: Option<&'static str> = None;
    /// Not a union (a payload lacks its derive, which its guard reports): nothing to
    /// check.
    const KEEPS_ITS_LIST_SHAPE: bool = true;
    /// Not a union whose payloads have their derives.
    const UNION: bool = false;
}

impl<T: ?Sized> ProbeFallback for Probe<T> {}

/// The items of a derived message's `Field` impl, in an impl bounded by every type
/// the message holds (the derive's guards, see `Probe`'s inherent items below).
/// `Field` of a message is bounded only by the types held inline, so that proving it
/// for mutually recursive messages is no cycle; its items are read through `Probe`,
/// so that a held type without a wire derive, reported once by the derive's guard,
/// adds no error there (issue 33).
pub trait FieldBody: Sized {
    /// `Field::TYPE`.
    const TYPE: &'static TypeSchema;
    /// `Field::PLAIN`.
    const PLAIN: Plain<Self>;
    /// `Field::tail_len`.
    fn tail_len(&self) -> usize;
    /// `Field::check_value`.
    fn check_value(&self, depth: u32) -> Result<(), Error>;
    /// `Field::write`.
    fn write(&self, block: &mut [u8], tail: &mut [u8]);
    /// `Field::append_tail`.
    fn append_tail(&self, block: &mut [u8], tail: &mut Out<'_>);
    /// `Field::append_split`.
    fn append_split(&self, block: &mut [u8], tail: &mut Out<'_>);
}

impl<T: FieldBody> Probe<T> {
    /// `T`'s `FieldBody::TYPE`.
    pub const FIELD_TYPE: &'static TypeSchema = T::TYPE;
    /// `T`'s `FieldBody::PLAIN`.
    pub const FIELD_PLAIN: Plain<T> = T::PLAIN;

    /// `T`'s `FieldBody::tail_len`.
    #[inline(always)]
    pub fn tail_len(value: &T) -> usize {
        mir_inline_barrier!(T);
        value.tail_len()
    }

    /// `T`'s `FieldBody::check_value`.
    #[inline(always)]
    pub fn check_value(value: &T, depth: u32) -> Result<(), Error> {
        mir_inline_barrier!(T);
        value.check_value(depth)
    }

    /// `T`'s `FieldBody::write`.
    #[inline(always)]
    pub fn write(value: &T, block: &mut [u8], tail: &mut [u8]) {
        mir_inline_barrier!(T);
        value.write(block, tail)
    }

    /// `T`'s `FieldBody::append_tail`.
    #[inline(always)]
    pub fn append_tail(value: &T, block: &mut [u8], tail: &mut Out<'_>) {
        mir_inline_barrier!(T);
        value.append_tail(block, tail)
    }

    /// `T`'s `FieldBody::append_split`.
    #[inline(always)]
    pub fn append_split(value: &T, block: &mut [u8], tail: &mut Out<'_>) {
        mir_inline_barrier!(T);
        value.append_split(block, tail)
    }
}

/// What `Probe` gives a derived message whose `FieldBody` impl does not hold: a
/// program that names it does not compile (the derive's guard is an error), so
/// none of these is ever used.
pub trait FieldBodyFallback<T> {
    /// Never used.
    const FIELD_TYPE: &'static TypeSchema = &TypeSchema::Bool;
    /// Never used.
    const FIELD_PLAIN: Plain<T> = Plain::NO;

    /// Never called.
    fn tail_len(_: &T) -> usize {
        unreachable!()
    }

    /// Never called.
    fn check_value(_: &T, _: u32) -> Result<(), Error> {
        unreachable!()
    }

    /// Never called.
    fn write(_: &T, _: &mut [u8], _: &mut [u8]) {
        unreachable!()
    }

    /// Never called.
    fn append_tail(_: &T, _: &mut [u8], _: &mut Out<'_>) {
        unreachable!()
    }

    /// Never called.
    fn append_split(_: &T, _: &mut [u8], _: &mut Out<'_>) {
        unreachable!()
    }
}

impl<T> FieldBodyFallback<T> for Probe<T> {}

/// Whether every type a derived message holds in a list, box or map (each one the
/// derive guards) is what its holder needs: `Held<true>` if so. The derive computes
/// `ALL` in a constant of its own from [`Probe`]'s `ELEMENT`, `FIELD` and `MAP_KEY`,
/// whose fallback makes a type without a wire derive `false` rather than an error, and
/// goes through `Held<ALL>` where it needs those types without carrying their guards:
/// the retyping of the lists of a message with lifetimes (in `Element`, where the
/// guards would make mutually recursive messages a trait cycle, E0275) and the
/// decoding of the fields that hold them (not bounded by their element types, for
/// the same reason). Without the gate each would repeat the guard's error (issue 33).
/// With it, a message whose held type has no wire derive names `Held<false>`, whose
/// items are stand-ins that no program that compiles contains: that type's guard is
/// an error wherever `ALL` is `false` (the derive's `Field` impl, whose kind is a
/// kind only if the guards hold).
#[derive(Debug)]
pub struct Held<const ALL: bool>;

impl Held<true> {
    /// [`List::same_layout`]: `Element` of a message with lifetimes.
    #[inline(always)]
    pub fn same_layout<'v, T, U>(list: List<'v, T>) -> List<'v, U>
    where
        T: WireMsg + Element,
        U: WireMsg<Layout = T::Layout> + Element,
    {
        list.same_layout()
    }

    /// [`List::same_union_layout`]: `Element` of a union with lifetimes, gated by
    /// `Probe::<U>::UNION`.
    #[inline(always)]
    pub fn same_union_layout<'v, U, V>(list: List<'v, U>) -> List<'v, V>
    where
        U: crate::WireUnion + Element,
        V: crate::WireUnion<Layout = U::Layout> + Element,
    {
        list.same_union_layout()
    }
}

/// A stand-in that no program that compiles contains (see [`Held`]).
impl Held<false> {
    /// Never called.
    pub fn same_layout<'v, T, U>(_: List<'v, T>) -> List<'v, U> {
        List::default()
    }

    /// Never called.
    pub fn same_union_layout<'v, U, V>(_: List<'v, U>) -> List<'v, V> {
        List::default()
    }
}

/// The decoding of a field of type `F` that holds types the derive guards, through the
/// message's [`Held`] gate: `F`'s own for `Held<true>`. (A trait rather than inherent
/// functions, so that the error of a field that cannot decode is the same at both
/// items, and reported once.)
pub trait HeldDecode<'v, F: Field> {
    /// [`DecodeField::decode_view`].
    fn decode_view(view: ViewOf<'v, F>) -> F;
    /// [`DecodeField::decoded_size`].
    fn decoded_size(view: ViewOf<'v, F>) -> usize;
}

impl<'v, F: DecodeField<'v>> HeldDecode<'v, F> for Held<true> {
    #[inline(always)]
    fn decode_view(view: ViewOf<'v, F>) -> F {
        F::decode_view(view)
    }

    #[inline(always)]
    fn decoded_size(view: ViewOf<'v, F>) -> usize {
        F::decoded_size(view)
    }
}

/// Decoding's bound on a field whose type has the message's lifetimes (`n: Name<'a>`
/// decodes if `Name<'v>: DecodesAt<'v>`; `DecodeField`'s, which it forwards to).
/// Unlike `DecodeField`, it implies no `Field` bound: a `where` clause `Name<'v>:
/// Field` (or `Option<Name<'v>>: Field`) would be preferred to the type's impl, and
/// tie `'v` to `'static` where the body names the type's `'static` form (the guard
/// `Name<'static>: Field`, a map's view). The methods ask for `Field` where they are
/// called instead.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from the bytes it views",
    note = "a `&'static str` field never decodes (decoding borrows from the bytes): use `String`, or `&'a str` with the message generic over `'a`",
    note = "a borrowed slice `&[T]` decodes only for `T = u8`; use `Vec<T>` in the type you decode into",
    note = "a message holding a list, map or box of a message that cannot decode (one with a `&'static str` field) cannot decode either: mark it (or the union) `#[wire(no_decode)]`"
)]
pub trait DecodesAt<'v> {
    /// [`DecodeField::decode_view`].
    fn decode_view_at(view: ViewOf<'v, Self>) -> Self
    where
        Self: Field + Sized;
    /// [`DecodeField::decoded_size`].
    fn decoded_size_at(view: ViewOf<'v, Self>) -> usize
    where
        Self: Field + Sized;
}

impl<'v, F: DecodeField<'v>> DecodesAt<'v> for F {
    #[inline(always)]
    fn decode_view_at(view: ViewOf<'v, F>) -> F {
        F::decode_view(view)
    }

    #[inline(always)]
    fn decoded_size_at(view: ViewOf<'v, F>) -> usize {
        F::decoded_size(view)
    }
}

/// A stand-in that no program that compiles contains (see [`Held`]).
impl<'v, F: Field> HeldDecode<'v, F> for Held<false> {
    fn decode_view(_: ViewOf<'v, F>) -> F {
        unreachable!()
    }

    fn decoded_size(_: ViewOf<'v, F>) -> usize {
        unreachable!()
    }
}

/// The type a message's layout gives a field that holds types the derive guards, for a
/// message whose impls carry no guards (the derive's `Ctx::stubbed`): the field's own
/// type `T` under `Held<true>`, a stand-in (`u8`) under `Held<false>`. So the message
/// has a layout, and its `Layout`, `WireMsg`, `FieldBody` and `DecodeField` impls hold,
/// even where a held type has no wire derive: that type's check item is then the one
/// error (issue 33), and no impl needs a `where` clause of guards, whose trait solving
/// was the largest part of the derive's compile time (`benches/README.md`, "Derive
/// cost").
pub trait HeldType<T> {
    /// `T`, or the stand-in.
    type Ty;
}

impl<T> HeldType<T> for Held<true> {
    type Ty = T;
}

impl<T> HeldType<T> for Held<false> {
    type Ty = u8;
}

/// [`HeldType`]'s type: `HeldTy<{ ALL }, Vec<Leg>>`.
pub type HeldTy<const ALL: bool, T> = <Held<ALL> as HeldType<T>>::Ty;

/// The encoding of a field of type `F` that holds types the derive guards, in a
/// message whose impls carry no guards (see [`HeldType`]): `F`'s own for `Held<true>`,
/// stand-ins that no program that compiles contains for `Held<false>`.
pub trait HeldField<F> {
    /// [`Field::tail_len`].
    fn tail_len(value: &F) -> usize;
    /// [`check_field`].
    ///
    /// # Errors
    ///
    /// As [`check_field`].
    fn check_field(value: &F, depth: u32, off: usize, name: &'static str) -> Result<(), Error>;
    /// [`append_field`].
    fn append_field(value: &F, block: &mut [u8], off: usize, tail: &mut Out<'_>, block_len: usize);
}

impl<F: Field> HeldField<F> for Held<true> {
    #[inline(always)]
    fn tail_len(value: &F) -> usize {
        mir_inline_barrier!(F);
        value.tail_len()
    }

    #[inline(always)]
    fn check_field(value: &F, depth: u32, off: usize, name: &'static str) -> Result<(), Error> {
        mir_inline_barrier!(F);
        check_field(value, depth, off, name)
    }

    #[inline(always)]
    fn append_field(value: &F, block: &mut [u8], off: usize, tail: &mut Out<'_>, block_len: usize) {
        mir_inline_barrier!(F);
        append_field(value, block, off, tail, block_len);
    }
}

impl<F> HeldField<F> for Held<false> {
    fn tail_len(_: &F) -> usize {
        unreachable!()
    }

    fn check_field(_: &F, _: u32, _: usize, _: &'static str) -> Result<(), Error> {
        unreachable!()
    }

    fn append_field(_: &F, _: &mut [u8], _: usize, _: &mut Out<'_>, _: usize) {
        unreachable!()
    }
}

/// The decoding of field `I` of type `F` of message `L` that holds types the derive
/// guards, in a message whose impls carry no guards (see [`HeldType`]): read through
/// the layout and decoded as `F` for `Held<true>`; stand-ins that no program that
/// compiles contains for `Held<false>`. (A trait, as [`HeldDecode`], so that the error
/// of a field that cannot decode is the same at both items, and reported once.)
pub trait HeldDecodeAt<'v, L, I, F> {
    /// [`DecodeField::decode_view`] of the field.
    fn decode(view: Validated<'v, L>) -> F;
    /// [`DecodeField::decoded_size`] of the field.
    fn decoded_size(view: Validated<'v, L>) -> usize;
}

impl<'v, L: Layout, I, F: DecodeField<'v>> HeldDecodeAt<'v, L, I, F> for Held<true>
where
    L::Fields: At<I, Ty = F>,
{
    #[inline(always)]
    fn decode(view: Validated<'v, L>) -> F {
        mir_inline_barrier!(F);
        F::decode_view(view.get::<I>())
    }

    #[inline(always)]
    fn decoded_size(view: Validated<'v, L>) -> usize {
        mir_inline_barrier!(F);
        F::decoded_size(view.get::<I>())
    }
}

impl<'v, L, I, F> HeldDecodeAt<'v, L, I, F> for Held<false> {
    fn decode(_: Validated<'v, L>) -> F {
        unreachable!()
    }

    fn decoded_size(_: Validated<'v, L>) -> usize {
        unreachable!()
    }
}

/// The reads of a derived message's views, through its layout: `Gate<Order>` for
/// `Order`'s. A message whose held type has no wire derive has no layout, and gets
/// [`GateFallback`]'s stand-ins instead, which no program that compiles contains
/// (that type's guard is the error; see `Probe`). So the views' impls need no
/// `where` clause of guards: the derive's compile time went mostly to trait solving
/// in the bodies that carried one (`benches/README.md`, "Derive cost"). Only the
/// accessors whose signatures name a guarded type keep it, as their own.
#[derive(Debug)]
pub struct Gate<L>(PhantomData<L>);

impl<L: Layout> Gate<L> {
    /// [`Validated::get`].
    #[inline(always)]
    pub fn get<'v, I>(view: Validated<'v, L>) -> ViewOf<'v, FieldAt<L, I>>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        view.get::<I>()
    }

    /// [`Validated::try_get`].
    #[inline(always)]
    pub fn try_get<'v, I>(view: Validated<'v, L>) -> Option<ViewOf<'v, FieldAt<L, I>>>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        view.try_get::<I>()
    }

    /// [`Validated::has`].
    #[inline(always)]
    pub fn has<I>(view: Validated<'_, L>) -> bool
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        view.has::<I>()
    }

    /// [`Validated::as_bytes`].
    #[inline(always)]
    pub fn as_bytes(view: Validated<'_, L>) -> Option<&[u8]> {
        mir_inline_barrier!(L);
        view.as_bytes()
    }

    /// [`ValidatedMut::as_ref`].
    #[inline(always)]
    pub fn mut_as_ref<'m>(view: &'m ValidatedMut<'_, L>) -> Validated<'m, L> {
        mir_inline_barrier!(L);
        view.as_ref()
    }

    /// [`ValidatedMut::as_bytes`].
    #[inline(always)]
    pub fn mut_as_bytes<'m>(view: &'m ValidatedMut<'_, L>) -> Option<&'m [u8]> {
        mir_inline_barrier!(L);
        view.as_bytes()
    }

    /// [`ValidatedMut::set`].
    #[inline(always)]
    pub fn mut_set<'v, I>(view: &mut ValidatedMut<'v, L>, value: &FieldAt<L, I>) -> bool
    where
        L::Fields: At<I>,
        FieldAt<L, I>: Scalar<'v>,
    {
        mir_inline_barrier!(L);
        view.set::<I>(value)
    }

    /// [`ValidatedMut::update`].
    #[inline(always)]
    pub fn mut_update<'v, I>(
        view: &mut ValidatedMut<'v, L>,
        f: impl FnOnce(FieldAt<L, I>) -> FieldAt<L, I>,
    ) -> bool
    where
        L::Fields: At<I>,
        FieldAt<L, I>: crate::Update<'v>,
    {
        mir_inline_barrier!(L);
        view.update::<I>(f)
    }

    /// [`ValidatedMut::list`].
    #[inline(always)]
    pub fn mut_list<'m, I>(
        view: &'m mut ValidatedMut<'_, L>,
    ) -> ListMut<'m, <<FieldAt<L, I> as Field>::Kind as crate::validated::ListKind>::Element>
    where
        L::Fields: At<I>,
        <FieldAt<L, I> as Field>::Kind: crate::validated::ListKind,
    {
        mir_inline_barrier!(L);
        view.list::<I>()
    }

    /// [`MsgField::nested`] of the field at `I`.
    #[inline(always)]
    pub fn mut_nested<'m, 'v, I>(
        view: &'m mut ValidatedMut<'_, L>,
    ) -> <FieldAt<L, I> as MsgField<'v>>::Mut<'m>
    where
        L::Fields: At<I>,
        FieldAt<L, I>: MsgField<'v>,
    {
        mir_inline_barrier!(L);
        <FieldAt<L, I> as MsgField<'v>>::nested::<L, I>(view)
    }

    /// [`MsgField::try_nested`] of the field at `I`.
    #[inline(always)]
    pub fn mut_try_nested<'m, 'v, I>(
        view: &'m mut ValidatedMut<'_, L>,
    ) -> Option<<FieldAt<L, I> as MsgField<'v>>::Mut<'m>>
    where
        L::Fields: At<I>,
        FieldAt<L, I>: MsgField<'v>,
    {
        mir_inline_barrier!(L);
        <FieldAt<L, I> as MsgField<'v>>::try_nested::<L, I>(view)
    }

    /// [`LazyMsg::get`].
    #[inline(always)]
    pub fn lazy_get<'v, I>(view: &LazyMsg<'v, L>) -> Result<LazyOf<'v, FieldAt<L, I>>, Error>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        view.get::<I>()
    }

    /// [`LazyMsg::try_get`].
    #[inline(always)]
    pub fn lazy_try_get<'v, I>(
        view: &LazyMsg<'v, L>,
    ) -> Result<Option<LazyOf<'v, FieldAt<L, I>>>, Error>
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        view.try_get::<I>()
    }

    /// [`LazyMsg::has`].
    #[inline(always)]
    pub fn lazy_has<I>(view: &LazyMsg<'_, L>) -> bool
    where
        L::Fields: At<I>,
    {
        mir_inline_barrier!(L);
        view.has::<I>()
    }

    /// [`fmt_view`].
    #[inline(always)]
    pub fn fmt_view(
        view: Validated<'_, L>,
        name: &str,
        reserved: &[usize],
        f: &mut Formatter<'_>,
    ) -> FmtResult {
        mir_inline_barrier!(L);
        fmt_view(view, name, reserved, f)
    }

    /// [`eq_views`].
    #[inline(always)]
    pub fn eq_views(a: Validated<'_, L>, b: Validated<'_, L>, reserved: &[usize]) -> bool {
        mir_inline_barrier!(L);
        eq_views(a, b, reserved)
    }

    /// [`fmt_lazy`].
    #[inline(always)]
    pub fn fmt_lazy(
        view: &LazyMsg<'_, L>,
        name: &str,
        reserved: &[usize],
        f: &mut Formatter<'_>,
    ) -> FmtResult {
        mir_inline_barrier!(L);
        fmt_lazy(view, name, reserved, f)
    }
}

impl<M: WireMsg<Layout = M> + Layout> Gate<M> {
    /// The up-front view of an on-demand view ([`LazyMsg::validate`]).
    #[inline(always)]
    pub fn lazy_to_view<'v>(view: &LazyMsg<'v, M>) -> Result<M::View<'v>, Error> {
        mir_inline_barrier!(M);
        view.validate().map(M::__view_of)
    }
}

/// What [`Gate`] gives a message without a layout: a program that names it does not
/// compile (the message's guard is an error), so none of these is ever called.
/// Returning `!`, each stands for any type the accessor declares.
#[allow(clippy::missing_errors_doc)]
pub trait GateFallback<L> {
    /// Never called.
    fn get<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn try_get<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn has<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn as_bytes(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_as_ref(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_as_bytes(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_set<I>(_: impl Sized, _: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_update<I>(_: impl Sized, _: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_list<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_nested<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn mut_try_nested<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn lazy_get<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn lazy_try_get<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn lazy_has<I>(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn lazy_to_view(_: impl Sized) -> ! {
        unreachable!()
    }

    /// Never called.
    fn fmt_view(_: impl Sized, _: &str, _: &[usize], _: &mut Formatter<'_>) -> ! {
        unreachable!()
    }

    /// Never called.
    fn eq_views(_: impl Sized, _: impl Sized, _: &[usize]) -> ! {
        unreachable!()
    }

    /// Never called.
    fn fmt_lazy(_: impl Sized, _: &str, _: &[usize], _: &mut Formatter<'_>) -> ! {
        unreachable!()
    }
}

impl<L> GateFallback<L> for Gate<L> {}

/// Requires that `K` is a map key: the derive's guard of a map field's key type.
#[derive(Debug)]
pub struct MapKeyOf<K: crate::MapKey + ?Sized>(PhantomData<K>);

/// The numbers, `bool` and options of these: no tail, and `Field::check_value`'s
/// default, which always passes. The derive leaves such fields out of a message's
/// `tail_len` and `__check`, which it decides by the type's name (`u64`,
/// `Option<bool>`), and asserts this trait of each so that a type of the user's that
/// shadows a primitive's name (`struct u64`) is a compile error rather than a field
/// whose check is skipped. Sealed: an impl elsewhere would let a type skip its check.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not the standard type its name says (a number, `bool`, or an `Option` of one)",
    label = "a type of the user's shadows the standard one of this name here",
    note = "wiremsg reads a field whose type is named `u64`, `bool`, `Option<u32>` and the like as that standard type; rename the type that shadows it, or write the standard one's full path (`::core::primitive::u64`, `::core::option::Option`)"
)]
pub trait PlainNumber: Field + plain_number::Sealed {}

mod plain_number {
    pub trait Sealed {}
}

macro_rules! plain_numbers {
    ($($t:ty),*) => {
        $(
            impl plain_number::Sealed for $t {}
            impl PlainNumber for $t {}
        )*
    };
}

plain_numbers!(
    bool, u8, u16, u32, u64, u128, i8, i16, i32, i64, i128, f32, f64
);

impl<T: PlainNumber> plain_number::Sealed for Option<T> {}
impl<T: PlainNumber> PlainNumber for Option<T> {}

/// Requires that `T` is a [`PlainNumber`]: the derive's assertion, one call per
/// field it reads as a primitive by its name.
#[inline(always)]
pub const fn plain_number<T: PlainNumber>() {}

/// `Field::check_value` of a message's field `name` at block offset `off`, its error
/// placed in the field: one call per field in the derived `__check` (but for the
/// [`PlainNumber`] fields, whose check always passes), rather than the same lines
/// expanded in every message.
#[inline(always)]
pub fn check_field<F: Field + ?Sized>(
    value: &F,
    depth: u32,
    off: usize,
    name: &'static str,
) -> Result<(), Error> {
    mir_inline_barrier!(&F);
    match value.check_value(depth) {
        Ok(()) => Ok(()),
        Err(e) => Err(e.shift(off).in_field(name)),
    }
}

/// Offset of a message's first field: after its `u16` block length, if it has one
/// (FORMAT.md §3). The derived `<FIELD>_OFFSET` constants count on from it.
#[inline(always)]
pub const fn first_offset<L: Layout>() -> usize {
    crate::layout::prefix::<L>()
}

/// Bytes field `F` takes in the block.
#[inline(always)]
pub const fn size_of<F: Field>() -> usize {
    <F::Kind as Kind>::BLOCK_SIZE
}

/// The schema of a field of type `F` named `name`, its slot at `offset`, added in
/// version `since`, neither reserved nor with a declared default: an entry of the
/// derived `WireMsg::SCHEMA`. One call per field rather than a struct literal, whose
/// type checking was about a twentieth of a derived crate's compile time (`benches/
/// compile-time`).
#[inline(always)]
pub const fn field_schema<F: Field>(name: &'static str, offset: usize, since: u16) -> FieldSchema {
    FieldSchema {
        name: Cow::Borrowed(name),
        offset,
        size: <F::Kind as Kind>::BLOCK_SIZE,
        ty: crate::schema::Node::Static(F::TYPE),
        since,
        reserved: false,
        default: None,
    }
}

/// Writes field `F` at block offset `off`; its tail data goes at `*cursor` in `tail`,
/// and its end offset is `block_len + *cursor` afterwards (FORMAT.md §3). The
/// slice form of [`append_field`], for tuples and union payloads.
#[inline(always)]
pub fn write_field<F: Field>(
    value: &F,
    block: &mut [u8],
    off: usize,
    tail: &mut [u8],
    cursor: &mut usize,
    block_len: usize,
) {
    mir_inline_barrier!(F);
    let mut out = Out::over(tail.get_mut(*cursor..).unwrap_or_default());
    append_field(value, block, off, &mut out, block_len + *cursor);
    *cursor += out.len();
}

/// Writes field `F` at block offset `off`, its tail data appended to `tail` (which
/// starts at the end of the block), its end offset `block_len + tail.len()`
/// afterwards (FORMAT.md §3).
#[inline(always)]
pub fn append_field<F: Field>(
    value: &F,
    block: &mut [u8],
    off: usize,
    tail: &mut Out<'_>,
    block_len: usize,
) {
    mir_inline_barrier!(F);
    let size = <F::Kind as Kind>::BLOCK_SIZE;
    let Some(part) = block.get_mut(off..off + size) else {
        return;
    };
    if <F::Kind as Kind>::IN_TAIL {
        value.append_tail(part, tail);
        write_u32(part, size - 4, (block_len + tail.len()) as u32);
    } else {
        value.write(part, &mut []);
    }
}

/// `WireMsg::__append` of a message: its block of `block_len` bytes (with the block
/// length field first if `has_tail`), fields written by `fields` into the block and
/// the tail after it.
#[inline(always)]
pub fn append_message<W: FnOnce(&mut [u8], &mut Out<'_>)>(
    out: &mut Out<'_>,
    block_len: usize,
    has_tail: bool,
    fields: W,
) {
    mir_inline_barrier!(W);
    out.with_block(block_len, |block, tail| {
        if has_tail {
            write_u16(block, 0, block_len as u16);
        }
        fields(block, tail)
    })
}

/// `Field::append_tail` of a message type.
#[inline(always)]
pub fn append_message_tail<T: WireMsg>(value: &T, block: &mut [u8], tail: &mut Out<'_>) {
    mir_inline_barrier!(T);
    if <T::Kind as Kind>::IN_TAIL {
        value.__append(tail)
    } else {
        value.__write(block)
    }
}

/// `Field::append_split` of a message type: an element of a split list (FORMAT.md
/// §6.3), its block (with its block length field) into `block`, its tail data
/// appended to `tail`.
#[inline(always)]
pub fn append_message_split<T: WireMsg>(value: &T, block: &mut [u8], tail: &mut Out<'_>) {
    mir_inline_barrier!(T);
    write_u16(block, 0, block.len() as u16);
    value.__append_block(block, tail)
}

/// The default `Field::append_split`: the value's whole encoding (a message or
/// tuple with a tail: its block, then its tail data, end offsets from its start)
/// written to a scratch buffer, then split. A split element's end offsets count as
/// if its block were right before its tail, so the numbers are the same.
pub(crate) fn append_split_copied<F: Field + ?Sized>(
    value: &F,
    block: &mut [u8],
    tail: &mut Out<'_>,
) {
    let mut scratch = alloc::vec![0u8; value.tail_len()];
    value.write(&mut [], &mut scratch);
    let at = block.len().min(scratch.len());
    block[..at].copy_from_slice(&scratch[..at]);
    tail.append(&scratch[at..]);
}

/// Writes a message's block length field and returns its block and tail buffers.
#[inline(always)]
pub fn split_message(out: &mut [u8], block_len: usize, has_tail: bool) -> (&mut [u8], &mut [u8]) {
    let at = block_len.min(out.len());
    let (block, tail) = out.split_at_mut(at);
    if has_tail {
        write_u16(block, 0, block_len as u16);
    }
    (block, tail)
}

/// `Field::write` of a message type.
#[inline(always)]
pub fn write_message<T: WireMsg>(value: &T, block: &mut [u8], tail: &mut [u8]) {
    mir_inline_barrier!(T);
    if <T::Kind as Kind>::IN_TAIL {
        value.__write(tail)
    } else {
        value.__write(block)
    }
}

/// `Default` with a lifetime, so that a bound on it is decided where it is used (the
/// decoding of a field added in a later version needs its type's `Default`). Not a
/// supertrait of `Default`: the compiler would then decide the bound where the
/// derive declares it, and refuse a message whose later field has no `Default` even
/// if it is never decoded.
pub trait DefaultFor<'v>: Sized {
    /// `Default::default()`.
    fn default_for() -> Self;
}

impl<T: Default> DefaultFor<'_> for T {
    #[inline(always)]
    fn default_for() -> T {
        T::default()
    }
}

/// `Clone` with a lifetime, so that a bound on it is decided where it is used: the
/// `From<&Owned>` of a borrowed twin (`#[wire(borrowed = ..)]`) needs its other
/// fields `Clone`, and a twin of a message with a field that is not must still
/// compile (without the conversion).
pub trait CloneFor<'a>: Sized {
    /// `Clone::clone`.
    fn clone_for(&self) -> Self;
}

impl<T: Clone> CloneFor<'_> for T {
    #[inline(always)]
    fn clone_for(&self) -> T {
        self.clone()
    }
}

pub use crate::trust::shape::enums::{EnumValues, enum_values};

/// `Field::write` of an enum type.
#[inline(always)]
pub fn write_enum<E: WireEnum>(value: E, block: &mut [u8]) {
    value.to_raw().write(block, &mut []);
}

/// A field type that is a message, for the `<field>_mut()` accessor of a field whose
/// type the derive cannot see into (the lifetime keeps the bound from being decided
/// when the accessor is declared, so that enum fields get no error).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a nested message",
    note = "enum fields are overwritten with `set_<field>`"
)]
pub trait MsgField<'v>: Field {
    /// The message's mutable view.
    type Mut<'m>;

    /// The mutable view of field `I` of a message, which every version has.
    fn nested<'m, L: Layout, I>(message: &'m mut ValidatedMut<'_, L>) -> Self::Mut<'m>
    where
        L::Fields: At<I, Ty = Self>;

    /// The mutable view of field `I` of a message, if the writer's version had it.
    fn try_nested<'m, L: Layout, I>(message: &'m mut ValidatedMut<'_, L>) -> Option<Self::Mut<'m>>
    where
        L::Fields: At<I, Ty = Self>;
}

impl<T: Field> MsgField<'_> for T
where
    T::Kind: NestedKind,
{
    type Mut<'m> = <T::Kind as NestedKind>::Mut<'m>;

    #[inline(always)]
    fn nested<'m, L: Layout, I>(message: &'m mut ValidatedMut<'_, L>) -> Self::Mut<'m>
    where
        L::Fields: At<I, Ty = T>,
    {
        message.nested::<I>()
    }

    #[inline(always)]
    fn try_nested<'m, L: Layout, I>(message: &'m mut ValidatedMut<'_, L>) -> Option<Self::Mut<'m>>
    where
        L::Fields: At<I, Ty = T>,
    {
        message.try_nested::<I>()
    }
}

/// Validates `bytes` as a `T` checking each string on its own, as `view` does when the
/// batched check fails: for tests that compare the two. Makes no view.
///
/// # Errors
///
/// Any error of validation.
pub fn validate_per_string<T: WireMsg>(bytes: &[u8]) -> Result<(), Error> {
    crate::validated::validate_message::<T::Layout, crate::mode::Checked>(
        bytes,
        &crate::mode::Checked,
        0,
    )
}

/// The bytes a schema records for a field's declared default (`#[wire(default = ..)]`).
pub fn default_bytes<F: Field>(view: crate::ViewOf<'_, F>) -> Option<Vec<u8>> {
    <F::Kind as Kind>::default_bytes(crate::mode::sealed::INTERNAL, view)
}

/// Expands its items when the runtime has feature `serde`, and to nothing otherwise:
/// the derive's serde code depends on the runtime's features, not the user crate's.
#[cfg(feature = "serde")]
#[doc(hidden)]
#[macro_export]
macro_rules! __wiremsg_serde_if {
    ($($item:tt)*) => { $($item)* };
}

/// Expands its items when the runtime has feature `serde`, and to nothing otherwise.
#[cfg(not(feature = "serde"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __wiremsg_serde_if {
    ($($item:tt)*) => {};
}

pub use crate::__wiremsg_serde_if as serde_if;

/// The name of a derived message's `Field::TYPE` (`""` for any other type): how a
/// union names a payload that is an instantiation of a generic message.
pub const fn type_name(ty: &'static TypeSchema) -> &'static str {
    match ty {
        TypeSchema::Message(MessageRef {
            name: Cow::Borrowed(name),
            ..
        }) => name,
        _ => "",
    }
}

/// The name of a message schema the derive wrote (`""` for one made at run time), for
/// the constant checks of `#[derive(WireUnion)]`.
pub const fn message_name(schema: &'static MessageSchema) -> &'static str {
    match &schema.name {
        Cow::Borrowed(name) => name,
        Cow::Owned(_) => "",
    }
}

/// `a == b`, in constant expressions.
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
