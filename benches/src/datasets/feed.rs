//! `feed`: 100,000 ITCH-style market-data messages of five kinds in one
//! buffer, the case of reading a stream of small fixed-size messages.
//!
//! | kind | byte | message | wiremsg bytes |
//! |---|---|---|---|
//! | add order | `A` | [`AddOrder`] | 49 |
//! | order executed | `E` | [`OrderExecuted`] | 48 |
//! | order cancel | `X` | [`OrderCancel`] | 40 |
//! | order delete | `D` | [`OrderDelete`] | 36 |
//! | trade | `P` | [`Trade`] | 57 |
//!
//! Every message starts with the feed's sequence number, a nanosecond
//! timestamp, the stock locate code, a tracking number and the 8-byte
//! space-padded symbol (ITCH carries the symbol only on adds and trades;
//! here every message has it, so that every kind is 36–57 bytes). Prices
//! are fixed-point `i64` with 4 decimals. Executions, cancels and deletes
//! refer to live orders of earlier adds.
//!
//! # Framing (the bench's own)
//!
//! Every format frames the same way: before each message a 3-byte header,
//! the payload length as `u16` little-endian, then the kind byte; the
//! payload follows at the next multiple of the format's payload alignment
//! (1 for every format except rkyv, whose archives must be 8-byte aligned:
//! zero bytes pad its header up to that). See [`Frames`]. A stream of
//! frames is not one derived value, so every codec here frames by hand
//! (`derived_codecs!` does not apply; [`super::events`], the same messages
//! as one message, uses it).
//!
//! TODO(wiremsg message header, FORMAT.md §8): add a column framed by
//! wiremsg's own 8-byte header (block length, template id, schema id,
//! version: `#[wire(template_id = N)]`, `encode_with_header`,
//! `#[derive(WireDispatch)]`, being built concurrently) and compare it with
//! this framing.
//!
//! `access` makes every message's view (the feed has no root), `read` folds
//! every field of every message (kind byte first), `read_some` only the two
//! fixed-size fields every kind has that a book builder routes by
//! (`stock_locate`, `order_ref`; the kind byte is read for dispatch but not
//! folded), and `update` (and `update_unchecked`) re-stamps every message's
//! sequence number in place (what a sequencer does).
//!
//! On demand: `access_lazy` makes every message's on-demand view, `read_lazy`
//! and `read_some_lazy` read `read`'s and `read_some`'s fields through it, each
//! checked as it is read. wiremsg reads each frame's kind byte and message as
//! one [`FeedFrame`] union (the kind byte its tag), whose table of its
//! variants' block lengths checks the message before the dispatch on the kind,
//! as a union's on-demand read does. The framing is the bench's own, so the
//! feed has no root to take on demand: every figure is over the 100,000
//! messages.

// The message and zerocopy structs are defined by `macro_rules!` below: the
// helper types their derives generate (rkyv's resolvers, zerocopy's layout
// types) then count as this crate's own, without `Debug`.
#![allow(missing_debug_implementations)]

