//! The market-data feed between hosts (network namespaces, `aeron/hosts/run.sh`):
//! a publisher, subscribers that check every message, late joiners served from a
//! snapshot, and a recorder.
//!
//! - The publisher ([`publish`]) publishes the [`Session`] on the live stream
//!   ([`LIVE_STREAM`]), each message stamped with its send time, then the
//!   publisher's [`BookCheck`]. Every [`PublishConfig::snapshot_every`] it also
//!   publishes a [`BookSnapshot`] on [`SNAPSHOT_STREAM`] (when a subscriber is there):
//!   the schema frame of the stream and the state of every book after a sequence
//!   number.
//! - A subscriber ([`subscribe`]) regenerates the same session (same seed) and
//!   compares every message it receives, byte for byte, with the one expected next
//!   ([`Expected`]): a message lost, duplicated, reordered or misread is counted,
//!   the first one described. It rebuilds the books and compares them with the
//!   publisher's check at the end.
//! - A late joiner (or a subscriber restarted mid-run) subscribes to both streams,
//!   keeps the live messages that arrive until a snapshot covers the first of them,
//!   restores the books from that snapshot and goes on from the snapshot's sequence
//!   number: no gap, no duplicate (the same checks). With `record`, it writes the
//!   snapshot's schema frame and then every live frame to a file that `wiremsg cat`
//!   reads without the Rust types.
//!
//! Reliability is Aeron's: NAKs and retransmits repair the loss the receiving
//! drivers' loss interceptor injects; nothing here resends anything.

use crate::feed::{BookCheck, FRAGMENT_LIMIT};
use crate::process::{Fields, result_line};
use crate::{Error, Node, histogram};
use rusteron_client::{Aeron, IdleStrategy, YieldingIdleStrategy};
use std::fmt;
use std::io::Write;
use std::time::{Duration, Instant};
use wiremsg::{FixedStr, FrameWriter, MessageHeader, SchemaSet, Template, WireMsg, WithHeader};
use wiremsg_examples::Percentiles;
use wiremsg_examples::book::Books;
use wiremsg_examples::itch::{Feed, SCHEMA_ID, Side};
use wiremsg_examples::session::{Session, SessionConfig};

/// The live feed's stream id.
pub const LIVE_STREAM: i32 = 1001;
/// The snapshots' stream id.
pub const SNAPSHOT_STREAM: i32 = 1002;

/// How long a snapshot may be refused before it is skipped.
pub const SNAPSHOT_TIMEOUT: Duration = Duration::from_millis(500);

/// One book's state apart from its orders.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotBook {
    /// Dense index of the instrument.
    pub locate: u16,
    /// Symbol (empty if the book has seen no message).
    pub symbol: FixedStr<8>,
    /// Price of the last execution or trade.
    pub last_price: i64,
    /// Shares executed or traded so far.
    pub volume: u64,
}

/// One resting order.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
pub struct SnapshotOrder {
    /// Its reference.
    pub order_ref: u64,
    /// Dense index of the instrument.
    pub locate: u16,
    /// Bid or offer.
    pub side: Side,
    /// Limit price.
    pub price: i64,
    /// Shares still resting.
    pub shares: u32,
}

/// The stream's state after `last_sequence`: template 102 of the feed's schema (1).
#[derive(WireMsg, Debug, Clone, PartialEq, Eq)]
#[wire(template_id = 102, schema_id = 1)]
pub struct BookSnapshot {
    /// The last sequence number applied to these books.
    pub last_sequence: u64,
    /// The stream's schema frame (`FORMAT.md` §12, without its length prefix): the
    /// feed's messages and the check, for a reader without the Rust types.
    pub schema_frame: Vec<u8>,
    /// Every book, by locate.
    pub books: Vec<SnapshotBook>,
    /// Every resting order, by reference.
    pub orders: Vec<SnapshotOrder>,
}

