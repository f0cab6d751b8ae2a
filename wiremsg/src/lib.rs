//! Zero-copy wire messages from ordinary Rust structs.
//!
//! Add `#[derive(WireMsg)]` to a struct and get an explicit wire layout (the same bytes
//! on every target), a validated view over any `&[u8]` at any alignment, in-place
//! setters, and encoding that needs no allocation.
//!
//! ```
//! use wiremsg::{FixedStr, WireEnum, WireMsg};
//!
//! #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
//! #[repr(u8)]
//! enum Side {
//!     Buy = 0,
//!     Sell = 1,
//! }
//!
//! #[derive(WireMsg, Debug, PartialEq)]
//! struct Quote {
//!     symbol: FixedStr<8>,
//!     price: i64, // fixed point, 4 decimal places
//!     size: u32,
//!     side: Side,
//!     venue: String,
//! }
//!
//! let quote = Quote {
//!     symbol: FixedStr::new("AAPL").unwrap(),
//!     price: 2_345_600,
//!     size: 300,
//!     side: Side::Buy,
//!     venue: "XNAS".into(),
//! };
//! let mut bytes = quote.to_bytes().unwrap();
//!
//! let view = Quote::view(&bytes).unwrap(); // validates once
//! assert_eq!(view.symbol(), "AAPL");
//! assert_eq!(view.price(), 2_345_600);
//! assert_eq!(view.venue(), "XNAS");
//!
//! let mut edit = Quote::view_mut(&mut bytes).unwrap();
//! edit.set_size(500); // one store, in place
//! assert_eq!(Quote::decode(&bytes).unwrap().size, 500);
//! ```
//!
//! # Layout in five lines
//!
//! 1. Every number is little-endian; there is no padding and no alignment.
//! 2. A message is a **block** (fixed-size fields at constant offsets, in declaration
//!    order) followed by a **tail** (variable-size data).
//! 3. A message with a tail starts with its `u16` **block length**; each
//!    variable-size field has a 4-byte slot holding the `u32` **end offset** of its
//!    data, and its data starts where the previous one ended.
//! 4. Offsets are relative to the start of the message that holds them, so a nested
//!    message is position-independent.
//! 5. Lists of fixed-size elements are packed (messages after a `u16` stride); lists
//!    of messages with a tail are split: each element's `u32` tail start and block
//!    at one stride, the tails after the blocks; lists of other variable-size
//!    elements (text, lists, unions) start with a table of `u32` start offsets.
//!
//! The byte-level specification, with worked examples, is `FORMAT.md` at the root of
//! the repository.
//!
//! # Validation
//!
//! [`WireMsg::view`] checks everything once (lengths, offsets, UTF-8, `bool` and
//! enum values, list shapes, nesting depth up to [`MAX_DEPTH`]); after that the
//! accessors cannot fail and never panic. Every failure is an [`Error`] naming the
//! field path and byte offset. [`view_unchecked`] skips the checks for trusted bytes.
//!
//! [`WireMsg::view_lazy`] validates on demand instead: it checks the header alone, in
//! O(1), and each accessor of its view (`{Name}Lazy`) checks the bytes it reads with
//! the checks `view` runs for that field, and returns a `Result` with the error `view`
//! would give. A nested message is an on-demand view, a list a [`LazyList`] whose
//! elements are checked one by one as they are read, a map a [`LazyMap`] whose keys
//! are checked when it is read and each entry when that entry is; `to_view()` checks
//! the rest.
//!
//! # Views read in place
//!
//! (Every view reads each field only when asked; "on-demand" above is about
//! *checking* each field only when it is read.) An up-front view is two words: the
//! bytes and the proof that they passed validation. Each
//! accessor finds its own field in O(1) loads (a constant offset for a fixed-size
//! field; two end offsets for a tail field; one or two table entries for a list
//! element), so a reader pays only for the fields it reads, and a list element's view
//! costs nothing to obtain. [`WireMsg::view_unchecked`] is pointer arithmetic.
//!
//! # Soundness
//!
//! A view cannot be made over bytes that did not pass validation for its type, from
//! safe code anywhere, including code that implements this crate's public traits by
//! hand: a field type only *names* its wire shape (a [`Kind`], sealed), this crate
//! alone validates and reads each kind, and the proof of validation (that every view
//! holds) is made only by this crate, after it validated the bytes by the same
//! type-level layout that every read uses.
//!
//! Every fact the `unsafe` code relies on about a type comes from a sealed kind or
//! from a promise typed by that very type that only `unsafe` code can make. What each
//! public trait item is trusted with, and why a lying hand-written impl cannot reach
//! an `unsafe` read:
//!
//! | trait item | trusted by `unsafe`? | why a lie is harmless |
//! |---|---|---|
//! | `Field::Kind` | yes: it selects the validation and the reads | [`Kind`] is sealed: only this crate's kinds exist, and both validation and reads go through the same one |
//! | `Field::BLOCK_SIZE`, `Field::IN_TAIL` | no | copies of the kind's, for users to read; this crate reads the kind's (`tests/forge.rs`, `layout_constants_stated_by_a_field_type_are_never_read`) |
//! | `Field::PLAIN` | yes: lists are copied as memory on it | a `Plain<Self>`, invariant in its type, made only by the `unsafe` [`Plain::promise`](__private::Plain::promise): another type's promise does not type-check (`tests/ui/copied-plain-promise.rs`), and the derive makes it only where the compiler proved the layout in the same constant (`offset_of!`, `size_of`); its use also checks `size_of::<T>()` against the kind |
//! | `Field::tail_len`, `write`, `append_tail`, `check_value` | no | encoding only, through an output that never writes past its buffer and zero-fills what a lying impl leaves unwritten; readers validate what it wrote |
//! | `Kind`'s constants (`BLOCK_SIZE`, `IN_TAIL`, `CHECKS`, `LIST_ENCODING`, `MIN_ELEMENT_SIZE`, `SELF_DELIMITED`, `SPLIT_BLOCK`, `MIN_SPLIT_BLOCK`, `DENSE_TAG`, `DENSE_ENTRIES`, `DENSE_STRIDE`, `BYTE_BITS`, `LIST_BYTE_BITS`, `BYTE_CHECK`, `TAIL_TEXT`, `TAIL_TEXTLESS`) and methods (`validate`, `read`, `validate_split`, `read_split`, `validate_dense`, `read_dense`) | yes | sealed, and its hidden methods take a token only this crate can make |
//! | `Field::append_split` | no | encoding only, as `append_tail`: a split element's block and tail are validated like any element's when read |
//! | [`Update`] | no | implemented only where the kind's view is the value itself (`for<'x> Kind<View<'x> = Self>`); the value is stored through [`Scalar`], as a set is |
//! | `Element::ListView`, `list_view`, `list_of` | no | they only move a [`List`], which this crate alone makes, is invariant, and changes its element type only to one with the same layout or kind |
//! | `DecodeField::decode_view`, `decoded_size` | no | safe code over a view; `decoded_size` bounds only that type's own decoding budget |
//! | `WireMsg::Layout` | yes: validation and reads walk it | its `Fields` is a sealed list of leaves whose kinds are sealed; validation and every read of a view use the same layout type |
//! | `WireMsg::BLOCK_LENGTH`, `MIN_BLOCK_LENGTH`, `VERSION`, `SCHEMA` | no | headers, encoded lengths and schemas only; reads compute block lengths from the layout |
//! | `WireMsg::View`, `Mut` and the view constructors | no | a view is made from a `Validated` proof, which only validation (or the `unsafe` [`view_unchecked`]) makes |
//! | `Layout::FIELD_NAMES`, `BlockLengthField` | no / yes | names are for error paths (read with bounds checks); the flag is sealed (`Yes`, `No`) |
//! | `WireEnum::from_raw`, `to_raw`, `Repr` | validation only, with `__VALUES` | validation accepts a value only if `from_raw` knows it; without the derive's promise (`__VALUES`) reads map the value through `from_raw` too, and one that finds no variant returns a valid value (`__FALLBACK`); an in-place set writes `to_raw`'s value only if `from_raw` knows it; `Repr` is a sealed [`EnumRepr`] |
//! | `WireEnum::__VALUES` (hidden, the derive's) | yes: the range of wire values a dense list's validation accepts for a one-byte enum after one element of its variant passed (`ByteCheck`), and whether the values `from_raw` accepts are the enum's discriminants, so that a read takes the validated value as the enum's memory (`tests/enum_reads.rs`, under Miri) | an `EnumValues<Self>`, invariant in its type, made only by the `unsafe` `EnumValues::promise` (another type's promise does not type-check: `tests/ui/copied-enum-values.rs`). The derive promises discriminants only for a field-less enum under its `#[repr]`, whose values it takes from Rust itself (`Variant as u8`, which does not compile for an enum with fields); the read also checks that the enum has its repr's size |
//! | `MapKey::key_view` | no | lookups compare wire keys through the sealed key kinds; a lying `key_view` finds another entry or none |
//! | `UnionLayout`, `Variant::TAG`, `Variant::Payload`, `wrap` | payload: yes | payloads are sealed (`Unit`, `Carries`, `Raw`); validation and reads pick the variant by the same constant of the same type |
//! | [`Mode`], [`NullRepr`], [`Mantissa`], [`EnumRepr`] | — | sealed |
//!
//! Every public type that carries a kind or a proof about its type parameters (views,
//! lists, maps, arrays, their iterators and mutable forms, the proofs, the kinds, the
//! layout and variant lists, a derived generic message's views) is invariant in them:
//! under higher-ranked subtyping two types of different kinds can be subtypes, and a
//! covariant view would read bytes validated as one as the other. `tests/variance.rs`
//! holds one compile-fail case per such type and fails when a new public generic type
//! has neither a case nor a stated reason.
//!
//! Generated code holds three kinds of `unsafe` block: a derived fixed-size message's
//! `Plain<Self>`, under the condition that proves it, and a derived enum's
//! `EnumValues<Self>`, over values it takes from the compiler. [`view_unchecked`],
//! [`WireMsg::view_unchecked`] and, for a frame's message behind its header (checked),
//! [`view_unchecked_with_header`] are the `unsafe` fast path: their caller promises
//! the bytes would pass validation; a dispatch enum's `unsafe fn view_unchecked` and
//! `view_mut_unchecked` (derived) forward their caller's promise to the last two, for
//! the variant the header names: the third kind of `unsafe` block in generated code.
//!
//! # Streams
//!
//! On a byte stream each message travels as a [`frame`]: a `u32` little-endian
//! length, the 8-byte [`MessageHeader`], the message (`FORMAT.md` §10).
//! `FrameWriter` and `FrameReader` frame over `std::io`, with one reused buffer each
//! and a maximum frame size (1 MiB by default) that bounds what a reader allocates;
//! `frame::WireCodec` does the same for `tokio_util::codec`. A stream can describe
//! itself (§12): `FrameWriter::with_schema_frames` writes each type's schema once,
//! before its first message; readers with the types skip (or check) it, and
//! [`dynamic::SchemaRegistry`] reads the stream without them.
//!
//! # Cargo features
//!
//! | feature | default | adds |
//! |---|---|---|
//! | `std` | yes | `FrameReader`, `FrameWriter`, `ErrorKind::Io`, `From<std::io::Error>`, the schema snapshot helpers (`schema::check_snapshot`); without it the crate is `no_std` + `alloc` |
//! | `bytes` | no | `frame::put_frame` into any `bytes::BufMut` |
//! | `tokio-util` | no | `frame::WireCodec` (implies `std` and `bytes`) |
//! | `serde` | no | `Serialize` for every view (a message as JSON, straight from its bytes, as `dynamic`'s reader writes it), `Serialize` and `Deserialize` for the schema model (a schema as JSON) |
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(
    unsafe_code,
    missing_docs,
    missing_debug_implementations,
    rust_2018_idioms,
    unreachable_pub
)]

