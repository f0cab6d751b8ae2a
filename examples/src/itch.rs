//! ITCH-style market-data messages: the feed of the `market_data` example.
//!
//! The messages follow the shape of public exchange feed specifications (Nasdaq
//! TotalView-ITCH 5.0: system event, add order, order executed, order cancel, order
//! delete, non-cross trade), with two changes that suit a demonstration: every
//! message carries its own `sequence` number (ITCH leaves that to the MoldUDP64
//! packet), and timestamps are full `u64` nanoseconds since midnight (ITCH packs
//! them in 6 bytes).
//!
//! All messages are fixed-size, so each is its block alone; on the wire each follows
//! an 8-byte [`MessageHeader`] (FORMAT.md §8) whose block length lets a receiver walk
//! a datagram of several messages without knowing their types.
//!
//! # Prices
//!
//! Prices are fixed-point `i64` with **4 decimal places** ([`PRICE_SCALE`] = 10,000
//! units per dollar), as ITCH's `Price(4)`: `$123.45` is `1_234_500`.
//!
//! # Datagrams
//!
//! ```text
//! [header][Packet]  [header][message]  [header][message] ...
//! ```
//!
//! A datagram starts with a [`Packet`] (session, first sequence number, message count
//! and the send time), then `count` messages of the [`Feed`].

use wiremsg::{FixedStr, MessageHeader, Template, WireDispatch, WireEnum, WireMsg};

/// Units of a price per dollar: prices have 4 decimal places.
pub const PRICE_SCALE: i64 = 10_000;

/// The schema id of every message of the feed (in each [`MessageHeader`]).
pub const SCHEMA_ID: u16 = 1;

/// Largest datagram the publisher sends (bytes of UDP payload): fits a 1,500-byte
/// Ethernet MTU with room for the IP and UDP headers.
pub const MAX_DATAGRAM: usize = 1_400;

/// Formats a fixed-point price (4 decimal places) as dollars, e.g. `123.4500`.
pub fn format_price(price: i64) -> String {
    let sign = if price < 0 { "-" } else { "" };
    let abs = price.unsigned_abs();
    let scale = PRICE_SCALE as u64;
    format!("{sign}{}.{:04}", abs / scale, abs % scale)
}

/// Buy or sell, as ITCH's `Buy/Sell Indicator`.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Side {
    /// A bid.
    Buy = b'B',
    /// An offer.
    Sell = b'S',
}

/// The event of a [`SystemEvent`], as ITCH's `Event Code`.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum EventCode {
    /// First message of the session.
    StartOfMessages = b'O',
    /// The system is open; no trading yet.
    StartOfSystemHours = b'S',
    /// Trading starts.
    StartOfMarketHours = b'Q',
    /// Trading ends.
    EndOfMarketHours = b'M',
    /// The system closes.
    EndOfSystemHours = b'E',
    /// Last message of the session.
    EndOfMessages = b'C',
}

/// The first message of every datagram: like a MoldUDP64 packet header, plus the
/// publisher's send time.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 100, schema_id = 1)]
pub struct Packet {
    /// Session id of the feed.
    pub session: u32,
    /// Sequence number of the first message in the datagram.
    pub first_sequence: u64,
    /// Messages that follow in the datagram.
    pub count: u16,
    /// When the publisher handed the datagram to the socket: nanoseconds since the
    /// run's common clock origin (set in place just before the send).
    pub send_time_ns: u64,
}

/// A change of the market's state (ITCH `S`).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 1, schema_id = 1)]
pub struct SystemEvent {
    /// Message sequence number in the session, from 1.
    pub sequence: u64,
    /// Nanoseconds since midnight.
    pub timestamp_ns: u64,
    /// What happened.
    pub event: EventCode,
}

/// A new order rests on the book (ITCH `A`).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 2, schema_id = 1)]
pub struct AddOrder {
    /// Message sequence number in the session, from 1.
    pub sequence: u64,
    /// Nanoseconds since midnight.
    pub timestamp_ns: u64,
    /// Dense index of the instrument (ITCH `Stock Locate`), from 0.
    pub locate: u16,
    /// Unique reference of the order, used by later messages.
    pub order_ref: u64,
    /// Bid or offer.
    pub side: Side,
    /// Displayed quantity.
    pub shares: u32,
    /// Instrument symbol, space-padded to 8 bytes.
    pub symbol: FixedStr<8>,
    /// Limit price, 4 decimal places.
    pub price: i64,
}