use crate::format::Valid;
use prost::Message as _;
use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::munge::munge;
use rkyv::rancor::Error as RkyvError;
use rkyv::seal::Seal;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Portable};
use serde::Serialize;
use serde::de::DeserializeOwned;
use wiremsg::{WireMsg, WireUnion};
use zerocopy::little_endian::{I64, U16, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::{
    Codec, CodecVisitor, Dataset, Rng, Zerocopy, fb_root, fold_some, ids, keep, read_methods,
    read_some_methods, rkyv_access, rkyv_root, rkyv_root_mut, update_methods, visit_formats,
    wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::flatbuffers::{FlatBuffers, root};
use crate::formats::json::Json;
use crate::formats::peers_generated::peers as fb;
use crate::formats::postcard::Postcard;
use crate::formats::protobuf::Protobuf;
use crate::formats::rkyv::Rkyv;
use crate::formats::sbe::{self as sbe, Sbe, SbeMsg};
use crate::formats::wiremsg::Wiremsg;
use crate::model::{ArchivedSide, Side};

/// Kind byte of an [`AddOrder`].
pub const ADD: u8 = b'A';
/// Kind byte of an [`OrderExecuted`].
pub const EXECUTED: u8 = b'E';
/// Kind byte of an [`OrderCancel`].
pub const CANCEL: u8 = b'X';
/// Kind byte of an [`OrderDelete`].
pub const DELETE: u8 = b'D';
/// Kind byte of a [`Trade`].
pub const TRADE: u8 = b'P';

/// Bytes of the bench's frame header: `u16` LE payload length, `u8` kind.
pub const FRAME_HEADER: usize = 3;
/// Payload alignment of rkyv's frames (its archives' alignment).
pub const RKYV_ALIGN: usize = 8;

// Every kind has the template id of its message in the SBE peer's schema, in schema
// 6 (`schema/sbe.xml`, made from these types), so that its header is SBE's too. No
// bench writes a message header: the ids change no figure.
macro_rules! feed_message {
    ($(#[$doc:meta])* $name:ident = $template:literal { $($(#[$fdoc:meta])* $field:ident: $ty:ty,)* }) => {
        $(#[$doc])*
        #[derive(
            Debug,
            Clone,
            PartialEq,
            serde::Serialize,
            serde::Deserialize,
            rkyv::Archive,
            rkyv::Serialize,
            rkyv::Deserialize,
            wiremsg::WireMsg,
        )]
        #[rkyv(derive(Debug))]
        #[wire(template_id = $template, schema_id = 6)]
        pub struct $name {
            /// Feed sequence number.
            pub sequence: u64,
            /// Exchange timestamp, nanoseconds since the Unix epoch.
            pub timestamp_ns: u64,
            /// Stock locate code (the feed's index of the symbol).
            pub stock_locate: u16,
            /// Tracking number.
            pub tracking: u16,
            /// Symbol, ASCII, space padded.
            pub symbol: [u8; 8],
            $($(#[$fdoc])* pub $field: $ty,)*
        }
    };
}

feed_message! {
    /// `A`: a new order on the book.
    AddOrder = 2 {
        /// Order reference number.
        order_ref: u64,
        /// Buy or sell.
        side: Side,
        /// Shares.
        shares: u32,
        /// Limit price, fixed-point 4 decimals.
        price: i64,
    }
}

feed_message! {
    /// `E`: an order (partly) executed.
    OrderExecuted = 3 {
        /// Order reference number.
        order_ref: u64,
        /// Shares executed.
        executed_shares: u32,
        /// Match number of the execution.
        match_number: u64,
    }
}

feed_message! {
    /// `X`: shares cancelled from an order.
    OrderCancel = 4 {
        /// Order reference number.
        order_ref: u64,
        /// Shares cancelled.
        cancelled_shares: u32,
    }
}

feed_message! {
    /// `D`: an order removed from the book.
    OrderDelete = 5 {
        /// Order reference number.
        order_ref: u64,
    }
}

feed_message! {
    /// `P`: a trade against a non-displayed order.
    Trade = 6 {
        /// Order reference number.
        order_ref: u64,
        /// Buy or sell.
        side: Side,
        /// Shares.
        shares: u32,
        /// Price, fixed-point 4 decimals.
        price: i64,
        /// Match number of the trade.
        match_number: u64,
    }
}

/// One message of the feed. Also a tagged union (`WireUnion`, FORMAT.md §4.10, tags
/// 0 to 4 in this order) and a Rust enum for rkyv and serde: the element of the
/// `events` data set's one list ([`super::events`]).
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireUnion,
)]
#[repr(u8)]
pub enum FeedMsg {
    /// `A`.
    Add(AddOrder),
    /// `E`.
    Executed(OrderExecuted),
    /// `X`.
    Cancel(OrderCancel),
    /// `D`.
    Delete(OrderDelete),
    /// `P`.
    Trade(Trade),
}

/// A frame's kind byte and payload (the bytes after its length), read as one
/// wiremsg union: the kind byte is the tag, the payload the variant's message
/// (FORMAT.md §4.10), so the bytes `Wiremsg::encode` frames are this union's
/// encoding. wiremsg's on-demand reads view each frame through it: the union's
/// table of its variants' block lengths, indexed by the kind byte, checks the
/// payload before the dispatch on the kind, so the reader's `match` arms, which
/// read the same offsets, are alike (see the `read_some_lazy` figures in
/// benches/README.md).
#[derive(wiremsg::WireUnion)]
#[repr(u8)]
pub enum FeedFrame {
    /// `A`.
    Add(AddOrder) = ADD,
    /// `E`.
    Executed(OrderExecuted) = EXECUTED,
    /// `X`.
    Cancel(OrderCancel) = CANCEL,
    /// `D`.
    Delete(OrderDelete) = DELETE,
    /// `P`.
    Trade(Trade) = TRADE,
}

/// `match` on a value of an enum whose variants are the feed's kinds, in [`FeedMsg`]'s
/// order and names (`FeedMsgView`, `FeedMsgLazy`, `FeedMsgMut`, `ArchivedFeedMsg`,
/// [`FeedFrameLazy`], or a bench's own), with the same body for every kind: `$k` a
/// type alias of the kind's message type and `$x` bound to the variant's value.
#[macro_export]
macro_rules! each_variant {
    ($ty:ident, $value:expr, $k:ident, $x:ident => $body:expr) => {
        match $value {
            $ty::Add($x) => {
                type $k = $crate::datasets::feed::AddOrder;
                $body
            }
            $ty::Executed($x) => {
                type $k = $crate::datasets::feed::OrderExecuted;
                $body
            }
            $ty::Cancel($x) => {
                type $k = $crate::datasets::feed::OrderCancel;
                $body
            }
            $ty::Delete($x) => {
                type $k = $crate::datasets::feed::OrderDelete;
                $body
            }
            $ty::Trade($x) => {
                type $k = $crate::datasets::feed::Trade;
                $body
            }
        }
    };
}

/// The data set: the messages in feed order.
#[derive(Debug, Clone, PartialEq)]
pub struct Feed {
    /// The messages.
    pub messages: Vec<FeedMsg>,
}

/// `match` on a [`FeedMsg`] with the same body for every kind, `$x` bound to
/// the message.
macro_rules! each_msg {
    ($msg:expr, $x:ident => $body:expr) => {
        match $msg {
            FeedMsg::Add($x) => $body,
            FeedMsg::Executed($x) => $body,
            FeedMsg::Cancel($x) => $body,
            FeedMsg::Delete($x) => $body,
            FeedMsg::Trade($x) => $body,
        }
    };
}

pub(crate) use each_msg;

/// `match` on a kind byte with the same body for every kind, `$k` a type
/// alias of the kind's message type. Panics on an unknown kind.
macro_rules! each_kind {
    ($kind:expr, $k:ident => $body:expr) => {
        match $kind {
            ADD => {
                type $k = AddOrder;
                $body
            }
            EXECUTED => {
                type $k = OrderExecuted;
                $body
            }
            CANCEL => {
                type $k = OrderCancel;
                $body
            }
            DELETE => {
                type $k = OrderDelete;
                $body
            }
            TRADE => {
                type $k = Trade;
                $body
            }
            other => panic!("feed: unknown message kind {other:#04x}"),
        }
    };
}

/// One kind of message: what every format needs of it, generated by
/// `feed_kind!` from its field list.
pub trait Kind:
    WireMsg
    + Clone
    + Serialize
    + DeserializeOwned
    + Archive<
        Archived: Portable
                      + for<'a> CheckBytes<HighValidator<'a, RkyvError>>
                      + rkyv::Deserialize<Self, HighDeserializer<RkyvError>>,
    > + for<'a> rkyv::Serialize<HighSerializer<AlignedVec<16>, ArenaHandle<'a>, RkyvError>>
{
    /// The kind byte.
    const KIND: u8;
    /// The zerocopy struct.
    type Zc: FromBytes + IntoBytes + KnownLayout + Immutable + Unaligned;
    /// The prost message.
    type Pb: prost::Message + Default;

    /// Wraps the message.
    fn into_msg(self) -> FeedMsg;
    /// Folds the owned message.
    fn fold(&self, f: &mut Fold);
    /// The fields `read_some` loads (see `some_fields!`), of the owned
    /// message.
    fn some(&self) -> [u64; 2];
    /// Folds wiremsg's view.
    fn fold_view(view: Self::View<'_>, f: &mut Fold);
    /// The fields `read_some` loads, through wiremsg's view.
    fn some_view(view: Self::View<'_>) -> [u64; 2];
    /// Folds wiremsg's on-demand view, each field checked as it is read.
    ///
    /// # Errors
    ///
    /// The first field's that fails its check.
    fn fold_lazy(view: Self::Lazy<'_>, f: &mut Fold) -> wiremsg::Result<()>;
    /// The fields `read_some` loads, through wiremsg's on-demand view.
    ///
    /// # Errors
    ///
    /// As [`Kind::fold_lazy`].
    fn some_lazy(view: Self::Lazy<'_>) -> wiremsg::Result<[u64; 2]>;
    /// Sets the sequence number through wiremsg's mutable view.
    fn set_sequence_wiremsg(view: Self::Mut<'_>, sequence: u64);
    /// Folds rkyv's archive.
    fn fold_archived(archived: &Self::Archived, f: &mut Fold);
    /// The fields `read_some` loads, of rkyv's archive.
    fn some_archived(archived: &Self::Archived) -> [u64; 2];
    /// Sets the sequence number of rkyv's sealed archive.
    fn set_sequence_archived(archived: Seal<'_, Self::Archived>, sequence: u64);
    /// The zerocopy struct of the message.
    fn to_zc(&self) -> Self::Zc;
    /// The message of a zerocopy struct.
    fn from_zc(zc: &Self::Zc) -> Self;
    /// Folds the zerocopy struct.
    fn fold_zc(zc: &Self::Zc, f: &mut Fold);
    /// The fields `read_some` loads, of the zerocopy struct.
    fn some_zc(zc: &Self::Zc) -> [u64; 2];
    /// Sets the zerocopy struct's sequence number.
    fn set_sequence_zc(zc: &mut Self::Zc, sequence: u64);
    /// The prost message of the message.
    fn to_pb(&self) -> Self::Pb;
    /// The message of a prost message.
    fn from_pb(pb: Self::Pb) -> Self;
    /// Builds and finishes the FlatBuffers buffer of the message.
    fn fb_encode(&self, builder: &mut flatbuffers::FlatBufferBuilder<'static>);
    /// Folds a FlatBuffers buffer, verified if `CHECKED`.
    ///
    /// # Safety
    ///
    /// Unless `CHECKED`, `bytes` is a finished buffer of this kind.
    unsafe fn fb_fold<const CHECKED: bool>(bytes: &[u8], f: &mut Fold);
    /// The fields `read_some` loads, of a FlatBuffers buffer (verified if
    /// `CHECKED`).
    ///
    /// # Safety
    ///
    /// As [`Kind::fb_fold`].
    unsafe fn fb_some<const CHECKED: bool>(bytes: &[u8]) -> [u64; 2];
    /// Passes the root of a FlatBuffers buffer (verified if `CHECKED`)
    /// through `black_box`.
    ///
    /// # Safety
    ///
    /// As [`Kind::fb_fold`].
    unsafe fn fb_access<const CHECKED: bool>(bytes: &[u8]);
    /// Decodes a verified FlatBuffers buffer.
    fn fb_decode(bytes: &[u8]) -> Self;
    /// The message's FlatBuffers struct (its table's `data`).
    type FbData: 'static;
    /// Builds the message's table in `b` (not finished): a union member of the
    /// `events` data set's `Event`, with its `FeedEvent` tag.
    fn fb_member(
        &self,
        b: &mut flatbuffers::FlatBufferBuilder<'static>,
    ) -> (
        fb::FeedEvent,
        flatbuffers::WIPOffset<flatbuffers::UnionWIPOffset>,
    );
    /// The struct of a union member table of this kind.
    ///
    /// # Safety
    ///
    /// `table` is a table of this kind (its union tag said so, in a verified or
    /// trusted buffer).
    unsafe fn fb_member_data(table: flatbuffers::Table<'_>) -> &Self::FbData;
    /// Folds the FlatBuffers struct.
    fn fold_fb_data(v: &Self::FbData, f: &mut Fold);
    /// The fields `read_some` loads, of the FlatBuffers struct.
    fn some_fb_data(v: &Self::FbData) -> [u64; 2];
    /// The message of a FlatBuffers struct.
    fn from_fb_data(v: &Self::FbData) -> Self;
}

fn archived_side(side: &ArchivedSide) -> u64 {
    match side {
        ArchivedSide::Buy => 0,
        ArchivedSide::Sell => 1,
    }
}

/// Reads field `$x` of `$v` as a `u64` for the fold, in the access style of
/// a format (`model`, `wiremsg`, `lazy` — wiremsg's on-demand view, in a
/// function returning `wiremsg::Result` —, `rkyv`, `zc`, `fb`), by field type (`sym`
/// for the symbol, `side`, or a number).
macro_rules! read {
    (model, sym, $v:ident . $x:ident) => {
        u64::from_le_bytes($v.$x)
    };
    (model, $t:ident, $v:ident . $x:ident) => {
        $v.$x as u64
    };
    (wiremsg, sym, $v:ident . $x:ident) => {
        u64::from_le_bytes($v.$x().to_array())
    };
    (wiremsg, $t:ident, $v:ident . $x:ident) => {
        $v.$x() as u64
    };
    (lazy, sym, $v:ident . $x:ident) => {
        u64::from_le_bytes($v.$x()?.to_array())
    };
    (lazy, $t:ident, $v:ident . $x:ident) => {
        $v.$x()? as u64
    };
    (rkyv, sym, $v:ident . $x:ident) => {
        u64::from_le_bytes($v.$x)
    };
    (rkyv, side, $v:ident . $x:ident) => {
        archived_side(&$v.$x)
    };
    (rkyv, $t:ident, $v:ident . $x:ident) => {
        $v.$x.to_native() as u64
    };
    (zc, sym, $v:ident . $x:ident) => {
        u64::from_le_bytes($v.$x)
    };
    (zc, side, $v:ident . $x:ident) => {
        u64::from($v.$x)
    };
    (zc, $t:ident, $v:ident . $x:ident) => {
        $v.$x.get() as u64
    };
    (fb, sym, $v:ident . $x:ident) => {
        u64::from_le_bytes($v.$x().into())
    };
    (fb, side, $v:ident . $x:ident) => {
        u64::from($v.$x().0)
    };
    (fb, $t:ident, $v:ident . $x:ident) => {
        $v.$x() as u64
    };
}

/// The fields `read_some` loads from every message, read by `read!` in the
/// access style `$style` from `$v`: the two fixed-size fields every kind has
/// that say which book (`stock_locate`) and which order (`order_ref`).
macro_rules! some_fields {
    ($style:ident, $v:ident) => {
        [
            read!($style, u16, $v.stock_locate),
            read!($style, u64, $v.order_ref),
        ]
    };
}

/// zerocopy's field type for a field type of `feed_kind!`.
macro_rules! zc_ty {
    (sym) => {
        [u8; 8]
    };
    (side) => {
        u8
    };
    (u16) => {
        U16
    };
    (u32) => {
        U32
    };
    (u64) => {
        U64
    };
    (i64) => {
        I64
    };
}

/// Value conversions between the model and the other formats' fields.
macro_rules! conv {
    (to_zc, sym, $e:expr) => { $e };
    (to_zc, side, $e:expr) => { $e as u8 };
    (to_zc, $t:ident, $e:expr) => { $e.into() };
    (from_zc, sym, $e:expr) => { $e };
    (from_zc, side, $e:expr) => { Side::from_u8($e).expect("zerocopy: side is not a Side") };
    (from_zc, $t:ident, $e:expr) => { $e.get() };
    (to_pb, sym, $e:expr) => { u64::from_le_bytes($e) };
    (to_pb, side, $e:expr) => { $e as u32 };
    (to_pb, u16, $e:expr) => { u32::from($e) };
    (to_pb, $t:ident, $e:expr) => { $e };
    (from_pb, sym, $e:expr) => { $e.to_le_bytes() };
    (from_pb, side, $e:expr) => {
        Side::from_u8(u8::try_from($e).expect("prost: side out of range"))
            .expect("prost: side is not a Side")
    };
    (from_pb, u16, $e:expr) => { u16::try_from($e).expect("prost: u16 field out of range") };
    (from_pb, $t:ident, $e:expr) => { $e };
    (from_fb, sym, $e:expr) => { $e.into() };
    (from_fb, side, $e:expr) => { Side::from_u8($e.0).expect("flatbuffers: side is not a Side") };
    (from_fb, $t:ident, $e:expr) => { $e };
}

/// Implements [`Kind`] (and defines the zerocopy struct) for one message
/// type from its field list, in declaration order.
macro_rules! feed_kind {
    (
        $ty:ident, kind = $kind:ident, variant = $variant:ident,
        archived = $archived:ident, zc = $zc:ident, pb = $pb:ident,
        fb = ($fb:ident, $fb_args:ident, $fb_struct:ident, $fb_data:path),
        fields = [$($fty:ident $field:ident),* $(,)?]
    ) => {
        #[doc = concat!(
            "[`", stringify!($ty), "`] as a zerocopy struct: its fields in its order, ",
            "little-endian, no padding (wiremsg's bytes)."
        )]
        #[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
        #[repr(C)]
        pub struct $zc {
            $(
                #[doc = concat!("`", stringify!($field), "`.")]
                pub $field: zc_ty!($fty),
            )*
        }

        impl Kind for $ty {
            const KIND: u8 = $kind;
            type Zc = $zc;
            type Pb = $pb;

            fn into_msg(self) -> FeedMsg {
                FeedMsg::$variant(self)
            }

            #[inline(always)]
            fn fold(&self, f: &mut Fold) {
                let v = self;
                $(f.u64(read!(model, $fty, v.$field));)*
            }

            #[inline(always)]
            fn some(&self) -> [u64; 2] {
                let v = self;
                some_fields!(model, v)
            }

            #[inline(always)]
            fn fold_view(v: Self::View<'_>, f: &mut Fold) {
                $(f.u64(read!(wiremsg, $fty, v.$field));)*
            }

            #[inline(always)]
            fn some_view(v: Self::View<'_>) -> [u64; 2] {
                some_fields!(wiremsg, v)
            }

            #[inline(always)]
            fn fold_lazy(v: Self::Lazy<'_>, f: &mut Fold) -> wiremsg::Result<()> {
                $(f.u64(read!(lazy, $fty, v.$field));)*
                Ok(())
            }

            #[inline(always)]
            fn some_lazy(v: Self::Lazy<'_>) -> wiremsg::Result<[u64; 2]> {
                Ok(some_fields!(lazy, v))
            }

            #[inline(always)]
            fn set_sequence_wiremsg(mut view: Self::Mut<'_>, sequence: u64) {
                view.set_sequence(sequence);
            }

            #[inline(always)]
            fn fold_archived(v: &$archived, f: &mut Fold) {
                $(f.u64(read!(rkyv, $fty, v.$field));)*
            }

            #[inline(always)]
            fn some_archived(v: &$archived) -> [u64; 2] {
                some_fields!(rkyv, v)
            }

            #[inline(always)]
            fn set_sequence_archived(archived: Seal<'_, $archived>, value: u64) {
                munge!(let $archived { mut sequence, .. } = archived);
                *sequence = rkyv::Archived::<u64>::from_native(value);
            }

            fn to_zc(&self) -> $zc {
                $zc { $($field: conv!(to_zc, $fty, self.$field),)* }
            }

            fn from_zc(zc: &$zc) -> Self {
                Self { $($field: conv!(from_zc, $fty, zc.$field),)* }
            }

            #[inline(always)]
            fn fold_zc(v: &$zc, f: &mut Fold) {
                $(f.u64(read!(zc, $fty, v.$field));)*
            }

            #[inline(always)]
            fn some_zc(v: &$zc) -> [u64; 2] {
                some_fields!(zc, v)
            }

            #[inline(always)]
            fn set_sequence_zc(zc: &mut $zc, sequence: u64) {
                zc.sequence.set(sequence);
            }

            fn to_pb(&self) -> $pb {
                $pb { $($field: conv!(to_pb, $fty, self.$field),)* }
            }

            fn from_pb(pb: $pb) -> Self {
                Self { $($field: conv!(from_pb, $fty, pb.$field),)* }
            }

            fn fb_encode(&self, b: &mut flatbuffers::FlatBufferBuilder<'static>) {
                b.reset();
                let data = $fb_data(self);
                let root = fb::$fb::create(b, &fb::$fb_args { data: Some(&data) });
                b.finish_minimal(root);
            }

            #[inline(always)]
            unsafe fn fb_fold<const CHECKED: bool>(bytes: &[u8], f: &mut Fold) {
                // SAFETY: the caller guarantees a finished buffer of this
                // kind when not CHECKED.
                Self::fold_fb_data(unsafe { fb_root::<fb::$fb<'_>, CHECKED>(bytes) }.data(), f);
            }

            #[inline(always)]
            unsafe fn fb_some<const CHECKED: bool>(bytes: &[u8]) -> [u64; 2] {
                // SAFETY: as in `fb_fold`.
                Self::some_fb_data(unsafe { fb_root::<fb::$fb<'_>, CHECKED>(bytes) }.data())
            }

            #[inline(always)]
            unsafe fn fb_access<const CHECKED: bool>(bytes: &[u8]) {
                // SAFETY: as in `fb_fold`.
                keep(unsafe { fb_root::<fb::$fb<'_>, CHECKED>(bytes) });
            }

            fn fb_decode(bytes: &[u8]) -> Self {
                Self::from_fb_data(root::<fb::$fb<'_>>(bytes).data())
            }

            type FbData = fb::$fb_struct;

            fn fb_member(
                &self,
                b: &mut flatbuffers::FlatBufferBuilder<'static>,
            ) -> (fb::FeedEvent, flatbuffers::WIPOffset<flatbuffers::UnionWIPOffset>) {
                let data = $fb_data(self);
                let table = fb::$fb::create(b, &fb::$fb_args { data: Some(&data) });
                (fb::FeedEvent::$fb, table.as_union_value())
            }

            #[inline(always)]
            unsafe fn fb_member_data(table: flatbuffers::Table<'_>) -> &fb::$fb_struct {
                // SAFETY: the caller guarantees a table of this kind.
                unsafe { fb::$fb::init_from_table(table) }.data()
            }

            #[inline(always)]
            fn fold_fb_data(v: &fb::$fb_struct, f: &mut Fold) {
                $(f.u64(read!(fb, $fty, v.$field));)*
            }

            #[inline(always)]
            fn some_fb_data(v: &fb::$fb_struct) -> [u64; 2] {
                some_fields!(fb, v)
            }

            fn from_fb_data(v: &fb::$fb_struct) -> Self {
                Self { $($field: conv!(from_fb, $fty, v.$field()),)* }
            }
        }
    };
}

fn fb_add(m: &AddOrder) -> fb::AddOrderData {
    fb::AddOrderData::new(
        m.sequence,
        m.timestamp_ns,
        &m.symbol,
        m.order_ref,
        m.price,
        m.shares,
        m.stock_locate,
        m.tracking,
        fb::Side(m.side as u8),
    )
}

fn fb_executed(m: &OrderExecuted) -> fb::OrderExecutedData {
    fb::OrderExecutedData::new(
        m.sequence,
        m.timestamp_ns,
        &m.symbol,
        m.order_ref,
        m.match_number,
        m.executed_shares,
        m.stock_locate,
        m.tracking,
    )
}

fn fb_cancel(m: &OrderCancel) -> fb::OrderCancelData {
    fb::OrderCancelData::new(
        m.sequence,
        m.timestamp_ns,
        &m.symbol,
        m.order_ref,
        m.cancelled_shares,
        m.stock_locate,
        m.tracking,
    )
}

fn fb_delete(m: &OrderDelete) -> fb::OrderDeleteData {
    fb::OrderDeleteData::new(
        m.sequence,
        m.timestamp_ns,
        &m.symbol,
        m.order_ref,
        m.stock_locate,
        m.tracking,
    )
}

fn fb_trade(m: &Trade) -> fb::TradeData {
    fb::TradeData::new(
        m.sequence,
        m.timestamp_ns,
        &m.symbol,
        m.order_ref,
        m.price,
        m.match_number,
        m.shares,
        m.stock_locate,
        m.tracking,
        fb::Side(m.side as u8),
    )
}

feed_kind!(
    AddOrder, kind = ADD, variant = Add,
    archived = ArchivedAddOrder, zc = AddOrderZc, pb = AddOrderPb,
    fb = (AddOrder, AddOrderArgs, AddOrderData, fb_add),
    fields = [
        u64 sequence, u64 timestamp_ns, u16 stock_locate, u16 tracking, sym symbol,
        u64 order_ref, side side, u32 shares, i64 price,
    ]
);

feed_kind!(
    OrderExecuted, kind = EXECUTED, variant = Executed,
    archived = ArchivedOrderExecuted, zc = OrderExecutedZc, pb = OrderExecutedPb,
    fb = (OrderExecuted, OrderExecutedArgs, OrderExecutedData, fb_executed),
    fields = [
        u64 sequence, u64 timestamp_ns, u16 stock_locate, u16 tracking, sym symbol,
        u64 order_ref, u32 executed_shares, u64 match_number,
    ]
);

feed_kind!(
    OrderCancel, kind = CANCEL, variant = Cancel,
    archived = ArchivedOrderCancel, zc = OrderCancelZc, pb = OrderCancelPb,
    fb = (OrderCancel, OrderCancelArgs, OrderCancelData, fb_cancel),
    fields = [
        u64 sequence, u64 timestamp_ns, u16 stock_locate, u16 tracking, sym symbol,
        u64 order_ref, u32 cancelled_shares,
    ]
);

feed_kind!(
    OrderDelete, kind = DELETE, variant = Delete,
    archived = ArchivedOrderDelete, zc = OrderDeleteZc, pb = OrderDeletePb,
    fb = (OrderDelete, OrderDeleteArgs, OrderDeleteData, fb_delete),
    fields = [
        u64 sequence, u64 timestamp_ns, u16 stock_locate, u16 tracking, sym symbol,
        u64 order_ref,
    ]
);

feed_kind!(
    Trade, kind = TRADE, variant = Trade,
    archived = ArchivedTrade, zc = TradeZc, pb = TradePb,
    fb = (Trade, TradeArgs, TradeData, fb_trade),
    fields = [
        u64 sequence, u64 timestamp_ns, u16 stock_locate, u16 tracking, sym symbol,
        u64 order_ref, side side, u32 shares, i64 price, u64 match_number,
    ]
);

// ---- prost messages (what prost-build would generate) ----
//
// Common fields: `uint64 sequence = 1; fixed64 timestamp_ns = 2;
// uint32 stock_locate = 3; uint32 tracking = 4; fixed64 symbol = 5;`
// (symbol's 8 bytes as a little-endian fixed64, as for the tick), then the
// kind's own fields from tag 6 on; `side` is a `uint32`.

/// `message AddOrder { ...; uint64 order_ref = 6; uint32 side = 7; uint32 shares = 8; int64 price = 9; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct AddOrderPb {
    /// Sequence.
    #[prost(uint64, tag = "1")]
    pub sequence: u64,
    /// Timestamp.
    #[prost(fixed64, tag = "2")]
    pub timestamp_ns: u64,
    /// Stock locate.
    #[prost(uint32, tag = "3")]
    pub stock_locate: u32,
    /// Tracking number.
    #[prost(uint32, tag = "4")]
    pub tracking: u32,
    /// Symbol.
    #[prost(fixed64, tag = "5")]
    pub symbol: u64,
    /// Order reference.
    #[prost(uint64, tag = "6")]
    pub order_ref: u64,
    /// Side.
    #[prost(uint32, tag = "7")]
    pub side: u32,
    /// Shares.
    #[prost(uint32, tag = "8")]
    pub shares: u32,
    /// Price.
    #[prost(int64, tag = "9")]
    pub price: i64,
}

/// `message OrderExecuted { ...; uint64 order_ref = 6; uint32 executed_shares = 7; uint64 match_number = 8; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OrderExecutedPb {
    /// Sequence.
    #[prost(uint64, tag = "1")]
    pub sequence: u64,
    /// Timestamp.
    #[prost(fixed64, tag = "2")]
    pub timestamp_ns: u64,
    /// Stock locate.
    #[prost(uint32, tag = "3")]
    pub stock_locate: u32,
    /// Tracking number.
    #[prost(uint32, tag = "4")]
    pub tracking: u32,
    /// Symbol.
    #[prost(fixed64, tag = "5")]
    pub symbol: u64,
    /// Order reference.
    #[prost(uint64, tag = "6")]
    pub order_ref: u64,
    /// Shares executed.
    #[prost(uint32, tag = "7")]
    pub executed_shares: u32,
    /// Match number.
    #[prost(uint64, tag = "8")]
    pub match_number: u64,
}

/// `message OrderCancel { ...; uint64 order_ref = 6; uint32 cancelled_shares = 7; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OrderCancelPb {
    /// Sequence.
    #[prost(uint64, tag = "1")]
    pub sequence: u64,
    /// Timestamp.
    #[prost(fixed64, tag = "2")]
    pub timestamp_ns: u64,
    /// Stock locate.
    #[prost(uint32, tag = "3")]
    pub stock_locate: u32,
    /// Tracking number.
    #[prost(uint32, tag = "4")]
    pub tracking: u32,
    /// Symbol.
    #[prost(fixed64, tag = "5")]
    pub symbol: u64,
    /// Order reference.
    #[prost(uint64, tag = "6")]
    pub order_ref: u64,
    /// Shares cancelled.
    #[prost(uint32, tag = "7")]
    pub cancelled_shares: u32,
}

/// `message OrderDelete { ...; uint64 order_ref = 6; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct OrderDeletePb {
    /// Sequence.
    #[prost(uint64, tag = "1")]
    pub sequence: u64,
    /// Timestamp.
    #[prost(fixed64, tag = "2")]
    pub timestamp_ns: u64,
    /// Stock locate.
    #[prost(uint32, tag = "3")]
    pub stock_locate: u32,
    /// Tracking number.
    #[prost(uint32, tag = "4")]
    pub tracking: u32,
    /// Symbol.
    #[prost(fixed64, tag = "5")]
    pub symbol: u64,
    /// Order reference.
    #[prost(uint64, tag = "6")]
    pub order_ref: u64,
}

/// `message Trade { ...; uint64 order_ref = 6; uint32 side = 7; uint32 shares = 8; int64 price = 9; uint64 match_number = 10; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TradePb {
    /// Sequence.
    #[prost(uint64, tag = "1")]
    pub sequence: u64,
    /// Timestamp.
    #[prost(fixed64, tag = "2")]
    pub timestamp_ns: u64,
    /// Stock locate.
    #[prost(uint32, tag = "3")]
    pub stock_locate: u32,
    /// Tracking number.
    #[prost(uint32, tag = "4")]
    pub tracking: u32,
    /// Symbol.
    #[prost(fixed64, tag = "5")]
    pub symbol: u64,
    /// Order reference.
    #[prost(uint64, tag = "6")]
    pub order_ref: u64,
    /// Side.
    #[prost(uint32, tag = "7")]
    pub side: u32,
    /// Shares.
    #[prost(uint32, tag = "8")]
    pub shares: u32,
    /// Price.
    #[prost(int64, tag = "9")]
    pub price: i64,
    /// Match number.
    #[prost(uint64, tag = "10")]
    pub match_number: u64,
}

// ---- framing ----

/// A buffer frames are written into.
trait FrameBuf {
    fn len(&self) -> usize;
    fn extend(&mut self, bytes: &[u8]);
    fn bytes_mut(&mut self) -> &mut [u8];
}

impl FrameBuf for Vec<u8> {
    fn len(&self) -> usize {
        Vec::len(self)
    }
    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }
}

impl FrameBuf for AlignedVec<16> {
    fn len(&self) -> usize {
        AlignedVec::len(self)
    }
    fn extend(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        self
    }
}

/// Writes a frame header for `kind` with a placeholder length, pads to
/// `align`; returns where the header and the payload start.
fn begin_frame(buf: &mut impl FrameBuf, kind: u8, align: usize) -> (usize, usize) {
    let at = buf.len();
    buf.extend(&[0, 0, kind]);
    let pad = buf.len().next_multiple_of(align) - buf.len();
    buf.extend(&[0; 8][..pad]);
    (at, buf.len())
}

/// Writes the payload length (everything after `start`) into the header at
/// `at`.
fn end_frame(buf: &mut impl FrameBuf, (at, start): (usize, usize)) {
    let len = u16::try_from(buf.len() - start).expect("feed: payload over 64 KiB");
    buf.bytes_mut()[at..at + 2].copy_from_slice(&len.to_le_bytes());
}

/// Writes one frame whose payload `write` appends to `buf`.
fn frame(buf: &mut Vec<u8>, kind: u8, write: impl FnOnce(&mut Vec<u8>)) {
    let at = begin_frame(buf, kind, 1);
    write(buf);
    end_frame(buf, at);
}

/// The feed as a wiremsg user frames a stream (FORMAT.md §10): per message a `u32`
/// frame length, the 8-byte message header (its template id, schema 6, version 1),
/// then the message, as [`wiremsg::frame::FrameWriter`] writes them. The data set's
/// own frames (a `u16` length and the kind byte) are what every format shares; this
/// is what a wiremsg user stores or sends instead: 12 bytes before each message, not 3.
pub fn wiremsg_stream(feed: &Feed) -> Vec<u8> {
    let mut writer = wiremsg::frame::FrameWriter::new(Vec::new());
    for msg in &feed.messages {
        each_msg!(msg, x => writer.write(x)).expect("feed: a message is far below 1 MiB");
    }
    writer.into_inner()
}

/// The frames of a feed buffer, in order: `(kind, payload)`, payloads
/// aligned to `ALIGN` from the start of the buffer. Panics on a truncated
/// frame.
#[derive(Debug, Clone)]
pub struct Frames<'a, const ALIGN: usize> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a, const ALIGN: usize> Frames<'a, ALIGN> {
    /// The frames of `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }
}

/// Where the frame at `pos` has its payload: `(kind, start, end)`.
#[inline(always)]
fn frame_at<const ALIGN: usize>(bytes: &[u8], pos: usize) -> (u8, usize, usize) {
    let header: &[u8; FRAME_HEADER] = bytes
        .get(pos..)
        .and_then(|rest| rest.first_chunk())
        .expect("feed: truncated frame header");
    let len = usize::from(u16::from_le_bytes([header[0], header[1]]));
    let start = (pos + FRAME_HEADER).next_multiple_of(ALIGN);
    (header[2], start, start + len)
}

impl<'a, const ALIGN: usize> Iterator for Frames<'a, ALIGN> {
    type Item = (u8, &'a [u8]);

    #[inline(always)]
    fn next(&mut self) -> Option<(u8, &'a [u8])> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let (kind, start, end) = frame_at::<ALIGN>(self.bytes, self.pos);
        let payload = self.bytes.get(start..end).expect("feed: truncated frame");
        self.pos = end;
        Some((kind, payload))
    }
}

/// The frames of `bytes` (payload alignment 1) as their kind byte and payload in
/// one slice: a [`FeedFrame`]'s encoding.
#[inline(always)]
pub fn tagged_frames(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut pos = 0;
    core::iter::from_fn(move || {
        if pos >= bytes.len() {
            return None;
        }
        let (_, start, end) = frame_at::<1>(bytes, pos);
        let tagged = bytes.get(start - 1..end).expect("feed: truncated frame");
        pos = end;
        Some(tagged)
    })
}

/// Calls `f(index, kind, payload)` for every frame, with the payload
/// mutable.
#[inline(always)]
fn for_each_frame_mut<const ALIGN: usize>(
    bytes: &mut [u8],
    mut f: impl FnMut(usize, u8, &mut [u8]),
) {
    let mut pos = 0;
    let mut index = 0;
    while pos < bytes.len() {
        let (kind, start, end) = frame_at::<ALIGN>(bytes, pos);
        f(
            index,
            kind,
            bytes.get_mut(start..end).expect("feed: truncated frame"),
        );
        pos = end;
        index += 1;
    }
}

// ---- the data set ----

/// The sequence number `update` writes into message `index`.
pub(crate) fn new_sequence(round: u64, index: usize) -> u64 {
    round.wrapping_add(index as u64)
}

const SYMBOLS: [&[u8; 8]; 8] = [
    b"AAPL    ",
    b"MSFT    ",
    b"NVDA    ",
    b"AMZN    ",
    b"GOOGL   ",
    b"META    ",
    b"TSLA    ",
    b"JPM     ",
];

/// A live order of the generator's book.
#[derive(Clone, Copy)]
struct Live {
    order_ref: u64,
    locate: usize,
    shares: u32,
}

pub(crate) fn generate_feed(len: usize) -> Feed {
    let mut rng = Rng::new(0x6665_6564_0000_0004);
    let mut mids: Vec<i64> = (0..SYMBOLS.len())
        .map(|_| rng.range(100_000, 5_000_000) as i64)
        .collect();
    let mut live: Vec<Live> = Vec::new();
    let mut timestamp_ns: u64 = 1_764_000_000_000_000_000;
    let mut next_ref: u64 = 1;
    let mut next_match: u64 = 1;
    let mut messages = Vec::with_capacity(len);
    for i in 0..len {
        timestamp_ns += rng.range(50, 5_000);
        let sequence = 1_000_000 + i as u64;
        let tracking = rng.below(4) as u16;
        let roll = rng.below(100);
        let kind = match roll {
            _ if live.is_empty() => ADD,
            0..45 => ADD,
            45..65 => EXECUTED,
            65..75 => CANCEL,
            75..95 => DELETE,
            _ => TRADE,
        };
        let pick = if live.is_empty() {
            0
        } else {
            rng.below(live.len() as u64) as usize
        };
        let msg = match kind {
            ADD | TRADE => {
                let locate = rng.below(SYMBOLS.len() as u64) as usize;
                mids[locate] += rng.range(0, 20) as i64 * 100 - 1_000;
                let side = if rng.percent(50) {
                    Side::Buy
                } else {
                    Side::Sell
                };
                let shares = rng.range(1, 50) as u32 * 100;
                let price = mids[locate] + rng.range(0, 10) as i64 * 100 - 500;
                let order_ref = next_ref;
                next_ref += 1;
                if kind == ADD {
                    live.push(Live {
                        order_ref,
                        locate,
                        shares,
                    });
                    FeedMsg::Add(AddOrder {
                        sequence,
                        timestamp_ns,
                        stock_locate: locate as u16 + 1,
                        tracking,
                        symbol: *SYMBOLS[locate],
                        order_ref,
                        side,
                        shares,
                        price,
                    })
                } else {
                    next_match += 1;
                    FeedMsg::Trade(Trade {
                        sequence,
                        timestamp_ns,
                        stock_locate: locate as u16 + 1,
                        tracking,
                        symbol: *SYMBOLS[locate],
                        order_ref,
                        side,
                        shares,
                        price,
                        match_number: next_match,
                    })
                }
            }
            EXECUTED => {
                let order = &mut live[pick];
                let executed_shares = (rng.range(1, 5) as u32 * 100).min(order.shares);
                order.shares -= executed_shares;
                let o = *order;
                if o.shares == 0 {
                    live.swap_remove(pick);
                }
                next_match += 1;
                FeedMsg::Executed(OrderExecuted {
                    sequence,
                    timestamp_ns,
                    stock_locate: o.locate as u16 + 1,
                    tracking,
                    symbol: *SYMBOLS[o.locate],
                    order_ref: o.order_ref,
                    executed_shares,
                    match_number: next_match,
                })
            }
            CANCEL => {
                let order = &mut live[pick];
                let cancelled_shares = (order.shares / 2).max(1);
                order.shares -= cancelled_shares;
                let o = *order;
                if o.shares == 0 {
                    live.swap_remove(pick);
                }
                FeedMsg::Cancel(OrderCancel {
                    sequence,
                    timestamp_ns,
                    stock_locate: o.locate as u16 + 1,
                    tracking,
                    symbol: *SYMBOLS[o.locate],
                    order_ref: o.order_ref,
                    cancelled_shares,
                })
            }
            _ => {
                let o = live.swap_remove(pick);
                FeedMsg::Delete(OrderDelete {
                    sequence,
                    timestamp_ns,
                    stock_locate: o.locate as u16 + 1,
                    tracking,
                    symbol: *SYMBOLS[o.locate],
                    order_ref: o.order_ref,
                })
            }
        };
        messages.push(msg);
    }
    Feed { messages }
}

/// The kind byte of a message.
pub fn kind_of(msg: &FeedMsg) -> u8 {
    fn k<K: Kind>(_: &K) -> u8 {
        K::KIND
    }
    each_msg!(msg, x => k(x))
}

/// The checksum of `read` over messages in order: each one's kind byte, then its
/// fields (the feed's and the `events` data set's).
pub(crate) fn checksum_of(messages: &[FeedMsg]) -> u64 {
    let mut f = Fold::new();
    for msg in messages {
        f.u64(u64::from(kind_of(msg)));
        each_msg!(msg, x => x.fold(&mut f));
    }
    f.finish()
}

/// The checksum of `read_some` over messages in order (see `some_fields!`).
pub(crate) fn checksum_some_of(messages: &[FeedMsg]) -> u64 {
    fold_some(messages, |msg| each_msg!(msg, x => x.some()))
}

/// What `update` does: message `i` gets sequence number `new_sequence(round, i)`.
pub(crate) fn restamp(messages: &mut [FeedMsg], round: u64) {
    for (i, msg) in messages.iter_mut().enumerate() {
        each_msg!(msg, x => x.sequence = new_sequence(round, i));
    }
}

impl Dataset for Feed {
    const NAME: &'static str = "feed";
    const LEN: usize = 100_000;

    fn generate(len: usize) -> Self {
        generate_feed(len)
    }

    fn checksum(&self) -> u64 {
        checksum_of(&self.messages)
    }

    fn checksum_some(&self) -> Option<u64> {
        Some(checksum_some_of(&self.messages))
    }

    fn apply_update(&mut self, round: u64) {
        restamp(&mut self.messages, round);
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor, Zerocopy, without_capnp);
        visitor.visit::<Sbe>();
    }
}

// ---- wiremsg ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn read_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    let mut f = Fold::new();
    for (kind, payload) in Frames::<1>::new(bytes) {
        f.u64(u64::from(kind));
        // SAFETY: forwarded from the caller (`encode`'s payloads are what
        // `view` accepts).
        each_kind!(kind, K => K::fold_view(unsafe { wiremsg_view::<K, CHECKED>(payload) }, &mut f));
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn some_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    fold_some(Frames::<1>::new(bytes), |(kind, payload)| {
        // SAFETY: forwarded from the caller.
        each_kind!(kind, K => K::some_view(unsafe { wiremsg_view::<K, CHECKED>(payload) }))
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn update_wiremsg<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    for_each_frame_mut::<1>(bytes, |i, kind, payload| {
        // SAFETY: forwarded from the caller.
        each_kind!(kind, K => K::set_sequence_wiremsg(
            unsafe { wiremsg_mut::<K, CHECKED>(payload) },
            new_sequence(round, i),
        ));
    });
}

/// `read_lazy`: the fold of `read`, every message's every field checked as it
/// is read.
#[inline(always)]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let mut f = Fold::new();
    for tagged in tagged_frames(bytes) {
        let frame = FeedFrame::view_lazy(tagged)?;
        f.u64(u64::from(tagged[0]));
        crate::each_variant!(FeedFrameLazy, frame, K, v => K::fold_lazy(v, &mut f)?);
    }
    Ok(f.finish())
}

/// `read_some_lazy`: `read_some`'s fields, each checked as it is read.
#[inline(always)]
fn some_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let mut f = Fold::new();
    for tagged in tagged_frames(bytes) {
        let some = crate::each_variant!(FeedFrameLazy, FeedFrame::view_lazy(tagged)?, K, v => {
            K::some_lazy(v)?
        });
        for value in some {
            f.u64(value);
        }
    }
    Ok(f.finish())
}

impl Codec<Feed> for Wiremsg {
    const ID: &'static str = ids::WIREMSG;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.buf.clear();
        for msg in &data.messages {
            each_msg!(msg, x => frame(&mut self.buf, kind_of(msg), |buf| {
                x.encode(buf).expect("wiremsg: a feed message is tiny");
            }));
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| {
                each_kind!(kind, K => K::decode(payload).valid("wiremsg").into_msg())
            })
            .collect();
        Feed { messages }
    }

    fn access(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<1>::new(bytes) {
            each_kind!(kind, K => keep(K::view(payload).valid("wiremsg")));
        }
        Some(())
    }

    unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<1>::new(bytes) {
            // SAFETY: the caller guarantees `encode`'s output.
            each_kind!(kind, K => keep(unsafe { wiremsg::view_unchecked::<K>(payload) }));
        }
        Some(())
    }

    fn access_lazy(&self, bytes: &[u8]) -> Option<()> {
        for tagged in tagged_frames(bytes) {
            keep(FeedFrame::view_lazy(tagged).valid("wiremsg"));
        }
        Some(())
    }

    fn read_lazy(&self, bytes: &[u8]) -> Option<u64> {
        Some(read_lazy_wiremsg(bytes).valid("wiremsg"))
    }

    fn read_some_lazy(&self, bytes: &[u8]) -> Option<u64> {
        Some(some_lazy_wiremsg(bytes).valid("wiremsg"))
    }

    read_methods!(read_wiremsg);
    read_some_methods!(some_wiremsg);
    update_methods!(update_wiremsg);
}

// ---- rkyv ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote, at an aligned address.
#[inline(always)]
unsafe fn read_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    let mut f = Fold::new();
    for (kind, payload) in Frames::<RKYV_ALIGN>::new(bytes) {
        f.u64(u64::from(kind));
        // SAFETY: forwarded from the caller (`encode`'s output, aligned).
        each_kind!(kind, K => K::fold_archived(
            unsafe { rkyv_root::<<K as Archive>::Archived, CHECKED>(payload) },
            &mut f,
        ));
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote, at an aligned address.
#[inline(always)]
unsafe fn some_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    fold_some(Frames::<RKYV_ALIGN>::new(bytes), |(kind, payload)| {
        // SAFETY: forwarded from the caller.
        each_kind!(kind, K => K::some_archived(
            unsafe { rkyv_root::<<K as Archive>::Archived, CHECKED>(payload) }
        ))
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote, at an aligned address.
#[inline(always)]
unsafe fn update_rkyv<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    for_each_frame_mut::<RKYV_ALIGN>(bytes, |i, kind, payload| {
        // SAFETY: forwarded from the caller.
        each_kind!(kind, K => K::set_sequence_archived(
            unsafe { rkyv_root_mut::<<K as Archive>::Archived, CHECKED>(payload) },
            new_sequence(round, i),
        ));
    });
}

impl Codec<Feed> for Rkyv {
    const ID: &'static str = ids::RKYV;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        for msg in &data.messages {
            let at = begin_frame(&mut buf, kind_of(msg), RKYV_ALIGN);
            buf = each_msg!(msg, x => rkyv::api::high::to_bytes_in::<_, RkyvError>(x, buf))
                .expect("rkyv: serialize into a Vec cannot fail");
            end_frame(&mut buf, at);
        }
        self.buf = buf;
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<RKYV_ALIGN>::new(bytes)
            .map(|(kind, payload)| {
                each_kind!(kind, K => super::rkyv_decode::<K, <K as Archive>::Archived>(payload).into_msg())
            })
            .collect();
        Feed { messages }
    }

    fn access(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<RKYV_ALIGN>::new(bytes) {
            each_kind!(kind, K => keep(rkyv_access::<<K as Archive>::Archived>(payload)));
        }
        Some(())
    }

    unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<RKYV_ALIGN>::new(bytes) {
            // SAFETY: the caller guarantees `encode`'s output, aligned.
            each_kind!(kind, K => keep(unsafe { rkyv::access_unchecked::<<K as Archive>::Archived>(payload) }));
        }
        Some(())
    }

    read_methods!(read_rkyv);
    read_some_methods!(some_rkyv);
    update_methods!(update_rkyv);
}

// ---- FlatBuffers ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn read_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    let mut f = Fold::new();
    for (kind, payload) in Frames::<1>::new(bytes) {
        f.u64(u64::from(kind));
        // SAFETY: forwarded from the caller.
        each_kind!(kind, K => unsafe { K::fb_fold::<CHECKED>(payload, &mut f) });
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn some_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    fold_some(Frames::<1>::new(bytes), |(kind, payload)| {
        // SAFETY: forwarded from the caller.
        each_kind!(kind, K => unsafe { K::fb_some::<CHECKED>(payload) })
    })
}

impl Codec<Feed> for FlatBuffers {
    const ID: &'static str = ids::FLATBUFFERS;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.frames.clear();
        for msg in &data.messages {
            each_msg!(msg, x => x.fb_encode(&mut self.builder));
            let payload = self.builder.finished_data();
            frame(&mut self.frames, kind_of(msg), |buf| {
                buf.extend_from_slice(payload);
            });
        }
        &self.frames
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| each_kind!(kind, K => K::fb_decode(payload).into_msg()))
            .collect();
        Feed { messages }
    }

    fn access(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<1>::new(bytes) {
            // SAFETY: CHECKED verifies.
            each_kind!(kind, K => unsafe { K::fb_access::<true>(payload) });
        }
        Some(())
    }

    unsafe fn access_unchecked(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<1>::new(bytes) {
            // SAFETY: the caller guarantees `encode`'s output.
            each_kind!(kind, K => unsafe { K::fb_access::<false>(payload) });
        }
        Some(())
    }

    read_methods!(read_fb);
    read_some_methods!(some_fb);
}

// ---- zerocopy ----

fn zc<K: Kind>(payload: &[u8]) -> &K::Zc {
    K::Zc::ref_from_bytes(payload).expect("zerocopy: wrong payload size")
}

impl Codec<Feed> for Zerocopy {
    const ID: &'static str = ids::ZEROCOPY;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.buf.clear();
        for msg in &data.messages {
            each_msg!(msg, x => frame(&mut self.buf, kind_of(msg), |buf| {
                buf.extend_from_slice(x.to_zc().as_bytes());
            }));
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| each_kind!(kind, K => K::from_zc(zc::<K>(payload)).into_msg()))
            .collect();
        Feed { messages }
    }

    fn access(&self, bytes: &[u8]) -> Option<()> {
        for (kind, payload) in Frames::<1>::new(bytes) {
            each_kind!(kind, K => keep(zc::<K>(payload)));
        }
        Some(())
    }

    fn read(&self, bytes: &[u8]) -> Option<u64> {
        let mut f = Fold::new();
        for (kind, payload) in Frames::<1>::new(bytes) {
            f.u64(u64::from(kind));
            each_kind!(kind, K => K::fold_zc(zc::<K>(payload), &mut f));
        }
        Some(f.finish())
    }

    fn read_some(&self, bytes: &[u8]) -> Option<u64> {
        Some(fold_some(
            Frames::<1>::new(bytes),
            |(kind, payload)| each_kind!(kind, K => K::some_zc(zc::<K>(payload))),
        ))
    }

    fn update(&self, bytes: &mut [u8], round: u64) -> Option<()> {
        for_each_frame_mut::<1>(bytes, |i, kind, payload| {
            each_kind!(kind, K => {
                let zc = <K as Kind>::Zc::mut_from_bytes(payload).expect("zerocopy: wrong payload size");
                K::set_sequence_zc(zc, new_sequence(round, i));
            });
        });
        Some(())
    }
}

// ---- SBE ----

/// Folds every frame; each payload is an SBE header and block, decoded with
/// the header check (`CHECKED`) or wrapped without it.
#[inline(always)]
fn read_sbe<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    let mut f = Fold::new();
    for (kind, payload) in Frames::<1>::new(bytes) {
        f.u64(u64::from(kind));
        each_kind!(kind, K => if CHECKED {
            K::fold_sbe(payload, &mut f).valid("sbe");
        } else {
            K::fold_sbe_unchecked(payload, &mut f);
        });
    }
    f.finish()
}

impl Codec<Feed> for Sbe {
    const ID: &'static str = ids::SBE;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.buf.clear();
        for msg in &data.messages {
            each_msg!(msg, x => frame(&mut self.buf, kind_of(msg), |buf| sbe::append(x, buf)));
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| {
                each_kind!(kind, K => K::decode_sbe(payload).valid("sbe").into_msg())
            })
            .collect();
        Feed { messages }
    }

    fn read(&self, bytes: &[u8]) -> Option<u64> {
        Some(read_sbe::<true>(bytes))
    }

    unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
        Some(read_sbe::<false>(bytes))
    }
}