extern crate alloc;
// The derive's generated paths (`::wiremsg::...`) resolve inside this crate too: the
// schema encoding is itself a derived message (`schema/canonical.rs`).
extern crate self as wiremsg;
#[cfg(any(test, feature = "std"))]
extern crate std;

// The crate's layout shows its trust boundary (see "Soundness" above):
// - `trust/` holds every `unsafe` block and every type that carries a proof of
//   validation: the proofs and the unchecked reads, the type-level layout they read
//   by, each wire shape's validation and reads (`trust/shape/`), the memory copies
//   of plain lists, and the batched UTF-8 check. Its invariants are listed at its
//   top.
// - `kinds/` holds the field types, one file per wire shape: how each Rust type is
//   encoded and decoded. It uses the trust module's safe API and cannot break
//   soundness: `unsafe` is denied everywhere outside `trust/`.
#[macro_use]
mod inline_barrier; // first: its macro is used by the modules below
pub mod dynamic;
mod error;
mod field;
pub mod frame;
mod generic;
mod header;
pub mod kind;
mod kinds;
mod message;
mod primitives_le;
pub mod schema;
#[cfg(feature = "serde")]
mod serde_view;
#[allow(unsafe_code)]
mod trust;
mod view_fields;

use kinds::{array, decimal, fixed_str, list, map, null, tuple};
use trust::shape::union;
use trust::{batch, layout, lazy, lazy_map, mode, plain, scan, validated};

