//! A standalone Aeron media driver (Aeron's C driver), for the examples'
//! `--aeron-dir`: start it once, and every example process connects to it instead of
//! starting its own.
//!
//! ```sh
//! cargo run --release -p wiremsg-aeron --bin aeron_media_driver -- --dir /dev/shm/aeron-wiremsg
//! ```

use clap::Parser;
use rusteron_client::IntoCString;
use rusteron_media_driver::bindings::aeron_threading_mode_enum;
use rusteron_media_driver::{AeronDriver, AeronDriverContext};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Runs an Aeron media driver in `--dir` until Ctrl-C (or for `--seconds`).
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// The driver's directory (default: a fresh one under the temp dir). Clients
    /// connect with `--aeron-dir` and the same path.
    #[arg(long)]
    dir: Option<String>,
    /// Stop after this many seconds (default: run until Ctrl-C).
    #[arg(long)]
    seconds: Option<u64>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let dir = args.dir.unwrap_or_else(|| {
        wiremsg_aeron::node::temp_aeron_dir("driver")
            .to_string_lossy()
            .into_owned()
    });
    let context = match AeronDriverContext::new() {
        Ok(context) => context,
        Err(e) => {
            eprintln!("aeron_media_driver: {e:?}");
            return ExitCode::FAILURE;
        }
    };
    let configured = context
        .set_dir(&dir.as_str().into_c_string())
        .and_then(|_| context.set_dir_delete_on_start(true))
        .and_then(|_| context.set_dir_delete_on_shutdown(true))
        .and_then(|_| {
            context.set_threading_mode(aeron_threading_mode_enum::AERON_THREADING_MODE_SHARED)
        });
    if let Err(e) = configured {
        eprintln!("aeron_media_driver: {e:?}");
        return ExitCode::FAILURE;
    }
    // Stops on Ctrl-C (the guard registers the handler), or when dropped.
    let driver = AeronDriver::launch_embedded_guard(context, true);
    println!("media driver running in {dir}; examples: --aeron-dir {dir}");
    let start = Instant::now();
    while !driver.is_finished() {
        if args
            .seconds
            .is_some_and(|s| start.elapsed() >= Duration::from_secs(s))
        {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    match driver.join() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("aeron_media_driver: {e:?}");
            ExitCode::FAILURE
        }
    }
}
