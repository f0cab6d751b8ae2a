//! Market-data fan-out over Aeron: one publisher, several subscriber processes, the
//! ITCH-style session of the `market_data` example, over `aeron:ipc` and
//! `aeron:udp` on 127.0.0.1 (see `wiremsg_aeron::feed`).
//!
//! ```sh
//! cargo run --release -p wiremsg-aeron --bin aeron_market_data -- --count 500000 --rate 50000
//! ```

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;
use wiremsg_aeron::feed::{Config, SubscriberConfig, run, subscribe, summary_row, wire_cost};
use wiremsg_aeron::{Transport, summary_table};
use wiremsg_examples::session::SessionConfig;

/// Publishes a deterministic ITCH-style session on Aeron to subscriber processes,
/// which rebuild every order book from in-place views and check them against the
/// publisher's.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Messages in the session.
    #[arg(long, default_value_t = 500_000)]
    count: u64,
    /// Messages per second the publisher paces itself to (0: as fast as the
    /// subscribers take them; latency then includes the queue).
    #[arg(long, default_value_t = 50_000)]
    rate: u64,
    /// Subscriber processes.
    #[arg(long, default_value_t = 3)]
    subscribers: usize,
    /// Instruments.
    #[arg(long, default_value_t = 300)]
    symbols: usize,
    /// Seed of the session.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// `ipc`, `udp`, or both (the default).
    #[arg(long, value_delimiter = ',', default_value = "ipc,udp")]
    transport: Vec<Transport>,
    /// A running media driver's directory (default: an embedded driver per process).
    #[arg(long)]
    aeron_dir: Option<String>,
    /// Seconds the run may take before it is abandoned.
    #[arg(long, default_value_t = 120)]
    timeout_secs: u64,
    #[command(subcommand)]
    role: Option<Role>,
}

#[derive(Subcommand, Debug)]
enum Role {
    /// One subscriber process (started by the publisher).
    #[command(hide = true)]
    Subscriber {
        #[arg(long)]
        index: usize,
        #[arg(long)]
        channel: String,
        #[arg(long)]
        symbols: usize,
        #[arg(long)]
        aeron_dir: Option<String>,
        #[arg(long)]
        timeout_secs: u64,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(Role::Subscriber {
        index,
        channel,
        symbols,
        aeron_dir,
        timeout_secs,
    }) = args.role
    {
        let config = SubscriberConfig {
            index,
            channel,
            symbols,
            aeron_dir,
            timeout: Duration::from_secs(timeout_secs),
        };
        let ready = || {
            println!("READY");
            let _ = std::io::stdout().flush();
        };
        return match subscribe(&config, ready) {
            Ok(report) => {
                println!("{}", report.to_line());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("subscriber {index}: {e}");
                ExitCode::FAILURE
            }
        };
    }

    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("aeron_market_data: cannot find this program: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut rows = Vec::new();
    let mut ok = true;
    for transport in args.transport {
        let config = Config {
            session: SessionConfig {
                messages: args.count.max(6),
                symbols: args.symbols.clamp(1, usize::from(u16::MAX)),
                seed: args.seed,
            },
            transport,
            subscribers: args.subscribers.max(1),
            rate: args.rate,
            timeout: Duration::from_secs(args.timeout_secs),
            aeron_dir: args.aeron_dir.clone(),
        };
        match run(&config, &exe) {
            Ok(report) => {
                println!("{report}");
                ok &= report.all_equal();
                rows.extend(report.subscribers.iter().map(|s| summary_row(&report, s)));
            }
            Err(e) => {
                eprintln!("aeron_market_data ({transport}): {e}");
                ok = false;
            }
        }
    }
    println!("{}", summary_table(&rows));
    let session = SessionConfig {
        messages: args.count.max(6),
        symbols: args.symbols.clamp(1, usize::from(u16::MAX)),
        seed: args.seed,
    };
    println!("wiremsg alone, same messages: {}", wire_cost(session));
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "aeron_market_data: a subscriber's books differ from the publisher's, or a run failed"
        );
        ExitCode::FAILURE
    }
}