#[doc(hidden)]
pub mod __private;

pub use trust::validated::{
    view_mut_unchecked_with_header, view_unchecked, view_unchecked_with_header,
};

/// The wire format version this crate reads and writes (FORMAT.md, "Format
/// versions"): 3, whose lists of fixed-size unions are dense (§6.8). A schema (§11)
/// names the format of the bytes it describes; readers refuse older formats with
/// [`ErrorKind::UnsupportedFormat`].
///
/// ```
/// assert_eq!(wiremsg::FORMAT_VERSION, 3);
/// ```
pub const FORMAT_VERSION: u16 = 3;

/// The README's tour, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

pub use array::{ArrayIter, ArrayView};
pub use decimal::{Decimal, DecimalError, MAX_SCALE, Mantissa, Rounding};
pub use error::{Error, ErrorKind, Result};
pub use field::{DecodeField, Element, Field, Kind, ListEncoding, Scalar, Update, ViewOf};
pub use fixed_str::{FixedStr, FixedStrError};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use frame::{FrameReader, FrameWriter};
pub use header::{MessageHeader, Template, WithHeader};
pub use lazy::{LazyList, LazyListIter, LazyOf};
pub use lazy_map::LazyMap;
pub use list::{List, ListIter, ListIterMut, ListMut};
#[doc(hidden)]
pub use map::KeyKind;
pub use map::{MapKey, MapMut, MapView};
pub use message::{EnumRepr, MAX_DEPTH, WireEnum, WireMsg, decode_budget};
pub use mode::Mode;
pub use null::NullRepr;
pub use schema::{
    DefaultValue, EnumSchema, FieldSchema, Fingerprint, MessageRef, MessageSchema, Name, Node,
    SchemaSet, TypeSchema, UnionSchema, UnionVariantSchema, VariantSchema,
};
pub use union::{NestedMut, UnionLazy, UnionMut, UnionView, WireUnion};
pub use validated::MutOf;

