//! Checks every column against the model, times it, and renders the tables
//! (markdown or JSON). Kept in the library so tests can drive it.

use std::fmt::{self, Write as _};
use std::hint::black_box;

use serde::Serialize;

use crate::format::{AlignedBuf, Format, FormatSet, aligned_copy};
use crate::formats::{flatbuffers, json, protobuf, rkyv, sbe, wiremsg};
use crate::model::{LoginRequest, Message, Order, Tick};
use crate::timing::{Lane, Timer, median, quantile};

/// A column that does not reproduce the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckError {
    /// Message (table) name.
    pub message: &'static str,
    /// Format (column) name.
    pub format: &'static str,
    /// What differed.
    pub problem: String,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} / {}: {}", self.message, self.format, self.problem)
    }
}

impl std::error::Error for CheckError {}

/// What [`verify`] established about a column.
#[derive(Debug)]
pub struct Verified {
    /// The encoded sample, in an aligned buffer as reads expect.
    pub bytes: AlignedBuf,
    /// Whether the format has an unchecked read path.
    pub has_unchecked: bool,
}

/// Encodes `msg` (twice, to catch a buffer that is not cleared), then checks
/// that `read`, `read_unchecked` (where it exists) and `decode` reproduce it.
pub fn verify<M: Message>(format: &mut dyn Format<M>, msg: &M) -> Result<Verified, CheckError> {
    let name = format.name();
    let fail = |problem: String| CheckError {
        message: M::NAME,
        format: name,
        problem,
    };
    let first = aligned_copy(format.encode(msg));
    let bytes = aligned_copy(format.encode(msg));
    if first[..] != bytes[..] {
        return Err(fail(
            "encoding the same message twice gave different bytes".into(),
        ));
    }
    let want = msg.checksum();
    let got = format.read(&bytes);
    if got != want {
        return Err(fail(format!(
            "read checksum {got:#018x} != model checksum {want:#018x}"
        )));
    }
    // SAFETY: `bytes` is exactly this format's `encode` output for an `M`,
    // and an `AlignedBuf` is 16-byte aligned.
    let unchecked = unsafe { format.read_unchecked(&bytes) };
    if let Some(got) = unchecked
        && got != want
    {
        return Err(fail(format!(
            "read_unchecked checksum {got:#018x} != model checksum {want:#018x}"
        )));
    }
    let decoded = format.decode(&bytes);
    if decoded != *msg {
        return Err(fail(format!("decode gave {decoded:?}, want {msg:?}")));
    }
    Ok(Verified {
        bytes,
        has_unchecked: unchecked.is_some(),
    })
}

/// Runs [`verify`] on every column of every message with its sample.
pub fn verify_set(set: &mut FormatSet) -> Result<(), CheckError> {
    fn all<M: Message>(formats: &mut [Box<dyn Format<M>>]) -> Result<(), CheckError> {
        let msg = M::sample();
        formats
            .iter_mut()
            .try_for_each(|f| verify(f.as_mut(), &msg).map(drop))
    }
    all(&mut set.login)?;
    all(&mut set.order)?;
    all(&mut set.tick)
}

/// One column's measurements.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// Format name.
    pub format: &'static str,
    /// Encoded size of the sample, bytes.
    pub size: usize,
    /// Size published in the source article, where there is one.
    pub published_size: Option<usize>,
    /// Encode into a reused buffer, ns/op.
    pub encode_ns: f64,
    /// Validated access + read every field, ns/op.
    pub read_ns: f64,
    /// Unchecked access + read every field, ns/op, where the format has it.
    pub read_unchecked_ns: Option<f64>,
    /// Decode to the owned model, ns/op.
    pub decode_ns: f64,
    /// The per-round figures the medians above come from.
    #[serde(skip)]
    pub rounds: Rounds,
}

