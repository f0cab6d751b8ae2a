//! Order entry over Aeron: a gateway and two client processes (built with version 1
//! and version 2 of the new order) exchanging `NewOrder`, `Cancel` and
//! `ExecutionReport`, over `aeron:ipc` and `aeron:udp` on 127.0.0.1 (see
//! `wiremsg_aeron::orders`).
//!
//! ```sh
//! cargo run --release -p wiremsg-aeron --bin aeron_order_gateway -- --orders 50000
//! ```

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;
use wiremsg_aeron::orders::{ClientConfig, Config, client, run, summary_row, wire_costs};
use wiremsg_aeron::{Transport, summary_table};

/// Runs an order gateway on Aeron and two client processes, one with each version of
/// the new-order message, and measures round trips.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// New orders per client.
    #[arg(long, default_value_t = 50_000)]
    orders: u64,
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
    /// One client process (started by the gateway).
    #[command(hide = true)]
    Client {
        #[arg(long)]
        version: u16,
        #[arg(long)]
        orders: u64,
        #[arg(long)]
        request_channel: String,
        #[arg(long)]
        response_channel: String,
        #[arg(long)]
        aeron_dir: Option<String>,
        #[arg(long)]
        timeout_secs: u64,
    },
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(Role::Client {
        version,
        orders,
        request_channel,
        response_channel,
        aeron_dir,
        timeout_secs,
    }) = args.role
    {
        let config = ClientConfig {
            version,
            orders,
            request_channel,
            response_channel,
            aeron_dir,
            timeout: Duration::from_secs(timeout_secs),
        };
        let ready = || {
            println!("READY");
            let _ = std::io::stdout().flush();
        };
        return match client(&config, ready) {
            Ok(report) => {
                println!("{}", report.to_line());
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("client v{version}: {e}");
                ExitCode::FAILURE
            }
        };
    }

    let exe = match std::env::current_exe() {
        Ok(exe) => exe,
        Err(e) => {
            eprintln!("aeron_order_gateway: cannot find this program: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut rows = Vec::new();
    let mut ok = true;
    for transport in args.transport {
        let config = Config {
            transport,
            orders: args.orders.max(1),
            timeout: Duration::from_secs(args.timeout_secs),
            aeron_dir: args.aeron_dir.clone(),
        };
        match run(&config, &exe) {
            Ok(report) => {
                println!("{report}");
                ok &= report.all_ok();
                rows.extend(report.clients.iter().map(|c| summary_row(&report, c)));
            }
            Err(e) => {
                eprintln!("aeron_order_gateway ({transport}): {e}");
                ok = false;
            }
        }
    }
    println!("{}", summary_table(&rows));
    let (new_order, report) = wire_costs();
    println!("wiremsg alone, NewOrder v2: {new_order}");
    println!("wiremsg alone, ExecutionReport: {report}");
    if ok {
        ExitCode::SUCCESS
    } else {
        eprintln!("aeron_order_gateway: a report did not match its order, or a run failed");
        ExitCode::FAILURE
    }
}