/// Derives [`WireMsg`](trait@WireMsg) for a struct with named fields.
///
/// The struct's fields, in declaration order, become the message's block and tail
/// (see [Layout](#layout)); the derive generates the view `{Name}View<'v>`, the
/// mutable view `{Name}Mut<'v>`, the on-demand view `{Name}Lazy<'v>` and the trait
/// impls (see
/// [Generated items](#generated-items)). The struct may have lifetime parameters
/// (for `&'a str` and `&'a [T]` fields) and type parameters bounded by the wire
/// traits (see [Generic messages](#generic-messages)), not const parameters.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Fill {
///     order: u64,
///     qty: u32,
///     venue: String,
/// }
///
/// let bytes = Fill { order: 7, qty: 100, venue: "XNAS".into() }.to_bytes()?;
/// let fill = Fill::view(&bytes)?;
/// assert_eq!((fill.order(), fill.qty(), fill.venue()), (7, 100, "XNAS"));
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Attributes
///
/// All in `#[wire(...)]`; several keys may share one attribute, separated by commas.
/// An unknown key is a compile error that lists the known ones.
///
/// On the struct:
///
/// | attribute | what it does |
/// |---|---|
/// | `version = N` | the message's current schema version, 1 to 65,535 (default 1; FORMAT.md §5); needed by any `since` above 1 |
/// | `template_id = N` | the id a [`MessageHeader`] carries: implements [`Template`] (`encode_with_header`, `view_with_header`, `view_mut_with_header`, framing) and lets the type be a [`WireDispatch`](derive@WireDispatch) variant |
/// | `schema_id = N` | the schema the template id belongs to (default 0; with `template_id`) |
/// | `block_length` | the message starts with its `u16` block length even without a variable-size field, so that a later version may add one (a format change of version 1; FORMAT.md §5, E9) |
/// | `no_decode` | no [`DecodeField`] impl and no `decode` (on its borrowed twin too): the message is viewed and encoded only. A message with a `&'static str` field is so without it; one that holds a list, map or box of such a message needs it (lists, maps and boxes are where a message may hold itself, so the derive cannot make their decoding conditional, as it does for a field of a message that cannot decode) |
///
/// On a field:
///
/// | attribute | what it does |
/// |---|---|
/// | `since = N` | the version that added the field (default 1), at most `version`, never lower than an earlier field's: older bytes read without it, as its default, and the views add `try_<field>()` and `has_<field>()` |
/// | `default = expr` | with `since`: what the field reads as when the writer did not have it, an expression of the accessor's type (default: `Default::default()`, zeros for an array; a nested message has no default view: read it with `try_<field>()`) |
/// | `reserved` | a removed field: its slot stays, written as its type's default, with no accessor |
///
/// `version`, `since` and `default`: a version-2 reader of version-1 bytes.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(version = 3)]
/// struct NewOrder {
///     id: u64,
///     #[wire(since = 2, default = 1)] // time in force: "day" unless the writer says
///     tif: u8,
///     #[wire(since = 3)]
///     min_qty: Option<u32>,
/// }
///
/// let bytes = [7, 0, 0, 0, 0, 0, 0, 0]; // a version-1 writer: id 7
/// let order = NewOrder::view(&bytes)?;
/// assert_eq!((order.id(), order.tif(), order.has_tif(), order.version()), (7, 1, false, 1));
/// assert_eq!((order.try_min_qty(), order.min_qty()), (None, None));
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// `template_id` and `schema_id`: the 8-byte header in front of the message.
///
/// ```
/// use wiremsg::{Template, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 12, schema_id = 1)]
/// struct Cancel {
///     id: u64,
/// }
///
/// let mut bytes = Vec::new();
/// Cancel { id: 9 }.encode_with_header(&mut bytes)?;
/// assert_eq!(bytes[..8], [8, 0, 12, 0, 1, 0, 1, 0]); // block length, template, schema, version
/// assert_eq!((Cancel::TEMPLATE_ID, Cancel::SCHEMA_ID), (12, 1));
/// assert_eq!(Cancel::view_with_header(&bytes)?.1.id(), 9);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// `block_length`: a fixed-size message that may gain a string later.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(block_length)]
/// struct Alert {
///     code: u32,
/// }
///
/// assert_eq!(Alert { code: 7 }.to_bytes()?, [6, 0, 7, 0, 0, 0]); // block length 6, code
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// `no_decode`: a message that holds a list of encode-only messages.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Label { text: &'static str } // encode-only: no `decode`
///
/// #[derive(WireMsg, Debug)]
/// #[wire(no_decode)] // without it: "`Label` cannot be decoded from the bytes it views"
/// struct Labels { all: Vec<Label> }
///
/// let bytes = Labels { all: vec![Label { text: "bid" }] }.to_bytes()?;
/// assert_eq!(Labels::view(&bytes)?.all().get(0).map(|l| l.text()), Some("bid"));
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// `reserved`: a field that was removed keeps its bytes.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Quote {
///     price: i64,
///     #[wire(reserved)]
///     old_flags: u8, // written as 0; no accessor
///     size: u32,
/// }
///
/// let bytes = Quote { price: 1, old_flags: 5, size: 2 }.to_bytes()?;
/// assert_eq!(bytes[8], 0);
/// assert_eq!(Quote::view(&bytes)?.size(), 2);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Generated items
///
/// For `struct Order { .. }`, in the same module and with the same visibility, every
/// item documented. The accessors and setters of the views are `pub` whatever the
/// visibility of their fields: the bytes carry every field, and anyone holding them
/// can read it (keep a field out of the message, not private, to keep it off the
/// wire).
///
/// | item | what it is |
/// |---|---|
/// | `impl WireMsg for Order` | `BLOCK_LENGTH`, `MIN_BLOCK_LENGTH`, `VERSION`, `SCHEMA`; `view`, `view_lazy`, `view_mut`, `view_unchecked`, `view_mut_unchecked`, `decode`, `decode_with_budget`, `encode`, `encode_into`, `encoded_len`, `to_bytes` |
/// | `impl Template for Order` | with `template_id`: `TEMPLATE_ID`, `SCHEMA_ID`, `header`, `encode_with_header`, `encode_with_header_into`, `view_with_header`, `view_mut_with_header`; and so [`WithHeader`] (framing) |
/// | `OrderView<'v>` | the validated view (two words, `Copy`, `Debug`, `PartialEq`) |
/// | `OrderMut<'v>` | the mutable view (`Debug`) |
/// | `OrderLazy<'v>` | the on-demand view ([`WireMsg::view_lazy`]; `Clone`, `Send`, `Debug`, `PartialEq`, `Serialize` with feature `serde`; not `Copy` or `Sync`: an element of a split list keeps its tail's bounds once checked): `x()` returns `Result<LazyOf<'v, X>, Error>`, checking what it reads; for `since` fields `try_x()` (`Result<Option<_>, _>`), `has_x()`, and `x()` for numbers, `bool` and options of them; `to_view()` validates the rest and returns the `OrderView` |
/// | `impl PartialEq<OrderView<'_>> for Order` and back | an owned value compared with a view (it is encoded, then viewed) |
/// | `impl Field`, `Element`, `DecodeField` | so that `Order` nests in other messages and lists |
/// | private imports: `::wiremsg as __wiremsg_Order`, `::wiremsg::__private as __wiremsg_p_Order`, its `Left`, `Right`, `Here` as `__WiremsgL_Order`, `__WiremsgR_Order`, `__WiremsgH_Order`, and three hidden traits as `_` | the short names the generated code uses for the runtime, of its own per message (imports of distinct names never conflict, and a user's `use super::*` is not counted as used by them). Names beginning `__wiremsg` or `__Wiremsg` are the derive's: an item of the user's of one of these names would take the import's place |
///
/// `OrderView<'v>` has, for each field `x` (except `reserved` ones):
///
/// | method | returns |
/// |---|---|
/// | `x()` | the field's value, read in place in O(1) (for a `since` field on older bytes: its default) |
/// | `try_x()` | `since` fields only: `Some(value)`, or `None` if the writer's version did not have it |
/// | `has_x()` | `since` fields only: true if the writer's version had it |
/// | `X_OFFSET`, `X_SIZE` | constants: the field's offset from the start of the message and its bytes in the block |
///
/// and `version()` (the newest version whose fields the bytes hold, up to this
/// reader's), `as_bytes()` (an `Option` of the message's bytes as far as this reader
/// knows them: `None` for an element of a list whose block and tail are apart) and
/// `decode()` (the owned value; not for a struct with `&'static` fields).
///
/// Accessors return: numbers, `bool` and enums by value; `&'v str` for `String`,
/// `&str` and `FixedStr<N>`; `&'v [u8]` for `Vec<u8>` and `&[u8]`; a [`List`] for other
/// lists; an [`ArrayView`] for arrays; `Option<_>` of the inner view for options; the
/// nested message's view for nested messages ([`ViewOf`] names these types, and the
/// signatures name them where the field's type says it).
///
/// `OrderMut<'v>` has the same getters (borrowing the mutable view), `version()`,
/// `as_bytes()`, `as_view()` (the read-only view), and for each field `x`:
///
/// | method | what it does |
/// |---|---|
/// | `set_x(value)` | numbers, `bool`, enums, `FixedStr`, fixed-size nested messages (whole), arrays and options of these: overwrites the field in place (one store for a number). For a `since` field it returns a `#[must_use]` `bool`: false when the writer's version did not have the field, and nothing is written |
/// | `x_mut()` | a nested message: its mutable view (for a `since` field, an `Option` of it); a list: a [`ListMut`] (`get`, `set`, `get_mut`, `iter_mut`) |
///
/// Variable-size fields keep their length: text and lists cannot be resized in place.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
/// struct Px {
///     mantissa: i64,
///     exponent: i8,
/// }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(version = 2)]
/// struct Order {
///     id: u64,
///     px: Px,
///     fills: Vec<u32>,
///     #[wire(since = 2)]
///     min_qty: u32,
/// }
///
/// let order = Order { id: 1, px: Px { mantissa: 1005, exponent: -1 }, fills: vec![5, 6], min_qty: 0 };
/// let mut bytes = order.to_bytes()?;
/// assert_eq!((OrderView::PX_OFFSET, OrderView::PX_SIZE), (10, 9)); // after the block length and id
///
/// let mut edit = Order::view_mut(&mut bytes)?;
/// edit.set_px(Px { mantissa: 1010, exponent: -1 }); // a whole nested message
/// edit.px_mut().set_exponent(-2); // or one of its fields
/// assert!(edit.fills_mut().set(1, &7)); // false past the end: nothing written
/// assert!(edit.set_min_qty(3)); // the writer had version 2
/// assert_eq!(edit.as_view().version(), 2);
///
/// let view = Order::view(&bytes)?;
/// assert_eq!(view.px(), Px::view(&Px { mantissa: 1010, exponent: -2 }.to_bytes()?)?);
/// assert_eq!(view.fills(), [5u32, 7][..]);
/// assert!(view == Order { id: 1, px: Px { mantissa: 1010, exponent: -2 }, fills: vec![5, 7], min_qty: 3 });
/// assert_eq!(view.decode(), Order::decode(&bytes)?);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// Borrowed field types (`&'a str`, `&'a [T]`) encode exactly like their owned twins
/// (`String`, `Vec<T>`), so hot paths can encode without allocating. A struct with a
/// `&'a [T]` field of `T` other than `u8` can be viewed and encoded but not decoded.
///
/// The generated code compiles in crates with `#![forbid(unsafe_code)]` and
/// `#![no_implicit_prelude]` (its one `unsafe` block, a fixed-size message's
/// `Plain<Self>`, is made under the compiler-checked layout; see
/// [Soundness](crate#soundness)); raw identifiers
/// (`r#type`) work as field names (the accessor is `r#type()`, constants `TYPE_OFFSET`).
///
/// # Layout
///
/// Fields are laid out in declaration order, little-endian, without padding or
/// alignment (see the [crate docs](crate) and `FORMAT.md`). A struct whose fields are
/// all fixed-size is encoded as its block alone; `{u8, i32, u8}` is 6 bytes. A struct
/// with a variable-size field starts with its `u16` block length, and each such field
/// has a 4-byte slot in the block holding the end offset of its data in the tail.
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Padded {
///     a: u8,
///     b: i32,
///     c: u8,
/// }
///
/// assert_eq!(Padded::BLOCK_LENGTH, 6);
/// assert_eq!(PaddedView::B_OFFSET, 1);
/// let bytes = Padded { a: 1, b: 0x1234_5678, c: 2 }.to_bytes()?;
/// assert_eq!(bytes, [0x01, 0x78, 0x56, 0x34, 0x12, 0x02]);
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Note {
///     id: u8,
///     text: String,
/// }
///
/// let bytes = Note { id: 9, text: "hi".into() }.to_bytes()?;
/// assert_eq!(bytes, [7, 0, /* id */ 9, /* text ends at */ 9, 0, 0, 0, b'h', b'i']);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Compile errors
///
/// Each error points at the offending token and says what to do. For example:
///
/// ```text
/// error: `usize` has no fixed width on the wire; use `u32`/`u64` (or `i32`/`i64`) instead
///  --> src/lib.rs:4:12
///   |
/// 4 |     count: usize,
///   |            ^^^^^
/// ```
///
/// ```compile_fail
/// #[derive(wiremsg::WireMsg)]
/// struct Batch {
///     count: usize, // no fixed width: use u32 or u64
/// }
/// ```
///
/// ```compile_fail
/// #[derive(wiremsg::WireMsg)]
/// #[wire(version = 2)]
/// struct Order {
///     #[wire(since = 2)]
///     tif: u8,
///     id: u64, // a version-1 field after a version-2 one: fields are only appended
/// }
/// ```
///
/// ```compile_fail
/// #[derive(wiremsg::WireMsg)]
/// struct Order {
///     #[wire(since = 2)] // newer than the message's version (1): add `#[wire(version = 2)]`
///     tif: u8,
/// }
/// ```
///
/// ```compile_fail
/// #[derive(wiremsg::WireMsg)]
/// struct Order {
///     #[wire(tag = 3)] // unknown attribute: the error lists the known ones
///     id: u64,
/// }
/// ```
///
/// ```compile_fail
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg)]
/// struct Item { sku: String }
///
/// #[derive(WireMsg)]
/// struct Order { id: u64, item: Item }
///
/// let mut bytes = Order { id: 1, item: Item { sku: "a".into() } }.to_bytes().unwrap();
/// let mut edit = Order::view_mut(&mut bytes).unwrap();
/// edit.set_item(Item { sku: "b".into() }); // variable-size: cannot be set in place
/// ```
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg)]
/// #[wire(version = 2)]
/// struct Order { id: u64, #[wire(since = 2)] min_qty: u32 }
///
/// let mut bytes = Order { id: 1, min_qty: 0 }.to_bytes().unwrap();
/// let mut edit = Order::view_mut(&mut bytes).unwrap();
/// edit.set_min_qty(3); // the `bool` says whether it was written: use it
/// ```
///
/// Refused: tuple, unit and union types; const parameters; `where` predicates on the
/// message's lifetimes; `template_id` and `borrowed` on a generic message;
/// `usize`, `isize`, `char`, `()` and tuples of more than 12 elements (and tuples of a
/// fixed-size message with `since` fields, whose block would grow inside the tuple's),
/// `Rc`/`Arc`/`Cow`/sets, `Box` of a number, string or list; map keys without a wire
/// order (floats, `bool`, options, tuples, arrays, lists, maps, messages: keys are
/// integers, strings, `FixedStr` and enums, FORMAT.md §6.7) and `&BTreeMap` of
/// borrowed keys or values; `&mut` and borrowed types other than `&str`, `&[T]` and
/// `&BTreeMap`/`&HashMap`; lists of arrays or options, and lists
/// of lists of borrowed elements (`Vec<Vec<&str>>`; lists of lists are fine);
/// an `Option` of an `Option` of a string or list (`Option<Option<i64>>` is fine: two
/// presence bytes); arrays of variable-size types; blocks over 65,535 bytes; a
/// variable-size field added in a later version to a message whose version-1 fields
/// are all fixed-size (unless it has `#[wire(block_length)]`); a fixed-size message
/// with `since` fields nested inline; field names the views use themselves (`decode`,
/// `as_bytes`, `version`, `as_view`), that another field's accessors use (`has_x`
/// beside a later `x`, `set_x`, `x_mut`, `try_x`), or that start with `__`. The pinned
/// messages are the `wiremsg/tests/ui/*.stderr` files.
///
/// # Field attributes of trading protocols: `null`, `max_len`
///
/// Two more field attributes change a field's wire form. With [`Decimal`] prices and
/// NUL-padded symbols (`FixedStr<N, 0>`) they cover the field types of SBE- and
/// ITCH-style protocols:
///
/// | attribute | on | what it does |
/// |---|---|---|
/// | `null = V` | `Option<T>`, `T` an integer of up to 64 bits or a [`Decimal`] of one | `T`'s bytes alone, no presence byte (FORMAT.md §4.9): the value `V` stands for `None`. `V` is an expression of type `T` (of the mantissa's type for a decimal), checked at compile time. Encoding `Some(V)` fails with [`ErrorKind::NullSentinel`] and writes nothing; so does the setter, which returns `Result<(), Error>` (`Result<bool, Error>` for a field added in a later version) |
/// | `max_len = N` | `Vec<T>`, `&[T]` | at most `N` elements (FORMAT.md §6.5): `view` refuses a longer list with [`ErrorKind::ListTooLong`] (naming the field and the list's offset), and so does encoding (nothing is written; no list is cut short) |
///
/// Neither is written in the message: both sides of a connection must declare the
/// same `null` (and should declare the same `max_len`). The schema descriptor shows
/// them ([`TypeSchema::Nullable`], [`TypeSchema::BoundedList`]).
///
/// ```
/// use wiremsg::{Decimal, ErrorKind, FixedStr, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct NewOrder {
///     symbol: FixedStr<8, 0>,              // "NQ\0\0\0\0\0\0"
///     #[wire(null = i64::MIN)]
///     limit: Option<Decimal<i64, 4>>,     // 8 bytes; i64::MIN is "market order"
///     #[wire(null = 0)]
///     min_qty: Option<u32>,               // 4 bytes; 0 is "none"
///     #[wire(max_len = 5)]
///     allocations: Vec<u64>,
/// }
///
/// let order = NewOrder {
///     symbol: FixedStr::new("NQ")?,
///     limit: Some("21500.25".parse()?),
///     min_qty: None,
///     allocations: vec![1, 2],
/// };
/// let mut bytes = order.to_bytes()?;
/// assert_eq!(NewOrder::BLOCK_LENGTH, 2 + 8 + 8 + 4 + 4);
/// assert_eq!(bytes[18..22], [0, 0, 0, 0]); // min_qty: None, as its sentinel
///
/// let mut edit = NewOrder::view_mut(&mut bytes)?;
/// let err = edit.set_min_qty(Some(0)).unwrap_err(); // would read back as None
/// assert_eq!(err.kind(), &ErrorKind::NullSentinel { value: 0 });
/// edit.set_min_qty(Some(10))?;
/// assert_eq!(edit.min_qty(), Some(10));
///
/// let too_many = NewOrder { allocations: vec![0; 6], ..order };
/// let err = too_many.to_bytes().unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::ListTooLong { len: 6, max: 5 });
/// assert_eq!(err.path(), "allocations");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Boxes and recursive messages
///
/// `Box<M>` of a message, union or tuple has exactly `M`'s bytes, view (`M`'s view)
/// and schema. A message that names itself in a field (`Option<Box<Self>>`,
/// `Vec<Self>`, a union whose variants hold `Box<Self>`) is variable-size: its
/// nested self is in the tail, and validation stops at [`MAX_DEPTH`] levels
/// (FORMAT.md §4.12). Encoding refuses a value nested deeper, with the same error
/// and path, before it writes anything: a writer never makes bytes that no reader
/// accepts, and encoding a value of any depth takes bounded stack. Messages that hold each other without naming themselves need
/// `#[wire(block_length)]` on one of them (otherwise the compiler reports a cycle
/// in their sizes).
///
/// ```
/// use wiremsg::{ErrorKind, MAX_DEPTH, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Node { value: i64, next: Option<Box<Node>> }
///
/// let list = Node { value: 1, next: Some(Box::new(Node { value: 2, next: None })) };
/// let bytes = list.to_bytes()?;
/// let view = Node::view(&bytes)?;
/// assert_eq!(view.next().map(|n| n.value()), Some(2));
/// assert_eq!(Node::decode(&bytes)?, list);
///
/// let mut deep = Node { value: 0, next: None };
/// for value in 0..=MAX_DEPTH {
///     deep = Node { value: value.into(), next: Some(Box::new(deep)) };
/// }
/// let err = deep.to_bytes().unwrap_err(); // 66 nodes: one level too many
/// assert_eq!(err.kind(), &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH });
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Generic messages
///
/// Type parameters (with their bounds and `where` clauses, beside lifetimes) make a
/// message generic: each instantiation has the bytes of the struct written out with
/// its type arguments. The views are generic the same way (`BatchView<'v, T>`), and
/// layout constants are associated constants of each instantiation. Every type
/// parameter is bounded by [`Element`] (every wire type is one) and `'static`, and
/// decoding asks each to implement [`DecodeField`]. The schema names an instantiation
/// by the message's name and its type arguments' names (`Batch_Tick`,
/// `Pair_u64_String`), so that instantiations sit apart in one
/// [`SchemaSet`]. A layout fact that depends on the type arguments
/// (an array of them must be fixed-size) is checked when an instantiation is built
/// (`cargo build`; `cargo check` does not evaluate it).
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Tick { px: i64, qty: u32 }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Batch<T: WireMsg> { seq: u64, items: Vec<T> }
///
/// let batch = Batch { seq: 1, items: vec![Tick { px: 5, qty: 2 }] };
/// let bytes = batch.to_bytes()?;
/// let view: BatchView<'_, Tick> = Batch::view(&bytes)?;
/// assert_eq!(view.items().get(0).map(|t| t.qty()), Some(2));
/// assert_eq!(Batch::<Tick>::decode(&bytes)?, batch);
/// assert_eq!(Batch::<Tick>::SCHEMA.name, "Batch_Tick");
/// assert_eq!(Batch::<Tick>::BLOCK_LENGTH, 2 + 8 + 4);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Borrowed twins: `#[wire(borrowed = NameRef)]`
///
/// On a struct without lifetimes, `#[wire(borrowed = NewOrderRef)]` also generates
/// `NewOrderRef<'a>`: the same fields, in the same order, with the same `#[wire]`
/// attributes and visibility, but `&'a str` for `String`, `&'a [T]` for `Vec<T>`
/// (and `Option` of these for `Option<String>`, `Option<Vec<T>>`); every other type
/// stays. It derives `WireMsg` itself (`NewOrderRefView`, `NewOrderRefMut`, and
/// `Template` when the struct has a `template_id`), encodes to exactly the bytes of
/// `NewOrder` without allocating, and gets `From<&'a NewOrder>` when the fields it
/// keeps are `Clone`. Since both come from one declaration, they cannot drift apart;
/// a constant assertion also checks that their block lengths agree. A type alias of
/// `String` or `Vec` is not recognized, and stays owned in the twin.
///
/// A nested message with a twin of its own can be borrowed too: on the field,
/// `#[wire(borrowed = LegRef)]` makes the twin hold `LegRef<'a>` for a `Leg`,
/// `Option<LegRef<'a>>` for an `Option<Leg>` and `&'a [LegRef<'a>]` for a `Vec<Leg>`
/// (the twin then has no `From<&Owned>`: a list of twins would have to be
/// allocated).
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Alloc { account: u32, qty: u32 }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(borrowed = NewOrderRef)]
/// struct NewOrder {
///     id: u64,
///     account: String,
///     #[wire(max_len = 5)]
///     allocs: Vec<Alloc>,
/// }
///
/// let allocs = [Alloc { account: 7, qty: 100 }];
/// let twin = NewOrderRef { id: 1, account: "ACC-1", allocs: &allocs };
/// let mut buf = [0u8; 64];
/// let n = twin.encode_into(&mut buf)?; // no allocation
///
/// let owned = NewOrder::decode(&buf[..n])?;
/// assert_eq!(owned.to_bytes()?, buf[..n]);
/// assert_eq!(NewOrderRef::from(&owned).to_bytes()?, buf[..n]);
/// # Ok::<(), wiremsg::Error>(())
/// ```
pub use wiremsg_derive::WireMsg;