// ---- prost, postcard, JSON: encode and decode, framed the same way ----

impl Codec<Feed> for Protobuf {
    const ID: &'static str = ids::PROST;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.buf.clear();
        for msg in &data.messages {
            each_msg!(msg, x => frame(&mut self.buf, kind_of(msg), |buf| {
                // The prost struct is all scalars: building it copies
                // registers, allocates nothing.
                x.to_pb().encode(buf).expect("prost: a Vec grows as needed");
            }));
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| {
                each_kind!(kind, K => K::from_pb(
                    <K as Kind>::Pb::decode(payload).valid("prost")
                ).into_msg())
            })
            .collect();
        Feed { messages }
    }
}

impl Codec<Feed> for Postcard {
    const ID: &'static str = ids::POSTCARD;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.buf.clear();
        for msg in &data.messages {
            each_msg!(msg, x => frame(&mut self.buf, kind_of(msg), |buf| {
                let out = std::mem::take(buf);
                *buf = postcard::to_extend(x, out).expect("postcard: encode into a Vec cannot fail");
            }));
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| {
                each_kind!(kind, K => postcard::from_bytes::<K>(payload)
                    .valid("postcard")
                    .into_msg())
            })
            .collect();
        Feed { messages }
    }
}

impl Codec<Feed> for Json {
    const ID: &'static str = ids::JSON;

