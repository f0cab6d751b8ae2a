//! Market-data fan-out: one publisher, several subscriber processes, the ITCH-style
//! session of the `market_data` example.
//!
//! - The publisher ([`run`]) walks a [`Session`] and publishes each message with its
//!   header as one Aeron message: claimed, encoded in place, stamped with the send
//!   time ([`Aeron::nano_clock`]) in Aeron's frame header, committed. It applies every
//!   message it publishes to its own [`Books`].
//! - Each subscriber ([`subscribe`], a child process) views each message in place
//!   ([`Feed::view`], the feed's `WireDispatch` enum), checks its sequence number and
//!   updates its books with the `market_data` example's [`Handler`] (gaps, stale and
//!   bad messages counted), and records the one-way latency from the send stamp.
//! - At the end the publisher sends a [`BookCheck`]: the top of every book, the count
//!   of resting orders and a digest of every level of every book. It is longer than
//!   one frame (about 21 KB for 300 instruments), so it travels as fragments and is
//!   reassembled. Each subscriber compares it with its own books and reports.
//!
//! Over `aeron:ipc`, the subscribers are clients of the publisher's media driver (IPC
//! is the shared memory of one driver). Over `aeron:udp` on 127.0.0.1, each subscriber
//! runs its own embedded driver, as separate hosts would, and the publication sends to
//! all of them (multi-destination cast with dynamic control: each subscription names
//! the publication's control endpoint), with `min` flow control, so the slowest
//! subscriber paces the publisher and none is overrun.

use crate::process::{Children, Fields, free_udp_ports, result_line};
use crate::{Error, Node, PublishStats, TERM_LENGTH, Transport, histogram};
use rusteron_client::{Aeron, IdleStrategy, YieldingIdleStrategy};
use std::fmt;
use std::hash::{DefaultHasher, Hasher};
use std::path::Path;
use std::time::{Duration, Instant};
use wiremsg::{FixedStr, MessageHeader, Template, WireMsg};
use wiremsg_examples::book::Books;
use wiremsg_examples::itch::{Feed, SCHEMA_ID};
use wiremsg_examples::market_data::Handler;
use wiremsg_examples::session::{Session, SessionConfig};
use wiremsg_examples::{Percentiles, thousands};

/// The Aeron stream id of the feed.
pub const STREAM: i32 = 1001;

/// Most fragments one poll hands on.
pub const FRAGMENT_LIMIT: usize = 256;

/// The top of one instrument's book, as the publisher sees it at the end.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TopOfBook {
    /// Dense index of the instrument.
    pub locate: u16,
    /// Symbol, space-padded to 8 bytes.
    pub symbol: FixedStr<8>,
    /// Best bid price, 4 decimal places (0: no bid).
    pub bid_price: i64,
    /// Shares at the best bid.
    pub bid_shares: u64,
    /// Best ask price, 4 decimal places (0: no ask).
    pub ask_price: i64,
    /// Shares at the best ask.
    pub ask_shares: u64,
    /// Price of the last execution or trade.
    pub last_price: i64,
    /// Shares executed or traded in the session.
    pub volume: u64,
    /// Orders resting on both sides.
    pub orders: u64,
}

/// The publisher's books at the end of the session, for the subscribers to compare
/// with theirs: template 101 of the feed's schema (1). A 66-byte [`TopOfBook`] per
/// instrument, in the tail: about 20 KB for 300 instruments, longer than one Aeron
/// frame.
#[derive(WireMsg, Debug, Clone, PartialEq, Eq)]
#[wire(template_id = 101, schema_id = 1)]
pub struct BookCheck {
    /// The last sequence number of the session.
    pub last_sequence: u64,
    /// Orders resting on all books.
    pub resting_orders: u64,
    /// [`digest`] of every level of every book.
    pub digest: u64,
    /// The top of every book, by locate.
    pub books: Vec<TopOfBook>,
}