/// Derives [`WireEnum`](trait@WireEnum) and [`Field`] for a C-like enum.
///
/// The enum needs `#[repr(u8)]`, `#[repr(u16)]`, `#[repr(u32)]` or `#[repr(u64)]`: the
/// wire width. Values are the discriminants (explicit, or the previous one plus one,
/// as in Rust). A value with no variant fails validation
/// ([`ErrorKind::UnknownEnumValue`]) unless one variant is marked `#[wire(other)]`
/// and has one field of the repr type: it then keeps the unknown value, and writes it
/// back unchanged.
///
/// # Attributes
///
/// | attribute | where | what it does |
/// |---|---|---|
/// | `#[repr(u8)]` .. `#[repr(u64)]` | the enum (required) | the integer on the wire |
/// | `#[wire(other)]` | one variant `Other(R)`, `R` the repr type | the catch-all: keeps a value no other variant has |
///
/// # Requirements
///
/// The enum must also implement `Clone`, `Copy` and `Debug` (derive them): a view
/// returns it by value and its `Debug` prints it. It need not implement `PartialEq`
/// (views compare enum fields by their wire value). Without `Debug`, the compiler
/// says so on the enum:
///
/// ```compile_fail
/// #[derive(wiremsg::WireEnum, Clone, Copy)] // error: `Side` doesn't implement `Debug`
/// #[repr(u8)]
/// enum Side { Buy = 1, Sell = 2 }
/// ```
///
/// # Generated items
///
/// `impl WireEnum` (`Repr`, `ENUM_SCHEMA`, `from_raw`, `to_raw`), and `Field`,
/// `Element` and `DecodeField`, so that the enum is a field, a list element and an
/// array element, set in place with `set_<field>`.
///
/// ```
/// use wiremsg::{WireEnum, WireMsg};
///
/// #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
/// #[repr(u8)]
/// enum Event {
///     Add = b'A',
///     Delete = b'D',
///     #[wire(other)]
///     Other(u8),
/// }
///
/// #[derive(WireMsg, Debug)]
/// struct Header {
///     kind: Event,
/// }
///
/// assert_eq!(Header::view(b"D").unwrap().kind(), Event::Delete);
/// assert_eq!(Header::view(b"Z").unwrap().kind(), Event::Other(b'Z'));
/// ```
pub use wiremsg_derive::WireEnum;