/// Version 2 of the feed: the add-order message with a field appended (the firm
/// that entered the order), the other messages as in version 1. A version 1
/// reader reads its fields at their offsets and skips the rest (`FORMAT.md`, "an
/// older reader of newer bytes"); a version 2 reader of version 1 bytes reads the
/// firm as its default, 0.
pub mod v2 {
    use wiremsg::{FixedStr, WireDispatch, WireMsg};
    use wiremsg_examples::itch::{self, OrderCancel, OrderDelete, OrderExecuted, Side};
    use wiremsg_examples::itch::{SystemEvent, Trade};

    /// A new order rests on the book, version 2: `firm` appended.
    #[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
    #[wire(template_id = 2, schema_id = 1, version = 2)]
    pub struct AddOrder {
        /// Message sequence number in the session, from 1.
        pub sequence: u64,
        /// Nanoseconds since midnight.
        pub timestamp_ns: u64,
        /// Dense index of the instrument.
        pub locate: u16,
        /// Unique reference of the order.
        pub order_ref: u64,
        /// Bid or offer.
        pub side: Side,
        /// Displayed quantity.
        pub shares: u32,
        /// Instrument symbol, space-padded to 8 bytes.
        pub symbol: FixedStr<8>,
        /// Limit price, 4 decimal places.
        pub price: i64,
        /// The firm that entered the order (0 from a version 1 publisher).
        #[wire(since = 2, default = 0)]
        pub firm: u32,
    }

    /// Every message of the feed, version 2.
    #[derive(WireDispatch, Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Feed {
        /// Template 1.
        System(SystemEvent),
        /// Template 2, version 2.
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

    /// The firm a version 2 publisher gives order `order_ref`.
    pub fn firm_of(order_ref: u64) -> u32 {
        u32::try_from(order_ref % 97).unwrap_or(0) + 1
    }

    impl Feed {
        /// The version 2 form of `m`, with `firm` for an add (a version 1
        /// publisher's add, read with version 2, has firm 0).
        pub fn from_v1(m: &itch::Feed, firm: impl Fn(u64) -> u32) -> Feed {
            match *m {
                itch::Feed::System(m) => Feed::System(m),
                itch::Feed::Add(a) => Feed::Add(AddOrder {
                    sequence: a.sequence,
                    timestamp_ns: a.timestamp_ns,
                    locate: a.locate,
                    order_ref: a.order_ref,
                    side: a.side,
                    shares: a.shares,
                    symbol: a.symbol,
                    price: a.price,
                    firm: firm(a.order_ref),
                }),
                itch::Feed::Executed(m) => Feed::Executed(m),
                itch::Feed::Cancel(m) => Feed::Cancel(m),
                itch::Feed::Delete(m) => Feed::Delete(m),
                itch::Feed::Trade(m) => Feed::Trade(m),
            }
        }
    }

    /// Applies a message read in place with version 2 to `books`.
    pub fn apply_view(books: &mut wiremsg_examples::book::Books, message: &FeedView<'_>) {
        match message {
            FeedView::System(_) => {}
            FeedView::Add(m) => books.add(
                m.locate(),
                m.order_ref(),
                m.side(),
                m.price(),
                m.shares(),
                m.symbol(),
            ),
            FeedView::Executed(m) => books.execute(m.order_ref(), m.executed_shares()),
            FeedView::Cancel(m) => books.cancel(m.order_ref(), m.cancelled_shares()),
            FeedView::Delete(m) => books.delete(m.order_ref()),
            FeedView::Trade(m) => books.trade(m.locate(), m.price(), m.shares(), m.symbol()),
        }
    }
}

/// The schema set of the live stream of feed version `version` (1 or 2): the feed's
/// messages and the check.
///
/// # Errors
///
/// As [`SchemaSet::add`].
pub fn stream_schema(version: u16) -> Result<SchemaSet, wiremsg::Error> {
    let mut set = if version >= 2 {
        v2::Feed::schema_set()?
    } else {
        Feed::schema_set()?
    };
    set.add::<BookCheck>()?;
    Ok(set)
}

