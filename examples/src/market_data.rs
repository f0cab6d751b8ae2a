//! The `market_data` example: a publisher thread sends a [`Session`] over UDP on
//! 127.0.0.1, and a feed handler rebuilds every book from zero-copy views.
//!
//! - [`Publisher`] packs messages into datagrams of at most [`MAX_DATAGRAM`] bytes
//!   (a [`Packet`] first, then up to `batch` messages, each after its 8-byte header),
//!   and stamps the send time into the packet in place, just before the send.
//! - [`Handler`] receives into one reused buffer, walks each datagram by the block
//!   lengths of the headers, dispatches on [`FeedView`] (no copy, no allocation per
//!   message), checks sequence numbers and updates the [`Books`].
//! - [`run`] wires the two over a socket pair and returns a [`Report`];
//!   [`reference_books`] is the second pass over owned, decoded messages.

use crate::book::{Books, SymbolBook};
use crate::itch::{EventCode, Feed, FeedView, MAX_DATAGRAM, PACKET_LEN, Packet, format_price};
use crate::session::{Session, SessionConfig};
use crate::{Percentiles, thousands};
use hdrhistogram::Histogram;
use std::fmt;
use std::io;
use std::net::UdpSocket;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use wiremsg::{MessageHeader, Template, WireMsg};

/// What to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// The session to publish.
    pub session: SessionConfig,
    /// Messages per second the publisher paces itself to (0: as fast as it can).
    pub rate: u64,
    /// Most messages in one datagram (fewer when the next would not fit).
    pub batch: usize,
    /// Flow control: the most messages the publisher sends ahead of the handler (0:
    /// none, as on a real multicast feed; the socket then drops what does not fit
    /// in its receive buffer and the handler counts the gaps).
    pub window: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            session: SessionConfig::default(),
            rate: 1_000_000,
            batch: 24,
            window: DEFAULT_WINDOW,
        }
    }
}

/// Default flow-control window, in messages: about 43 full datagrams, well inside
/// Linux's default UDP receive buffer (208 KiB, which counts about 2.3 KiB of kernel
/// memory per datagram). std cannot enlarge that buffer (`SO_RCVBUF`), and on a
/// small, busy machine the handler can be descheduled for milliseconds: without a
/// window, datagrams are then lost.
pub const DEFAULT_WINDOW: u64 = 1_024;

/// Session id written in every [`Packet`].
const SESSION_ID: u32 = 1;

/// Packs a session's messages into datagrams, in one reused buffer.
#[derive(Debug)]
pub struct Publisher {
    session: Session,
    batch: usize,
    buffer: [u8; MAX_DATAGRAM],
    len: usize,
    /// A message that did not fit in the previous datagram.
    pending: Option<Feed>,
    /// Messages packed so far.
    pub messages: u64,
}

impl Publisher {
    /// A publisher of `session`, at most `batch` messages per datagram.
    pub fn new(session: Session, batch: usize) -> Self {
        Publisher {
            session,
            batch: batch.max(1),
            buffer: [0; MAX_DATAGRAM],
            len: 0,
            pending: None,
            messages: 0,
        }
    }

    /// Packs the next datagram; returns its messages, 0 at the end of the session.
    pub fn next_datagram(&mut self) -> usize {
        let mut count = 0u16;
        let mut first_sequence = 0;
        let mut at = PACKET_LEN;
        while usize::from(count) < self.batch {
            let Some(message) = self.pending.take().or_else(|| self.session.next()) else {
                break;
            };
            if at + message.wire_len() > MAX_DATAGRAM {
                self.pending = Some(message);
                break;
            }
            if count == 0 {
                first_sequence = message.sequence();
            }
            at += message
                .encode_with_header_into(&mut self.buffer[at..])
                .expect("the message fits: checked above");
            count += 1;
        }
        let packet = Packet {
            session: SESSION_ID,
            first_sequence,
            count,
            send_time_ns: 0,
        };
        packet
            .encode_with_header_into(&mut self.buffer)
            .expect("a packet fits any datagram");
        self.len = at;
        self.messages += u64::from(count);
        usize::from(count)
    }