/// One column's ns/op in each round of [`Timer::interleave`]: round `r` of
/// every column of a table ran back to back, under the same load.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rounds {
    /// Encode, per round.
    pub encode: Vec<f64>,
    /// Validated read, per round.
    pub read: Vec<f64>,
    /// Unchecked read, per round, where the format has it.
    pub read_unchecked: Option<Vec<f64>>,
    /// Decode, per round.
    pub decode: Vec<f64>,
}

/// One message's table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Message name, e.g. `R1 LoginRequest`.
    pub message: &'static str,
    /// Checksum every column's reads reproduced.
    pub checksum: u64,
    /// One row per format.
    pub rows: Vec<Row>,
    /// wiremsg against the zero-copy peers, where those columns are present
    /// (see [`ratios`]).
    pub ratios: Vec<Ratio>,
    /// Published figures to show beside the measured ones, if any.
    pub note: Option<&'static str>,
}

/// The column the ratios are about.
pub const RATIO_SUBJECT: &str = wiremsg::NAME;

/// The columns [`RATIO_SUBJECT`] is compared with, in the order shown (SBE
/// only has the tick).
pub const RATIO_BASELINES: [&str; 3] = [rkyv::NAME, flatbuffers::NAME, sbe::NAME];

/// One message's figures for [`RATIO_SUBJECT`] divided by a baseline's: below
/// 1 the subject is smaller or faster, above 1 larger or slower.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ratio {
    /// The numerator's column (wiremsg).
    pub subject: &'static str,
    /// The denominator's column (a peer).
    pub baseline: &'static str,
    /// Encoded size.
    pub size: f64,
    /// Encode time.
    pub encode: Spread,
    /// Validated read time.
    pub read: Spread,
    /// Unchecked read time, where both columns have that path.
    pub read_unchecked: Option<Spread>,
}

/// A time ratio taken in each round (both columns timed back to back), as
/// the median of the rounds and their interquartile range: the ratio held
/// between `low` and `high` in the middle half of the rounds.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Spread {
    /// Median of the per-round ratios.
    pub median: f64,
    /// 25th percentile of the per-round ratios.
    pub low: f64,
    /// 75th percentile of the per-round ratios.
    pub high: f64,
}

impl Spread {
    /// The spread of `subject[r] / baseline[r]` over the rounds both have.
    pub fn of_rounds(subject: &[f64], baseline: &[f64]) -> Self {
        let per_round: Vec<f64> = subject.iter().zip(baseline).map(|(s, b)| s / b).collect();
        Self {
            median: median(&per_round),
            low: quantile(&per_round, 0.25),
            high: quantile(&per_round, 0.75),
        }
    }
}

/// [`RATIO_SUBJECT`] against each of [`RATIO_BASELINES`] present in `rows`;
/// empty when the subject's column is absent.
pub fn ratios(rows: &[Row]) -> Vec<Ratio> {
    let row = |name: &str| rows.iter().find(|r| r.format == name);
    let Some(subject) = row(RATIO_SUBJECT) else {
        return Vec::new();
    };
    let s = &subject.rounds;
    RATIO_BASELINES
        .iter()
        .filter_map(|&name| row(name))
        .map(|base| {
            let base_rounds = &base.rounds;
            Ratio {
                subject: subject.format,
                baseline: base.format,
                size: subject.size as f64 / base.size as f64,
                encode: Spread::of_rounds(&s.encode, &base_rounds.encode),
                read: Spread::of_rounds(&s.read, &base_rounds.read),
                read_unchecked: s
                    .read_unchecked
                    .as_deref()
                    .zip(base_rounds.read_unchecked.as_deref())
                    .map(|(s, b)| Spread::of_rounds(s, b)),
            }
        })
        .collect()
}

/// What the articles published for `message` in `format`'s column (R1 only:
/// the C++ article's byte counts, which the reference says are off).
pub fn published_size(message: &str, format: &str) -> Option<usize> {
    if message != LoginRequest::NAME {
        return None;
    }
    match format {
        json::NAME => Some(54),
        protobuf::NAME => Some(35),
        _ => None,
    }
}

