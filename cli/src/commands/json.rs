//! `wiremsg json`: a message as JSON, or one line of JSON per message frame; a frame
//! that fails validation is reported on standard error (with its index) and skipped.
//! Schema frames (FORMAT.md §12) are read, not printed: with them a file of frames
//! needs no `--schema`.

use super::dump::status;
use super::message::type_name;
use crate::cli::MessageArgs;
use crate::frames::{self, Watch, newer_than_described};
use crate::input::{Fatal, no_schema, read_input, registry, required_schema};
use std::io::Write;
use std::process::ExitCode;
use wiremsg::dynamic::{self, DynView, SchemaRegistry};
use wiremsg::frame::is_schema_frame;
use wiremsg::{Error, SchemaSet};

pub(crate) fn run(out: &mut dyn Write, args: &MessageArgs) -> Result<ExitCode, Fatal> {
    if args.frames {
        return frames(out, args);
    }
    let set = required_schema(args.schema.as_deref(), "json")?;
    let bytes = read_input(&args.input)?;
    match view(&set, args, &bytes, args.header)? {
        Ok(view) => {
            serde_json::to_writer_pretty(&mut *out, &view)?;
            writeln!(out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("wiremsg: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// `--frames`: a line per message frame, read with `--schema` for the types it has
/// and with the stream's schema frames for the others (`--type` reads every message
/// frame as that type of `--schema`).
fn frames(out: &mut dyn Write, args: &MessageArgs) -> Result<ExitCode, Fatal> {
    let mut schemas = registry(args.schema.as_deref())?;
    if args.type_name.is_some() && schemas.given().is_none() {
        return Err("--type needs --schema FILE".into());
    }
    let mut saw_schema_frame = false;
    let mut watch = Watch::default();
    let mut newer = 0;
    let (mut summary, broken) = frames::for_each(&args.input, |index, offset, frame| {
        let report = |watch: &Watch, e: Error| {
            let e = watch.explain(&e.shift(offset as usize + 4));
            eprintln!("wiremsg: frame {index} at byte {offset}: {e}");
            Ok(false)
        };
        if is_schema_frame(frame) {
            saw_schema_frame = true;
            return match schemas.learn(frame) {
                Ok(_) => Ok(true),
                Err(e) => {
                    let result = report(&watch, e);
                    watch.bad_schema_frame(index, offset);
                    result
                }
            };
        }
        // A stream whose schema frames were all bad is bad data, not a missing schema:
        // its messages are errors of their frames (UndescribedTemplate).
        if schemas.is_empty() && !saw_schema_frame {
            return Err(no_schema(&args.input));
        }
        match message(&schemas, args, frame)? {
            Ok(view) => {
                serde_json::to_writer(&mut *out, &view)?;
                writeln!(out)?;
                if args.type_name.is_none() {
                    if let Some(warning) = newer_than_described(&schemas, frame, offset, &mut newer)
                    {
                        eprintln!("wiremsg: frame {index} at byte {offset}: warning: {warning}");
                    }
                }
                Ok(true)
            }
            Err(e) => report(&watch, e),
        }
    })?;
    summary.newer = newer;
    if let Some(e) = &broken {
        eprintln!("wiremsg: the stream breaks: {e}");
    }
    eprintln!("wiremsg: {}", summary.line());
    Ok(status(summary.ok(args.strict)))
}

/// The view of a message frame: as `--type` of `--schema`, or by its header.
fn message<'a>(
    schemas: &'a SchemaRegistry,
    args: &'a MessageArgs,
    frame: &'a [u8],
) -> Result<Result<DynView<'a>, Error>, Fatal> {
    match schemas.given() {
        Some(given) if args.type_name.is_some() => view(given, args, frame, true),
        _ => Ok(schemas.view(frame).map(|(_, view)| view)),
    }
}

/// The view of `bytes`: by its header's template id, or as `--type`.
fn view<'a>(
    set: &'a SchemaSet,
    args: &'a MessageArgs,
    bytes: &'a [u8],
    with_header: bool,
) -> Result<Result<DynView<'a>, Error>, crate::input::Fatal> {
    Ok(match (&args.type_name, with_header) {
        (None, true) => dynamic::view_with_header(set, bytes).map(|(_, view)| view),
        (_, true) => {
            dynamic::view_with_header_as(set, type_name(set, args)?, bytes).map(|(_, view)| view)
        }
        (_, false) => dynamic::view(set, type_name(set, args)?, bytes),
    })
}
