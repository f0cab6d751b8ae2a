//! Market-data feed handler: an ITCH-style session published over UDP on 127.0.0.1,
//! handled from zero-copy views into per-symbol order books.
//!
//! ```sh
//! cargo run --release -p wiremsg-examples --bin market_data -- --count 2000000 --rate 1000000
//! ```

use clap::Parser;
use std::process::ExitCode;
use wiremsg_examples::market_data::{Config, DEFAULT_WINDOW, record, run};
use wiremsg_examples::session::SessionConfig;

/// Publishes a deterministic ITCH-style session over UDP on 127.0.0.1 and rebuilds
/// every order book from views of the datagrams.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Messages in the session.
    #[arg(long, default_value_t = 2_000_000)]
    count: u64,
    /// Messages per second the publisher paces itself to (0: as fast as it can; the
    /// socket then drops what the handler cannot take, and the handler counts gaps).
    #[arg(long, default_value_t = 1_000_000)]
    rate: u64,
    /// Instruments.
    #[arg(long, default_value_t = 300)]
    symbols: usize,
    /// Most messages per datagram.
    #[arg(long, default_value_t = 24)]
    batch: usize,
    /// Flow control: most messages the publisher runs ahead of the handler (0: none,
    /// as on a real multicast feed: what the socket buffer cannot hold is lost and
    /// shows up as sequence gaps).
    #[arg(long, default_value_t = DEFAULT_WINDOW)]
    window: u64,
    /// Seed of the session.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Skip the second pass that rebuilds the books from decoded messages.
    #[arg(long)]
    no_verify: bool,
    /// Also write the session to PATH as a self-describing file of frames (FORMAT.md
    /// §10, §12: its schema in the first frame), for the `wiremsg` tool (`wiremsg cat
    /// PATH`), and its schema to PATH.wms.
    #[arg(long, value_name = "PATH")]
    record: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let config = Config {
        session: SessionConfig {
            messages: args.count.max(6),
            symbols: args.symbols.clamp(1, usize::from(u16::MAX)),
            seed: args.seed,
        },
        rate: args.rate,
        batch: args.batch.max(1),
        window: args.window,
    };
    if let Some(path) = &args.record
        && let Err(e) = record(config.session, path)
    {
        eprintln!("market_data: recording to {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    let mut report = match run(config) {
        Ok(report) => report,
        Err(e) => {
            eprintln!("market_data: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !args.no_verify {
        report.verify();
    }
    println!("{report}");
    if report.verified == Some(false) && report.stats.gaps == 0 && report.stats.malformed == 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
