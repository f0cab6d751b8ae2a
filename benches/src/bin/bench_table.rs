//! Prints the markdown table of the criterion benches' last run:
//! `cargo run --release -p wiremsg-benches --bin bench_table [-- OPTIONS]`.
//!
//! Run `cargo bench -p wiremsg-benches --bench datasets` first; see
//! `benches/README.md`.

use std::path::PathBuf;
use std::process::ExitCode;

use wiremsg_benches::bench_table::{read_criterion_dir, render, splice};
use wiremsg_benches::datasets::{dataset_names, feed_stream_size, ids, sizes};

const USAGE: &str = "usage: bench_table [--criterion-dir DIR] [--no-sizes] [--readme FILE]
  --criterion-dir DIR  criterion's output (default: $CARGO_TARGET_DIR/criterion,
                       else the workspace's target/criterion)
  --no-sizes           leave out the size rows (which encode every data set)
  --readme FILE        also write the table into FILE, between its
                       <!-- table:begin --> and <!-- table:end --> lines";

fn default_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(target) => PathBuf::from(target).join("criterion"),
        None => PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../target/criterion")),
    }
}

fn main() -> ExitCode {
    let mut dir = default_dir();
    let mut with_sizes = true;
    let mut readme: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--criterion-dir" => match args.next() {
                Some(d) => dir = PathBuf::from(d),
                None => {
                    eprintln!("bench_table: --criterion-dir needs a directory\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "--no-sizes" => with_sizes = false,
            "--readme" => match args.next() {
                Some(f) => readme = Some(PathBuf::from(f)),
                None => {
                    eprintln!("bench_table: --readme needs a file\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("bench_table: unknown argument {other:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let estimates = if dir.is_dir() {
        match read_criterion_dir(&dir) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("bench_table: reading {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
    } else {
        eprintln!(
            "bench_table: no {} (run `cargo bench -p wiremsg-benches --bench datasets` first); \
             sizes only",
            dir.display()
        );
        Vec::new()
    };
    let sizes = if with_sizes { sizes() } else { Vec::new() };
    let table = render(&dataset_names(), &estimates, &sizes);
    print!("{table}");
    if with_sizes {
        print_feed_stream(&sizes);
    }
    if let Some(path) = readme {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("bench_table: reading {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        let Some(new) = splice(&text, &table) else {
            eprintln!("bench_table: {} has no table markers", path.display());
            return ExitCode::FAILURE;
        };
        if let Err(e) = std::fs::write(&path, new) {
            eprintln!("bench_table: writing {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// The feed as wiremsg frames a stream (FORMAT.md §10), against rkyv's row of the data
/// set's own frames: what each format's user stores or sends.
fn print_feed_stream(sizes: &[wiremsg_benches::datasets::Size]) {
    let stream = feed_stream_size();
    let rkyv = sizes
        .iter()
        .find(|s| s.dataset == stream.dataset && s.format == ids::RKYV);
    let Some(rkyv) = rkyv else { return };
    println!(
        "\nfeed as wiremsg frames a stream (FORMAT.md §10: a u32 length and the 8-byte \
         message header before each message): {} B, zstd {} B; rkyv's {} B, zstd {} B: \
         {:.2} and {:.2}.",
        stream.bytes,
        stream.zstd,
        rkyv.bytes,
        rkyv.zstd,
        stream.bytes as f64 / rkyv.bytes as f64,
        stream.zstd as f64 / rkyv.zstd as f64,
    );
}
