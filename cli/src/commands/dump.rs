//! `wiremsg dump`: annotated hex, a line per part of the bytes; on corrupt input,
//! everything up to the fault, then the error.

use super::message::type_name;
use crate::cli::MessageArgs;
use crate::frames;
use crate::input::{Fatal, read_input, required_schema};
use std::io::Write;
use std::process::ExitCode;
use wiremsg::SchemaSet;
use wiremsg::dynamic::{self, Annotation};

pub(crate) fn run(out: &mut dyn Write, args: &MessageArgs) -> Result<ExitCode, Fatal> {
    let set = required_schema(args.schema.as_deref(), "dump")?;
    if args.frames {
        let (summary, broken) = frames::for_each(&args.input, |index, offset, frame| {
            let start = offset + 4;
            writeln!(
                out,
                "frame {index} at byte {offset}: length {} (offsets below from byte {start})",
                frame.len()
            )?;
            let annotation = annotate(&set, args, frame)?;
            write!(out, "{annotation}")?;
            Ok(annotation.error().is_none())
        })?;
        if let Some(e) = &broken {
            writeln!(out, "error: the stream breaks: {e}")?;
        }
        eprintln!("wiremsg: {}", summary.line());
        return Ok(status(summary.bad == 0 && broken.is_none()));
    }
    let bytes = read_input(&args.input)?;
    let annotation = annotate(&set, args, &bytes)?;
    write!(out, "{annotation}")?;
    Ok(status(annotation.error().is_none()))
}

/// The annotation of `bytes`: by its header's template id, or as `--type`.
fn annotate<'b>(
    set: &SchemaSet,
    args: &MessageArgs,
    bytes: &'b [u8],
) -> Result<Annotation<'b>, Fatal> {
    if args.frames && wiremsg::frame::is_schema_frame(bytes) {
        // A schema frame (FORMAT.md §12): the schema message, by its own schema.
        return Ok(dynamic::annotate_with_header(
            &dynamic::canonical_schema(),
            bytes,
        ));
    }
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
