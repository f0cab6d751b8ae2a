//! Turns criterion's output of the `datasets` bench into one markdown table
//! (what `--bin bench_table` prints): rows data set x metric (in
//! [`METRICS`] order, so `read_some`, `read_some_unchecked` and
//! `update_unchecked` sit beside their twins), columns the formats, then
//! wiremsg's time (or size) divided by rkyv's, FlatBuffers', capnp's,
//! zerocopy's and SBE's.
//!
//! Times are the median point estimates of criterion's last run
//! (`<criterion dir>/<dataset>/<metric>/<format>/new/estimates.json`, named
//! by the `benchmark.json` beside it). Sizes are computed, not read: the
//! data sets are deterministic ([`crate::datasets::sizes`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::{fs, io};

use serde::Deserialize;

use crate::datasets::{METRICS, Size, ZSTD_LEVEL, ids};

/// One criterion measurement.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Data set (criterion group).
    pub dataset: String,
    /// Metric (criterion function id).
    pub metric: String,
    /// Format (criterion parameter).
    pub format: String,
    /// Median time per iteration, ns.
    pub median_ns: f64,
}

#[derive(Deserialize)]
struct BenchmarkJson {
    group_id: String,
    function_id: Option<String>,
    value_str: Option<String>,
}

#[derive(Deserialize)]
struct PointEstimate {
    point_estimate: f64,
}

#[derive(Deserialize)]
struct EstimatesJson {
    median: PointEstimate,
}

/// Every `*/new/` measurement under criterion's output directory `dir`
/// (`target/criterion`), sorted by id.
///
/// # Errors
///
/// A directory or file that cannot be read, or JSON that is not criterion's.
pub fn read_criterion_dir(dir: &Path) -> io::Result<Vec<Estimate>> {
    let mut out = Vec::new();
    walk(dir, &mut out)?;
    out.sort_by(|a, b| (&a.dataset, &a.metric, &a.format).cmp(&(&b.dataset, &b.metric, &b.format)));
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<Estimate>) -> io::Result<()> {
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        if !path.is_dir() {
            continue;
        }
        if path.file_name().is_some_and(|n| n == "new") {
            if let Some(e) = read_measurement(&path)? {
                out.push(e);
            }
        } else {
            walk(&path, out)?;
        }
    }
    Ok(())
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> io::Result<T> {
    let text = fs::read(path)?;
    serde_json::from_slice(&text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {e}", path.display()),
        )
    })
}

/// The measurement in a `new/` directory, if it is one of ours
/// (`<dataset>/<metric>/<format>`).
fn read_measurement(new: &Path) -> io::Result<Option<Estimate>> {
    let (bench, estimates) = (new.join("benchmark.json"), new.join("estimates.json"));
    if !bench.is_file() || !estimates.is_file() {
        return Ok(None);
    }
    let bench: BenchmarkJson = read_json(&bench)?;
    let (Some(metric), Some(format)) = (bench.function_id, bench.value_str) else {
        return Ok(None);
    };
    let estimates: EstimatesJson = read_json(&estimates)?;
    Ok(Some(Estimate {
        dataset: bench.group_id,
        metric,
        format,
        median_ns: estimates.median.point_estimate,
    }))
}

/// A time for a table cell: three significant digits, in ns, µs or ms.
pub fn time(ns: f64) -> String {
    let (value, unit) = if ns < 1e3 {
        (ns, "ns")
    } else if ns < 1e6 {
        (ns / 1e3, "µs")
    } else if ns < 1e9 {
        (ns / 1e6, "ms")
    } else {
        (ns / 1e9, "s")
    };
    let digits = if value < 10.0 {
        2
    } else if value < 100.0 {
        1
    } else {
        0
    };
    format!("{value:.digits$} {unit}")
}

/// The formats wiremsg is divided by, with their column headings.
const RATIOS: [(&str, &str); 5] = [
    (ids::RKYV, "wiremsg/rkyv"),
    (ids::FLATBUFFERS, "wiremsg/FlatBuffers"),
    (ids::CAPNP, "wiremsg/capnp"),
    (ids::ZEROCOPY, "wiremsg/zerocopy"),
    (ids::SBE, "wiremsg/SBE"),
];

/// One row's cells: format -> (value for ratios, text).
type Cells<'a> = BTreeMap<&'a str, (f64, String)>;