/// The live stream's schema frame, without its 4-byte length prefix.
///
/// # Errors
///
/// As [`FrameWriter::write_schema`].
pub fn schema_frame(version: u16) -> Result<Vec<u8>, wiremsg::Error> {
    let mut writer = FrameWriter::new(Vec::new());
    writer.write_schema(&stream_schema(version)?)?;
    let mut bytes = writer.into_inner();
    bytes.drain(..4);
    Ok(bytes)
}

impl BookSnapshot {
    /// The snapshot of `books` after `last_sequence`.
    pub fn of(books: &Books, last_sequence: u64, schema_frame: &[u8]) -> BookSnapshot {
        let mut orders: Vec<SnapshotOrder> = books
            .orders()
            .map(|(order_ref, r)| SnapshotOrder {
                order_ref,
                locate: r.locate,
                side: r.side,
                price: r.price,
                shares: r.shares,
            })
            .collect();
        orders.sort_unstable_by_key(|o| o.order_ref);
        BookSnapshot {
            last_sequence,
            schema_frame: schema_frame.to_vec(),
            books: books
                .books()
                .iter()
                .enumerate()
                .map(|(locate, b)| SnapshotBook {
                    locate: u16::try_from(locate).unwrap_or(u16::MAX),
                    symbol: b.symbol,
                    last_price: b.last_price,
                    volume: b.volume,
                })
                .collect(),
            orders,
        }
    }

    /// The books this snapshot describes.
    pub fn restore(&self, symbols: usize) -> Books {
        let mut books = Books::with_capacity(symbols, symbols * 256);
        for b in &self.books {
            books.restore_book(b.locate, b.symbol.as_str(), b.last_price, b.volume);
        }
        for o in &self.orders {
            books.add(o.locate, o.order_ref, o.side, o.price, o.shares, "");
        }
        books
    }
}

/// What went wrong with one received message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mismatch {
    /// Messages `from..=to` never arrived (the next one did).
    Lost {
        /// First missing sequence number.
        from: u64,
        /// Last missing sequence number.
        to: u64,
    },
    /// A sequence number at or before one already handled arrived again (a
    /// duplicate, or a message out of order).
    Duplicate {
        /// The sequence number that arrived.
        sequence: u64,
        /// The one expected.
        expected: u64,
    },
    /// The message with the expected sequence number is not the one published.
    Misread {
        /// Its sequence number.
        sequence: u64,
        /// First byte that differs.
        at: usize,
    },
    /// The published bytes, read with the subscriber's version of the types, give
    /// other values than the ones published.
    WrongValues {
        /// Its sequence number.
        sequence: u64,
        /// The reader's version.
        version: u16,
    },
    /// The bytes are not a feed message.
    Undecodable(String),
    /// A message beyond the end of the session.
    PastEnd(u64),
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Mismatch::Lost { from, to } => write!(
                f,
                "LOST: messages {from}..={to} never arrived ({} messages)",
                to - from + 1
            ),
            Mismatch::Duplicate { sequence, expected } => write!(
                f,
                "DUPLICATE or REORDERED: message {sequence} arrived where {expected} was expected"
            ),
            Mismatch::Misread { sequence, at } => write!(
                f,
                "MISREAD: message {sequence} differs from the published one at byte {at}"
            ),
            Mismatch::WrongValues { sequence, version } => write!(
                f,
                "MISREAD: message {sequence} read with version {version} of the types gives other values than published"
            ),
            Mismatch::Undecodable(e) => write!(f, "MISREAD: not a feed message: {e}"),
            Mismatch::PastEnd(s) => write!(f, "message {s} is past the end of the session"),
        }
    }
}