fn note(message: &str) -> Option<&'static str> {
    (message == LoginRequest::NAME).then_some(
        "Published (C++ article: nlohmann::json vs C++ protobuf, another machine): \
         JSON 54 B, Protobuf 35 B; 100,000 serializations JSON 127 ms (1270 ns/op), \
         Protobuf 6 ms (60 ns/op); 100,000 deserializations JSON 142 ms (1420 ns/op), \
         Protobuf 5 ms (50 ns/op). Measured sizes are 56 B and 31 B: the compact JSON \
         and the Protobuf encoding of these two fields cannot be 54 and 35.",
    )
}

/// Verifies every column for `M`'s sample, then times them: each operation
/// (encode, read, read unchecked, decode) of all columns interleaved by
/// [`Timer::interleave`], so that the per-round ratios compare columns timed
/// under the same load.
pub fn build_table<M: Message>(
    formats: &mut [Box<dyn Format<M>>],
    timer: &Timer,
) -> Result<Table, CheckError> {
    let msg = M::sample();
    let verified = formats
        .iter_mut()
        .map(|f| verify(f.as_mut(), &msg))
        .collect::<Result<Vec<_>, _>>()?;
    let encode = timer.interleave(
        &mut formats
            .iter_mut()
            .map(|f| {
                Lane::new(|| {
                    black_box(f.encode(black_box(&msg)));
                })
            })
            .collect::<Vec<_>>(),
    );
    let read = timer.interleave(
        &mut formats
            .iter()
            .zip(&verified)
            .map(|(f, v)| Lane::new(|| f.read(black_box(&v.bytes[..]))))
            .collect::<Vec<_>>(),
    );
    let with_unchecked: Vec<usize> = (0..formats.len())
        .filter(|&i| verified[i].has_unchecked)
        .collect();
    let mut unchecked = timer
        .interleave(
            &mut with_unchecked
                .iter()
                .map(|&i| {
                    let (f, bytes) = (&formats[i], &verified[i].bytes[..]);
                    Lane::new(move || {
                        // SAFETY: `bytes` is this format's verified `encode`
                        // output for an `M`, in a 16-byte aligned buffer.
                        unsafe { f.read_unchecked(black_box(bytes)) }
                    })
                })
                .collect::<Vec<_>>(),
        )
        .into_iter();
    let decode = timer.interleave(
        &mut formats
            .iter()
            .zip(&verified)
            .map(|(f, v)| Lane::new(|| f.decode(black_box(&v.bytes[..]))))
            .collect::<Vec<_>>(),
    );
    let rows: Vec<Row> = formats
        .iter()
        .zip(&verified)
        .zip(encode.into_iter().zip(read).zip(decode))
        .map(|((f, v), ((encode, read), decode))| {
            let rounds = Rounds {
                encode,
                read,
                read_unchecked: v.has_unchecked.then(|| unchecked.next()).flatten(),
                decode,
            };
            Row {
                format: f.name(),
                size: v.bytes.len(),
                published_size: published_size(M::NAME, f.name()),
                encode_ns: median(&rounds.encode),
                read_ns: median(&rounds.read),
                read_unchecked_ns: rounds.read_unchecked.as_deref().map(median),
                decode_ns: median(&rounds.decode),
                rounds,
            }
        })
        .collect();
    Ok(Table {
        message: M::NAME,
        checksum: msg.checksum(),
        ratios: ratios(&rows),
        rows,
        note: note(M::NAME),
    })
}

/// Verifies every column of every message first (so a broken column stops
/// the run before any timing), then builds the R1, R2 and R6 tables.
pub fn build_all(set: &mut FormatSet, timer: &Timer) -> Result<Vec<Table>, CheckError> {
    verify_set(set)?;
    Ok(vec![
        build_table::<LoginRequest>(&mut set.login, timer)?,
        build_table::<Order>(&mut set.order, timer)?,
        build_table::<Tick>(&mut set.tick, timer)?,
    ])
}

fn ns(value: f64) -> String {
    format!("{value:.1}")
}

fn ratio(value: f64) -> String {
    format!("{value:.2}")
}

