//! Order entry over Aeron: a gateway and two client processes, one built with
//! version 1 of the new-order message and one with version 2, at once.
//!
//! The messages are the `order_gateway` example's ([`v1::NewOrder`],
//! [`v2::NewOrder`], [`Cancel`], [`ExecutionReport`]); the gateway reads every request
//! through the example's `WireDispatch` enum [`Inbound`] with version 2 of the new
//! order, so a version 1 order reads its `time_in_force` as the declared default,
//! `Day`, and the report echoes the version the order arrived in.
//!
//! Each client sends its orders one at a time and waits for the execution report
//! (every fourth order is then cancelled and the cancel confirmed), and records the
//! round trip from its send time to the report handled. Each client has its own
//! request stream and response stream, so the gateway answers on the publication that
//! belongs to the stream the request came on.
//!
//! Over `aeron:ipc` the clients are clients of the gateway's media driver; over
//! `aeron:udp` on 127.0.0.1 each process runs its own embedded driver: requests go to
//! the gateway's endpoint, reports to each client's.
//!
//! Both sides poll with a yielding idle strategy: latency is what it measures, and a
//! backing-off poller would add its parking time (up to 1 ms) to a round trip.

use crate::process::{Children, Fields, free_udp_ports, result_line};
use crate::{Error, Node, TERM_LENGTH, Transport, WirePublisher, WireSubscriber, histogram};
use rusteron_client::{Aeron, IdleStrategy, YieldingIdleStrategy};
use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::time::{Duration, Instant};
use wiremsg::{FixedStr, MessageHeader, Template};
use wiremsg_examples::gateway::{
    Cancel, ConnectionStats, ExecType, ExecutionReport, Inbound, InboundView, Side, TimeInForce,
    order_v1, order_v2, v1, v2,
};
use wiremsg_examples::{Percentiles, thousands};

/// Request stream of the client built with version `v`: `REQUEST_STREAM + v`.
pub const REQUEST_STREAM: i32 = 1100;
/// Response stream of the client built with version `v`: `RESPONSE_STREAM + v`.
pub const RESPONSE_STREAM: i32 = 1200;
/// The versions of the two clients.
pub const VERSIONS: [u16; 2] = [1, 2];

/// Most fragments one poll hands on.
const FRAGMENT_LIMIT: usize = 16;

/// What to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// IPC or UDP.
    pub transport: Transport,
    /// New orders per client.
    pub orders: u64,
    /// How long the run may take before it is abandoned.
    pub timeout: Duration,
    /// A running media driver's directory to use instead of an embedded one.
    pub aeron_dir: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            transport: Transport::Ipc,
            orders: 50_000,
            timeout: Duration::from_secs(120),
            aeron_dir: None,
        }
    }
}

/// The channels of a run: the gateway's requests, and each client's reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Channels {
    /// Where the clients publish and the gateway subscribes.
    pub request: String,
    /// Where the gateway publishes to client `i` (version `VERSIONS[i]`) and that
    /// client subscribes.
    pub response: [String; 2],
}

impl Channels {
    /// The channels for `transport` (free ports on 127.0.0.1 for UDP).
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if free UDP ports cannot be found.
    pub fn new(transport: Transport) -> Result<Channels, Error> {
        Ok(match transport {
            Transport::Ipc => Channels {
                request: format!("aeron:ipc?term-length={TERM_LENGTH}"),
                response: [0, 1].map(|_| format!("aeron:ipc?term-length={TERM_LENGTH}")),
            },
            Transport::Udp => {
                let ports = free_udp_ports(3)?;
                let udp = |port: u16| {
                    format!("aeron:udp?endpoint=127.0.0.1:{port}|term-length={TERM_LENGTH}")
                };
                Channels {
                    request: udp(ports[0]),
                    response: [udp(ports[1]), udp(ports[2])],
                }
            }
        })
    }
}

