//! `wiremsg dump`: annotated hex, a line per part of the bytes; on corrupt input,
//! everything up to the fault, then the error.

use super::message::type_name;
use crate::cli::MessageArgs;
use crate::frames::{self, Watch, newer_than_described};
use crate::input::{Fatal, no_schema, read_input, registry, required_schema};
use std::io::Write;
use std::process::ExitCode;
use wiremsg::dynamic::{self, Annotation};
use wiremsg::frame::is_schema_frame;
use wiremsg::{MessageHeader, SchemaSet};

pub(crate) fn run(out: &mut dyn Write, args: &MessageArgs) -> Result<ExitCode, Fatal> {
    if args.frames {
        return frames(out, args);
    }
    let set = required_schema(args.schema.as_deref(), "dump")?;
    let bytes = read_input(&args.input)?;
    let annotation = annotate(&set, args, &bytes)?;
    write!(out, "{annotation}")?;
    Ok(status(annotation.error().is_none()))
}

/// `--frames`: every frame annotated; a schema frame (FORMAT.md §12) as the schema
/// message it is, and learned; a message frame with `--schema` for the types it has
/// and with the stream's schema frames for the others (`--type` reads every message
/// frame as that type of `--schema`).
fn frames(out: &mut dyn Write, args: &MessageArgs) -> Result<ExitCode, Fatal> {
    let mut schemas = registry(args.schema.as_deref())?;
    if args.type_name.is_some() && schemas.given().is_none() {
        return Err("--type needs --schema FILE".into());
    }
    let canonical = dynamic::canonical_schema();
    let mut saw_schema_frame = false;
    let mut watch = Watch::default();
    let mut newer = 0;
    let (mut summary, broken) = frames::for_each(&args.input, |index, offset, frame| {
        let start = offset + 4;
        let at = |e: wiremsg::Error| e.shift(start as usize);
        if is_schema_frame(frame) {
            saw_schema_frame = true;
            let learned = schemas.learn(frame).map(|_| ());
            if learned.is_err() {
                watch.bad_schema_frame(index, offset);
            }
            // `--skip-schema-frames`: learned, not shown, unless it is bad.
            if args.skip_schema_frames {
                if let Err(e) = learned {
                    writeln!(
                        out,
                        "frame {index} at byte {offset}: error: bad schema frame: {}",
                        at(e)
                    )?;
                    return Ok(false);
                }
                return Ok(true);
            }
            writeln!(
                out,
                "frame {index} at byte {offset}: schema frame, length {} (offsets below from byte {start})",
                frame.len()
            )?;
            let annotation = dynamic::annotate_with_header(&canonical, frame);
            write!(out, "{annotation}")?;
            if annotation.error().is_some() {
                return Ok(false);
            }
            return match learned {
                Ok(()) => Ok(true),
                Err(e) => {
                    writeln!(out, "error: bad schema frame: {}", at(e))?;
                    Ok(false)
                }
            };
        }
        if schemas.is_empty() && !saw_schema_frame {
            return Err(no_schema(&args.input));
        }
        writeln!(
            out,
            "frame {index} at byte {offset}: length {} (offsets below from byte {start})",
            frame.len()
        )?;
        let set = match (schemas.given(), &args.type_name) {
            (Some(given), Some(_)) => Some(given),
            _ => MessageHeader::read(frame)
                .ok()
                .and_then(|h| schemas.schema_for(h.schema_id, h.template_id))
                .or(schemas.given()),
        };
        let Some(set) = set else {
            // No schema has the type: the error of the registry's view says so.
            let e = schemas.view(frame).err();
            let e = e.map_or_else(String::new, |e| watch.explain(&at(e)));
            writeln!(out, "error: {e}")?;
            return Ok(false);
        };
        let annotation = annotate(set, args, frame)?;
        write!(out, "{annotation}")?;
        if annotation.error().is_none() && args.type_name.is_none() {
            if let Some(warning) = newer_than_described(&schemas, frame, offset, &mut newer) {
                writeln!(out, "warning: {warning}")?;
            }
        }
        Ok(annotation.error().is_none())
    })?;
    summary.newer = newer;
    if let Some(e) = &broken {
        writeln!(out, "error: the stream breaks: {e}")?;
    }
    eprintln!("wiremsg: {}", summary.line());
    Ok(status(summary.ok(args.strict)))
}

/// The annotation of `bytes`: by its header's template id, or as `--type`.
fn annotate<'b>(
    set: &SchemaSet,
    args: &MessageArgs,
    bytes: &'b [u8],
) -> Result<Annotation<'b>, Fatal> {
    Ok(match (&args.type_name, args.header || args.frames) {
        (None, true) => dynamic::annotate_with_header(set, bytes),
        (_, with_header) => dynamic::annotate(set, type_name(set, args)?, bytes, with_header),
    })
}

pub(crate) fn status(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
