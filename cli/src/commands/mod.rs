//! One module per subcommand.

mod cat;
mod compat;
mod dump;
mod export;
mod json;
mod message;
mod schema;

use crate::cli::{Args, Command};
use crate::input::Fatal;
use std::io::Write;
use std::process::ExitCode;

/// Runs the command, writing to `out`: `Ok` with its exit status, `Err` when it
/// cannot run (status 2).
pub(crate) fn run(out: &mut dyn Write, args: Args) -> Result<ExitCode, Fatal> {
    match args.command {
        Command::Schema { schema, json } => {
            schema::run(out, &schema, json).map(|()| ExitCode::SUCCESS)
        }
        Command::Compat { old, new } => compat::run(out, &old, &new),
        Command::Dump(args) => dump::run(out, &args),
        Command::Json(args) => json::run(out, &args),
        Command::Cat {
            schema,
            strict,
            input,
        } => cat::run(out, schema.as_deref(), strict, &input),
        Command::Export(args) => export::run(out, &args),
    }
}
