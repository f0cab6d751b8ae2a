//! `events`: the feed's 100,000 ITCH-style messages as **one** message, a list of a
//! tagged union (`Vec<FeedMsg>`), where [`super::feed`] frames each message on its
//! own. The case of a union-heavy record: a batch of market-data events, a journal
//! of order instructions.
//!
//! | format | the shape |
//! |---|---|
//! | wiremsg | `Events { events: Vec<FeedMsg> }`, `FeedMsg` a `#[derive(WireUnion)]` of the five messages: a table list (O(1) per element), each element its `u8` tag then the message's block (FORMAT.md §4.10) |
//! | rkyv | the same Rust types: an archived `Vec` of an archived enum |
//! | FlatBuffers | `EventBatch { events: [Event] }`, `Event { msg: FeedEvent }` a one-field table holding the union (its Rust code cannot make a vector of a union type) |
//! | capnp | `Events { events :List(Event) }`, `Event` an anonymous union of one group per kind (one struct per element, sized for the largest kind) |
//! | Protobuf | `repeated Event`, `Event { oneof msg }` |
//! | postcard, JSON | serde's externally tagged enum |
//!
//! The metrics are the feed's: `read` folds every event's kind byte then its fields
//! (the same checksum as the feed's), `read_some` loads `stock_locate` and
//! `order_ref` of every event (a union read: the tag, a branch, the field),
//! `update` re-stamps every event's sequence number in place, through the present
//! variant's mutable view. The wiremsg, rkyv and serde codecs are
//! `derived_codecs!` in the parent module, given those folds and stores.
//!
//! On demand (`read_lazy`, `read_some_lazy`): the list's header, then each
//! event as the list's `get` reads it: its tag and its payload's header
//! checked (by the union's table of its variants' headers), then the fields
//! as they are read, so the sparse read of one event checks its two fields,
//! not the rest of it.

// rkyv's derives on the enum make helper types without `Debug`.
#![allow(missing_debug_implementations)]

use crate::each_variant;
use crate::format::Valid;
use prost::Message as _;
use rkyv::munge::munge;
use rkyv::seal::Seal;
use rkyv::vec::ArchivedVec;
use wiremsg::WireMsg;

use super::feed::{
    AddOrder, AddOrderPb, ArchivedFeedMsg, Feed, FeedMsg, FeedMsgLazy, FeedMsgMut, FeedMsgView,
    Kind, OrderCancel, OrderCancelPb, OrderDelete, OrderDeletePb, OrderExecuted, OrderExecutedPb,
    Trade, TradePb, checksum_of, checksum_some_of, each_msg, new_sequence, restamp,
};
use super::{
    Codec, CodecVisitor, Dataset, derived_codecs, fb_access_methods, fb_root, fold_some, ids,
    read_methods, read_some_methods, rkyv_root, rkyv_root_mut, try_fold_some, visit_formats,
    wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::capnp::{Capnp, capnp_methods, from_enum, message as capnp_message, to_enum};
use crate::formats::flatbuffers::{FlatBuffers, root};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;
use crate::formats::protobuf::Protobuf;

/// The data set: the feed's messages, in feed order, in one message.
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    WireMsg,
)]
pub struct Events {
    /// The events.
    pub events: Vec<FeedMsg>,
}

impl Dataset for Events {
    const NAME: &'static str = "events";
    const LEN: usize = 100_000;

    fn generate(len: usize) -> Self {
        let Feed { messages } = super::feed::generate_feed(len);
        Self { events: messages }
    }

    fn checksum(&self) -> u64 {
        checksum_of(&self.events)
    }

    fn checksum_some(&self) -> Option<u64> {
        Some(checksum_some_of(&self.events))
    }

    fn apply_update(&mut self, round: u64) {
        restamp(&mut self.events, round);
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor);
    }
}

// ---- wiremsg ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn read_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let view = unsafe { wiremsg_view::<Events, CHECKED>(bytes) };
    let mut f = Fold::new();
    for event in view.events() {
        each_variant!(FeedMsgView, event, K, v => {
            f.u64(u64::from(K::KIND));
            K::fold_view(v, &mut f);
        });
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn some_wiremsg<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let view = unsafe { wiremsg_view::<Events, CHECKED>(bytes) };
    fold_some(
        view.events(),
        |event| each_variant!(FeedMsgView, event, K, v => K::some_view(v)),
    )
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn update_wiremsg<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let mut batch = unsafe { wiremsg_mut::<Events, CHECKED>(bytes) };
    let mut events = batch.events_mut();
    for i in 0..events.len() {
        let event = events.get_mut(i).expect("wiremsg: index below len");
        each_variant!(FeedMsgMut, event, K, v => K::set_sequence_wiremsg(v, new_sequence(round, i)));
    }
}