/// The gateway's side of one client: its live orders and what it saw.
#[derive(Debug, Default)]
struct Gate {
    stats: ConnectionStats,
    /// Live orders: client order id -> (order id, symbol, side, price, leaves).
    live: HashMap<u64, (u64, FixedStr<8>, Side, i64, u32)>,
    next_order_id: u64,
}

impl Gate {
    /// The execution report that answers `request` (as the TCP gateway answers).
    fn answer(
        &mut self,
        header: MessageHeader,
        request: &InboundView<'_>,
    ) -> Result<ExecutionReport, wiremsg::Error> {
        let stats = &mut self.stats;
        Ok(match request {
            InboundView::New(order) => {
                let version = usize::from(header.version);
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
                let order_id = self.next_order_id;
                self.next_order_id += 1;
                let exec_type = match time_in_force {
                    TimeInForce::Day => {
                        stats.day += 1;
                        ExecType::New
                    }
                    TimeInForce::GoodTillCancel => {
                        stats.good_till_cancel += 1;
                        ExecType::New
                    }
                    TimeInForce::ImmediateOrCancel => {
                        stats.immediate_or_cancel += 1;
                        ExecType::Canceled
                    }
                };
                let leaves_qty = if exec_type == ExecType::New {
                    self.live.insert(
                        order.client_order_id(),
                        (
                            order_id,
                            symbol,
                            order.side(),
                            order.price(),
                            order.quantity(),
                        ),
                    );
                    order.quantity()
                } else {
                    0
                };
                ExecutionReport {
                    client_order_id: order.client_order_id(),
                    order_id,
                    exec_type,
                    symbol,
                    side: order.side(),
                    price: order.price(),
                    leaves_qty,
                    time_in_force,
                    order_version: header.version,
                    echo_sent_ns: order.sent_ns(),
                }
            }
            InboundView::Cancel(cancel) => {
                stats.cancels += 1;
                let (order_id, exec_type, symbol, side, price) =
                    match self.live.remove(&cancel.client_order_id()) {
                        Some((order_id, symbol, side, price, _)) => {
                            (order_id, ExecType::Canceled, symbol, side, price)
                        }
                        None => {
                            stats.rejects += 1;
                            (0, ExecType::Rejected, FixedStr::default(), Side::Buy, 0)
                        }
                    };
                ExecutionReport {
                    client_order_id: cancel.client_order_id(),
                    order_id,
                    exec_type,
                    symbol,
                    side,
                    price,
                    leaves_qty: 0,
                    time_in_force: TimeInForce::Day,
                    order_version: 0,
                    echo_sent_ns: cancel.sent_ns(),
                }
            }
        })
    }
}

/// What one client process measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClientReport {
    /// The version of the new order the client was built with.
    pub version: u64,
    /// Orders sent and answered.
    pub orders: u64,
    /// Cancels sent and confirmed.
    pub cancels: u64,
    /// Reports whose `order_version` was the client's version.
    pub version_echoed: u64,
    /// Bytes sent and received (headers and messages).
    pub bytes: u64,
    /// From the first order sent to the last report handled, ns.
    pub span_ns: u64,
    /// Round trip of a new order: send to execution report handled.
    pub round_trip: Percentiles,
}

impl ClientReport {
    /// The report as a child's `RESULT` line.
    pub fn to_line(&self) -> String {
        result_line(&[
            ("version", self.version),
            ("orders", self.orders),
            ("cancels", self.cancels),
            ("echoed", self.version_echoed),
            ("bytes", self.bytes),
            ("span_ns", self.span_ns),
            ("count", self.round_trip.count),
            ("p50", self.round_trip.p50),
            ("p99", self.round_trip.p99),
            ("p999", self.round_trip.p999),
            ("max", self.round_trip.max),
        ])
    }

