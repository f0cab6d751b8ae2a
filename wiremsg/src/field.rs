//! The traits that give each field type its wire layout.
//!
//! A field type names its [`Kind`]: one of a closed set of wire shapes that only this
//! crate defines (numbers, text, lists, options, arrays, messages, enums). Validation
//! and every read of a validated view go through the kind, never through code a user
//! (or the derive) wrote, so that what validation proved and what a read relies on
//! come from one place: no implementation of these traits outside this crate can make
//! a view over bytes that were not validated for it.

use crate::mode::sealed::Internal;
pub use crate::trust::shape::Kind;
use crate::{Error, TypeSchema};
use core::fmt::Debug;

/// A type that can be a field of a `WireMsg` struct.
///
/// Implemented by this crate for the supported types and by the derives for messages
/// and enums. The wire shape comes from [`Field::Kind`], which only this crate can
/// define; the methods here only encode.
///
/// ```
/// use wiremsg::{Field, FixedStr, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Tick { price: i64, venue: String }
///
/// assert_eq!((<u32 as Field>::BLOCK_SIZE, <u32 as Field>::IN_TAIL), (4, false));
/// assert_eq!(<FixedStr<8> as Field>::BLOCK_SIZE, 8);
/// assert_eq!((<String as Field>::BLOCK_SIZE, <String as Field>::IN_TAIL), (4, true)); // end offset
/// assert_eq!(<Option<u16> as Field>::BLOCK_SIZE, 3); // presence byte, value
/// assert!(<Tick as Field>::IN_TAIL); // a message with a tail nests in the tail
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a wire type, so it cannot be a field of a wiremsg message",
    label = "not a wire type",
    note = "a C-like enum: add `#[derive(WireEnum)]` and `#[repr(u8)]` (or `u16`, `u32`, `u64`); a struct: add `#[derive(WireMsg)]`; an enum with data: add `#[derive(WireUnion)]` and `#[repr(u8)]`",
    note = "a type of another crate (`std::time::Duration`) has no wire form: store it as a number (`u64` of nanoseconds) or wrap it in a `#[derive(WireMsg)]` struct",
    note = "`usize` and `isize`, also behind a type alias, have no fixed width on the wire: use `u32` or `u64` (`i32` or `i64`); a `char`: `u32`"
)]
pub trait Field {
    /// The field's wire shape (sealed: one of this crate's kinds).
    type Kind: Kind;
    /// The schema descriptor of the type.
    const TYPE: &'static TypeSchema;
    /// As much of [`TYPE`](Self::TYPE) as names the type: what the name of a generic
    /// message's instantiation is made of (`Seq_Expr`, FORMAT.md §11). A union's has no
    /// variants: a payload that holds the union by a type argument (`Expr::Seq(Seq<Expr>)`)
    /// is named while the union's variants are built, so naming it by the whole schema
    /// was a cycle of constants (E0391). Types that hold another type name it by that
    /// type's `__NAME_TYPE`.
    #[doc(hidden)]
    const __NAME_TYPE: &'static TypeSchema = Self::TYPE;
    /// Bytes the field takes in the block of the message that holds it: its value for
    /// a fixed-size type, or its slot (ending in a `u32` tail end offset) for a type
    /// with tail data.
    const BLOCK_SIZE: usize = <Self::Kind as Kind>::BLOCK_SIZE;
    /// True if the field keeps data in the tail (strings, byte strings, lists, nested
    /// messages with a tail).
    const IN_TAIL: bool = <Self::Kind as Kind>::IN_TAIL;
    /// True if the Rust value is, byte for byte, the field's block on this target:
    /// `size_of::<Self>()` equals `BLOCK_SIZE`, every byte of the value is a byte of
    /// a number or `bool` of it at its wire offset, and every block validation
    /// accepts is a valid value. Lists of such types are encoded and decoded by one
    /// copy. Numbers (little-endian targets), `bool`, arrays of plain types, and
    /// fixed-size messages whose fields are plain and at their wire offsets in the
    /// Rust struct (the derive proves it with `offset_of!`). No by default; yes only
    /// through `unsafe` ([`Plain::promise`](crate::__private::Plain::promise)).
    #[doc(hidden)]
    const PLAIN: crate::plain::Plain<Self> = crate::plain::Plain::NO;

    /// Bytes of tail data the field encodes to (0 for fixed-size types).
    #[doc(hidden)]
    fn tail_len(&self) -> usize;

