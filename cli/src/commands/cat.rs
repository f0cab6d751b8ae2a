//! `wiremsg cat`: a file of frames, one line per message: index, byte offset, the
//! header's template id and version, the message as `Name { field: value, .. }`.

use super::dump::status;
use crate::frames;
use crate::input::{Fatal, read_schema};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use wiremsg::dynamic;

pub(crate) fn run(out: &mut dyn Write, schema: &Path, input: &Path) -> Result<ExitCode, Fatal> {
    let set = read_schema(schema)?;
    let (summary, broken) =
        frames::for_each(
            input,
            |index, offset, frame| match dynamic::view_with_header(&set, frame) {
                Ok((header, view)) => {
                    writeln!(
                        out,
                        "#{index} @{offset} t{} v{} {view}",
                        header.template_id, header.version
                    )?;
                    Ok(true)
                }
                Err(e) => {
                    writeln!(
                        out,
                        "#{index} @{offset} error: {}",
                        e.shift(offset as usize + 4)
                    )?;
                    Ok(false)
                }
            },
        )?;
    if let Some(e) = &broken {
        writeln!(out, "error: the stream breaks: {e}")?;
    }
    eprintln!("wiremsg: {}", summary.line());
    Ok(status(summary.bad == 0 && broken.is_none()))
}