/// Derives dispatch by template id for an enum with one message type per variant.
///
/// Each variant holds one `#[derive(WireMsg)]` type with `#[wire(template_id = N)]`.
/// For `enum Feed`, the derive generates:
///
/// | item | what it is |
/// |---|---|
/// | `FeedView<'v>` | one variant per message type, holding its view (`Copy`, `Debug`, `PartialEq`) |
/// | `FeedMut<'v>` | one variant per message type, holding its mutable view |
/// | `FeedLazy<'v>` | one variant per message type, holding its on-demand view (`Clone`, `Debug`) |
/// | `Feed::view(&[u8]) -> Result<(MessageHeader, FeedView)>` | reads the [`MessageHeader`] and views the variant it names |
/// | `Feed::view_mut(&mut [u8]) -> Result<(MessageHeader, FeedMut)>` | the same, mutably: a received frame updated in place |
/// | `Feed::view_lazy(&[u8]) -> Result<(MessageHeader, FeedLazy)>` | the same, on demand ([`Template::view_lazy_with_header`]): the header checked, each accessor checking what it reads, errors at offsets from the header's start |
/// | `Feed::decode`, `encode_with_header`, `header` | the owned variant; the variant's header and message |
/// | `impl WithHeader for Feed` | so that `FrameWriter::write(&feed)`, `WireCodec` and `put_frame` send it as it is |
/// | `Feed::schema_set() -> Result<SchemaSet>` | the schemas of every variant's message, for `FrameReader::check_schema_frames`, `SchemaRegistry` and schema files |
///
/// Two variants with the same template id and schema id are a compile error; an
/// unknown template id on the wire is [`ErrorKind::UnexpectedTemplate`], a known one
/// under another schema id [`ErrorKind::SchemaMismatch`]. The enum takes no
/// attributes.
///
/// ```
/// use wiremsg::{Template, WireDispatch, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 1)]
/// struct Add { order: u64, price: i64 }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 2)]
/// struct Delete { order: u64 }
///
/// #[derive(WireDispatch, Debug, PartialEq)]
/// enum Feed { Add(Add), Delete(Delete) }
///
/// let mut bytes = Vec::new();
/// Delete { order: 9 }.encode_with_header(&mut bytes).unwrap();
/// match Feed::view(&bytes).unwrap() {
///     (_, FeedView::Delete(d)) => assert_eq!(d.order(), 9),
///     (_, other) => panic!("{other:?}"),
/// }
/// assert_eq!(Feed::decode(&bytes).unwrap(), Feed::Delete(Delete { order: 9 }));
///
/// // In place, then as it is on a stream.
/// if let (_, FeedMut::Delete(mut d)) = Feed::view_mut(&mut bytes).unwrap() {
///     d.set_order(10);
/// }
/// let mut writer = wiremsg::FrameWriter::new(Vec::new());
/// writer.write(&Feed::decode(&bytes).unwrap()).unwrap();
/// assert_eq!(writer.into_inner()[4..], bytes[..]); // after the 4-byte length
/// ```
pub use wiremsg_derive::WireDispatch;

