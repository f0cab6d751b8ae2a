//! wiremsg on Aeron: zero-copy publishing and in-place views over Aeron's IPC and
//! UDP transports, with the examples a trading system would start from.
//!
//! - [`Node`]: an embedded media driver in a fresh directory under the temp dir (or
//!   a running one) and a client of it.
//! - [`WirePublisher`]: each message with its 8-byte header written straight into a
//!   claimed slot of the term buffer (`try_claim`, `encode_with_header_into`,
//!   commit); messages longer than one frame encoded into one reused buffer and
//!   offered. Back-pressure, not-connected and admin-action refusals are counted and
//!   idled through, up to a deadline.
//! - [`WireSubscriber`]: each message handed to a handler as the bytes in the term
//!   buffer, to be viewed in place (a `WireDispatch` enum's `view`); messages longer
//!   than one frame reassembled by Aeron's fragment assembler; a message the handler
//!   cannot view counted, never a panic.
//! - [`feed`]: the market-data fan-out (one publisher, several subscriber
//!   processes, the `market_data` example's ITCH-style session and order books).
//! - [`orders`]: order entry round trips (a gateway and version 1 and version 2
//!   clients, the `order_gateway` example's messages).
//!
//! Hot paths allocate nothing per message: publishing into a claim, the poll, the
//! view (`tests/transport.rs` counts with a counting global allocator, over IPC and
//! UDP).
//!
//! # Examples
//!
//! ```no_run
//! use wiremsg::{Template, WireMsg};
//! use wiremsg_aeron::Node;
//!
//! #[derive(WireMsg, Debug, PartialEq)]
//! #[wire(template_id = 1)]
//! struct Tick { price: i64, size: u32 }
//!
//! let node = Node::embedded("tour")?;              // driver + client, temp dir
//! let mut subscriber = node.subscriber("aeron:ipc", 7)?;
//! let mut publisher = node.publisher("aeron:ipc", 7)?;
//! publisher.wait_connected()?;
//! publisher.send(&Tick { price: 2_345_600, size: 300 })?;
//! let mut sizes = Vec::new();
//! while sizes.is_empty() {
//!     subscriber.poll(16, |bytes, _frame| {
//!         let (_header, tick) = Tick::view_with_header(bytes)?;
//!         sizes.push(tick.size());
//!         Ok(())
//!     })?;
//! }
//! assert_eq!(sizes, [300]);
//! # Ok::<(), wiremsg_aeron::Error>(())
//! ```

pub mod error;
pub mod feed;
pub mod hosts;
pub mod node;
pub mod orders;
pub mod process;
pub mod publisher;
pub mod subscriber;

pub use error::Error;
pub use node::Node;
pub use publisher::{PublishStats, WirePublisher};
pub use subscriber::{ReceiveStats, WireSubscriber};

use hdrhistogram::Histogram;
use std::fmt;
use std::str::FromStr;
use wiremsg_examples::{Percentiles, format_ns, thousands};

/// Term length of the examples' publications: 4 MiB (Aeron's defaults are 16 MiB
/// for UDP and 64 MiB for IPC; a log buffer is three terms, mapped by every driver
/// and client that uses it). The longest message is an eighth of it, 512 KiB.
pub const TERM_LENGTH: usize = 4 * 1024 * 1024;

/// Aeron's transports on one host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transport {
    /// `aeron:ipc`: the shared memory of one media driver.
    Ipc,
    /// `aeron:udp` on 127.0.0.1, between media drivers.
    Udp,
}

impl Transport {
    /// Both, IPC first.
    pub const ALL: [Transport; 2] = [Transport::Ipc, Transport::Udp];
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Transport::Ipc => "ipc",
            Transport::Udp => "udp",
        })
    }
}

impl FromStr for Transport {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ipc" => Ok(Transport::Ipc),
            "udp" => Ok(Transport::Udp),
            other => Err(format!("unknown transport `{other}` (ipc or udp)")),
        }
    }
}