impl BookCheck {
    /// The check of `books` after `last_sequence`.
    pub fn of(books: &Books, last_sequence: u64) -> BookCheck {
        let books_top = books
            .books()
            .iter()
            .enumerate()
            .map(|(locate, book)| {
                let bid = book.best_bid();
                let ask = book.best_ask();
                TopOfBook {
                    locate: u16::try_from(locate).unwrap_or(u16::MAX),
                    symbol: book.symbol,
                    bid_price: bid.map_or(0, |l| l.price),
                    bid_shares: bid.map_or(0, |l| l.shares),
                    ask_price: ask.map_or(0, |l| l.price),
                    ask_shares: ask.map_or(0, |l| l.shares),
                    last_price: book.last_price,
                    volume: book.volume,
                    orders: book.order_count(),
                }
            })
            .collect();
        BookCheck {
            last_sequence,
            resting_orders: books.resting_orders() as u64,
            digest: digest(books),
            books: books_top,
        }
    }
}

/// A 64-bit digest of every level (price, shares, orders) of both sides of every
/// book, with each book's symbol, last price and volume: equal books give equal
/// digests in every process of one build (SipHash with fixed keys).
pub fn digest(books: &Books) -> u64 {
    let mut hasher = DefaultHasher::new();
    for book in books.books() {
        hasher.write(book.symbol.as_str().as_bytes());
        hasher.write_i64(book.last_price);
        hasher.write_u64(book.volume);
        for (side, levels) in [
            (0u8, book.bids().collect::<Vec<_>>()),
            (1, book.asks().collect()),
        ] {
            hasher.write_u8(side);
            hasher.write_usize(levels.len());
            for level in levels {
                hasher.write_i64(level.price);
                hasher.write_u64(level.shares);
                hasher.write_u32(level.orders);
            }
        }
    }
    hasher.write_usize(books.resting_orders());
    hasher.finish()
}

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The session to publish.
    pub session: SessionConfig,
    /// IPC or UDP.
    pub transport: Transport,
    /// Subscriber processes.
    pub subscribers: usize,
    /// Messages per second the publisher paces itself to (0: as fast as the
    /// subscribers take them; back-pressure is then counted).
    pub rate: u64,
    /// How long the run may take before it is abandoned.
    pub timeout: Duration,
    /// A running media driver's directory to use instead of an embedded one.
    pub aeron_dir: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            session: SessionConfig {
                messages: 500_000,
                ..SessionConfig::default()
            },
            transport: Transport::Ipc,
            subscribers: 3,
            rate: 50_000,
            timeout: Duration::from_secs(120),
            aeron_dir: None,
        }
    }
}

/// What one subscriber process saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SubscriberReport {
    /// Which subscriber, from 0.
    pub index: u64,
    /// Feed messages handled.
    pub messages: u64,
    /// Bytes of every message received (headers included), the check too.
    pub bytes: u64,
    /// Sequence gaps.
    pub gaps: u64,
    /// Messages missing in those gaps.
    pub missed: u64,
    /// Messages with a sequence number already seen.
    pub stale: u64,
    /// Messages that could not be viewed.
    pub bad: u64,
    /// From the first message to the last, ns.
    pub span_ns: u64,
    /// One-way latency, publisher's send stamp to message handled.
    pub latency: Percentiles,
    /// True if the publisher's [`BookCheck`] equals the subscriber's books.
    pub books_equal: bool,
    /// [`digest`] of the subscriber's books.
    pub digest: u64,
    /// Bytes of the check message (header included).
    pub check_bytes: u64,
}

impl SubscriberReport {
    /// The report as a child's `RESULT` line.
    pub fn to_line(&self) -> String {
        result_line(&[
            ("index", self.index),
            ("messages", self.messages),
            ("bytes", self.bytes),
            ("gaps", self.gaps),
            ("missed", self.missed),
            ("stale", self.stale),
            ("bad", self.bad),
            ("span_ns", self.span_ns),
            ("count", self.latency.count),
            ("p50", self.latency.p50),
            ("p99", self.latency.p99),
            ("p999", self.latency.p999),
            ("max", self.latency.max),
            ("books_equal", u64::from(self.books_equal)),
            ("digest", self.digest),
            ("check_bytes", self.check_bytes),
        ])
    }

    /// The report read back from a `RESULT` line's fields.
    pub fn from_fields(f: &Fields) -> Self {
        SubscriberReport {
            index: f.get("index"),
            messages: f.get("messages"),
            bytes: f.get("bytes"),
            gaps: f.get("gaps"),
            missed: f.get("missed"),
            stale: f.get("stale"),
            bad: f.get("bad"),
            span_ns: f.get("span_ns"),
            latency: Percentiles {
                count: f.get("count"),
                p50: f.get("p50"),
                p99: f.get("p99"),
                p999: f.get("p999"),
                max: f.get("max"),
            },
            books_equal: f.get("books_equal") == 1,
            digest: f.get("digest"),
            check_bytes: f.get("check_bytes"),
        }
    }

