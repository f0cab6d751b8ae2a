//! `wiremsg export --sbe SCHEMA`, `wiremsg export --ksy SCHEMA`: the schema in another
//! format's schema language (`wiremsg_cli::export`); exit status 1 and nothing written
//! when a message does not fit, with every reason on standard error.

use crate::cli::ExportArgs;
use crate::frames;
use crate::input::{Fatal, read_input, read_schema};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use wiremsg::dynamic::SchemaRegistry;
use wiremsg::frame::is_schema_frame;
use wiremsg::{MessageSchema, SchemaSet};
use wiremsg_cli::export::{ExportError, ksy, sbe};

pub(crate) fn run(out: &mut dyn Write, args: &ExportArgs) -> Result<ExitCode, Fatal> {
    let result = if args.ksy {
        let set = schema_or_stream(&args.schema)?;
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
        let set = read_schema(&args.schema)?;
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

/// A schema file, or a file of frames whose schema frames (FORMAT.md §12) give the
/// schema: every message they describe, a later frame's description of a message
/// replacing an earlier one's (the latest wins, as for a reader of the stream).
fn schema_or_stream(path: &Path) -> Result<SchemaSet, Fatal> {
    let bytes = read_input(path)?;
    // A schema file starts with the schema header (ids 0xFFFF at bytes 2..6); a
    // stream with a schema frame has it after its 4-byte length prefix.
    let reserved = [0xff; 4];
    if bytes.get(2..6) == Some(&reserved) || bytes.get(6..10) != Some(&reserved) {
        return read_schema(path);
    }
    let mut registry = SchemaRegistry::new();
    let mut messages: BTreeMap<String, MessageSchema> = BTreeMap::new();
    let (_, broken) = frames::for_each(path, |index, offset, frame| {
        if !is_schema_frame(frame) {
            return Ok(true);
        }
        let set = registry.learn(frame).map_err(|e| {
            format!(
                "{}: frame {index} at byte {offset}: bad schema frame: {e}",
                path.display()
            )
        })?;
        for m in set.messages() {
            messages.insert(m.name.to_string(), m.clone());
        }
        Ok(true)
    })?;
    if let Some(e) = broken {
        return Err(format!("{}: the stream breaks: {e}", path.display()).into());
    }
    SchemaSet::from_messages(messages.into_values()).map_err(|e| {
        format!(
            "{}: the schema frames' descriptions do not make one schema: {e}",
            path.display()
        )
        .into()
    })
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
