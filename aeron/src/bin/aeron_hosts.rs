//! The market-data feed between hosts: the publisher and subscriber roles that
//! `aeron/hosts/run.sh` starts in network namespaces (see `wiremsg_aeron::hosts`).
//! Each prints one `RESULT key=value ...` line on standard output at the end; a
//! subscriber exits with failure if a message was lost, duplicated, reordered or
//! misread, or if its books differ from the publisher's.
//!
//! ```sh
//! aeron_hosts publish --channel 'aeron:udp?control=10.77.0.1:40400|control-mode=dynamic|fc=min,g:/2' --count 100000
//! aeron_hosts subscribe --name b --channel 'aeron:udp?endpoint=10.77.0.2:40401|control=10.77.0.1:40400' --count 100000
//! ```

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Duration;
use wiremsg_aeron::hosts::{PublishConfig, SubscribeConfig, publish, subscribe};
use wiremsg_examples::session::SessionConfig;

#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    #[command(subcommand)]
    role: Role,
}

#[derive(clap::Args, Debug, Clone)]
struct Session {
    /// Messages in the session.
    #[arg(long, default_value_t = 100_000)]
    count: u64,
    /// Instruments.
    #[arg(long, default_value_t = 300)]
    symbols: usize,
    /// Seed of the session (the subscribers regenerate it to check every message).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The feed's version: 1, or 2 (the add-order message with `firm` appended).
    #[arg(long, default_value_t = 1)]
    feed_version: u16,
    /// Seconds to wait for the other side, or for the next message.
    #[arg(long, default_value_t = 60)]
    timeout_secs: u64,
}

impl Session {
    fn config(&self) -> SessionConfig {
        SessionConfig {
            messages: self.count.max(6),
            symbols: self.symbols.clamp(1, usize::from(u16::MAX)),
            seed: self.seed,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Role {
    /// Publish the session on the live stream, snapshots beside it, then the check.
    Publish {
        /// The live stream's publication channel.
        #[arg(long)]
        channel: String,
        /// The snapshots' publication channel.
        #[arg(long)]
        snapshot_channel: Option<String>,
        /// Messages per second (0: unpaced).
        #[arg(long, default_value_t = 50_000)]
        rate: u64,
        /// Milliseconds between snapshots.
        #[arg(long, default_value_t = 200)]
        snapshot_ms: u64,
        /// Seconds to keep the publications open after the check.
        #[arg(long, default_value_t = 3)]
        linger_secs: u64,
        #[command(flatten)]
        session: Session,
    },
    /// Check every message of the live stream (from a snapshot with
    /// `--snapshot-channel`) and the books at the end.
    Subscribe {
        /// A name for the report.
        #[arg(long)]
        name: String,
        /// The live stream's subscription channel.
        #[arg(long)]
        channel: String,
        /// Start from a snapshot on this channel (a late joiner).
        #[arg(long)]
        snapshot_channel: Option<String>,
        /// The version of the feed's types this subscriber reads with (1 or 2).
        #[arg(long, default_value_t = 1)]
        reader_version: u16,
        /// Record the stream (schema frame, then every frame) to this file.
        #[arg(long)]
        record: Option<String>,
        #[command(flatten)]
        session: Session,
    },
}

fn main() -> ExitCode {
    match Args::parse().role {
        Role::Publish {
            channel,
            snapshot_channel,
            rate,
            snapshot_ms,
            linger_secs,
            session,
        } => {
            let config = PublishConfig {
                channel,
                snapshot_channel,
                session: session.config(),
                rate,
                snapshot_every: Duration::from_millis(snapshot_ms),
                linger: Duration::from_secs(linger_secs),
                timeout: Duration::from_secs(session.timeout_secs),
                feed_version: session.feed_version,
            };
            match publish(&config) {
                Ok(line) => {
                    println!("{line}");
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("publisher: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Role::Subscribe {
            name,
            channel,
            snapshot_channel,
            record,
            reader_version,
            session,
        } => {
            let config = SubscribeConfig {
                name: name.clone(),
                channel,
                snapshot_channel,
                session: session.config(),
                record,
                timeout: Duration::from_secs(session.timeout_secs),
                stream_version: session.feed_version,
                reader_version,
            };
            match subscribe(&config) {
                Ok(report) => {
                    println!("{}", report.to_line());
                    let clean = report.lost == 0
                        && report.duplicates == 0
                        && report.misread == 0
                        && report.books_equal;
                    if let Some(first) = &report.first {
                        eprintln!("{name}: FAILED: {first}");
                    }
                    if !report.books_equal {
                        eprintln!("{name}: FAILED: books differ from the publisher's check");
                    }
                    if clean {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::FAILURE
                    }
                }
                Err(e) => {
                    eprintln!("{name}: FAILED: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