    fn encode(&mut self, data: &Feed) -> &[u8] {
        self.buf.clear();
        for msg in &data.messages {
            each_msg!(msg, x => frame(&mut self.buf, kind_of(msg), |buf| {
                serde_json::to_writer(buf, x).expect("serde_json: encode into a Vec cannot fail");
            }));
        }
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Feed {
        let messages = Frames::<1>::new(bytes)
            .map(|(kind, payload)| {
                each_kind!(kind, K => serde_json::from_slice::<K>(payload)
                    .valid("serde_json")
                    .into_msg())
            })
            .collect();
        Feed { messages }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_30_to_60_bytes_and_every_kind_occurs() {
        let feed = Feed::generate(Feed::LEN);
        assert_eq!(feed.messages.len(), 100_000);
        let mut seen = std::collections::BTreeMap::new();
        for msg in &feed.messages {
            let len = each_msg!(msg, x => x.encoded_len());
            assert!((30..=60).contains(&len), "{msg:?}: {len} bytes");
            *seen.entry(kind_of(msg)).or_insert(0usize) += 1;
        }
        assert_eq!(seen.len(), 5, "{seen:?}");
        assert!(seen.values().all(|&n| n > 1000), "{seen:?}");
    }

    #[test]
    fn zerocopy_payloads_are_wiremsg_payloads() {
        let feed = Feed::generate(500);
        let zc = Codec::<Feed>::encode(&mut Zerocopy::default(), &feed).to_vec();
        let wm = Codec::<Feed>::encode(&mut Wiremsg::default(), &feed).to_vec();
        assert_eq!(zc, wm);
    }

    #[test]
    fn rkyv_payloads_are_aligned_archives() {
        let feed = Feed::generate(500);
        let mut rkyv = Rkyv::default();
        let bytes = crate::format::aligned_copy(Codec::<Feed>::encode(&mut rkyv, &feed));
        let mut n = 0;
        for (kind, payload) in Frames::<RKYV_ALIGN>::new(&bytes) {
            assert_eq!(payload.as_ptr() as usize % RKYV_ALIGN, 0);
            let size = each_kind!(kind, K => size_of::<<K as Archive>::Archived>());
            assert_eq!(payload.len(), size);
            n += 1;
        }
        assert_eq!(n, 500);
    }

    #[test]
    fn wiremsg_frames_are_feed_frame_unions() {
        let feed = Feed::generate(500);
        let bytes = Codec::<Feed>::encode(&mut Wiremsg::default(), &feed).to_vec();
        let tagged: Vec<&[u8]> = tagged_frames(&bytes).collect();
        assert_eq!(tagged.len(), 500);
        for (msg, tagged) in feed.messages.iter().zip(tagged) {
            assert_eq!(tagged[0], kind_of(msg));
            let read = crate::each_variant!(FeedFrameLazy, FeedFrame::view_lazy(tagged).unwrap(), K, v => {
                let mut f = Fold::new();
                K::fold_lazy(v, &mut f).unwrap();
                f.finish()
            });
            let mut f = Fold::new();
            each_msg!(msg, x => x.fold(&mut f));
            assert_eq!(read, f.finish());
            assert!(FeedFrame::view(tagged).is_ok());
        }
        // An unknown kind is the union's error, not a panic.
        let err = FeedFrame::view_lazy(&[b'Z', 0, 0]).err().unwrap();
        assert!(matches!(
            err.kind(),
            wiremsg::ErrorKind::UnknownVariant { tag: 0x5A, .. }
        ));
    }

    #[test]
    fn the_wiremsg_stream_reads_back_every_message() {
        let feed = Feed::generate(500);
        let stream = wiremsg_stream(&feed);
        // 12 bytes before each message: the frame length and the message header.
        let payloads: usize = feed
            .messages
            .iter()
            .map(|m| each_msg!(m, x => x.encoded_len()))
            .sum();
        assert_eq!(stream.len(), payloads + 12 * 500);
        let mut reader = wiremsg::frame::FrameReader::new(&stream[..]);
        for msg in &feed.messages {
            let (mut read, mut want) = (Fold::new(), Fold::new());
            each_msg!(msg, x => x.fold(&mut want));
            each_kind!(kind_of(msg), K => {
                let (header, view) = reader.next_view::<K>().unwrap().unwrap();
                assert_eq!((header.schema_id, header.version), (6, 1));
                K::fold_view(view, &mut read);
            });
            assert_eq!(read.finish(), want.finish());
        }
        assert!(reader.next_frame().unwrap().is_none());
    }

    #[test]
    fn frames_walk_what_was_framed() {
        let mut buf = Vec::new();
        frame(&mut buf, ADD, |b| b.extend_from_slice(b"abc"));
        frame(&mut buf, DELETE, |_| {});
        assert_eq!(buf, [3, 0, b'A', b'a', b'b', b'c', 0, 0, b'D']);
        let frames: Vec<_> = Frames::<1>::new(&buf).collect();
        assert_eq!(frames, [(ADD, &b"abc"[..]), (DELETE, &b""[..])]);
    }
}