    /// Messages per second over the subscriber's span.
    pub fn messages_per_second(&self) -> f64 {
        self.messages as f64 * 1e9 / self.span_ns.max(1) as f64
    }

    /// Megabytes (10^6 bytes) per second over the subscriber's span.
    pub fn megabytes_per_second(&self) -> f64 {
        self.bytes as f64 * 1e3 / self.span_ns.max(1) as f64
    }
}

/// What a fan-out run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The run's config.
    pub config: Config,
    /// The publisher's counts.
    pub publish: PublishStats,
    /// From the first message published to the check.
    pub publish_span: Duration,
    /// [`digest`] of the publisher's books.
    pub digest: u64,
    /// Bytes of the check message (header included).
    pub check_bytes: usize,
    /// The longest message published in place.
    pub max_claim: usize,
    /// Each subscriber's report, by index.
    pub subscribers: Vec<SubscriberReport>,
}

impl Report {
    /// True if every subscriber handled every message without a gap or a bad
    /// message, and ended with books equal to the publisher's.
    pub fn all_equal(&self) -> bool {
        self.subscribers.len() == self.config.subscribers
            && self.subscribers.iter().all(|s| {
                s.books_equal
                    && s.digest == self.digest
                    && s.messages == self.config.session.messages
                    && s.gaps == 0
                    && s.bad == 0
            })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let p = &self.publish;
        let rate = if c.rate == 0 {
            "unpaced".to_string()
        } else {
            format!("paced at {} msg/s", thousands(c.rate))
        };
        writeln!(
            f,
            "{} fan-out: {} messages for {} symbols to {} subscriber processes, {rate}",
            c.transport,
            thousands(c.session.messages),
            c.session.symbols,
            c.subscribers
        )?;
        writeln!(
            f,
            "  published  {} in {:.2} s: {} claimed in place (up to {} bytes), {} offered; refused {} times (back-pressure {}, not connected {}, admin action {})",
            thousands(p.messages),
            self.publish_span.as_secs_f64(),
            thousands(p.claimed),
            self.max_claim,
            thousands(p.offered),
            thousands(p.refused()),
            thousands(p.back_pressured),
            thousands(p.not_connected),
            thousands(p.admin_action),
        )?;
        writeln!(
            f,
            "  check      {} bytes (longer than one frame: reassembled), publisher digest {:016x}",
            thousands(self.check_bytes as u64),
            self.digest
        )?;
        for s in &self.subscribers {
            writeln!(
                f,
                "  sub {}      {} msg in {:.2} s: {} msg/s, {:.1} MB/s; one-way {}; gaps {} ({} missed), stale {}, bad {}; books {}",
                s.index,
                thousands(s.messages),
                s.span_ns as f64 / 1e9,
                thousands(s.messages_per_second() as u64),
                s.megabytes_per_second(),
                s.latency,
                s.gaps,
                s.missed,
                s.stale,
                s.bad,
                if s.books_equal && s.digest == self.digest {
                    "equal to the publisher's"
                } else {
                    "DIFFER from the publisher's"
                }
            )?;
        }
        Ok(())
    }
}

/// The publication's channel and each subscriber's, for `transport`.
///
/// # Errors
///
/// [`Error::Io`] if free UDP ports cannot be found.
pub fn channels(transport: Transport, subscribers: usize) -> Result<(String, Vec<String>), Error> {
    Ok(match transport {
        Transport::Ipc => (
            format!("aeron:ipc?term-length={TERM_LENGTH}"),
            vec!["aeron:ipc".to_string(); subscribers],
        ),
        Transport::Udp => {
            let ports = free_udp_ports(subscribers + 1)?;
            let control = ports[0];
            (
                format!(
                    "aeron:udp?control=127.0.0.1:{control}|control-mode=dynamic|fc=min|term-length={TERM_LENGTH}"
                ),
                ports[1..]
                    .iter()
                    .map(|port| {
                        format!("aeron:udp?endpoint=127.0.0.1:{port}|control=127.0.0.1:{control}")
                    })
                    .collect(),
            )
        }
    })
}