    /// The report read back from a `RESULT` line's fields.
    pub fn from_fields(f: &Fields) -> Self {
        ClientReport {
            version: f.get("version"),
            orders: f.get("orders"),
            cancels: f.get("cancels"),
            version_echoed: f.get("echoed"),
            bytes: f.get("bytes"),
            span_ns: f.get("span_ns"),
            round_trip: Percentiles {
                count: f.get("count"),
                p50: f.get("p50"),
                p99: f.get("p99"),
                p999: f.get("p999"),
                max: f.get("max"),
            },
        }
    }

    /// Messages (orders, cancels and their reports) per second.
    pub fn messages_per_second(&self) -> f64 {
        2.0 * (self.orders + self.cancels) as f64 * 1e9 / self.span_ns.max(1) as f64
    }

    /// Megabytes (10^6 bytes) per second, both directions.
    pub fn megabytes_per_second(&self) -> f64 {
        self.bytes as f64 * 1e3 / self.span_ns.max(1) as f64
    }
}

/// What a run did.
#[derive(Debug, Clone)]
pub struct Report {
    /// The run's config.
    pub config: Config,
    /// The gateway's view of each client, by client (version 1 first).
    pub gateway: Vec<ConnectionStats>,
    /// Requests the gateway could not view.
    pub bad_requests: u64,
    /// Each client's report, version 1 first.
    pub clients: Vec<ClientReport>,
}

impl Report {
    /// True if each client had every order answered with its version echoed, and the
    /// gateway read each client's orders in that client's version.
    pub fn all_ok(&self) -> bool {
        self.bad_requests == 0
            && self.clients.len() == 2
            && self.gateway.len() == 2
            && self
                .clients
                .iter()
                .zip(&self.gateway)
                .zip(VERSIONS)
                .all(|((c, g), v)| {
                    c.version == u64::from(v)
                        && c.orders == self.config.orders
                        && c.version_echoed == c.orders
                        && g.by_header_version[usize::from(v)] == c.orders
                        && g.cancels == c.cancels
                        && g.rejects == 0
                })
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} order entry: a gateway built with NewOrder v2 ({}-byte block; v1's is {}), 2 client processes x {} orders",
            self.config.transport,
            <v2::NewOrder as wiremsg::WireMsg>::BLOCK_LENGTH,
            <v1::NewOrder as wiremsg::WireMsg>::BLOCK_LENGTH,
            thousands(self.config.orders)
        )?;
        for (g, v) in self.gateway.iter().zip(VERSIONS) {
            let (block, header, view) = g.first_order.unwrap_or_default();
            writeln!(
                f,
                "  gateway    client v{v}: {} orders arrived as version {v} (first: header.version {header}, block length {block}, view.version() {view}); time_in_force carried by {}, read as Day {} / GTC {} / IOC {}; {} cancels, {} rejects",
                thousands(g.by_header_version[usize::from(v)]),
                thousands(g.with_time_in_force),
                thousands(g.day),
                thousands(g.good_till_cancel),
                thousands(g.immediate_or_cancel),
                thousands(g.cancels),
                g.rejects
            )?;
        }
        for c in &self.clients {
            writeln!(
                f,
                "  client v{}  round trip {} over {} orders ({} cancels), {} msg/s, {:.1} MB/s; {} reports echoed order_version {}",
                c.version,
                c.round_trip,
                thousands(c.orders),
                thousands(c.cancels),
                thousands(c.messages_per_second() as u64),
                c.megabytes_per_second(),
                thousands(c.version_echoed),
                c.version
            )?;
        }
        Ok(())
    }
}

