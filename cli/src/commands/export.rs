//! `wiremsg export --sbe SCHEMA`: the schema in another format's schema language
//! (`wiremsg_cli::export`); exit status 1 and nothing written when a message does not
//! fit, with every reason on standard error.

use crate::cli::ExportArgs;
use crate::input::{Fatal, read_schema};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use wiremsg_cli::export::{ExportError, sbe};

pub(crate) fn run(out: &mut dyn Write, args: &ExportArgs) -> Result<ExitCode, Fatal> {
    let set = read_schema(&args.schema)?;
    // `--sbe` is the only format so far (clap requires one of the group).
    let options = sbe::Options {
        package: args
            .package
            .clone()
            .unwrap_or_else(|| default_package(&args.schema)),
        messages: args.types.clone(),
        note: None,
    };
    let text = match sbe::export(&set, &options) {
        Ok(text) => text,
        Err(err @ ExportError::Unfit { .. }) => {
            eprintln!("wiremsg: {}: {err}", args.schema.display());
            return Ok(ExitCode::from(1));
        }
        Err(err) => return Err(err.into()),
    };
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The schema file's name up to its first dot, as an identifier (`feed.frames.wms`:
/// `feed`); `wiremsg` if nothing usable is left.
fn default_package(schema: &Path) -> String {
    let name = schema
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let stem = name.split('.').next().unwrap_or_default();
    let package: String = stem
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if package.starts_with(|c: char| c.is_ascii_alphabetic()) {
        package
    } else {
        "wiremsg".into()
    }
}