/// The session a subscriber expects: the publisher's, regenerated from the same
/// seed, each message compared byte for byte with the one received.
#[derive(Debug)]
pub struct Expected {
    session: Session,
    next: u64,
    last: u64,
    scratch: Vec<u8>,
    stream_version: u16,
    reader_version: u16,
    /// Messages equal to the expected one.
    pub good: u64,
    /// Messages lost (in gaps).
    pub lost: u64,
    /// Duplicated or reordered messages.
    pub duplicates: u64,
    /// Messages misread or undecodable.
    pub misread: u64,
    /// The first mismatch.
    pub first: Option<Mismatch>,
}

impl Expected {
    /// Expects `config`'s session from its first message, version 1 read with
    /// version 1.
    pub fn new(config: SessionConfig) -> Expected {
        Expected::versions(config, 1, 1)
    }

    /// Expects `config`'s session published with feed version `stream_version` and
    /// read with the types of `reader_version` (1 or 2): each message must be the
    /// published bytes, and give the published values through the reader's types.
    pub fn versions(config: SessionConfig, stream_version: u16, reader_version: u16) -> Expected {
        Expected {
            session: Session::new(config),
            next: 1,
            last: config.messages,
            scratch: vec![0; 256],
            stream_version,
            reader_version,
            good: 0,
            lost: 0,
            duplicates: 0,
            misread: 0,
            first: None,
        }
    }

    /// The sequence number expected next.
    pub fn next_sequence(&self) -> u64 {
        self.next
    }

    /// True once every message of the session has been checked.
    pub fn complete(&self) -> bool {
        self.next > self.last
    }

    /// Skips the messages up to `sequence` (covered by a snapshot).
    pub fn skip_to(&mut self, sequence: u64) {
        while self.next <= sequence && self.session.next().is_some() {
            self.next += 1;
        }
    }

    fn note(&mut self, mismatch: Mismatch) {
        if self.first.is_none() {
            self.first = Some(mismatch);
        }
    }

    /// Checks one received message (header and body); returns its sequence number
    /// when it is the expected one, byte for byte.
    pub fn check(&mut self, bytes: &[u8]) -> Option<u64> {
        let sequence = match Feed::view(bytes) {
            Ok((_, view)) => view.sequence(),
            Err(e) => {
                self.misread += 1;
                self.note(Mismatch::Undecodable(e.to_string()));
                return None;
            }
        };
        if sequence < self.next {
            self.duplicates += 1;
            self.note(Mismatch::Duplicate {
                sequence,
                expected: self.next,
            });
            return None;
        }
        if sequence > self.last {
            self.misread += 1;
            self.note(Mismatch::PastEnd(sequence));
            return None;
        }
        if sequence > self.next {
            self.lost += sequence - self.next;
            self.note(Mismatch::Lost {
                from: self.next,
                to: sequence - 1,
            });
            self.skip_to(sequence - 1);
        }
        let expected = self.session.next()?;
        self.next += 1;
        let published = v2::Feed::from_v1(&expected, v2::firm_of);
        let len = if self.stream_version >= 2 {
            published.len_with_header()
        } else {
            expected.wire_len()
        };
        if self.scratch.len() < len {
            self.scratch.resize(len, 0);
        }
        let written = if self.stream_version >= 2 {
            published.write_with_header(&mut self.scratch)
        } else {
            expected.encode_with_header_into(&mut self.scratch)
        }
        .unwrap_or(0);
        let want = &self.scratch[..written];
        if want != bytes {
            let at = want
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(want.len().min(bytes.len()));
            self.misread += 1;
            self.note(Mismatch::Misread { sequence, at });
            return None;
        }
        // The reader's types give the published values.
        let read_back = if self.reader_version >= 2 {
            let firm = if self.stream_version >= 2 {
                v2::firm_of
            } else {
                |_| 0
            };
            v2::Feed::decode(bytes).ok() == Some(v2::Feed::from_v1(&expected, firm))
        } else {
            Feed::decode(bytes).ok() == Some(expected)
        };
        if !read_back {
            self.misread += 1;
            self.note(Mismatch::WrongValues {
                sequence,
                version: self.reader_version,
            });
            return None;
        }
        self.good += 1;
        Some(sequence)
    }