/// Runs the gateway here and the two client processes of `exe` (a program that runs
/// [`client`] when given [`client_args`]).
///
/// # Errors
///
/// An Aeron, publishing or process error; [`Error::Timeout`] if a client did not
/// connect or finish in time.
pub fn run(config: &Config, exe: &Path) -> Result<Report, Error> {
    let node = match &config.aeron_dir {
        Some(dir) => Node::connect(dir)?,
        None => Node::embedded("gateway")?,
    };
    let channels = Channels::new(config.transport)?;
    let mut subscribers = Vec::new();
    let mut publishers = Vec::new();
    for (i, version) in VERSIONS.into_iter().enumerate() {
        subscribers.push(node.subscriber(&channels.request, REQUEST_STREAM + i32::from(version))?);
        let mut publisher =
            node.publisher(&channels.response[i], RESPONSE_STREAM + i32::from(version))?;
        publisher.set_timeout(config.timeout);
        publishers.push(publisher);
    }
    let shared_dir = (config.transport == Transport::Ipc).then(|| node.dir().to_string());
    let args: Vec<Vec<String>> = VERSIONS
        .iter()
        .enumerate()
        .map(|(i, version)| client_args(*version, &channels, i, config, shared_dir.as_deref()))
        .collect();
    let mut children = Children::spawn(exe, &args)?;
    children.expect_each("READY", config.timeout)?;

    let mut gates: Vec<Gate> = (0..2)
        .map(|i| Gate {
            next_order_id: (i + 1) * 1_000_000 + 1,
            ..Gate::default()
        })
        .collect();
    let mut idle = YieldingIdleStrategy;
    let deadline = Instant::now() + config.timeout;
    let mut idle_polls = 0u32;
    let mut loops = 0u32;
    let mut progress = Instant::now();
    loop {
        let mut work = 0;
        for ((subscriber, publisher), gate) in
            subscribers.iter_mut().zip(&mut publishers).zip(&mut gates)
        {
            work += serve(subscriber, publisher, gate)?;
        }
        loops = loops.wrapping_add(1);
        if loops.is_multiple_of(4_096) && progress.elapsed() >= Duration::from_secs(1) {
            progress = Instant::now();
            let answered: Vec<String> = gates
                .iter()
                .zip(VERSIONS)
                .map(|(g, v)| {
                    let orders = g.stats.by_header_version[usize::from(v)];
                    format!("v{v} {} of {}", thousands(orders), thousands(config.orders))
                })
                .collect();
            eprintln!(
                "{}: gateway answered orders {}",
                config.transport,
                answered.join(", ")
            );
        }
        if work > 0 {
            idle_polls = 0;
            continue;
        }
        idle.idle(0);
        idle_polls += 1;
        // Between bursts of requests, look now and then whether the clients are done.
        if idle_polls.is_multiple_of(1_024) {
            if children.all_exited() {
                break;
            }
            if Instant::now() > deadline {
                return Err(Error::Timeout(format!(
                    "clients still running after {:?}",
                    config.timeout
                )));
            }
        }
    }
    let results = children.expect_each("RESULT", Duration::from_secs(1))?;
    children.wait(Duration::from_secs(1))?;
    Ok(Report {
        config: config.clone(),
        bad_requests: subscribers.iter().map(|s| s.stats().bad).sum(),
        gateway: gates.into_iter().map(|g| g.stats).collect(),
        clients: results
            .iter()
            .map(|line| ClientReport::from_fields(&Fields::parse(line)))
            .collect(),
    })
}

/// Answers the requests that arrived on `subscriber`; returns the fragments read.
fn serve(
    subscriber: &mut WireSubscriber,
    publisher: &mut WirePublisher,
    gate: &mut Gate,
) -> Result<usize, Error> {
    let mut failed = None;
    let fragments = subscriber.poll(FRAGMENT_LIMIT, |bytes, _frame| {
        let (header, request) = Inbound::view(bytes)?;
        let report = gate.answer(header, &request)?;
        if let Err(e) = publisher.send(&report) {
            failed.get_or_insert(e);
        }
        gate.stats.reports += 1;
        Ok(())
    })?;
    if let Some(e) = subscriber.first_bad() {
        if gate.stats.bad_frames == 0 {
            eprintln!("gateway: a request could not be viewed: {e}");
        }
        gate.stats.bad_frames = subscriber.stats().bad;
    }
    match failed {
        Some(e) => Err(e),
        None => Ok(fragments),
    }
}