/// Runs the publisher here and `config.subscribers` subscriber processes of `exe`
/// (a program that runs [`subscribe`] when given [`subscriber_args`]).
///
/// # Errors
///
/// An Aeron, publishing or process error; [`Error::Timeout`] if a subscriber did not
/// connect or report in time.
pub fn run(config: &Config, exe: &Path) -> Result<Report, Error> {
    let node = match &config.aeron_dir {
        Some(dir) => Node::connect(dir)?,
        None => Node::embedded("feed")?,
    };
    let (publication, subscriptions) = channels(config.transport, config.subscribers)?;
    let mut publisher = node.publisher(&publication, STREAM)?;
    publisher.set_timeout(config.timeout);
    // IPC subscribers join this driver; UDP subscribers start their own.
    let shared_dir = (config.transport == Transport::Ipc).then(|| node.dir().to_string());
    let args: Vec<Vec<String>> = subscriptions
        .iter()
        .enumerate()
        .map(|(index, channel)| subscriber_args(index, channel, config, shared_dir.as_deref()))
        .collect();
    let mut children = Children::spawn(exe, &args)?;
    children.expect_each("READY", config.timeout)?;
    publisher.wait_connected()?;

    let mut books = Books::with_capacity(config.session.symbols, config.session.symbols * 256);
    let rate = u128::from(config.rate);
    let start = Instant::now();
    let mut progress = start;
    let mut last_sequence = 0;
    for message in Session::new(config.session) {
        if let Some(due_ns) =
            (u128::from(publisher.stats().messages) * 1_000_000_000).checked_div(rate)
        {
            let due = start + Duration::from_nanos(u64::try_from(due_ns).unwrap_or(u64::MAX));
            let now = Instant::now();
            if due > now + Duration::from_micros(100) {
                std::thread::sleep(due - now);
            }
        }
        publisher.send_with(message.wire_len(), Some(Aeron::nano_clock()), |out| {
            message.encode_with_header_into(out)
        })?;
        books.apply(&message);
        last_sequence = message.sequence();
        if publisher.stats().messages.is_multiple_of(65_536)
            && progress.elapsed() >= Duration::from_secs(1)
        {
            progress = Instant::now();
            let s = publisher.stats();
            eprintln!(
                "{}: published {} of {} ({} msg/s), refused {}",
                config.transport,
                thousands(s.messages),
                thousands(config.session.messages),
                thousands((s.messages as f64 / start.elapsed().as_secs_f64()) as u64),
                thousands(s.refused())
            );
        }
    }
    let check = BookCheck::of(&books, last_sequence);
    publisher.send(&check)?;
    let publish_span = start.elapsed();

    let results = children.expect_each("RESULT", config.timeout)?;
    children.wait(Duration::from_secs(10))?;
    let mut subscribers: Vec<SubscriberReport> = results
        .iter()
        .map(|line| SubscriberReport::from_fields(&Fields::parse(line)))
        .collect();
    subscribers.sort_by_key(|s| s.index);
    Ok(Report {
        config: config.clone(),
        publish: *publisher.stats(),
        publish_span,
        digest: check.digest,
        check_bytes: check.encoded_len_with_header(),
        max_claim: publisher.max_claim(),
        subscribers,
    })
}

/// The command-line arguments of subscriber `index` (after the program name), as
/// the `aeron_market_data` program reads them.
pub fn subscriber_args(
    index: usize,
    channel: &str,
    config: &Config,
    aeron_dir: Option<&str>,
) -> Vec<String> {
    let mut args = vec![
        "subscriber".to_string(),
        "--index".to_string(),
        index.to_string(),
        "--channel".to_string(),
        channel.to_string(),
        "--symbols".to_string(),
        config.session.symbols.to_string(),
        "--timeout-secs".to_string(),
        config.timeout.as_secs().to_string(),
    ];
    if let Some(dir) = aeron_dir {
        args.extend(["--aeron-dir".to_string(), dir.to_string()]);
    }
    args
}

/// What a subscriber process is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubscriberConfig {
    /// Which subscriber, from 0.
    pub index: usize,
    /// The subscription's channel.
    pub channel: String,
    /// Instruments in the session (sizes the books).
    pub symbols: usize,
    /// The publisher's driver directory (IPC); `None`: start an embedded driver.
    pub aeron_dir: Option<String>,
    /// How long to wait for the publisher, and for the next message.
    pub timeout: Duration,
}

