//! The `order_gateway` example: versioned order entry over TCP on 127.0.0.1, with
//! wiremsg's tokio codec ([`WireCodec`], FORMAT.md §10: a `u32` length, the 8-byte
//! header, the message).
//!
//! - The server is built with version 2 of [`v2::NewOrder`], which appended
//!   `time_in_force`. Two clients connect: one built against its own copy of version
//!   1 ([`v1::NewOrder`], in another module as it would be in another program) and
//!   one with version 2. The server reads both with its v2 type and records which
//!   version each order arrived in (`header.version` and `view.version()`); a v1
//!   order reads `time_in_force` as its declared default, `Day`.
//! - Every answer is an [`ExecutionReport`] that the server encoded **once** per
//!   connection and then updates in place with the setters of
//!   [`ExecutionReport::view_mut`] before writing it: no encoding per order.
//! - Each client sends its orders one at a time (some followed by a cancel) and
//!   records the round-trip time from send to execution report.
//!
//! Round trips here are mostly the kernel's and the scheduler's: on an idle VM, waking
//! a halted virtual CPU for each message costs tens of µs, and the same run on a busy
//! machine measures about half (production gateways busy-poll for this reason).
//!
//! The codec is driven directly ([`Connection`]: `Decoder::decode` on a read buffer
//! filled by `read_buf`, `Encoder::encode` into a write buffer sent with
//! `write_all`), which needs only `tokio` and `tokio-util`; with `futures-util`,
//! `Framed::new(stream, WireCodec::new())` and `SinkExt::send` / `StreamExt::next`
//! do the same.

use crate::{Percentiles, thousands};
use hdrhistogram::Histogram;
use std::collections::HashMap;
use std::fmt;
use std::net::SocketAddr;
use std::thread;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::bytes::BytesMut;
use tokio_util::codec::{Decoder, Encoder};
use wiremsg::frame::{LENGTH_PREFIX_LEN, WireCodec};
use wiremsg::{Error, FixedStr, Template, WireDispatch, WireEnum, WireMsg, WithHeader};

/// Buy or sell (FIX tag 54's values).
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Side {
    /// Buy.
    Buy = b'1',
    /// Sell.
    Sell = b'2',
}

/// How long an order stays live (FIX tag 59's values).
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum TimeInForce {
    /// Until the end of the trading day: what orders without the field mean.
    Day = b'0',
    /// Until cancelled.
    GoodTillCancel = b'1',
    /// Immediate or cancel: whatever does not trade at once is cancelled.
    ImmediateOrCancel = b'3',
}

/// What an execution report reports (FIX tag 150's values).
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum ExecType {
    /// The order rests on the book.
    New = b'0',
    /// The order was cancelled (by request, or an IOC order with nothing to trade).
    Canceled = b'4',
    /// The request was refused.
    Rejected = b'8',
}

/// Version 1 of the new-order message, as the old client was built: its own copy of
/// the type, with no `time_in_force`.
pub mod v1 {
    use super::Side;
    use wiremsg::{FixedStr, WireMsg};

    /// A new limit order, version 1 (37-byte block).
    #[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
    #[wire(template_id = 1, schema_id = 2)]
    pub struct NewOrder {
        /// The client's id of the order, unique per connection.
        pub client_order_id: u64,
        /// Instrument.
        pub symbol: FixedStr<8>,
        /// Buy or sell.
        pub side: Side,
        /// Limit price, 4 decimal places.
        pub price: i64,
        /// Shares.
        pub quantity: u32,
        /// When the client sent it, client clock, ns.
        pub sent_ns: u64,
    }
}

/// Version 2 of the new-order message: the server's and the new client's.
pub mod v2 {
    use super::{Side, TimeInForce};
    use wiremsg::{FixedStr, WireMsg};

    /// A new limit order, version 2: `time_in_force` appended (38-byte block).
    #[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
    #[wire(template_id = 1, schema_id = 2, version = 2)]
    pub struct NewOrder {
        /// The client's id of the order, unique per connection.
        pub client_order_id: u64,
        /// Instrument.
        pub symbol: FixedStr<8>,
        /// Buy or sell.
        pub side: Side,
        /// Limit price, 4 decimal places.
        pub price: i64,
        /// Shares.
        pub quantity: u32,
        /// When the client sent it, client clock, ns.
        pub sent_ns: u64,
        /// How long the order stays live; `Day` when a version 1 client sent it.
        #[wire(since = 2, default = super::TimeInForce::Day)]
        pub time_in_force: TimeInForce,
    }
}