    /// True if nothing was lost, duplicated or misread.
    pub fn clean(&self) -> bool {
        self.lost == 0 && self.duplicates == 0 && self.misread == 0
    }
}

/// The driver's system counter labelled `label` (0 if it has none).
pub fn system_counter(node: &Node, label: &str) -> i64 {
    let counters = node.aeron().counters_reader();
    (0..=counters.max_counter_id())
        .find(|id| {
            counters
                .get_counter_label(*id, 128)
                .is_ok_and(|l| l == label)
        })
        .and_then(|id| counters.get_counter_value(id).ok())
        .unwrap_or(0)
}

/// The publisher's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublishConfig {
    /// The live stream's publication channel.
    pub channel: String,
    /// The snapshots' publication channel (none: no snapshots).
    pub snapshot_channel: Option<String>,
    /// The session.
    pub session: SessionConfig,
    /// Messages per second (0: unpaced).
    pub rate: u64,
    /// How often a snapshot is published.
    pub snapshot_every: Duration,
    /// How long to keep the publications open after the check.
    pub linger: Duration,
    /// How long the publication may refuse a message, or wait for subscribers.
    pub timeout: Duration,
    /// The feed's version: 1, or 2 ([`v2::AddOrder`] with `firm`).
    pub feed_version: u16,
}

/// Publishes the session, snapshots and the check; returns the `RESULT` fields.
///
/// # Errors
///
/// An Aeron or publishing error.
pub fn publish(config: &PublishConfig) -> Result<String, Error> {
    let node = Node::embedded("host-pub")?;
    let mut live = node.publisher(&config.channel, LIVE_STREAM)?;
    live.set_timeout(config.timeout);
    let mut snapshots = match &config.snapshot_channel {
        Some(channel) => {
            let mut p = node.publisher(channel, SNAPSHOT_STREAM)?;
            // A snapshot nobody takes (its subscriber restored and left) is skipped.
            p.set_timeout(SNAPSHOT_TIMEOUT);
            Some(p)
        }
        None => None,
    };
    let frame = schema_frame(config.feed_version)?;
    // The channel's group size (`fc=min,g:/N`) holds this until every subscriber
    // is there.
    live.wait_connected()?;
    eprintln!("publisher: connected, publishing");
    let symbols = config.session.symbols;
    let mut books = Books::with_capacity(symbols, symbols * 256);
    let rate = u128::from(config.rate);
    let start = Instant::now();
    let mut next_snapshot = start;
    let (mut snapshots_sent, mut snapshot_bytes, mut last_sequence) = (0u64, 0u64, 0u64);
    let mut snapshots_skipped = 0u64;
    for message in Session::new(config.session) {
        if let Some(due_ns) = (u128::from(live.stats().messages) * 1_000_000_000).checked_div(rate)
        {
            let due = start + Duration::from_nanos(u64::try_from(due_ns).unwrap_or(u64::MAX));
            let now = Instant::now();
            if due > now + Duration::from_micros(100) {
                std::thread::sleep(due - now);
            }
        }
        if config.feed_version >= 2 {
            let message = v2::Feed::from_v1(&message, v2::firm_of);
            live.send_with(
                message.len_with_header(),
                Some(Aeron::nano_clock()),
                |out| message.write_with_header(out),
            )?;
        } else {
            live.send_with(message.wire_len(), Some(Aeron::nano_clock()), |out| {
                message.encode_with_header_into(out)
            })?;
        }
        books.apply(&message);
        last_sequence = message.sequence();
        if let Some(p) = snapshots.as_mut()
            && Instant::now() >= next_snapshot
        {
            next_snapshot = Instant::now() + config.snapshot_every;
            if p.is_connected() {
                let snapshot = BookSnapshot::of(&books, last_sequence, &frame);
                match p.send(&snapshot) {
                    Ok(_) => {
                        snapshots_sent += 1;
                        snapshot_bytes = snapshot.encoded_len_with_header() as u64;
                    }
                    Err(Error::Timeout(_)) => snapshots_skipped += 1,
                    Err(e) => return Err(e),
                }
            }
        }
    }
    let check = BookCheck::of(&books, last_sequence);
    live.send(&check)?;
    let span = start.elapsed();
    eprintln!(
        "publisher: {} messages in {:.2} s, check sent; lingering {:?}",
        live.stats().messages,
        span.as_secs_f64(),
        config.linger
    );
    std::thread::sleep(config.linger);
    let s = live.stats();
    Ok(result_line(&[
        ("messages", s.messages),
        (
            "span_ns",
            u64::try_from(span.as_nanos()).unwrap_or(u64::MAX),
        ),
        ("back_pressured", s.back_pressured),
        ("digest", check.digest),
        ("snapshots", snapshots_sent),
        ("snapshots_skipped", snapshots_skipped),
        ("snapshot_bytes", snapshot_bytes),
        ("resting_orders", books.resting_orders() as u64),
        (
            "retransmits_sent",
            system_counter(&node, "Retransmits sent").max(0) as u64,
        ),
        (
            "naks_received",
            system_counter(&node, "NAKs received").max(0) as u64,
        ),
    ]))
}