/// Derives [`WireUnion`](trait@WireUnion) and [`Field`] for a tagged union: an enum
/// whose variants carry data (FORMAT.md §4.10).
///
/// A union is a value inside a message (a field, an `Option`, a list element): a tag,
/// then the variant's payload, in the tail. It is its own derive, beside
/// [`WireMsg`](derive@WireMsg) (a struct: a message that can be sent alone, behind a
/// header), [`WireEnum`](derive@WireEnum) (a C-like enum: an integer in the block)
/// and [`WireDispatch`](derive@WireDispatch) (which message type a frame holds, from
/// its header: a stream-level choice, not a value; FORMAT.md §4.10 says why the two
/// stay apart).
///
/// # Variants
///
/// | variant | payload on the wire | in the view enum |
/// |---|---|---|
/// | `Market` | none | `Market` |
/// | `Limit(Limit)`, `Limit` a `#[derive(WireMsg)]` message | `Limit`'s encoding | `Limit(LimitView<'v>)` |
/// | `Stop { trigger: i64, note: String }` | the encoding of the anonymous message `{Union}Stop` of those fields | `Stop({Union}StopView<'v>)` |
/// | `#[wire(other)] Other { tag: R, bytes: Vec<u8> }` (or `&[u8]`) | any bytes | `Other { tag: R, bytes: &'v [u8] }` |
///
/// # Attributes
///
/// | attribute | where | what it does |
/// |---|---|---|
/// | `#[repr(u8)]` .. `#[repr(u64)]` | the enum (required) | the tag's integer on the wire |
/// | `= N` or `#[wire(tag = N)]` | a variant | its tag (else the previous one plus one, the first 0, as in Rust) |
/// | `#[wire(version = N)]` | the enum | the union's current version (default 1) |
/// | `#[wire(no_decode)]` | the enum | no `DecodeField` and no `decode`, as on a message: for a union holding a list, map or box of a message that cannot decode |
/// | `#[wire(since = N)]` | a variant | the version that added it (schema and docs); in a union whose version-1 variants are all fixed-size, a later variant must be fixed-size too (a compile error otherwise: the union's lists are dense, below) |
/// | `#[wire(other)]` | one struct variant `Other { tag: R, bytes: Vec<u8> }` | the catch-all: keeps an unknown tag and its payload bytes, and writes them back unchanged |
/// | `#[wire(since = N)]`, `default`, `null`, `max_len`, `reserved` | a struct variant's fields | as on a message's fields (the anonymous message has the union's version) |
///
/// # Lists
///
/// A list of a **fixed-size** union (no catch-all, every variant a unit or a message
/// without a tail, as in the table above but `Stop` and `Other`) is dense (FORMAT.md
/// §6.8): a table of the variants' tags and block lengths, then the elements at one
/// stride (the tag's size plus the largest payload block), each its variant's entry
/// index and its payload, zero-padded. A payload's field is one load at a constant
/// offset from the element, as in a list of fixed-size messages. A list of any other
/// union is a table list (§6.4): an offset per element. Whether a union is fixed-size
/// is decided by its version-1 variants, so that its lists keep their shape.
///
/// The catch-all has no tag on the wire, but Rust still numbers it (the previous
/// variant's discriminant plus one, and the next variant without `= N` counts on from
/// it): declare it last, after the highest tag, or where that number is no variant's.
/// Elsewhere the enum does not compile: the derive says which variant Rust numbers as
/// which, and how to fix it, before rustc's own E0081 (two variants of one
/// discriminant, as in `Limit(Limit) = 1, Market = 0, Other { .. }`) or E0370 (after a
/// tag of `R::MAX`). `#[derive(WireEnum)]`'s catch-all is numbered the same way.
///
/// # Generated items
///
/// For `enum OrderInstr`: `OrderInstrView<'v>` (`Copy`, `Debug`, `PartialEq`, and
/// `Serialize` with the runtime's feature `serde`, as serde writes an externally
/// tagged enum), `OrderInstrMut<'v>` (the present variant's mutable view),
/// `OrderInstrLazy<'v>` (`Clone`, `Debug`: the present variant's on-demand view), for
/// each struct variant `Stop` the struct `OrderInstrStop` with everything
/// `#[derive(WireMsg)]` gives a struct, and `impl WireUnion`, `Field`, `Element`,
/// `DecodeField`, so that the union is a field, an `Option`, a list element, and a
/// value of its own: [`WireUnion`]'s `to_bytes`, `view`, `view_lazy` and `decode`
/// (bring the trait into scope: `use wiremsg::WireUnion`) read and write one union
/// value alone, its tag then its payload. A message's `<field>_mut()` of a union field
/// returns the union's mutable view.
///
/// # Errors
///
/// `view` fails with [`ErrorKind::UnknownVariant`] on a tag no variant has (unless
/// there is a catch-all), [`ErrorKind::Truncated`] without a whole tag, and any error
/// of the payload's message, whose path names the variant (`instr.Limit.qty`).
/// Encoding a catch-all that holds a known tag fails with
/// [`ErrorKind::CatchAllKnownTag`].
///
/// ```
/// use wiremsg::{WireMsg, WireUnion};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Limit { price: i64, qty: u32 }
///
/// #[derive(WireUnion, Debug, PartialEq)]
/// #[repr(u8)]
/// enum OrderInstr {
///     Market = 0,
///     Limit(Limit) = 1,
///     Stop { trigger: i64, note: String } = 2,
///     #[wire(other)]
///     Other { tag: u8, bytes: Vec<u8> },
/// }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// struct Order { id: u32, instr: OrderInstr, history: Vec<OrderInstr> }
///
/// let order = Order {
///     id: 7,
///     instr: OrderInstr::Limit(Limit { price: 1000, qty: 5 }),
///     history: vec![OrderInstr::Market, OrderInstr::Stop { trigger: -1, note: "hi".into() }],
/// };
/// let mut bytes = order.to_bytes()?;
/// let view = Order::view(&bytes)?;
/// match view.instr() {
///     OrderInstrView::Limit(limit) => assert_eq!(limit.qty(), 5),
///     other => panic!("{other:?}"),
/// }
/// match view.history().get(1) { // O(1), from the list's table
///     Some(OrderInstrView::Stop(stop)) => assert_eq!(stop.note(), "hi"),
///     other => panic!("{other:?}"),
/// }
///
/// // The fixed-size fields of the present variant, in place.
/// if let OrderInstrMut::Limit(mut limit) = Order::view_mut(&mut bytes)?.instr_mut() {
///     limit.set_qty(6);
/// }
/// assert_eq!(Order::decode(&bytes)?.instr, OrderInstr::Limit(Limit { price: 1000, qty: 6 }));
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Compile errors
///
/// No `#[repr]`, two variants with one tag, a tuple variant with several fields or
/// with a field that is not a message, a catch-all of another shape, two catch-alls,
/// and type parameters are refused, each with a message that says what to write.
pub use wiremsg_derive::WireUnion;
