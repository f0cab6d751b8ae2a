//! `wiremsg json`: a message as JSON, or one line of JSON per frame; a frame that
//! fails validation is reported on standard error (with its index) and skipped.

use super::dump::status;
use super::message::type_name;
use crate::cli::MessageArgs;
use crate::frames;
use crate::input::{Fatal, read_input, read_schema};
use std::io::Write;
use std::process::ExitCode;
use wiremsg::dynamic::{self, DynView};
use wiremsg::{Error, SchemaSet};

pub(crate) fn run(out: &mut dyn Write, args: &MessageArgs) -> Result<ExitCode, Fatal> {
    let set = read_schema(&args.schema)?;
    if args.frames {
        let (summary, broken) =
            frames::for_each(&args.input, |index, offset, frame| {
                match view(&set, args, frame, true)? {
                    Ok(view) => {
                        serde_json::to_writer(&mut *out, &view)?;
                        writeln!(out)?;
                        Ok(true)
                    }
                    Err(e) => {
                        let e = e.shift(offset as usize + 4);
                        eprintln!("wiremsg: frame {index} at byte {offset}: {e}");
                        Ok(false)
                    }
                }
            })?;
        if let Some(e) = &broken {
            eprintln!("wiremsg: the stream breaks: {e}");
        }
        eprintln!("wiremsg: {}", summary.line());
        return Ok(status(summary.bad == 0 && broken.is_none()));
    }
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