/// The command-line arguments of client `index` (after the program name), as the
/// `aeron_order_gateway` program reads them.
pub fn client_args(
    version: u16,
    channels: &Channels,
    index: usize,
    config: &Config,
    aeron_dir: Option<&str>,
) -> Vec<String> {
    let mut args = vec![
        "client".to_string(),
        "--version".to_string(),
        version.to_string(),
        "--orders".to_string(),
        config.orders.to_string(),
        "--request-channel".to_string(),
        channels.request.clone(),
        "--response-channel".to_string(),
        channels.response[index].clone(),
        "--timeout-secs".to_string(),
        config.timeout.as_secs().to_string(),
    ];
    if let Some(dir) = aeron_dir {
        args.extend(["--aeron-dir".to_string(), dir.to_string()]);
    }
    args
}

/// What a client process is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    /// The version of the new order it sends: 1 or 2.
    pub version: u16,
    /// New orders to send.
    pub orders: u64,
    /// Where it publishes requests.
    pub request_channel: String,
    /// Where it subscribes to reports.
    pub response_channel: String,
    /// The gateway's driver directory (IPC); `None`: start an embedded driver.
    pub aeron_dir: Option<String>,
    /// How long to wait for the gateway, and for each report.
    pub timeout: Duration,
}

/// The fields of a report a client checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Answer {
    client_order_id: u64,
    exec_type: ExecType,
    order_version: u16,
    echo_sent_ns: u64,
}

/// Waits for the next execution report.
fn next_answer(
    subscriber: &mut WireSubscriber,
    idle: &mut impl IdleStrategy,
    timeout: Duration,
) -> Result<Answer, Error> {
    let mut answer = None;
    let mut polls = 0u32;
    let mut deadline = None;
    loop {
        let fragments = subscriber.poll(1, |bytes, _frame| {
            let (_, report) = ExecutionReport::view_with_header(bytes)?;
            answer = Some(Answer {
                client_order_id: report.client_order_id(),
                exec_type: report.exec_type(),
                order_version: report.order_version(),
                echo_sent_ns: report.echo_sent_ns(),
            });
            Ok(())
        })?;
        if let Some(answer) = answer {
            return Ok(answer);
        }
        if let Some(e) = subscriber.first_bad() {
            return Err(Error::Process(format!("a report could not be viewed: {e}")));
        }
        polls = polls.wrapping_add(1);
        if polls.is_multiple_of(1_024) {
            let now = Instant::now();
            if now > *deadline.get_or_insert(now + timeout) {
                return Err(Error::Timeout(format!(
                    "no execution report in {timeout:?}"
                )));
            }
        }
        idle.idle(i32::try_from(fragments).unwrap_or(i32::MAX));
    }
}

fn mismatch(what: &str, i: u64, answer: &Answer) -> Error {
    Error::Process(format!("order {i}: {what}: {answer:?}"))
}