    /// Writes the send time into the packed datagram's [`Packet`], in place.
    pub fn stamp(&mut self, send_time_ns: u64) {
        let body = &mut self.buffer[MessageHeader::LEN..PACKET_LEN];
        Packet::view_mut(body)
            .expect("the publisher wrote a valid packet")
            .set_send_time_ns(send_time_ns);
    }

    /// The packed datagram.
    pub fn datagram(&self) -> &[u8] {
        &self.buffer[..self.len]
    }

    /// The session being published.
    pub fn session(&self) -> &Session {
        &self.session
    }
}

/// Counts of what the handler saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeedStats {
    /// Datagrams received.
    pub datagrams: u64,
    /// Bytes received (UDP payload).
    pub bytes: u64,
    /// Messages handled (after the packet headers).
    pub messages: u64,
    /// Messages by template: system, add, executed, cancel, delete, trade.
    pub by_type: [u64; 6],
    /// Sequence gaps (a message whose sequence number skipped ahead).
    pub gaps: u64,
    /// Messages missing in those gaps.
    pub missed: u64,
    /// Messages with a sequence number already seen (skipped).
    pub stale: u64,
    /// Datagrams that failed validation or did not hold the count they announced.
    pub malformed: u64,
}

/// The feed handler: sequence checks and books, from views of a reused buffer.
#[derive(Debug)]
pub struct Handler {
    books: Books,
    expected: u64,
    stats: FeedStats,
    /// Per-message handling time, ns: validation, dispatch, sequence check and book
    /// update of one message (the first of a datagram includes its packet).
    handling: Histogram<u64>,
    /// From the packet's send stamp to the message handled, ns.
    wire: Histogram<u64>,
    /// Sum of the handling times, ns.
    busy_ns: u64,
    epoch: Instant,
    first: Option<Instant>,
    last: Option<Instant>,
    finished: bool,
}

fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000_000, 3).expect("valid histogram bounds")
}

fn nanos(d: Duration) -> u64 {
    d.as_nanos().try_into().unwrap_or(u64::MAX)
}

impl Handler {
    /// A handler for about `symbols` instruments whose send stamps count from `epoch`.
    pub fn new(symbols: usize, epoch: Instant) -> Self {
        Handler {
            books: Books::with_capacity(symbols, symbols * 256),
            expected: 1,
            stats: FeedStats::default(),
            handling: histogram(),
            wire: histogram(),
            busy_ns: 0,
            epoch,
            first: None,
            last: None,
            finished: false,
        }
    }

    /// Handles one datagram.
    pub fn on_datagram(&mut self, datagram: &[u8]) {
        let mut before = Instant::now();
        self.first.get_or_insert(before);
        self.stats.datagrams += 1;
        self.stats.bytes += datagram.len() as u64;
        let Ok((header, packet)) = Packet::view_with_header(datagram) else {
            self.stats.malformed += 1;
            return;
        };
        let send_time_ns = packet.send_time_ns();
        let announced = packet.count();
        let mut at = MessageHeader::LEN + usize::from(header.block_length);
        let mut count = 0u16;
        while let Some(rest) = datagram.get(at..).filter(|r| !r.is_empty()) {
            let Ok((header, message)) = Feed::view(rest) else {
                self.stats.malformed += 1;
                return;
            };
            at += MessageHeader::LEN + usize::from(header.block_length);
            count += 1;
            self.on_message(&message);
            let now = Instant::now();
            let took = nanos(now - before);
            self.busy_ns += took;
            self.handling.saturating_record(took);
            self.wire
                .saturating_record(nanos(now - self.epoch).saturating_sub(send_time_ns));
            before = now;
        }
        self.last = Some(before);
        if count != announced {
            self.stats.malformed += 1;
        }
    }

    /// Handles one message: sequence check, then the book.
    #[inline]
    pub fn on_message(&mut self, message: &FeedView<'_>) {
        let sequence = message.sequence();
        if sequence != self.expected {
            if sequence < self.expected {
                self.stats.stale += 1;
                return;
            }
            self.stats.gaps += 1;
            self.stats.missed += sequence - self.expected;
        }
        self.expected = sequence + 1;
        self.stats.messages += 1;
        let kind = match message {
            FeedView::System(e) => {
                if e.event() == EventCode::EndOfMessages {
                    self.finished = true;
                }
                0
            }
            FeedView::Add(_) => 1,
            FeedView::Executed(_) => 2,
            FeedView::Cancel(_) => 3,
            FeedView::Delete(_) => 4,
            FeedView::Trade(_) => 5,
        };
        self.stats.by_type[kind] += 1;
        self.books.apply_view(message);
    }