/// A subscriber's settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscribeConfig {
    /// A name for its messages.
    pub name: String,
    /// The live stream's subscription channel.
    pub channel: String,
    /// The snapshots' subscription channel: start from a snapshot (a late joiner).
    pub snapshot_channel: Option<String>,
    /// The session the publisher publishes.
    pub session: SessionConfig,
    /// Write the schema frame and every live frame to this file.
    pub record: Option<String>,
    /// How long to wait for the publisher or the next message.
    pub timeout: Duration,
    /// The version of the feed the publisher publishes.
    pub stream_version: u16,
    /// The version of the types this subscriber reads with.
    pub reader_version: u16,
}

/// What a subscriber saw.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubscribeReport {
    /// Messages checked equal to the published ones.
    pub good: u64,
    /// Lost messages.
    pub lost: u64,
    /// Duplicated or reordered messages.
    pub duplicates: u64,
    /// Misread messages.
    pub misread: u64,
    /// The snapshot's sequence number (0: from the start).
    pub snapshot_sequence: u64,
    /// Live messages that arrived before the snapshot and were covered by it.
    pub covered: u64,
    /// True if the books equal the publisher's check.
    pub books_equal: bool,
    /// Latency percentiles, send stamp to checked.
    pub latency: Percentiles,
    /// First message to the check, ns.
    pub span_ns: u64,
    /// Bytes received on the live stream.
    pub bytes: u64,
    /// NAKs this subscriber's driver sent.
    pub naks_sent: u64,
    /// The first mismatch, described.
    pub first: Option<String>,
}

impl SubscribeReport {
    /// The `RESULT` line.
    pub fn to_line(&self) -> String {
        result_line(&[
            ("good", self.good),
            ("lost", self.lost),
            ("duplicates", self.duplicates),
            ("misread", self.misread),
            ("snapshot_sequence", self.snapshot_sequence),
            ("covered", self.covered),
            ("books_equal", u64::from(self.books_equal)),
            ("count", self.latency.count),
            ("p50", self.latency.p50),
            ("p99", self.latency.p99),
            ("p999", self.latency.p999),
            ("max", self.latency.max),
            ("span_ns", self.span_ns),
            ("bytes", self.bytes),
            ("naks_sent", self.naks_sent),
        ])
    }

    /// Read back from a `RESULT` line.
    pub fn from_fields(f: &Fields) -> SubscribeReport {
        SubscribeReport {
            good: f.get("good"),
            lost: f.get("lost"),
            duplicates: f.get("duplicates"),
            misread: f.get("misread"),
            snapshot_sequence: f.get("snapshot_sequence"),
            covered: f.get("covered"),
            books_equal: f.get("books_equal") == 1,
            latency: Percentiles {
                count: f.get("count"),
                p50: f.get("p50"),
                p99: f.get("p99"),
                p999: f.get("p999"),
                max: f.get("max"),
            },
            span_ns: f.get("span_ns"),
            bytes: f.get("bytes"),
            naks_sent: f.get("naks_sent"),
            first: None,
        }
    }
}