    /// Checks that the value can be encoded as it is: each list within its declared
    /// maximum length (`#[wire(max_len = N)]`), each number with a null sentinel
    /// (`#[wire(null = ...)]`) other than that sentinel, each nested block within
    /// [`MAX_DEPTH`](crate::MAX_DEPTH) (`depth` is that of the message holding the
    /// field, counted as validation counts it: `DepthLimitExceeded` for a value whose
    /// bytes no reader would accept). Encoding calls it once, before it writes
    /// anything, so that writing recurses at most `MAX_DEPTH` levels; the error's path
    /// names the field, and its offset is the field's slot in the innermost message
    /// that holds it.
    #[doc(hidden)]
    #[inline(always)]
    fn check_value(&self, depth: u32) -> Result<(), Error> {
        let _ = depth;
        Ok(())
    }

    /// Writes the field: `block` is its block bytes (for a tail field, the last 4
    /// bytes, the end offset, are written by the message), `tail` is exactly
    /// `tail_len()` bytes.
    #[doc(hidden)]
    fn write(&self, block: &mut [u8], tail: &mut [u8]);

    /// Writes the field with its tail data appended to `tail`: `block` is as for
    /// [`write`](Self::write); the tail data is `tail_len()` bytes. By default the
    /// tail is zero-filled and then written; text, lists of plain elements, table
    /// lists and messages append their bytes directly, without the fill.
    #[doc(hidden)]
    #[inline(always)]
    fn append_tail(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>) {
        let len = self.tail_len();
        self.write(block, tail.zeroed(len));
    }

    /// Writes the value as an element of a split list (FORMAT.md §6.3), for a type
    /// whose kind lays lists out so (a message or tuple with a tail): `block` is the
    /// element's block (its block length bytes), zeroed; its tail data is appended to
    /// `tail`, end offsets counted as if the block were right before the tail. By
    /// default through a scratch copy of the whole encoding; messages and tuples
    /// write in place.
    #[doc(hidden)]
    fn append_split(&self, block: &mut [u8], tail: &mut crate::plain::Out<'_>) {
        crate::__private::append_split_copied(self, block, tail)
    }
}

/// What an accessor of a validated view returns for a field of type `F`: `u64` for
/// `u64`, `&'v str` for `String`, `&str` and `FixedStr<N>`, `&'v [u8]` for bytes, a
/// [`List`](crate::List) for other lists, the nested message's view for a message.
///
/// ```
/// use wiremsg::{FixedStr, List, ViewOf};
///
/// let _: ViewOf<'static, u64> = 7u64;
/// let _: ViewOf<'static, String> = "text";
/// let _: ViewOf<'static, FixedStr<8>> = "AAPL";
/// let _: ViewOf<'static, Vec<u8>> = &[1u8, 2][..];
/// let _: ViewOf<'static, Vec<i64>> = List::<i64>::default();
/// let _: ViewOf<'static, Option<u32>> = Some(1u32);
/// ```
pub type ViewOf<'v, F> = <<F as Field>::Kind as Kind>::View<'v>;

/// A field type whose owned value can be rebuilt from its view.
///
/// `'v` is the lifetime of the bytes: borrowed types (`&'v str`, `&'v [u8]`, structs
/// with borrowed fields) decode without copying. `&'v [T]` of other element types
/// cannot (their elements are converted from little-endian bytes), so a struct with
/// such a field can be viewed but not decoded: use `Vec<T>` for decoding.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be decoded from the bytes it views",
    note = "a `&'static str` field never decodes (decoding borrows from the bytes): use `String`, or `&'a str` with the message generic over `'a`",
    note = "a borrowed slice `&[T]` decodes only for `T = u8`; use `Vec<T>` in the type you decode into",
    note = "a message holding a list, map or box of a message that cannot decode (one with a `&'static str` field) cannot decode either: mark it (or the union) `#[wire(no_decode)]`"
)]
///
/// ```
/// use wiremsg::{DecodeField, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Login<'a> { user: &'a str, token: Vec<u8> }
///
/// let bytes = Login { user: "ann", token: vec![1, 2] }.to_bytes().unwrap();
/// let login = Login::decode(&bytes).unwrap(); // `user` borrows from `bytes`
/// assert_eq!(login, Login { user: "ann", token: vec![1, 2] });
/// assert_eq!(<u16 as DecodeField>::decode_view(7), 7);
/// ```
pub trait DecodeField<'v>: Field + Sized {
    /// The owned (or borrowed from the same bytes) value of a view.
    fn decode_view(view: ViewOf<'v, Self>) -> Self;

    /// Bytes that decoding `view` allocates on the heap (list buffers, string bytes),
    /// saturating: what [`WireMsg::decode`](crate::WireMsg::decode) checks against
    /// its budget before it allocates anything.
    #[doc(hidden)]
    #[inline(always)]
    fn decoded_size(_view: ViewOf<'v, Self>) -> usize {
        0
    }
}

