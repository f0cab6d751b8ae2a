//! Side-by-side comparison of wiremsg and its peers on the reference
//! messages: `cargo run --release -p wiremsg-benches --bin compare [--json]`.

use std::process::ExitCode;
use std::time::Duration;

use wiremsg_benches::report::{METHOD, build_all, to_json};
use wiremsg_benches::{FormatSet, Timer};

const USAGE: &str = "usage: compare [--json] [--cell-ms N] [--rounds N]
  --json       print the tables as JSON instead of markdown
  --cell-ms N  time spent measuring each column's operation (default 100)
  --rounds N   rounds of interleaved batches (default 15)";

fn parse_args() -> Result<(bool, Timer), String> {
    let mut json = false;
    let mut timer = Timer::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--json" => json = true,
            "--cell-ms" => {
                let ms = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--cell-ms needs a number of milliseconds")?;
                timer.cell = Duration::from_millis(ms);
            }
            "--rounds" => {
                timer.batches = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--rounds needs a positive number")?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok((json, timer))
}

fn main() -> ExitCode {
    let (json, timer) = match parse_args() {
        Ok(parsed) => parsed,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("compare: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    if cfg!(debug_assertions) {
        eprintln!("compare: debug build; timings are meaningless without --release");
    }

    // wiremsg leads every table, then the peers; the tests check this set.
    let mut set = FormatSet::all();

    match build_all(&mut set, &timer) {
        Ok(tables) if json => println!("{}", to_json(&tables, &timer)),
        Ok(tables) => {
            for t in &tables {
                println!("{}", t.to_markdown());
            }
            println!(
                "{METHOD} {} rounds, about {} ms per operation and table.",
                timer.batches,
                timer.cell.as_millis()
            );
        }
        Err(e) => {
            eprintln!("compare: aborting, a column does not reproduce the model: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