/// The state a subscriber keeps while it runs.
struct State {
    expected: Expected,
    books: Option<Books>,
    check: Option<BookCheck>,
    latency: hdrhistogram::Histogram<u64>,
    recorder: Option<FrameWriter<std::io::BufWriter<std::fs::File>>>,
    bytes: u64,
    reader_version: u16,
    /// The snapshot's sequence number: live messages up to it that arrive before
    /// the first one after it are covered by the snapshot (a late joiner's live
    /// subscription starts before the snapshot it restores from).
    covered_upto: u64,
    /// Live messages skipped as covered.
    covered: u64,
}

impl State {
    /// One live message, in order, after the snapshot (if any).
    fn on_live(&mut self, bytes: &[u8], sent: Option<i64>) -> Result<(), wiremsg::Error> {
        self.bytes += bytes.len() as u64;
        let header = MessageHeader::read(bytes)?;
        if header.template_id == BookCheck::TEMPLATE_ID && header.schema_id == SCHEMA_ID {
            let (_, view) = BookCheck::view_with_header(bytes)?;
            self.check = Some(view.decode());
            if let Some(recorder) = self.recorder.as_mut() {
                recorder.write_frame(bytes)?;
            }
            return Ok(());
        }
        if self.covered_upto > 0 {
            let sequence = Feed::view(bytes).map_or(u64::MAX, |(_, v)| v.sequence());
            if sequence <= self.covered_upto {
                self.covered += 1;
                return Ok(());
            }
            // The first message after the snapshot: from here on, an older one is a
            // duplicate.
            self.covered_upto = 0;
        }
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.write_frame(bytes)?;
        }
        if self.expected.check(bytes).is_some() {
            if let Some(books) = self.books.as_mut() {
                if self.reader_version >= 2 {
                    v2::apply_view(books, &v2::Feed::view(bytes)?.1);
                } else {
                    books.apply_view(&Feed::view(bytes)?.1);
                }
            }
            if let Some(sent) = sent {
                let now = Aeron::nano_clock();
                self.latency
                    .saturating_record(u64::try_from(now - sent).unwrap_or(0));
            }
        }
        Ok(())
    }
}