/// A request to cancel a live order.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 2, schema_id = 2)]
pub struct Cancel {
    /// The order to cancel.
    pub client_order_id: u64,
    /// When the client sent it, client clock, ns.
    pub sent_ns: u64,
}

/// The server's answer to every request.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Eq)]
#[wire(template_id = 3, schema_id = 2)]
pub struct ExecutionReport {
    /// The client's id of the order.
    pub client_order_id: u64,
    /// The server's id of the order (0 if rejected).
    pub order_id: u64,
    /// What happened.
    pub exec_type: ExecType,
    /// Instrument.
    pub symbol: FixedStr<8>,
    /// Buy or sell.
    pub side: Side,
    /// Limit price, 4 decimal places.
    pub price: i64,
    /// Shares still live.
    pub leaves_qty: u32,
    /// The order's time in force, as the server understood it.
    pub time_in_force: TimeInForce,
    /// The version the new order arrived in (from its header).
    pub order_version: u16,
    /// The request's `sent_ns`, echoed.
    pub echo_sent_ns: u64,
}

/// What the server reads: dispatch by template id, with version 2 of the new order.
#[derive(WireDispatch, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Inbound {
    /// Template 1.
    New(v2::NewOrder),
    /// Template 2.
    Cancel(Cancel),
}

/// One TCP connection framed by [`WireCodec`], with a read and a write buffer that
/// it reuses.
#[derive(Debug)]
pub struct Connection {
    stream: TcpStream,
    codec: WireCodec,
    read: BytesMut,
    write: BytesMut,
}

impl Connection {
    /// Frames `stream` (and turns Nagle's algorithm off: every frame goes at once).
    ///
    /// # Errors
    ///
    /// [`wiremsg::ErrorKind::Io`] if the socket option cannot be set.
    pub fn new(stream: TcpStream) -> Result<Self, Error> {
        stream.set_nodelay(true)?;
        Ok(Connection {
            stream,
            codec: WireCodec::new(),
            read: BytesMut::with_capacity(8 * 1024),
            write: BytesMut::with_capacity(1024),
        })
    }

    /// The next frame (header and message), or `None` at a clean end of the stream.
    ///
    /// # Errors
    ///
    /// A framing error of [`WireCodec`], or [`wiremsg::ErrorKind::Io`].
    pub async fn read_frame(&mut self) -> Result<Option<BytesMut>, Error> {
        loop {
            if let Some(frame) = self.codec.decode(&mut self.read)? {
                return Ok(Some(frame));
            }
            if self.stream.read_buf(&mut self.read).await? == 0 {
                return self.codec.decode_eof(&mut self.read);
            }
        }
    }

    /// Encodes `message` as one frame and sends it.
    ///
    /// # Errors
    ///
    /// An encoding error, or [`wiremsg::ErrorKind::Io`].
    pub async fn send<T: WithHeader + ?Sized>(&mut self, message: &T) -> Result<(), Error> {
        self.write.clear();
        self.codec.encode(message, &mut self.write)?;
        self.stream.write_all(&self.write).await?;
        Ok(())
    }

    /// Sends bytes that already are whole frames.
    ///
    /// # Errors
    ///
    /// [`wiremsg::ErrorKind::Io`].
    pub async fn send_frames(&mut self, frames: &[u8]) -> Result<(), Error> {
        self.stream.write_all(frames).await?;
        Ok(())
    }

    /// Encodes `message` as one frame into `out`, with this connection's codec.
    ///
    /// # Errors
    ///
    /// An encoding error.
    pub fn encode_frame<T: WithHeader + ?Sized>(
        &mut self,
        message: &T,
        out: &mut BytesMut,
    ) -> Result<(), Error> {
        self.codec.encode(message, out)
    }
}