/// `read_lazy`: the fold of `read`, each event's tag checked as it is read and
/// its payload's fields as they are read.
#[inline(always)]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let view = Events::view_lazy(bytes)?;
    let mut f = Fold::new();
    for event in view.events()? {
        each_variant!(FeedMsgLazy, event?, K, v => {
            f.u64(u64::from(K::KIND));
            K::fold_lazy(v, &mut f)?;
        });
    }
    Ok(f.finish())
}

/// `read_some_lazy`: `read_some`'s fields, each event's tag and those fields
/// checked as they are read.
#[inline(always)]
fn some_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let view = Events::view_lazy(bytes)?;
    try_fold_some(
        view.events()?,
        |event| each_variant!(FeedMsgLazy, event, K, v => K::some_lazy(v)),
    )
}

// ---- rkyv ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote, at an aligned address.
#[inline(always)]
unsafe fn read_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { rkyv_root::<ArchivedEvents, CHECKED>(bytes) };
    let mut f = Fold::new();
    for event in batch.events.iter() {
        each_variant!(ArchivedFeedMsg, event, K, v => {
            f.u64(u64::from(K::KIND));
            K::fold_archived(v, &mut f);
        });
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote, at an aligned address.
#[inline(always)]
unsafe fn some_rkyv<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { rkyv_root::<ArchivedEvents, CHECKED>(bytes) };
    fold_some(
        batch.events.iter(),
        |event| each_variant!(ArchivedFeedMsg, event, K, v => K::some_archived(v)),
    )
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote, at an aligned address.
#[inline(always)]
unsafe fn update_rkyv<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { rkyv_root_mut::<ArchivedEvents, CHECKED>(bytes) };
    munge!(let ArchivedEvents { events } = batch);
    let mut events = ArchivedVec::as_slice_seal(events);
    for i in 0..events.len() {
        // SAFETY: only a variant's `sequence` (a plain integer) is written below;
        // the enum's tag and every other byte stay as they are.
        let event = unsafe { events.as_mut().index(i).unseal_unchecked() };
        each_variant!(ArchivedFeedMsg, event, K, v => {
            K::set_sequence_archived(Seal::new(v), new_sequence(round, i))
        });
    }
}

derived_codecs!(
    Events,
    ArchivedEvents,
    read: (read_wiremsg, read_rkyv),
    read_some: (some_wiremsg, some_rkyv),
    update: (update_wiremsg, update_rkyv),
    read_lazy: read_lazy_wiremsg,
    read_some_lazy: some_lazy_wiremsg,
);

// ---- FlatBuffers ----