/// A field type that can be a list element (`Vec<T>` or `&[T]`).
///
/// ```
/// use wiremsg::{Element, List, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Batch { ids: Vec<u32>, raw: Vec<u8> }
///
/// let bytes = Batch { ids: vec![4, 5], raw: vec![9] }.to_bytes().unwrap();
/// let view = Batch::view(&bytes).unwrap();
/// let ids: <u32 as Element>::ListView<'_> = view.ids(); // a List
/// let raw: <u8 as Element>::ListView<'_> = view.raw(); // bytes are a slice
/// assert_eq!((ids.get(1), raw), (Some(5), &[9u8][..]));
/// let _: List<'_, u32> = ids;
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an element of a wiremsg list or array",
    label = "not a wire type",
    note = "a C-like enum: add `#[derive(WireEnum)]` and `#[repr(u8)]` (or `u16`, `u32`, `u64`); a struct: add `#[derive(WireMsg)]`; an enum with data: add `#[derive(WireUnion)]` and `#[repr(u8)]`",
    note = "a type of another crate (`std::time::Duration`) has no wire form: store it as a number (`u64` of nanoseconds) or wrap it in a `#[derive(WireMsg)]` struct",
    note = "`usize` and `isize`, also behind a type alias, have no fixed width on the wire: use `u32` or `u64` (`i32` or `i64`); a `char`: `u32`"
)]
pub trait Element: Field + Sized {
    /// What a list accessor returns: `&[u8]` for bytes, [`List`](crate::List) otherwise.
    type ListView<'v>: Copy + Debug;
    /// Wraps a validated list as the list accessor's type.
    #[doc(hidden)]
    fn list_view<'v>(list: crate::List<'v, Self>) -> Self::ListView<'v>;
    /// Unwraps a list accessor's value back into a [`List`](crate::List).
    #[doc(hidden)]
    fn list_of<'v>(view: Self::ListView<'v>) -> crate::List<'v, Self>
    where
        Self: 'v;
}

/// How a list's elements are laid out in its tail region (FORMAT.md §6).
///
/// ```
/// use wiremsg::{Field, Kind, ListEncoding, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Level { price: i64, size: u32 }
///
/// fn encoding<T: Field>() -> ListEncoding {
///     <T::Kind as Kind>::LIST_ENCODING
/// }
/// assert_eq!(encoding::<i64>(), ListEncoding::Packed);
/// assert_eq!(encoding::<Level>(), ListEncoding::Strided); // fixed-size message
/// assert_eq!(encoding::<String>(), ListEncoding::Table);
///
/// #[derive(WireMsg, Debug)]
/// struct Venue { code: u8, name: String }
/// assert_eq!(encoding::<Venue>(), ListEncoding::Split); // a message with a tail
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListEncoding {
    /// Elements of a fixed-size type that never changes size (numbers, enums, text),
    /// back to back; the count is the byte length divided by the element size.
    Packed,
    /// Fixed-size messages after a `u16` stride, so that a reader of another version
    /// steps over elements of another block length.
    Strided,
    /// Messages and tuples with a tail (FORMAT.md §6.3): each element's `u32` tail
    /// start and block side by side at one stride (4 + the elements' block length),
    /// then the elements' tail data; the first tail start, divided by the stride, is
    /// the count. A fixed-size field of element `i` is one load at `i * stride`.
    Split,
    /// Other elements with tail data (strings, lists, unions that are not
    /// fixed-size, maps; FORMAT.md §6.4): a table of `u32` start offsets (the first
    /// one, divided by 4, is the count), then the elements.
    Table,
    /// Fixed-size unions (FORMAT.md §6.8: no catch-all, every variant a unit or a
    /// message without a tail): a `u16` stride, a table of the variants' tags and
    /// block lengths, then the elements at the stride, each the index of its
    /// variant's entry and the payload's block. A field of element `i`'s payload is
    /// one load at a constant offset from `i * stride`, as in a strided list.
    Dense,
}