/// A subscriber: connects, calls `ready`, handles the feed until the publisher's
/// [`BookCheck`], compares its books with it, and reports.
///
/// # Errors
///
/// An Aeron error; [`Error::Timeout`] if the publisher does not connect, or nothing
/// arrives for the whole timeout before the check.
pub fn subscribe(
    config: &SubscriberConfig,
    ready: impl FnOnce(),
) -> Result<SubscriberReport, Error> {
    let node = match &config.aeron_dir {
        Some(dir) => Node::connect(dir)?,
        None => Node::embedded(&format!("sub{}", config.index))?,
    };
    let mut subscriber = node.subscriber(&config.channel, STREAM)?;
    let mut idle = YieldingIdleStrategy;
    let deadline = Instant::now() + config.timeout;
    while !subscriber.is_connected() {
        if Instant::now() > deadline {
            return Err(Error::Timeout(format!(
                "no publisher on {} in {:?}",
                config.channel, config.timeout
            )));
        }
        idle.idle(0);
    }
    ready();

    let mut handler = Handler::new(config.symbols, Instant::now());
    let mut latency = histogram();
    let mut check: Option<BookCheck> = None;
    let mut check_bytes = 0;
    let mut first = None;
    let mut last = Instant::now();
    let mut quiet_since = Instant::now();
    while check.is_none() {
        let fragments = subscriber.poll(FRAGMENT_LIMIT, |bytes, frame| {
            let header = MessageHeader::read(bytes)?;
            if header.template_id == BookCheck::TEMPLATE_ID && header.schema_id == SCHEMA_ID {
                let (_, view) = BookCheck::view_with_header(bytes)?;
                check = Some(view.decode());
                check_bytes = bytes.len();
                return Ok(());
            }
            let (_, message) = Feed::view(bytes)?;
            handler.on_message(&message);
            let now = Aeron::nano_clock();
            if let Some(sent) = frame.reserved_value() {
                latency.saturating_record(u64::try_from(now - sent).unwrap_or(0));
            }
            Ok(())
        })?;
        if fragments > 0 {
            last = Instant::now();
            first.get_or_insert(last);
            quiet_since = last;
        } else if quiet_since.elapsed() > config.timeout {
            return Err(Error::Timeout(format!(
                "subscriber {}: nothing for {:?} after {} messages",
                config.index,
                config.timeout,
                handler.stats().messages
            )));
        }
        idle.idle(i32::try_from(fragments).unwrap_or(i32::MAX));
    }
    let check = check.unwrap_or_else(|| unreachable!("the loop ends with a check"));
    let mine = BookCheck::of(handler.books(), handler.last_sequence());
    let stats = handler.stats();
    if let Some(e) = subscriber.first_bad() {
        eprintln!("subscriber {}: first bad message: {e}", config.index);
    }
    Ok(SubscriberReport {
        index: config.index as u64,
        messages: stats.messages,
        bytes: subscriber.stats().bytes,
        gaps: stats.gaps,
        missed: stats.missed,
        stale: stats.stale,
        bad: subscriber.stats().bad,
        span_ns: first.map_or(0, |first| {
            u64::try_from((last - first).as_nanos()).unwrap_or(u64::MAX)
        }),
        latency: Percentiles::of(&latency),
        books_equal: mine == check,
        digest: mine.digest,
        check_bytes: check_bytes as u64,
    })
}

/// One row of a summary table.
pub fn summary_row(report: &Report, s: &SubscriberReport) -> crate::SummaryRow {
    crate::SummaryRow {
        transport: report.config.transport,
        what: "fan-out, per subscriber",
        messages: s.messages,
        messages_per_second: s.messages_per_second(),
        megabytes_per_second: s.megabytes_per_second(),
        latency: s.latency,
        latency_kind: "one-way",
    }
}

/// What wiremsg alone costs for the first 100,000 messages of `session`:
/// `encode_with_header_into`, and [`Feed::view`] with the sequence number read.
pub fn wire_cost(session: SessionConfig) -> crate::WireCost {
    let messages: Vec<Feed> = Session::new(SessionConfig {
        messages: session.messages.min(100_000),
        ..session
    })
    .collect();
    crate::WireCost::measure(
        &messages,
        |m, out| m.encode_with_header_into(out).unwrap_or(0),
        |bytes| Feed::view(bytes).map_or(0, |(_, m)| m.sequence()),
    )
}