/// A client: connects, calls `ready`, sends its orders one at a time (each fourth
/// one then cancelled), checks each report, and reports its round trips.
///
/// # Errors
///
/// An Aeron or publishing error; [`Error::Timeout`] if the gateway does not connect
/// or answer; [`Error::Process`] if a report does not answer the request.
pub fn client(config: &ClientConfig, ready: impl FnOnce()) -> Result<ClientReport, Error> {
    let node = match &config.aeron_dir {
        Some(dir) => Node::connect(dir)?,
        None => Node::embedded(&format!("client-v{}", config.version))?,
    };
    let mut publisher = node.publisher(
        &config.request_channel,
        REQUEST_STREAM + i32::from(config.version),
    )?;
    publisher.set_timeout(config.timeout);
    let mut subscriber = node.subscriber(
        &config.response_channel,
        RESPONSE_STREAM + i32::from(config.version),
    )?;
    publisher.wait_connected()?;
    let deadline = Instant::now() + config.timeout;
    let mut idle = YieldingIdleStrategy;
    while !subscriber.is_connected() {
        if Instant::now() > deadline {
            return Err(Error::Timeout(format!(
                "no gateway on {} in {:?}",
                config.response_channel, config.timeout
            )));
        }
        idle.idle(0);
    }
    ready();

    let mut round_trip = histogram();
    let mut report = ClientReport {
        version: u64::from(config.version),
        ..ClientReport::default()
    };
    let start = Instant::now();
    for i in 1..=config.orders {
        let sent = Aeron::nano_clock();
        let sent_ns = u64::try_from(sent).unwrap_or(0);
        match config.version {
            1 => publisher.send(&order_v1(i, sent_ns))?,
            _ => publisher.send(&order_v2(i, sent_ns))?,
        };
        let answer = next_answer(&mut subscriber, &mut idle, config.timeout)?;
        round_trip.saturating_record(u64::try_from(Aeron::nano_clock() - sent).unwrap_or(0));
        if answer.client_order_id != i || answer.echo_sent_ns != sent_ns {
            return Err(mismatch("execution report for another order", i, &answer));
        }
        report.orders += 1;
        report.version_echoed += u64::from(answer.order_version == config.version);
        if i.is_multiple_of(4) && answer.exec_type == ExecType::New {
            publisher.send(&Cancel {
                client_order_id: i,
                sent_ns,
            })?;
            let answer = next_answer(&mut subscriber, &mut idle, config.timeout)?;
            if answer.exec_type != ExecType::Canceled || answer.client_order_id != i {
                return Err(mismatch("cancel not confirmed", i, &answer));
            }
            report.cancels += 1;
        }
    }
    report.span_ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    report.bytes = publisher.stats().bytes + subscriber.stats().bytes;
    report.round_trip = Percentiles::of(&round_trip);
    Ok(report)
}

/// One row of a summary table.
pub fn summary_row(report: &Report, c: &ClientReport) -> crate::SummaryRow {
    crate::SummaryRow {
        transport: report.config.transport,
        what: if c.version == 1 {
            "order round trip, v1 client"
        } else {
            "order round trip, v2 client"
        },
        messages: 2 * (c.orders + c.cancels),
        messages_per_second: c.messages_per_second(),
        megabytes_per_second: c.megabytes_per_second(),
        latency: c.round_trip,
        latency_kind: "round trip",
    }
}

/// What wiremsg alone costs for 10,000 version 2 new orders (encoded with the header,
/// viewed through [`Inbound`] with the client order id read) and as many execution
/// reports (encoded, viewed with the header, client order id read).
pub fn wire_costs() -> (crate::WireCost, crate::WireCost) {
    let orders: Vec<v2::NewOrder> = (1..=10_000).map(|i| order_v2(i, i * 1_000)).collect();
    let new_order = crate::WireCost::measure(
        &orders,
        |m, out| m.encode_with_header_into(out).unwrap_or(0),
        |bytes| match Inbound::view(bytes) {
            Ok((_, InboundView::New(order))) => order.client_order_id(),
            _ => 0,
        },
    );
    let reports: Vec<ExecutionReport> = orders
        .iter()
        .map(|o| ExecutionReport {
            client_order_id: o.client_order_id,
            order_id: o.client_order_id + 1_000_000,
            exec_type: ExecType::New,
            symbol: o.symbol,
            side: o.side,
            price: o.price,
            leaves_qty: o.quantity,
            time_in_force: o.time_in_force,
            order_version: 2,
            echo_sent_ns: o.sent_ns,
        })
        .collect();
    let report = crate::WireCost::measure(
        &reports,
        |m, out| m.encode_with_header_into(out).unwrap_or(0),
        |bytes| ExecutionReport::view_with_header(bytes).map_or(0, |(_, r)| r.client_order_id()),
    );
    (new_order, report)
}