/// What the server saw on one connection.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConnectionStats {
    /// The client's address.
    pub peer: Option<SocketAddr>,
    /// New orders by the version in their header (index 0: unknown versions).
    pub by_header_version: [u64; 3],
    /// New orders by `view.version()` (what the bytes hold, from the block length).
    pub by_view_version: [u64; 3],
    /// New orders that carried `time_in_force` (`has_time_in_force()`).
    pub with_time_in_force: u64,
    /// New orders by time in force, as read (the default for version 1 orders).
    pub day: u64,
    /// Good-till-cancel orders.
    pub good_till_cancel: u64,
    /// Immediate-or-cancel orders (answered `Canceled`).
    pub immediate_or_cancel: u64,
    /// Cancel requests.
    pub cancels: u64,
    /// Requests answered `Rejected` (unknown order).
    pub rejects: u64,
    /// Frames that could not be viewed.
    pub bad_frames: u64,
    /// The first new order: header block length, header version, `view.version()`.
    pub first_order: Option<(u16, u16, u16)>,
    /// Execution reports written: each an in-place update of the one encoded report.
    pub reports: u64,
}

/// The server's side of one connection.
async fn serve(stream: TcpStream, first_order_id: u64) -> Result<ConnectionStats, Error> {
    let mut stats = ConnectionStats {
        peer: stream.peer_addr().ok(),
        ..ConnectionStats::default()
    };
    let mut conn = Connection::new(stream)?;
    // The answer is encoded once; every request then updates it in place.
    let mut report = BytesMut::new();
    conn.encode_frame(
        &ExecutionReport {
            client_order_id: 0,
            order_id: 0,
            exec_type: ExecType::New,
            symbol: FixedStr::default(),
            side: Side::Buy,
            price: 0,
            leaves_qty: 0,
            time_in_force: TimeInForce::Day,
            order_version: 0,
            echo_sent_ns: 0,
        },
        &mut report,
    )?;
    // Live orders: client order id -> (order id, symbol, side, price, leaves).
    let mut live: HashMap<u64, (u64, FixedStr<8>, Side, i64, u32)> = HashMap::new();
    let mut next_order_id = first_order_id;

    while let Some(frame) = conn.read_frame().await? {
        let Ok((header, request)) = Inbound::view(&frame) else {
            stats.bad_frames += 1;
            continue;
        };
        // The frame after its length prefix: header and message, viewed mutably.
        let (_, mut answer) =
            ExecutionReport::view_mut_with_header(&mut report[LENGTH_PREFIX_LEN..])?;
        match request {
            InboundView::New(order) => {
                let version = usize::from(header.version).min(3);
                stats.by_header_version[if version <= 2 { version } else { 0 }] += 1;
                stats.by_view_version[usize::from(order.version()).min(2)] += 1;
                stats.with_time_in_force += u64::from(order.has_time_in_force());
                stats.first_order.get_or_insert((
                    header.block_length,
                    header.version,
                    order.version(),
                ));
                let time_in_force = order.time_in_force();
                let symbol = FixedStr::new(order.symbol())?;
                let order_id = next_order_id;
                next_order_id += 1;
                let exec_type = match time_in_force {
                    TimeInForce::Day => {
                        stats.day += 1;
                        ExecType::New
                    }
                    TimeInForce::GoodTillCancel => {
                        stats.good_till_cancel += 1;
                        ExecType::New
                    }
                    // Nothing to trade against here: an IOC order is cancelled at once.
                    TimeInForce::ImmediateOrCancel => {
                        stats.immediate_or_cancel += 1;
                        ExecType::Canceled
                    }
                };
                let leaves = if exec_type == ExecType::New {
                    let leaves = order.quantity();
                    live.insert(
                        order.client_order_id(),
                        (order_id, symbol, order.side(), order.price(), leaves),
                    );
                    leaves
                } else {
                    0
                };
                answer.set_client_order_id(order.client_order_id());
                answer.set_order_id(order_id);
                answer.set_exec_type(exec_type);
                answer.set_symbol(symbol);
                answer.set_side(order.side());
                answer.set_price(order.price());
                answer.set_leaves_qty(leaves);
                answer.set_time_in_force(time_in_force);
                answer.set_order_version(header.version);
                answer.set_echo_sent_ns(order.sent_ns());
            }
            InboundView::Cancel(cancel) => {
                stats.cancels += 1;
                answer.set_client_order_id(cancel.client_order_id());
                answer.set_echo_sent_ns(cancel.sent_ns());
                answer.set_leaves_qty(0);
                match live.remove(&cancel.client_order_id()) {
                    Some((order_id, symbol, side, price, _)) => {
                        answer.set_order_id(order_id);
                        answer.set_exec_type(ExecType::Canceled);
                        answer.set_symbol(symbol);
                        answer.set_side(side);
                        answer.set_price(price);
                    }
                    None => {
                        stats.rejects += 1;
                        answer.set_order_id(0);
                        answer.set_exec_type(ExecType::Rejected);
                    }
                }
            }
        }
        conn.send_frames(&report).await?;
        stats.reports += 1;
    }
    Ok(stats)
}

