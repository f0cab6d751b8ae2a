//! `wiremsg cat`: a file of frames, one line per message: index, byte offset, the
//! header's template id and version, the message as `Name { field: value, .. }`; and
//! one line per schema frame (FORMAT.md §12): the types it describes, with their ids,
//! versions and fingerprints.

use super::dump::status;
use crate::frames::{self, Watch, newer_than_described};
use crate::input::{Fatal, no_schema, registry};
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use wiremsg::SchemaSet;
use wiremsg::frame::is_schema_frame;

/// The types a schema frame's line lists; a longer list ends with how many more.
const LISTED: usize = 8;

pub(crate) fn run(
    out: &mut dyn Write,
    schema: Option<&Path>,
    strict: bool,
    input: &Path,
) -> Result<ExitCode, Fatal> {
    let mut schemas = registry(schema)?;
    // `--schema`, apart: a schema frame's line says where it differs.
    let given = schemas.given().cloned();
    let mut saw_schema_frame = false;
    let mut watch = Watch::default();
    let mut newer = 0;
    let (mut summary, broken) = frames::for_each(input, |index, offset, frame| {
        let at = |e: wiremsg::Error| e.shift(offset as usize + 4);
        if is_schema_frame(frame) {
            saw_schema_frame = true;
            return match schemas.learn(frame) {
                Ok(set) => {
                    let line = schema_line(set, given.as_ref());
                    writeln!(out, "#{index} @{offset} schema: {line}")?;
                    Ok(true)
                }
                Err(e) => {
                    watch.bad_schema_frame(index, offset);
                    writeln!(out, "#{index} @{offset} error: bad schema frame: {}", at(e))?;
                    Ok(false)
                }
            };
        }
        // A stream whose schema frames were all bad is bad data, not a missing schema:
        // its messages are errors of their frames (UndescribedTemplate).
        if schemas.is_empty() && !saw_schema_frame {
            return Err(no_schema(input));
        }
        match schemas.view(frame) {
            Ok((header, view)) => {
                writeln!(
                    out,
                    "#{index} @{offset} t{} v{} {view}",
                    header.template_id, header.version
                )?;
                if let Some(warning) = newer_than_described(&schemas, frame, offset, &mut newer) {
                    writeln!(out, "#{index} @{offset} warning: {warning}")?;
                }
                Ok(true)
            }
            Err(e) => {
                writeln!(out, "#{index} @{offset} error: {}", watch.explain(&at(e)))?;
                Ok(false)
            }
        }
    })?;
    summary.newer = newer;
    if let Some(e) = &broken {
        writeln!(out, "error: the stream breaks: {e}")?;
    }
    eprintln!("wiremsg: {}", summary.line());
    Ok(status(summary.ok(strict)))
}

/// `Ping t1 s0 v1 fingerprint ba99f373cf3947a7, ...`: each type the schema frame's set
/// describes (a message with a template id), and where `--schema` describes it
/// otherwise, that it wins.
fn schema_line(set: &SchemaSet, given: Option<&SchemaSet>) -> String {
    let described: Vec<_> = set
        .messages()
        .iter()
        .filter_map(|m| m.template_id.map(|t| (m.schema_id, t)))
        .collect();
    if described.is_empty() {
        return "no message types".into();
    }
    let mut parts: Vec<String> = described
        .iter()
        .take(LISTED)
        .filter_map(|&(schema_id, template_id)| {
            let description = set.describe(schema_id, template_id)?;
            let overridden = given
                .and_then(|g| g.describe(schema_id, template_id))
                .filter(|g| g.fingerprint != description.fingerprint);
            Some(match overridden {
                Some(g) => format!("{description} (read with --schema's {g})"),
                None => description.to_string(),
            })
        })
        .collect();
    if described.len() > LISTED {
        parts.push(format!("and {} more", described.len() - LISTED));
    }
    parts.join(", ")
}