/// `match` on a FlatBuffers `Event`'s union tag with the same body for every kind,
/// `$k` a type alias of the kind's message type and `$data` its struct. Panics on a
/// tag that is not a kind (`NONE`), which `encode` never writes.
///
/// # Safety (of the expansion)
///
/// `$event` is in a verified buffer, or in `encode`'s output.
macro_rules! each_fb_kind {
    ($event:expr, $k:ident, $data:ident => $body:expr) => {{
        let event = $event;
        match event.msg_type() {
            fb::FeedEvent::AddOrder => {
                type $k = AddOrder;
                // SAFETY: the tag says the member is this kind's table; the buffer
                // is verified or trusted (the caller's guarantee).
                let $data = unsafe { <$k as Kind>::fb_member_data(event.msg()) };
                $body
            }
            fb::FeedEvent::OrderExecuted => {
                type $k = OrderExecuted;
                // SAFETY: the tag says the member is this kind's table; the buffer
                // is verified or trusted (the caller's guarantee).
                let $data = unsafe { <$k as Kind>::fb_member_data(event.msg()) };
                $body
            }
            fb::FeedEvent::OrderCancel => {
                type $k = OrderCancel;
                // SAFETY: the tag says the member is this kind's table; the buffer
                // is verified or trusted (the caller's guarantee).
                let $data = unsafe { <$k as Kind>::fb_member_data(event.msg()) };
                $body
            }
            fb::FeedEvent::OrderDelete => {
                type $k = OrderDelete;
                // SAFETY: the tag says the member is this kind's table; the buffer
                // is verified or trusted (the caller's guarantee).
                let $data = unsafe { <$k as Kind>::fb_member_data(event.msg()) };
                $body
            }
            fb::FeedEvent::Trade => {
                type $k = Trade;
                // SAFETY: the tag says the member is this kind's table; the buffer
                // is verified or trusted (the caller's guarantee).
                let $data = unsafe { <$k as Kind>::fb_member_data(event.msg()) };
                $body
            }
            other => panic!("flatbuffers: event of no kind ({other:?})"),
        }
    }};
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn read_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { fb_root::<fb::EventBatch<'_>, CHECKED>(bytes) };
    let mut f = Fold::new();
    for event in batch.events() {
        each_fb_kind!(event, K, data => {
            f.u64(u64::from(K::KIND));
            K::fold_fb_data(data, &mut f);
        });
    }
    f.finish()
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is what `encode` wrote.
#[inline(always)]
unsafe fn some_fb<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let batch = unsafe { fb_root::<fb::EventBatch<'_>, CHECKED>(bytes) };
    fold_some(
        batch.events(),
        |event| each_fb_kind!(event, K, data => K::some_fb_data(data)),
    )
}

impl Codec<Events> for FlatBuffers {
    const ID: &'static str = ids::FLATBUFFERS;

    fn encode(&mut self, data: &Events) -> &[u8] {
        let b = &mut self.builder;
        b.reset();
        self.events.clear();
        for msg in &data.events {
            let (msg_type, member) = each_msg!(msg, x => x.fb_member(b));
            self.events.push(fb::Event::create(
                b,
                &fb::EventArgs {
                    msg_type,
                    msg: Some(member),
                },
            ));
        }
        let events = b.create_vector(&self.events);
        let root = fb::EventBatch::create(
            b,
            &fb::EventBatchArgs {
                events: Some(events),
            },
        );
        b.finish_minimal(root);
        b.finished_data()
    }

    fn decode(&self, bytes: &[u8]) -> Events {
        let batch = root::<fb::EventBatch<'_>>(bytes);
        let events = batch
            .events()
            .iter()
            .map(|event| each_fb_kind!(event, K, data => K::from_fb_data(data).into_msg()))
            .collect();
        Events { events }
    }

    fb_access_methods!(fb::EventBatch<'_>);

    read_methods!(read_fb);
    read_some_methods!(some_fb);
}

// ---- capnp ----

/// A field of an event kind as the fold takes it (`fold`), as the model's
/// value (`from`) and as capnp's (`to`), by field type (`sym`, `side`, or a
/// number).
macro_rules! capnp_field {
    (fold, sym, $e:expr) => {
        $e
    };
    (fold, side, $e:expr) => {
        u64::from(u16::from($e?))
    };
    (fold, $t:ident, $e:expr) => {
        $e as u64
    };
    (from, sym, $e:expr) => {
        $e.to_le_bytes()
    };
    (from, side, $e:expr) => {
        from_enum($e?)
    };
    (from, $t:ident, $e:expr) => {
        $e
    };
    (to, sym, $e:expr) => {
        u64::from_le_bytes($e)
    };
    (to, side, $e:expr) => {
        to_enum::<pc::Side>($e as u8)
    };
    (to, $t:ident, $e:expr) => {
        $e
    };
}

/// capnp's fold, sparse read, decoding and encoding of an `Event` (a union of
/// one group per kind), from each kind's fields in the model's order: its
/// variant, model type and group initializer, then `type field getter setter`
/// for each field (the fold's order: `feed_kind!`'s).
macro_rules! capnp_events {
    ($(
        $variant:ident($ty:ident, $init:ident) {
            $($t:ident $field:ident $get:ident $set:ident),* $(,)?
        }
    )*) => {
        /// Folds an event as `read` does: its kind byte, then its fields (the
        /// union's discriminant checked, and `side`).
        #[inline(always)]
        fn fold_event_capnp(f: &mut Fold, event: pc::event::Reader<'_>) -> capnp::Result<()> {
            match event.which()? {
                $(pc::event::Which::$variant(x) => {
                    f.u64(u64::from(<$ty as super::feed::Kind>::KIND));
                    $(f.u64(capnp_field!(fold, $t, x.$get()));)*
                })*
            }
            Ok(())
        }

        /// `stock_locate` and `order_ref` of an event (its discriminant checked).
        #[inline(always)]
        fn some_event_capnp(event: pc::event::Reader<'_>) -> capnp::Result<[u64; 2]> {
            Ok(match event.which()? {
                $(pc::event::Which::$variant(x) => {
                    [u64::from(x.get_stock_locate()), x.get_order_ref()]
                })*
            })
        }

        /// The model's message of an event.
        fn event_of_capnp(event: pc::event::Reader<'_>) -> capnp::Result<FeedMsg> {
            Ok(match event.which()? {
                $(pc::event::Which::$variant(x) => FeedMsg::$variant($ty {
                    $($field: capnp_field!(from, $t, x.$get()),)*
                }),)*
            })
        }

        /// Writes `msg` into an event.
        fn set_event_capnp(out: pc::event::Builder<'_>, msg: &FeedMsg) {
            match msg {
                $(FeedMsg::$variant(m) => {
                    let mut x = out.$init();
                    $(x.$set(capnp_field!(to, $t, m.$field));)*
                })*
            }
        }
    };
}

capnp_events! {
    Add(AddOrder, init_add) {
        u64 sequence get_sequence set_sequence,
        u64 timestamp_ns get_timestamp_ns set_timestamp_ns,
        u16 stock_locate get_stock_locate set_stock_locate,
        u16 tracking get_tracking set_tracking,
        sym symbol get_symbol set_symbol,
        u64 order_ref get_order_ref set_order_ref,
        side side get_side set_side,
        u32 shares get_shares set_shares,
        i64 price get_price set_price,
    }
    Executed(OrderExecuted, init_executed) {
        u64 sequence get_sequence set_sequence,
        u64 timestamp_ns get_timestamp_ns set_timestamp_ns,
        u16 stock_locate get_stock_locate set_stock_locate,
        u16 tracking get_tracking set_tracking,
        sym symbol get_symbol set_symbol,
        u64 order_ref get_order_ref set_order_ref,
        u32 executed_shares get_executed_shares set_executed_shares,
        u64 match_number get_match_number set_match_number,
    }
    Cancel(OrderCancel, init_cancel) {
        u64 sequence get_sequence set_sequence,
        u64 timestamp_ns get_timestamp_ns set_timestamp_ns,
        u16 stock_locate get_stock_locate set_stock_locate,
        u16 tracking get_tracking set_tracking,
        sym symbol get_symbol set_symbol,
        u64 order_ref get_order_ref set_order_ref,
        u32 cancelled_shares get_cancelled_shares set_cancelled_shares,
    }
    Delete(OrderDelete, init_delete) {
        u64 sequence get_sequence set_sequence,
        u64 timestamp_ns get_timestamp_ns set_timestamp_ns,
        u16 stock_locate get_stock_locate set_stock_locate,
        u16 tracking get_tracking set_tracking,
        sym symbol get_symbol set_symbol,
        u64 order_ref get_order_ref set_order_ref,
    }
    Trade(Trade, init_trade) {
        u64 sequence get_sequence set_sequence,
        u64 timestamp_ns get_timestamp_ns set_timestamp_ns,
        u16 stock_locate get_stock_locate set_stock_locate,
        u16 tracking get_tracking set_tracking,
        sym symbol get_symbol set_symbol,
        u64 order_ref get_order_ref set_order_ref,
        side side get_side set_side,
        u32 shares get_shares set_shares,
        i64 price get_price set_price,
        u64 match_number get_match_number set_match_number,
    }
}

/// `read`: every event's kind byte and fields (the list's pointer, each
/// event's discriminant and `side` checked as they are read).
#[inline(always)]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let events = message.get_root::<pc::events::Reader<'_>>()?.get_events()?;
    let mut f = Fold::new();
    for event in events {
        fold_event_capnp(&mut f, event)?;
    }
    Ok(f.finish())
}

/// `read_some`: `stock_locate` and `order_ref` of every event (a union read:
/// the discriminant, a branch, the fields).
#[inline(always)]
fn some_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let events = message.get_root::<pc::events::Reader<'_>>()?.get_events()?;
    let mut f = Fold::new();
    for event in events {
        for value in some_event_capnp(event)? {
            f.u64(value);
        }
    }
    Ok(f.finish())
}

impl Codec<Events> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &Events) -> &[u8] {
        self.encode_root::<pc::events::Owned>(|root| {
            let mut events = root.init_events(data.events.len() as u32);
            for (i, msg) in data.events.iter().enumerate() {
                set_event_capnp(events.reborrow().get(i as u32), msg);
            }
        })
    }

    fn decode(&self, bytes: &[u8]) -> Events {
        let decode = || -> capnp::Result<Events> {
            let message = capnp_message(bytes)?;
            let events = message.get_root::<pc::events::Reader<'_>>()?.get_events()?;
            let mut out = Vec::with_capacity(events.len() as usize);
            for event in events {
                out.push(event_of_capnp(event)?);
            }
            Ok(Events { events: out })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::events::Reader<'_>, read: read_capnp, read_some: some_capnp);
}

// ---- Protobuf (what prost-build would generate) ----

/// `message Event { oneof msg { AddOrder add = 1; OrderExecuted executed = 2;
/// OrderCancel cancel = 3; OrderDelete delete = 4; Trade trade = 5; } }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EventPb {
    /// The present kind.
    #[prost(oneof = "EventMsgPb", tags = "1, 2, 3, 4, 5")]
    pub msg: Option<EventMsgPb>,
}