/// What one client measured.
#[derive(Debug, Clone)]
pub struct ClientReport {
    /// The version of the new-order message the client was built with.
    pub version: u16,
    /// Orders sent.
    pub orders: u64,
    /// Cancels sent.
    pub cancels: u64,
    /// Execution reports whose `order_version` was the client's version.
    pub version_echoed: u64,
    /// Round trip of a new order: send to execution report.
    pub round_trip: Percentiles,
    /// The first execution report, as read.
    pub first_report: Option<ExecutionReport>,
}

fn symbol(i: u64) -> FixedStr<8> {
    const SYMBOLS: [&str; 4] = ["AAPL", "MSFT", "NVDA", "TSLA"];
    FixedStr::new(SYMBOLS[(i % 4) as usize]).expect("short symbol")
}

/// A client built with version 1 of the new order.
pub fn order_v1(i: u64, sent_ns: u64) -> v1::NewOrder {
    v1::NewOrder {
        client_order_id: i,
        symbol: symbol(i),
        side: if i.is_multiple_of(2) {
            Side::Buy
        } else {
            Side::Sell
        },
        price: 1_000_000 + (i % 100) as i64 * 100,
        quantity: 100 * (1 + (i % 5) as u32),
        sent_ns,
    }
}

/// A client built with version 2 of the new order.
pub fn order_v2(i: u64, sent_ns: u64) -> v2::NewOrder {
    let v1 = order_v1(i, sent_ns);
    v2::NewOrder {
        client_order_id: v1.client_order_id,
        symbol: v1.symbol,
        side: v1.side,
        price: v1.price,
        quantity: v1.quantity,
        sent_ns,
        time_in_force: match i % 3 {
            0 => TimeInForce::Day,
            1 => TimeInForce::GoodTillCancel,
            _ => TimeInForce::ImmediateOrCancel,
        },
    }
}

fn unexpected(what: &str) -> Error {
    Error::from(std::io::Error::new(std::io::ErrorKind::InvalidData, what))
}

/// One client: `orders` new orders one at a time, each fourth one cancelled.
async fn client<T: Template>(
    addr: SocketAddr,
    version: u16,
    orders: u64,
    make: fn(u64, u64) -> T,
) -> Result<ClientReport, Error> {
    let mut conn = Connection::new(TcpStream::connect(addr).await?)?;
    let clock = Instant::now();
    let mut histogram =
        Histogram::<u64>::new_with_bounds(1, 60_000_000_000, 3).expect("valid bounds");
    let mut report = ClientReport {
        version,
        orders: 0,
        cancels: 0,
        version_echoed: 0,
        round_trip: Percentiles::default(),
        first_report: None,
    };
    for i in 1..=orders {
        let sent = Instant::now();
        let sent_ns = (sent - clock).as_nanos() as u64;
        conn.send(&make(i, sent_ns)).await?;
        let frame = conn
            .read_frame()
            .await?
            .ok_or_else(|| unexpected("server closed"))?;
        let rtt = sent.elapsed();
        histogram.saturating_record(rtt.as_nanos() as u64);
        let (_, answer) = ExecutionReport::view_with_header(&frame)?;
        if answer.client_order_id() != i || answer.echo_sent_ns() != sent_ns {
            return Err(unexpected("execution report for another order"));
        }
        report.version_echoed += u64::from(answer.order_version() == version);
        report.first_report.get_or_insert_with(|| answer.decode());
        report.orders += 1;
        if i % 4 == 0 && answer.exec_type() == ExecType::New {
            conn.send(&Cancel {
                client_order_id: i,
                sent_ns,
            })
            .await?;
            let frame = conn
                .read_frame()
                .await?
                .ok_or_else(|| unexpected("server closed"))?;
            let (_, answer) = ExecutionReport::view_with_header(&frame)?;
            if answer.exec_type() != ExecType::Canceled || answer.client_order_id() != i {
                return Err(unexpected("cancel not confirmed"));
            }
            report.cancels += 1;
        }
    }
    report.round_trip = Percentiles::of(&histogram);
    Ok(report)
}