/// A size row's label and how to get its value.
type SizeRow = (&'static str, fn(&Size) -> usize);

/// The markdown table: for each data set in `datasets` order, its size rows
/// (from `sizes`) then its metrics in [`METRICS`] order (from `estimates`);
/// columns are the formats of [`ids::ALL`] that have any cell, then the
/// ratios. Empty cells are n/a.
pub fn render(datasets: &[&str], estimates: &[Estimate], sizes: &[Size]) -> String {
    // (dataset, row) -> format -> value; rows keep their order.
    let mut rows: Vec<(&str, &str, Cells<'_>)> = Vec::new();
    for &dataset in datasets {
        let size_rows: [SizeRow; 2] = [("size (B)", |s| s.bytes), ("zstd size (B)", |s| s.zstd)];
        for (label, get) in size_rows {
            let cells: Cells<'_> = sizes
                .iter()
                .filter(|s| s.dataset == dataset)
                .filter_map(|s| {
                    let format = ids::ALL.iter().copied().find(|&f| f == s.format)?;
                    Some((format, (get(s) as f64, get(s).to_string())))
                })
                .collect();
            if !cells.is_empty() {
                rows.push((dataset, label, cells));
            }
        }
        for metric in METRICS {
            let cells: Cells<'_> = estimates
                .iter()
                .filter(|e| e.dataset == dataset && e.metric == metric)
                .filter_map(|e| {
                    let format = ids::ALL.iter().copied().find(|&f| f == e.format)?;
                    Some((format, (e.median_ns, time(e.median_ns))))
                })
                .collect();
            if !cells.is_empty() {
                rows.push((dataset, metric, cells));
            }
        }
    }
    let formats: Vec<&str> = ids::ALL
        .iter()
        .copied()
        .filter(|f| rows.iter().any(|(_, _, cells)| cells.contains_key(f)))
        .collect();
    let ratios: Vec<(&str, &str)> = RATIOS
        .iter()
        .copied()
        .filter(|(f, _)| formats.contains(f))
        .collect();

    let mut header = vec!["dataset", "metric"];
    header.extend(&formats);
    header.extend(ratios.iter().map(|(_, h)| *h));
    let mut out = String::new();
    let _ = writeln!(out, "| {} |", header.join(" | "));
    let align: Vec<&str> = header
        .iter()
        .enumerate()
        .map(|(i, _)| if i < 2 { ":--" } else { "--:" })
        .collect();
    let _ = writeln!(out, "|{}|", align.join("|"));
    for (dataset, metric, cells) in &rows {
        let mut line = vec![dataset.to_string(), metric.to_string()];
        for f in &formats {
            line.push(
                cells
                    .get(f)
                    .map_or_else(|| "n/a".into(), |(_, s)| s.clone()),
            );
        }
        for (base, _) in &ratios {
            let cell = match (cells.get(ids::WIREMSG), cells.get(base)) {
                (Some((w, _)), Some((b, _))) if *b > 0.0 => format!("{:.2}", w / b),
                _ => "n/a".into(),
            };
            line.push(cell);
        }
        let _ = writeln!(out, "| {} |", line.join(" | "));
    }
    let _ = writeln!(
        out,
        "\nTimes are criterion medians per operation on the whole data set; \
         sizes are bytes of the whole encoding, zstd at level {ZSTD_LEVEL}. \
         Ratios below 1: wiremsg smaller or faster."
    );
    out
}

/// Marker lines around the table in a README.
pub const MARKERS: (&str, &str) = ("<!-- table:begin -->", "<!-- table:end -->");

/// `readme` with the text between the [`MARKERS`] lines replaced by
/// `table`, or `None` if the markers are missing.
pub fn splice(readme: &str, table: &str) -> Option<String> {
    let (begin, end) = MARKERS;
    let start = readme.find(begin)? + begin.len();
    let stop = start + readme[start..].find(end)?;
    Some(format!("{}\n{table}{}", &readme[..start], &readme[stop..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_between_markers() {
        let readme = "intro\n<!-- table:begin -->\nold\n<!-- table:end -->\nrest\n";
        assert_eq!(
            splice(readme, "| new |\n").unwrap(),
            "intro\n<!-- table:begin -->\n| new |\n<!-- table:end -->\nrest\n"
        );
        assert_eq!(splice("no markers", "x"), None);
    }

    #[test]
    fn times_have_three_significant_digits() {
        assert_eq!(time(2.3456), "2.35 ns");
        assert_eq!(time(23.456), "23.5 ns");
        assert_eq!(time(234.56), "235 ns");
        assert_eq!(time(2_345.6), "2.35 µs");
        assert_eq!(time(23_456_000.0), "23.5 ms");
    }

    /// Writes one measurement as criterion does under `dir`.
    fn write_estimate(dir: &Path, id: &str, metric: &str, format: &str, median: f64) {
        let new = dir.join(id).join("new");
        fs::create_dir_all(&new).unwrap();
        let (group, _) = id.split_once('/').unwrap();
        fs::write(
            new.join("benchmark.json"),
            format!(
                r#"{{"group_id":"{group}","function_id":"{metric}","value_str":"{format}","throughput":null,"full_id":"{id}","directory_name":"{id}","title":"{id}"}}"#
            ),
        )
        .unwrap();
        fs::write(
            new.join("estimates.json"),
            format!(
                r#"{{"mean":{{"point_estimate":1.0}},"median":{{"confidence_interval":{{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0}},"point_estimate":{median},"standard_error":0.1}},"slope":null}}"#
            ),
        )
        .unwrap();
    }

    #[test]
    fn sparse_and_unchecked_update_rows_sit_beside_their_twins() {
        let dir = std::env::temp_dir().join(format!("bench_table_sparse_{}", std::process::id()));
        // Written in an order unlike METRICS: the table reorders.
        for (metric, wiremsg, rkyv) in [
            ("update_unchecked", 3.0, 4.0),
            ("read_some_unchecked", 1.0, 4.0),
            ("update", 6.0, 8.0),
            ("read_some", 2.0, 8.0),
            ("read", 9.0, 9.0),
        ] {
            write_estimate(
                &dir,
                &format!("log/{metric}/wiremsg"),
                metric,
                "wiremsg",
                wiremsg,
            );
            write_estimate(&dir, &format!("log/{metric}/rkyv"), metric, "rkyv", rkyv);
        }
        write_estimate(
            &dir,
            "log/read_some/flatbuffers",
            "read_some",
            "flatbuffers",
            4.0,
        );
        let estimates = read_criterion_dir(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        let table = render(&["log"], &estimates, &[]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "| dataset | metric | wiremsg | rkyv | flatbuffers | wiremsg/rkyv | wiremsg/FlatBuffers |"
        );
        assert_eq!(
            &lines[2..7],
            [
                "| log | read | 9.00 ns | 9.00 ns | n/a | 1.00 | n/a |",
                "| log | read_some | 2.00 ns | 8.00 ns | 4.00 ns | 0.25 | 0.50 |",
                "| log | read_some_unchecked | 1.00 ns | 4.00 ns | n/a | 0.25 | n/a |",
                "| log | update | 6.00 ns | 8.00 ns | n/a | 0.75 | n/a |",
                "| log | update_unchecked | 3.00 ns | 4.00 ns | n/a | 0.75 | n/a |",
            ]
        );
    }

    #[test]
    fn reads_criterion_output_and_renders_ratios() {
        let dir = std::env::temp_dir().join(format!("bench_table_test_{}", std::process::id()));
        let write = |id: &str, metric: &str, format: &str, median: f64| {
            write_estimate(&dir, id, metric, format, median);
        };
        write("tick/read/wiremsg", "read", "wiremsg", 2.0);
        write("tick/read/rkyv", "read", "rkyv", 4.0);
        write("tick/read/zerocopy", "read", "zerocopy", 1.0);
        write("tick/decode/json", "decode", "json", 300.0);
        // A `base/` copy from an earlier run is not a measurement.
        fs::create_dir_all(dir.join("tick/read/rkyv/base")).unwrap();
        let estimates = read_criterion_dir(&dir).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(estimates.len(), 4);

        let sizes = [
            Size {
                dataset: "tick",
                format: ids::WIREMSG,
                bytes: 50,
                zstd: 59,
            },
            Size {
                dataset: "tick",
                format: ids::RKYV,
                bytes: 56,
                zstd: 64,
            },
        ];
        let table = render(&["tick"], &estimates, &sizes);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "| dataset | metric | wiremsg | rkyv | zerocopy | json | wiremsg/rkyv | wiremsg/zerocopy |"
        );
        assert_eq!(
            lines[2],
            "| tick | size (B) | 50 | 56 | n/a | n/a | 0.89 | n/a |"
        );
        assert_eq!(
            lines[4],
            "| tick | read | 2.00 ns | 4.00 ns | 1.00 ns | n/a | 0.50 | 2.00 |"
        );
        assert_eq!(
            lines[5],
            "| tick | decode | n/a | n/a | n/a | 300 ns | n/a | n/a |"
        );
    }
}