/// Subscribes, checks every message until the publisher's check, and reports.
///
/// # Errors
///
/// An Aeron or file error; [`Error::Timeout`] if nothing arrives for the timeout.
pub fn subscribe(config: &SubscribeConfig) -> Result<SubscribeReport, Error> {
    let node = Node::embedded(&format!("host-{}", config.name))?;
    let mut live = node.subscriber(&config.channel, LIVE_STREAM)?;
    let mut snapshots = match &config.snapshot_channel {
        Some(channel) => Some(node.subscriber(channel, SNAPSHOT_STREAM)?),
        None => None,
    };
    let symbols = config.session.symbols;
    let mut state = State {
        expected: Expected::versions(config.session, config.stream_version, config.reader_version),
        books: snapshots
            .is_none()
            .then(|| Books::with_capacity(symbols, symbols * 256)),
        check: None,
        latency: histogram(),
        recorder: None,
        bytes: 0,
        reader_version: config.reader_version,
        covered_upto: 0,
        covered: 0,
    };
    if snapshots.is_none()
        && let Some(path) = &config.record
    {
        let mut writer = FrameWriter::new(std::io::BufWriter::new(std::fs::File::create(path)?));
        writer.write_schema(&stream_schema(config.stream_version)?)?;
        state.recorder = Some(writer);
    }
    // Live messages held until a snapshot covers the first of them.
    let mut held: Vec<(Vec<u8>, Option<i64>)> = Vec::new();
    let mut snapshot: Option<BookSnapshot> = None;
    let mut snapshot_sequence = 0u64;
    let mut idle = YieldingIdleStrategy;
    let mut first: Option<Instant> = None;
    let mut quiet_since = Instant::now();
    let mut bad_snapshots = 0u64;
    while state.check.is_none() {
        let mut fragments = 0;
        if let Some(s) = snapshots.as_mut() {
            fragments += s.poll(FRAGMENT_LIMIT, |bytes, _| {
                let (_, view) = BookSnapshot::view_with_header(bytes)?;
                snapshot = Some(view.decode());
                Ok(())
            })?;
            bad_snapshots = s.stats().bad;
        }
        let restored = state.books.is_some();
        fragments += live.poll(FRAGMENT_LIMIT, |bytes, frame| {
            if restored {
                state.on_live(bytes, frame.reserved_value())
            } else {
                held.push((bytes.to_vec(), frame.reserved_value()));
                Ok(())
            }
        })?;
        if !restored && let (Some(s), Some((first_held, _))) = (&snapshot, held.first()) {
            let first_sequence = Feed::view(first_held).map_or(u64::MAX, |(_, v)| v.sequence());
            if s.last_sequence + 1 >= first_sequence {
                // The snapshot covers everything before the first held message.
                snapshot_sequence = s.last_sequence;
                state.covered_upto = s.last_sequence;
                state.books = Some(s.restore(symbols));
                state.expected.skip_to(s.last_sequence);
                if let Some(path) = &config.record {
                    let mut writer =
                        FrameWriter::new(std::io::BufWriter::new(std::fs::File::create(path)?));
                    writer.write_frame(&s.schema_frame)?;
                    state.recorder = Some(writer);
                }
                eprintln!(
                    "{}: restored from the snapshot after message {} ({} orders); {} live messages held",
                    config.name,
                    s.last_sequence,
                    s.orders.len(),
                    held.len()
                );
                for (bytes, sent) in std::mem::take(&mut held) {
                    state.on_live(&bytes, sent)?;
                }
                snapshots = None;
            }
        }
        if fragments > 0 {
            let now = Instant::now();
            first.get_or_insert(now);
            quiet_since = now;
        } else if quiet_since.elapsed() > config.timeout {
            return Err(Error::Timeout(format!(
                "{}: nothing for {:?} (next expected message {}, {} held, snapshot {:?}, bad snapshots {bad_snapshots})",
                config.name,
                config.timeout,
                state.expected.next_sequence(),
                held.len(),
                snapshot.as_ref().map(|s| s.last_sequence)
            )));
        }
        idle.idle(i32::try_from(fragments).unwrap_or(i32::MAX));
    }
    let span_ns = first.map_or(0, |f| u64::try_from(f.elapsed().as_nanos()).unwrap_or(0));
    if let Some(mut recorder) = state.recorder.take() {
        recorder.flush()?;
        recorder.into_inner().flush()?;
    }
    let check = state.check.take().unwrap_or_else(|| unreachable!());
    let books = state.books.take().unwrap_or_default();
    let mine = BookCheck::of(&books, state.expected.next_sequence() - 1);
    if !state.expected.complete() {
        state.expected.note(Mismatch::Lost {
            from: state.expected.next_sequence(),
            to: state.expected.last,
        });
        state.expected.lost += state.expected.last + 1 - state.expected.next_sequence();
    }
    if let Some(e) = live.first_bad() {
        eprintln!("{}: first bad message: {e}", config.name);
    }
    let e = &state.expected;
    Ok(SubscribeReport {
        good: e.good,
        lost: e.lost,
        duplicates: e.duplicates,
        misread: e.misread + live.stats().bad,
        snapshot_sequence,
        covered: state.covered,
        books_equal: mine == check,
        latency: Percentiles::of(&state.latency),
        span_ns,
        bytes: state.bytes,
        naks_sent: system_counter(&node, "NAKs sent").max(0) as u64,
        first: e.first.as_ref().map(ToString::to_string),
    })
}