/// What to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// New orders per client.
    pub orders: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config { orders: 20_000 }
    }
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct Report {
    /// The server's address.
    pub addr: SocketAddr,
    /// The server's view of each connection, by the version of its first order.
    pub server: Vec<ConnectionStats>,
    /// The version 1 client's measurements.
    pub client_v1: ClientReport,
    /// The version 2 client's measurements.
    pub client_v2: ClientReport,
    /// From start to the last connection closed.
    pub elapsed: Duration,
}

fn runtime() -> Result<tokio::runtime::Runtime, Error> {
    Ok(tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?)
}

fn joined<T>(result: Result<Result<T, Error>, tokio::task::JoinError>) -> Result<T, Error> {
    result.map_err(|_| unexpected("task panicked"))?
}

/// Runs the server on one thread and both clients on another, over 127.0.0.1.
///
/// # Errors
///
/// A socket, framing or validation error on either side.
pub fn run(config: Config) -> Result<Report, Error> {
    let start = Instant::now();
    let server_rt = runtime()?;
    let listener = server_rt.block_on(TcpListener::bind("127.0.0.1:0"))?;
    let addr = listener.local_addr()?;
    let server = thread::Builder::new()
        .name("gateway-server".into())
        .spawn(move || {
            server_rt.block_on(async move {
                let mut connections = Vec::new();
                for i in 0..2u64 {
                    let (stream, _) = listener.accept().await?;
                    // Order ids of each connection start at their own million.
                    connections.push(tokio::spawn(serve(stream, (i + 1) * 1_000_000 + 1)));
                }
                let mut stats = Vec::new();
                for c in connections {
                    stats.push(joined(c.await)?);
                }
                Ok::<_, Error>(stats)
            })
        })?;

    let clients = runtime()?;
    let (client_v1, client_v2) = clients.block_on(async move {
        let v1 = tokio::spawn(client(addr, 1, config.orders, order_v1));
        let v2 = tokio::spawn(client(addr, 2, config.orders, order_v2));
        Ok::<_, Error>((joined(v1.await)?, joined(v2.await)?))
    })?;
    let mut server = server
        .join()
        .map_err(|_| unexpected("server thread panicked"))??;
    server.sort_by_key(|c| c.first_order.map(|(_, version, _)| version));
    Ok(Report {
        addr,
        server,
        client_v1,
        client_v2,
        elapsed: start.elapsed(),
    })
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "server     {} built with NewOrder v2 ({}-byte block; v1's is {}): 2 clients x {} orders over tokio's WireCodec, {:.2} s",
            self.addr,
            v2::NewOrder::BLOCK_LENGTH,
            v1::NewOrder::BLOCK_LENGTH,
            thousands(self.client_v1.orders),
            self.elapsed.as_secs_f64()
        )?;
        for c in &self.server {
            let peer = c.peer.map_or_else(|| "?".to_string(), |p| p.to_string());
            let arrivals: Vec<String> =
                [(1, "version 1"), (2, "version 2"), (0, "another version")]
                    .iter()
                    .filter(|(i, _)| c.by_header_version[*i] > 0)
                    .map(|(i, what)| {
                        format!(
                            "{} orders arrived as {what}",
                            thousands(c.by_header_version[*i])
                        )
                    })
                    .collect();
            let (block, header, view) = c.first_order.unwrap_or_default();
            writeln!(
                f,
                "server     client {peer}: {} (first: header.version {header}, block length {block}, view.version() {view})",
                arrivals.join(", "),
            )?;
            writeln!(
                f,
                "             time_in_force carried by {}, read as Day {} / GTC {} / IOC {}; {} cancels, {} rejects",
                thousands(c.with_time_in_force),
                thousands(c.day),
                thousands(c.good_till_cancel),
                thousands(c.immediate_or_cancel),
                thousands(c.cancels),
                c.rejects
            )?;
        }
        let reports: u64 = self.server.iter().map(|c| c.reports).sum();
        writeln!(
            f,
            "server     {} execution reports: one encoded per connection, each answer an in-place update (ExecutionReport::view_mut, set_*)",
            thousands(reports)
        )?;
        for c in [&self.client_v1, &self.client_v2] {
            writeln!(
                f,
                "client v{}  round trip {} over {} orders ({} cancels); {} reports echoed order_version {}",
                c.version,
                c.round_trip,
                thousands(c.orders),
                thousands(c.cancels),
                thousands(c.version_echoed),
                c.version
            )?;
        }
        Ok(())
    }
}