fn spread(value: &Spread) -> String {
    format!("{:.2} ({:.2}–{:.2})", value.median, value.low, value.high)
}

/// Appends a markdown table, columns padded for reading in a terminal: the
/// first column left-aligned, the others (numbers) right-aligned.
fn push_table(out: &mut String, header: &[&str], cells: &[Vec<String>]) {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            cells
                .iter()
                .map(|row| row[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |out: &mut String, row: &[String]| {
        for (i, (cell, w)) in row.iter().zip(&widths).enumerate() {
            if i == 0 {
                let _ = write!(out, "| {cell:<w$} ");
            } else {
                let _ = write!(out, "| {cell:>w$} ");
            }
        }
        out.push_str("|\n");
    };
    line(
        out,
        &header.iter().map(|h| h.to_string()).collect::<Vec<_>>(),
    );
    for (i, w) in widths.iter().enumerate() {
        let dashes = "-".repeat(*w);
        let _ = if i == 0 {
            write!(out, "|:{dashes}-")
        } else {
            write!(out, "|-{dashes}:")
        };
    }
    out.push_str("|\n");
    for row in cells {
        line(out, row);
    }
}

impl Table {
    /// The table as markdown (columns padded for reading in a terminal),
    /// with the [`ratios`] under it where there are some (as a second
    /// table), then the published figures where there are some.
    pub fn to_markdown(&self) -> String {
        let published = self.rows.iter().any(|r| r.published_size.is_some());
        let mut header = vec!["format", "size (B)"];
        if published {
            header.push("published size (B)");
        }
        header.extend([
            "encode ns/op",
            "read ns/op",
            "read unchecked ns/op",
            "decode ns/op",
        ]);
        let cells: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|r| {
                let mut row = vec![r.format.to_string(), r.size.to_string()];
                if published {
                    row.push(r.published_size.map_or("-".into(), |s| s.to_string()));
                }
                row.extend([
                    ns(r.encode_ns),
                    ns(r.read_ns),
                    r.read_unchecked_ns.map_or("n/a".into(), ns),
                    ns(r.decode_ns),
                ]);
                row
            })
            .collect();
        let mut out = format!("### {}\n\n", self.message);
        push_table(&mut out, &header, &cells);
        if !self.ratios.is_empty() {
            let _ = write!(
                out,
                "\n{RATIO_SUBJECT} ÷ peer (below 1: {RATIO_SUBJECT} smaller or faster; times: \
                 median of the per-round ratios, middle half of the rounds in brackets):\n\n"
            );
            let cells: Vec<Vec<String>> = self
                .ratios
                .iter()
                .map(|r| {
                    vec![
                        r.baseline.to_string(),
                        ratio(r.size),
                        spread(&r.encode),
                        spread(&r.read),
                        r.read_unchecked.as_ref().map_or("n/a".into(), spread),
                    ]
                })
                .collect();
            push_table(
                &mut out,
                &["vs", "size", "encode", "read", "read unchecked"],
                &cells,
            );
        }
        if let Some(note) = self.note {
            let _ = write!(out, "\n{note}\n");
        }
        out
    }
}

/// How the figures were taken, printed under the tables.
pub const METHOD: &str = "Each operation of a table is timed on all its columns interleaved: \
    every round runs three calibrated batches of each column, round-robin, starting with a \
    different column each round, and keeps each column's fastest. ns/op is the median over \
    the rounds; a time ratio is the median of the \
    per-round ratios, with the middle half of the rounds (25th to 75th percentile) in brackets.";

/// All tables as one JSON document (what `compare --json` prints).
pub fn to_json(tables: &[Table], timer: &Timer) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        cell_ms: u128,
        rounds: u32,
        method: &'static str,
        tables: &'a [Table],
    }
    let report = Report {
        cell_ms: timer.cell.as_millis(),
        rounds: timer.batches,
        method: METHOD,
        tables,
    };
    serde_json::to_string_pretty(&report).expect("tables serialize to JSON")
}
