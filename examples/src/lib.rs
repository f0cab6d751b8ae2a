//! HFT-style example programs for wiremsg, as a library so that the tests can run
//! them with small counts.
//!
//! | binary | module | what it shows |
//! |---|---|---|
//! | `market_data` | [`market_data`] ([`itch`], [`book`], [`session`]) | an ITCH-style feed over UDP, dispatch on views, per-symbol order books |
//! | `order_gateway` | [`gateway`] | versioned order entry over TCP: a v2 server, v1 and v2 clients, in-place updates |
//! | `login` | [`login`] | reference.md R1: annotated bytes, sizes next to JSON and Protobuf |
//! | `raw_struct_hazards` | [`hazards`] | reference.md R4: padding, endianness and versioning of raw `repr(C)` structs |

pub mod annotate;
pub mod book;
pub mod gateway;
pub mod hazards;
pub mod itch;
pub mod login;
pub mod market_data;
pub mod session;

use hdrhistogram::Histogram;
use std::fmt;

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A duration in nanoseconds, in the unit that suits it: `850 ns`, `12.3 µs`, `4.1 ms`.
pub fn format_ns(ns: u64) -> String {
    match ns {
        0..1_000 => format!("{ns} ns"),
        1_000..1_000_000 => format!("{:.1} µs", ns as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} ms", ns as f64 / 1e6),
        _ => format!("{:.2} s", ns as f64 / 1e9),
    }
}

/// Latency percentiles of a histogram of nanoseconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Percentiles {
    /// Values recorded.
    pub count: u64,
    /// Median, ns.
    pub p50: u64,
    /// 99th percentile, ns.
    pub p99: u64,
    /// 99.9th percentile, ns.
    pub p999: u64,
    /// Largest value, ns.
    pub max: u64,
}

impl Percentiles {
    /// The percentiles of `histogram` (nanoseconds).
    pub fn of(histogram: &Histogram<u64>) -> Self {
        Percentiles {
            count: histogram.len(),
            p50: histogram.value_at_quantile(0.5),
            p99: histogram.value_at_quantile(0.99),
            p999: histogram.value_at_quantile(0.999),
            max: histogram.max(),
        }
    }
}

impl fmt::Display for Percentiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "p50 {}  p99 {}  p99.9 {}  max {}",
            format_ns(self.p50),
            format_ns(self.p99),
            format_ns(self.p999),
            format_ns(self.max)
        )
    }
}