    /// The last sequence number handled or skipped over by a gap.
    pub fn last_sequence(&self) -> u64 {
        self.expected - 1
    }

    /// True once the end-of-messages event arrived.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// The books so far.
    pub fn books(&self) -> &Books {
        &self.books
    }

    /// The counts so far.
    pub fn stats(&self) -> &FeedStats {
        &self.stats
    }

    /// Turns the handler into its report.
    fn into_report(self, config: Config, sent: Sent) -> Report {
        let span = match (self.first, self.last) {
            (Some(first), Some(last)) => last - first,
            _ => Duration::ZERO,
        };
        Report {
            config,
            sent,
            stats: self.stats,
            span,
            busy: Duration::from_nanos(self.busy_ns),
            handling: Percentiles::of(&self.handling),
            clock_ns: clock_cost_ns(),
            wire: Percentiles::of(&self.wire),
            books: self.books,
            verified: None,
        }
    }
}

/// The average cost of one `Instant::now()`, in ns.
fn clock_cost_ns() -> f64 {
    const READS: u32 = 10_000;
    let start = Instant::now();
    let mut last = start;
    for _ in 0..READS {
        last = std::hint::black_box(Instant::now());
    }
    (last - start).as_nanos() as f64 / f64::from(READS)
}

/// What the publisher sent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Sent {
    /// Messages.
    pub messages: u64,
    /// Datagrams.
    pub datagrams: u64,
    /// Bytes (UDP payload).
    pub bytes: u64,
    /// From the first send to the last.
    pub elapsed: Duration,
    /// Datagrams held back by the flow-control window.
    pub waits: u64,
}

/// Sends the whole session to the connected `socket`, paced to `rate` messages per
/// second (0: unpaced).
fn publish(
    socket: &UdpSocket,
    mut publisher: Publisher,
    config: Config,
    handled: &AtomicU64,
    epoch: Instant,
) -> io::Result<Sent> {
    let rate = u128::from(config.rate);
    let mut sent = Sent::default();
    let start = Instant::now();
    loop {
        let count = publisher.next_datagram();
        if count == 0 {
            break;
        }
        // Send this datagram when the messages before it are due (rate 0: at once).
        // Sleep, do not spin: on a small machine the handler needs the other core. The
        // sleep's granularity (tens of µs) makes the feed bursty, as real feeds are.
        if let Some(due_ns) = (u128::from(sent.messages) * 1_000_000_000).checked_div(rate) {
            let due = start + Duration::from_nanos(due_ns.try_into().unwrap_or(u64::MAX));
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
        }
        if config.window > 0 {
            // Wait until the handler is within the window; give up after 100 ms, in
            // case what it waits for was lost.
            let last = publisher.messages;
            let mut waited = None;
            while last.saturating_sub(handled.load(Ordering::Acquire)) > config.window {
                let since = *waited.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_millis(100) {
                    break;
                }
                thread::yield_now();
            }
            sent.waits += u64::from(waited.is_some());
        }
        publisher.stamp(nanos(epoch.elapsed()));
        let bytes = socket.send(publisher.datagram())?;
        sent.messages += count as u64;
        sent.datagrams += 1;
        sent.bytes += bytes as u64;
    }
    sent.elapsed = start.elapsed();
    Ok(sent)
}