/// Part or all of a resting order traded at its price (ITCH `E`).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 3, schema_id = 1)]
pub struct OrderExecuted {
    /// Message sequence number in the session, from 1.
    pub sequence: u64,
    /// Nanoseconds since midnight.
    pub timestamp_ns: u64,
    /// Dense index of the instrument.
    pub locate: u16,
    /// The order that traded.
    pub order_ref: u64,
    /// Shares traded (at most the order's remaining shares).
    pub executed_shares: u32,
    /// Unique id of the trade.
    pub match_number: u64,
}

/// Part of a resting order was cancelled (ITCH `X`).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 4, schema_id = 1)]
pub struct OrderCancel {
    /// Message sequence number in the session, from 1.
    pub sequence: u64,
    /// Nanoseconds since midnight.
    pub timestamp_ns: u64,
    /// Dense index of the instrument.
    pub locate: u16,
    /// The order.
    pub order_ref: u64,
    /// Shares removed (fewer than the order's remaining shares).
    pub cancelled_shares: u32,
}

/// A resting order left the book (ITCH `D`).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 5, schema_id = 1)]
pub struct OrderDelete {
    /// Message sequence number in the session, from 1.
    pub sequence: u64,
    /// Nanoseconds since midnight.
    pub timestamp_ns: u64,
    /// Dense index of the instrument.
    pub locate: u16,
    /// The order.
    pub order_ref: u64,
}

/// A trade against a non-displayed order (ITCH `P`): no effect on the book.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 6, schema_id = 1)]
pub struct Trade {
    /// Message sequence number in the session, from 1.
    pub sequence: u64,
    /// Nanoseconds since midnight.
    pub timestamp_ns: u64,
    /// Dense index of the instrument.
    pub locate: u16,
    /// Reference of the hidden order.
    pub order_ref: u64,
    /// Side of the hidden order.
    pub side: Side,
    /// Shares traded.
    pub shares: u32,
    /// Instrument symbol.
    pub symbol: FixedStr<8>,
    /// Trade price, 4 decimal places.
    pub price: i64,
    /// Unique id of the trade.
    pub match_number: u64,
}

/// Every message of the feed, dispatched by the template id of its header.
#[derive(WireDispatch, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Feed {
    /// Template 1.
    System(SystemEvent),
    /// Template 2.
    Add(AddOrder),
    /// Template 3.
    Executed(OrderExecuted),
    /// Template 4.
    Cancel(OrderCancel),
    /// Template 5.
    Delete(OrderDelete),
    /// Template 6.
    Trade(Trade),
}

impl Feed {
    /// The message's sequence number.
    pub fn sequence(&self) -> u64 {
        match self {
            Feed::System(m) => m.sequence,
            Feed::Add(m) => m.sequence,
            Feed::Executed(m) => m.sequence,
            Feed::Cancel(m) => m.sequence,
            Feed::Delete(m) => m.sequence,
            Feed::Trade(m) => m.sequence,
        }
    }

    /// Bytes of header and message on the wire.
    pub fn wire_len(&self) -> usize {
        match self {
            Feed::System(m) => m.encoded_len_with_header(),
            Feed::Add(m) => m.encoded_len_with_header(),
            Feed::Executed(m) => m.encoded_len_with_header(),
            Feed::Cancel(m) => m.encoded_len_with_header(),
            Feed::Delete(m) => m.encoded_len_with_header(),
            Feed::Trade(m) => m.encoded_len_with_header(),
        }
    }

    /// Writes header and message at the start of `out` without allocating; returns
    /// the bytes written.
    ///
    /// # Errors
    ///
    /// [`wiremsg::ErrorKind::BufferTooSmall`] if `out` is too short.
    pub fn encode_with_header_into(&self, out: &mut [u8]) -> Result<usize, wiremsg::Error> {
        match self {
            Feed::System(m) => m.encode_with_header_into(out),
            Feed::Add(m) => m.encode_with_header_into(out),
            Feed::Executed(m) => m.encode_with_header_into(out),
            Feed::Cancel(m) => m.encode_with_header_into(out),
            Feed::Delete(m) => m.encode_with_header_into(out),
            Feed::Trade(m) => m.encode_with_header_into(out),
        }
    }
}

impl FeedView<'_> {
    /// The message's sequence number, read in place.
    #[inline]
    pub fn sequence(&self) -> u64 {
        match self {
            FeedView::System(m) => m.sequence(),
            FeedView::Add(m) => m.sequence(),
            FeedView::Executed(m) => m.sequence(),
            FeedView::Cancel(m) => m.sequence(),
            FeedView::Delete(m) => m.sequence(),
            FeedView::Trade(m) => m.sequence(),
        }
    }
}

/// Bytes of a datagram's [`Packet`] with its header.
pub const PACKET_LEN: usize = MessageHeader::LEN + Packet::BLOCK_LENGTH;
