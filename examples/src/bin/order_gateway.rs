//! Versioned order entry over TCP on 127.0.0.1: a server built with version 2 of the
//! new-order message, one client built with version 1 and one with version 2.
//!
//! ```sh
//! cargo run --release -p wiremsg-examples --bin order_gateway -- --orders 20000
//! ```

use clap::Parser;
use std::process::ExitCode;
use wiremsg_examples::gateway::{Config, run};

/// Runs an order gateway and two clients (new-order v1 and v2) over TCP on
/// 127.0.0.1, and prints which version each client's orders arrived in and the
/// round-trip latency.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// New orders per client (every fourth is then cancelled).
    #[arg(long, default_value_t = 20_000)]
    orders: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(Config {
        orders: args.orders.max(1),
    }) {
        Ok(report) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("order_gateway: {e}");
            ExitCode::FAILURE
        }
    }
}