/// Runs publisher and handler over UDP on 127.0.0.1 and returns what the handler saw.
///
/// # Errors
///
/// A socket error of either side.
pub fn run(config: Config) -> io::Result<Report> {
    let epoch = Instant::now();
    let receiver = UdpSocket::bind("127.0.0.1:0")?;
    receiver.set_read_timeout(Some(Duration::from_millis(50)))?;
    let sender = UdpSocket::bind("127.0.0.1:0")?;
    sender.connect(receiver.local_addr()?)?;

    let done = Arc::new(AtomicBool::new(false));
    let publisher_done = Arc::clone(&done);
    // The last sequence number the handler has dealt with (handled or missed).
    let handled = Arc::new(AtomicU64::new(0));
    let publisher_handled = Arc::clone(&handled);
    let publisher = Publisher::new(Session::new(config.session), config.batch);
    let publisher = thread::Builder::new()
        .name("publisher".into())
        .spawn(move || {
            let sent = publish(&sender, publisher, config, &publisher_handled, epoch);
            publisher_done.store(true, Ordering::Release);
            sent
        })?;

    let mut handler = Handler::new(config.session.symbols, epoch);
    // One buffer for every datagram, large enough for any UDP payload.
    let mut buffer = vec![0u8; 65_536];
    loop {
        match receiver.recv(&mut buffer) {
            Ok(len) => {
                handler.on_datagram(&buffer[..len]);
                handled.store(handler.last_sequence(), Ordering::Release);
                if handler.finished() {
                    break;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                // Nothing for 50 ms after the publisher finished: the end was lost.
                if done.load(Ordering::Acquire) {
                    break;
                }
            }
            Err(e) => return Err(e),
        }
    }
    let sent = publisher
        .join()
        .map_err(|_| io::Error::other("publisher thread panicked"))??;
    Ok(handler.into_report(config, sent))
}

/// The second pass: the same session, each message encoded, decoded to its owned
/// value and applied to fresh books.
pub fn reference_books(config: SessionConfig) -> Books {
    let mut books = Books::with_capacity(config.symbols, config.symbols * 256);
    let mut bytes = [0u8; 64];
    for message in Session::new(config) {
        let len = message
            .encode_with_header_into(&mut bytes)
            .expect("a feed message fits 64 bytes");
        let decoded = Feed::decode(&bytes[..len]).expect("valid bytes");
        books.apply(&decoded);
    }
    books
}

/// What a run saw, printed by `market_data`.
#[derive(Debug)]
pub struct Report {
    /// The run's config.
    pub config: Config,
    /// What the publisher sent.
    pub sent: Sent,
    /// What the handler counted.
    pub stats: FeedStats,
    /// From the first datagram received to the last message handled.
    pub span: Duration,
    /// Sum of the per-message handling times.
    pub busy: Duration,
    /// Per-message handling time.
    pub handling: Percentiles,
    /// What one clock read costs here (included once in each handling time).
    pub clock_ns: f64,
    /// Send stamp to message handled.
    pub wire: Percentiles,
    /// The handler's books at the end.
    pub books: Books,
    /// Whether the second pass over decoded messages gave identical books (`None`:
    /// not checked).
    pub verified: Option<bool>,
}

impl Report {
    /// Runs the second pass ([`reference_books`]) and records whether it matches.
    pub fn verify(&mut self) -> bool {
        let same = reference_books(self.config.session) == self.books;
        self.verified = Some(same);
        same
    }

    /// Messages per second over the handler's span.
    pub fn messages_per_second(&self) -> f64 {
        self.stats.messages as f64 / self.span.as_secs_f64().max(1e-9)
    }

    /// Bytes per second over the handler's span.
    pub fn bytes_per_second(&self) -> f64 {
        self.stats.bytes as f64 / self.span.as_secs_f64().max(1e-9)
    }

    /// The books of the `n` busiest instruments (the lowest locates).
    pub fn top_books(&self, n: usize) -> impl Iterator<Item = &SymbolBook> {
        self.books.books().iter().take(n)
    }
}

fn top_of_book(book: &SymbolBook) -> String {
    let bid = book.best_bid().map_or_else(
        || format!("{:>20}", "-"),
        |l| format!("{:>7} x {:>12}", l.shares, format_price(l.price)),
    );
    let ask = book.best_ask().map_or_else(
        || format!("{:<20}", "-"),
        |l| format!("{:<12} x {:<7}", format_price(l.price), l.shares),
    );
    format!(
        "{:<6} {bid} | {ask}  last {:>10}  volume {:>9}  {:>3} orders",
        book.symbol.as_str(),
        format_price(book.last_price),
        thousands(book.volume),
        book.order_count()
    )
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = &self.config;
        let s = &self.stats;
        let rate = if c.rate == 0 {
            "unpaced".to_string()
        } else {
            format!("paced at {} msg/s", thousands(c.rate))
        };
        let window = if c.window == 0 {
            "no flow control".to_string()
        } else {
            format!(
                "window {} messages (held back {} times)",
                thousands(c.window),
                thousands(self.sent.waits)
            )
        };
        writeln!(
            f,
            "published  {} messages for {} symbols in {} datagrams ({:.1} messages, {} bytes each on average), {rate}, {window}",
            thousands(self.sent.messages),
            c.session.symbols,
            thousands(self.sent.datagrams),
            self.sent.messages as f64 / self.sent.datagrams.max(1) as f64,
            self.sent.bytes / self.sent.datagrams.max(1),
        )?;
        writeln!(
            f,
            "received   {} messages, {:.1} MB in {:.2} s: {} msg/s, {:.1} MB/s",
            thousands(s.messages),
            s.bytes as f64 / 1e6,
            self.span.as_secs_f64(),
            thousands(self.messages_per_second() as u64),
            self.bytes_per_second() / 1e6,
        )?;
        writeln!(
            f,
            "handling   {} per message (view + dispatch + sequence check + book update, and one {:.0} ns clock read); busy {:.2} s: capacity {} msg/s",
            self.handling,
            self.clock_ns,
            self.busy.as_secs_f64(),
            thousands((s.messages as f64 / self.busy.as_secs_f64().max(1e-9)) as u64),
        )?;
        writeln!(
            f,
            "wire       {} from the packet's send stamp to the message handled (UDP loopback)",
            self.wire
        )?;
        writeln!(
            f,
            "sequence   {} gaps ({} messages missed), {} stale, {} malformed datagrams, {} unknown order refs",
            s.gaps, s.missed, s.stale, s.malformed, self.books.unknown_refs
        )?;
        let pct = |n: u64| 100.0 * n as f64 / s.messages.max(1) as f64;
        writeln!(
            f,
            "mix        add {:.1}%  executed {:.1}%  cancel {:.1}%  delete {:.1}%  trade {:.1}%  system {}",
            pct(s.by_type[1]),
            pct(s.by_type[2]),
            pct(s.by_type[3]),
            pct(s.by_type[4]),
            pct(s.by_type[5]),
            s.by_type[0]
        )?;
        writeln!(
            f,
            "books      {} symbols, {} resting orders; top of book of the busiest (prices in dollars, 4 decimals):",
            self.books.books().len(),
            thousands(self.books.resting_orders() as u64)
        )?;
        for book in self.top_books(5) {
            writeln!(f, "  {}", top_of_book(book))?;
        }
        match self.verified {
            Some(true) => write!(
                f,
                "verified   books rebuilt from owned, decoded messages are identical"
            ),
            Some(false) if s.gaps > 0 || s.malformed > 0 => write!(
                f,
                "verified   books differ from the decoded pass, as expected after lost datagrams"
            ),
            Some(false) => write!(f, "verified   MISMATCH: books differ from the decoded pass"),
            None => write!(f, "verified   not checked"),
        }
    }
}

/// Writes every message of the session to `path` as a self-describing file of frames
/// (FORMAT.md §10, §12): one schema frame of the whole feed first, then the messages,
/// so that the `wiremsg` tool reads it as it is (`wiremsg cat PATH`). Also writes the
/// feed's schema set to `path` with `.wms` appended, for the commands that take a
/// schema file (`wiremsg compat`, `wiremsg dump -s PATH.wms --frames PATH`).
///
/// # Errors
///
/// The files' I/O errors ([`wiremsg::ErrorKind::Io`]).
pub fn record(session: SessionConfig, path: &std::path::Path) -> Result<(), wiremsg::Error> {
    let file = std::fs::File::create(path).map_err(|e| wiremsg::Error::from_io(e, 0))?;
    let schema = Feed::schema_set()?;
    let mut writer = wiremsg::FrameWriter::new(io::BufWriter::new(file)).with_schema_frames();
    // A dispatch enum's types are described up front, in one schema frame.
    writer.write_schema(&schema)?;
    for message in Session::new(session) {
        writer.write(&message)?;
    }
    writer.flush()?;
    let mut schema_path = path.as_os_str().to_owned();
    schema_path.push(".wms");
    schema.write_file(schema_path)
}