/// The `oneof msg` of [`EventPb`].
#[derive(Clone, PartialEq, prost::Oneof)]
pub enum EventMsgPb {
    /// `A`.
    #[prost(message, tag = "1")]
    Add(AddOrderPb),
    /// `E`.
    #[prost(message, tag = "2")]
    Executed(OrderExecutedPb),
    /// `X`.
    #[prost(message, tag = "3")]
    Cancel(OrderCancelPb),
    /// `D`.
    #[prost(message, tag = "4")]
    Delete(OrderDeletePb),
    /// `P`.
    #[prost(message, tag = "5")]
    Trade(TradePb),
}

/// `message EventBatch { repeated Event events = 1; }`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EventBatchPb {
    /// The events.
    #[prost(message, repeated, tag = "1")]
    pub events: Vec<EventPb>,
}

fn to_pb(msg: &FeedMsg) -> EventPb {
    let msg = match msg {
        FeedMsg::Add(x) => EventMsgPb::Add(x.to_pb()),
        FeedMsg::Executed(x) => EventMsgPb::Executed(x.to_pb()),
        FeedMsg::Cancel(x) => EventMsgPb::Cancel(x.to_pb()),
        FeedMsg::Delete(x) => EventMsgPb::Delete(x.to_pb()),
        FeedMsg::Trade(x) => EventMsgPb::Trade(x.to_pb()),
    };
    EventPb { msg: Some(msg) }
}

