//! `wiremsg`: read wiremsg messages without their Rust types, from a schema file.
//!
//! Exit status: 0 on success; 1 when the data is bad (a message fails validation, a
//! stream is cut), `compat` finds a breaking change, or `export` meets a message the
//! format cannot express; 2 when the command cannot run (bad arguments, an unreadable
//! file, an invalid schema).

mod cli;
mod commands;
mod frames;
mod input;

use clap::Parser;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Args::parse();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let result = commands::run(&mut out, args).and_then(|code| {
        out.flush()?;
        Ok(code)
    });
    match result {
        Ok(code) => code,
        // The reader went away (`wiremsg cat big | head`): not an error of ours.
        Err(err) if is_broken_pipe(&*err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("wiremsg: {err}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(err: &(dyn std::error::Error + 'static)) -> bool {
    let io = err
        .downcast_ref::<std::io::Error>()
        .map(std::io::Error::kind);
    let json = err
        .downcast_ref::<serde_json::Error>()
        .and_then(|e| e.io_error_kind());
    io.or(json) == Some(std::io::ErrorKind::BrokenPipe)
}