/// A fixed-size field type that a mutable view can overwrite in place
/// (`set_<field>`): numbers, `bool`, enums, [`FixedStr`](crate::FixedStr), fixed-size
/// messages (those whose fields are all of these, without `#[wire(block_length)]`),
/// and arrays and options of these.
///
/// `'v` only keeps the bound on a generated setter from being decided where the
/// setter is declared.
///
/// Implemented by this crate alone, through the field's [`Kind`]: the bytes it writes
/// are always a valid value of the field, so a mutable view stays valid after any
/// number of sets. (A message's encoding is checked by validation before it is
/// copied in, unless every byte pattern of its block is valid.)
///
/// ```
/// use wiremsg::{FixedStr, Scalar, WireMsg};
///
/// fn settable<'v, T: Scalar<'v>>() {}
/// settable::<u64>();
/// settable::<Option<[FixedStr<4>; 2]>>();
///
/// #[derive(WireMsg, Debug)]
/// struct Px { mantissa: i64, exponent: i8 }
/// settable::<Px>(); // a fixed-size message, as a whole
/// ```
pub trait Scalar<'v>: Field {
    /// Writes the value into its block bytes (at least `BLOCK_SIZE` of them); false
    /// if it wrote nothing (a message whose encoding did not validate).
    #[doc(hidden)]
    fn write_scalar(&self, _: Internal, block: &mut [u8]) -> bool;
}

impl<'v, F: Field> Scalar<'v> for F
where
    F::Kind: SetInPlace<'v, F>,
{
    #[inline(always)]
    fn write_scalar(&self, i: Internal, block: &mut [u8]) -> bool {
        <F::Kind as SetInPlace<'v, F>>::set(i, self, block)
    }
}

/// A fixed-size field type whose view is the value itself (numbers, `bool`, enums,
/// decimals, options of these): a mutable view updates it in one step,
/// `update_<field>(|v| ..)`, reading its bytes once and storing the new value
/// (`score *= 2` as `player.update_score(|s| s * 2)`), where a getter and a setter
/// would find the field twice.
///
/// ```
/// use wiremsg::{Update, WireMsg};
///
/// fn updatable<'v, T: Update<'v>>() {}
/// updatable::<u64>();
/// updatable::<bool>();
/// updatable::<Option<i32>>();
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Player { id: u32, score: u64 }
///
/// let mut bytes = Player { id: 1, score: 21 }.to_bytes().unwrap();
/// Player::view_mut(&mut bytes).unwrap().update_score(|s| s * 2);
/// assert_eq!(Player::decode(&bytes).unwrap(), Player { id: 1, score: 42 });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not updated in one step: its view is not the value itself",
    note = "`update_<field>` takes numbers, `bool`, enums, decimals and options of these; overwrite other fixed-size fields (`FixedStr`, arrays, nested messages) with `set_<field>`"
)]
pub trait Update<'v>: Scalar<'v> + Sized {
    /// The value, from its view (the same value).
    #[doc(hidden)]
    fn from_view(view: ViewOf<'_, Self>) -> Self;
}

impl<'v, F> Update<'v> for F
where
    F: Scalar<'v>,
    for<'x> F::Kind: Kind<View<'x> = F>,
{
    #[inline(always)]
    fn from_view(view: F) -> F {
        view
    }
}

/// A kind whose values of field type `F` can be written in place, always as valid
/// bytes: what makes `F` a [`Scalar`]. Implemented by this crate for its fixed-size
/// kinds, each for the field types it was made for (so a hand-made field type that
/// names a kind does not become settable).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{F}` is not a fixed-size field that can be set in place",
    note = "a nested message with variable-size data is changed through the `<field>_mut()` accessor, one field at a time; variable-length fields cannot be resized in place"
)]
pub trait SetInPlace<'v, F>: Kind {
    /// Writes `value` into its block bytes (at least `BLOCK_SIZE` of them); false if
    /// it wrote nothing.
    fn set(_: Internal, value: &F, block: &mut [u8]) -> bool;
}

/// A kind whose every value is fixed-size and inline: numbers, `bool`, text of fixed
/// width, enums, arrays and options of these, and messages made of them. What a
/// message needs to be set in place as a whole.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` keeps data in the tail, so a message with it cannot be set in place as a whole",
    note = "set its fixed-size fields one by one through the `<field>_mut()` accessor"
)]
pub trait FixedKind: Kind {}

/// `Element` for a type whose lists are viewed as [`List`](crate::List):
/// `list_element!([impl<..> Element for Type])`.
macro_rules! list_element {
    ([$($head:tt)*]) => {
        $($head)* {
            type ListView<'v> = $crate::List<'v, Self>;

            #[inline(always)]
            fn list_view<'v>(list: $crate::List<'v, Self>) -> $crate::List<'v, Self> {
                list
            }

            #[inline(always)]
            fn list_of<'v>(view: $crate::List<'v, Self>) -> $crate::List<'v, Self>
            where
                Self: 'v,
            {
                view
            }
        }
    };
}
pub(crate) use list_element;