fn from_pb(pb: EventPb) -> FeedMsg {
    match pb.msg.expect("prost: an event without a kind") {
        EventMsgPb::Add(x) => AddOrder::from_pb(x).into_msg(),
        EventMsgPb::Executed(x) => OrderExecuted::from_pb(x).into_msg(),
        EventMsgPb::Cancel(x) => OrderCancel::from_pb(x).into_msg(),
        EventMsgPb::Delete(x) => OrderDelete::from_pb(x).into_msg(),
        EventMsgPb::Trade(x) => Trade::from_pb(x).into_msg(),
    }
}

impl Codec<Events> for Protobuf {
    const ID: &'static str = ids::PROST;

    fn encode(&mut self, data: &Events) -> &[u8] {
        let batch = EventBatchPb {
            events: data.events.iter().map(to_pb).collect(),
        };
        self.buf.clear();
        batch
            .encode(&mut self.buf)
            .expect("prost: encode into a Vec cannot fail");
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Events {
        let batch = EventBatchPb::decode(bytes).valid("prost");
        Events {
            events: batch.events.into_iter().map(from_pb).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::datasets::feed::kind_of;

    #[test]
    fn the_union_list_is_the_feed_in_one_message() {
        let data = Events::generate(500);
        let feed = Feed::generate(500);
        assert_eq!(data.events, feed.messages);
        assert_eq!(data.checksum(), feed.checksum());
        let bytes = data.to_bytes().unwrap();
        let view = Events::view(&bytes).unwrap();
        assert_eq!(view.events().len(), 500);
        // Each element's first byte is its tag: the variant's index.
        let tags: Vec<u8> = data
            .events
            .iter()
            .map(|m| match m {
                FeedMsg::Add(_) => 0,
                FeedMsg::Executed(_) => 1,
                FeedMsg::Cancel(_) => 2,
                FeedMsg::Delete(_) => 3,
                FeedMsg::Trade(_) => 4,
            })
            .collect();
        for (i, event) in view.events().iter().enumerate() {
            let tag = match event {
                FeedMsgView::Add(_) => 0,
                FeedMsgView::Executed(_) => 1,
                FeedMsgView::Cancel(_) => 2,
                FeedMsgView::Delete(_) => 3,
                FeedMsgView::Trade(_) => 4,
            };
            assert_eq!(tag, tags[i], "event {i}");
            assert_eq!(kind_of(&data.events[i]), kind_of(&event.decode()));
        }
    }
}