/// A histogram of nanoseconds from 1 ns to 60 s, 3 significant digits.
pub fn histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, 60_000_000_000, 3).expect("valid histogram bounds")
}

/// One row of the examples' summary table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SummaryRow {
    /// IPC or UDP.
    pub transport: Transport,
    /// What was measured.
    pub what: &'static str,
    /// Messages received.
    pub messages: u64,
    /// Messages per second.
    pub messages_per_second: f64,
    /// Megabytes (10^6 bytes) per second.
    pub megabytes_per_second: f64,
    /// Latency percentiles.
    pub latency: Percentiles,
    /// `one-way` or `round trip`.
    pub latency_kind: &'static str,
}

/// The rows as a Markdown table.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let mut out = String::from(
        "| transport | what | messages | msg/s | MB/s | latency | p50 | p99 | p99.9 | max |\n|---|---|---:|---:|---:|---|---:|---:|---:|---:|\n",
    );
    for r in rows {
        out.push_str(&format!(
            "| {} | {} | {} | {} | {:.1} | {} | {} | {} | {} | {} |\n",
            r.transport,
            r.what,
            thousands(r.messages),
            thousands(r.messages_per_second as u64),
            r.megabytes_per_second,
            r.latency_kind,
            format_ns(r.latency.p50),
            format_ns(r.latency.p99),
            format_ns(r.latency.p999),
            format_ns(r.latency.max),
        ));
    }
    out
}

/// What wiremsg alone costs per message, in this process: encoding with the header
/// into a buffer, and viewing (validating) it, nanoseconds on average.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct WireCost {
    /// Messages measured.
    pub messages: usize,
    /// Mean bytes per message, header included.
    pub bytes: f64,
    /// `encode_with_header_into`, ns per message.
    pub encode_ns: f64,
    /// The dispatch's `view` and one field read, ns per message.
    pub view_ns: f64,
}

impl WireCost {
    /// Measures `encode` and `view` over `items`, each pass repeated until it has
    /// run for about 50 ms; the buffers are written first, so the view pass reads
    /// warm bytes. `encode` writes one message into a 64-byte slot and returns its
    /// length; `view` validates one and returns a field (kept from the optimizer).
    pub fn measure<T>(
        items: &[T],
        mut encode: impl FnMut(&T, &mut [u8]) -> usize,
        mut view: impl FnMut(&[u8]) -> u64,
    ) -> WireCost {
        const SLOT: usize = 64;
        let mut buffer = vec![0u8; items.len() * SLOT];
        let mut lens = vec![0usize; items.len()];
        let run = |pass: &mut dyn FnMut() -> u64| {
            let start = std::time::Instant::now();
            let mut rounds = 0u32;
            let mut sink = 0u64;
            while rounds == 0 || start.elapsed() < std::time::Duration::from_millis(50) {
                sink = sink.wrapping_add(pass());
                rounds += 1;
            }
            std::hint::black_box(sink);
            start.elapsed().as_nanos() as f64 / (f64::from(rounds) * items.len().max(1) as f64)
        };
        let encode_ns = run(&mut || {
            for (i, item) in items.iter().enumerate() {
                lens[i] = encode(item, &mut buffer[i * SLOT..(i + 1) * SLOT]);
            }
            lens.len() as u64
        });
        let view_ns = run(&mut || {
            let mut sum = 0u64;
            for (i, len) in lens.iter().enumerate() {
                sum = sum.wrapping_add(view(std::hint::black_box(
                    &buffer[i * SLOT..i * SLOT + len],
                )));
            }
            sum
        });
        WireCost {
            messages: items.len(),
            bytes: lens.iter().sum::<usize>() as f64 / items.len().max(1) as f64,
            encode_ns,
            view_ns,
        }
    }
}

impl fmt::Display for WireCost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "encode {:.1} ns, view {:.1} ns per message ({:.1} bytes with the header, mean of {})",
            self.encode_ns,
            self.view_ns,
            self.bytes,
            thousands(self.messages as u64)
        )
    }
}
