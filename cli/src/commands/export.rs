//! `wiremsg export --sbe SCHEMA`, `wiremsg export --ksy SCHEMA`: the schema in another
//! format's schema language (`wiremsg_cli::export`); exit status 1 and nothing written
//! when a message does not fit, with every reason on standard error.

use crate::cli::ExportArgs;
use crate::input::{Fatal, read_schema_or_stream};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use wiremsg_cli::export::{ExportError, ksy, sbe};

pub(crate) fn run(out: &mut dyn Write, args: &ExportArgs) -> Result<ExitCode, Fatal> {
    if !args.ksy && (args.header || args.frames) {
        return Err("--header and --frames choose what a --ksy file reads".into());
    }
    let set = read_schema_or_stream(&args.schema)?;
    let result = if args.ksy {
        let root = if args.frames {
            ksy::Root::Frames
        } else if args.header {
            ksy::Root::Header
        } else {
            match args.types.as_slice() {
                [one] => ksy::Root::Message(one.clone()),
                _ => {
                    return Err("--ksy reads one message: name it with --type, or read \
                                messages by their header with --header or --frames"
                        .into());
                }
            }
        };
        let mut options = ksy::Options::new(root);
        options.id = args.package.clone();
        if args.header || args.frames {
            options.messages = args.types.clone();
        }
        ksy::export(&set, &options)
    } else {
        // `--sbe` (clap requires one of the group).
        let options = sbe::Options {
            package: args
                .package
                .clone()
                .unwrap_or_else(|| default_package(&args.schema)),
            messages: args.types.clone(),
            note: None,
        };
        sbe::export(&set, &options)
    };
    let text = match result {
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
