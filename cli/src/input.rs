//! Reading inputs: schema files (canonical or JSON), the schema of a self-describing
//! stream, and message bytes (a file or standard input).

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use wiremsg::dynamic::SchemaRegistry;
use wiremsg::frame::is_schema_frame;
use wiremsg::{MessageSchema, SchemaSet};

/// A failure that stops the command (exit status 2).
pub(crate) type Fatal = Box<dyn std::error::Error>;

/// The bytes of `path`, or of standard input for `-`.
pub(crate) fn read_input(path: &Path) -> Result<Vec<u8>, Fatal> {
    if path.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::stdin().read_to_end(&mut bytes)?;
        return Ok(bytes);
    }
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()).into())
}

/// A schema file: JSON if it starts with `{`, else the canonical encoding.
pub(crate) fn read_schema(path: &Path) -> Result<SchemaSet, Fatal> {
    let bytes = read_input(path)?;
    let what = |e: &dyn std::fmt::Display| format!("{}: not a schema file: {e}", path.display());
    if bytes.trim_ascii_start().first() == Some(&b'{') {
        serde_json::from_slice(&bytes).map_err(|e| what(&e).into())
    } else {
        SchemaSet::from_bytes(&bytes).map_err(|e| what(&e).into())
    }
}

/// A schema file, or a file of frames whose schema frames (FORMAT.md §12) give the
/// schema: every message they describe, a later frame's description of a message
/// replacing an earlier one's (the latest wins, as for a reader of the stream).
pub(crate) fn read_schema_or_stream(path: &Path) -> Result<SchemaSet, Fatal> {
    let bytes = read_input(path)?;
    // A schema file starts with the schema header (ids 0xFFFF at bytes 2..6); a
    // stream with a schema frame has it after its 4-byte length prefix.
    let reserved = [0xff; 4];
    if bytes.get(2..6) == Some(&reserved) || bytes.get(6..10) != Some(&reserved) {
        return read_schema(path);
    }
    let mut registry = SchemaRegistry::new();
    let mut messages: BTreeMap<String, MessageSchema> = BTreeMap::new();
    let (_, broken) = crate::frames::for_each(path, |index, offset, frame| {
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

/// The schema file of `--schema`, which this command needs.
pub(crate) fn required_schema(path: Option<&Path>, command: &str) -> Result<SchemaSet, Fatal> {
    match path {
        Some(path) => read_schema(path),
        None => Err(format!(
            "{command} needs --schema FILE (only a file of frames can describe itself: `wiremsg {command} --frames`, `wiremsg cat`)"
        )
        .into()),
    }
}

/// The schemas a stream of frames is read with: `--schema`'s for the types it has, the
/// stream's schema frames (FORMAT.md §12) for the others.
pub(crate) fn registry(schema: Option<&Path>) -> Result<SchemaRegistry, Fatal> {
    Ok(match schema {
        Some(path) => SchemaRegistry::with_schema(read_schema(path)?),
        None => SchemaRegistry::new(),
    })
}

/// The error of a stream whose first message comes before any schema, with no
/// `--schema`: the command cannot run (exit status 2).
pub(crate) fn no_schema(input: &Path) -> Fatal {
    format!(
        "{}: no schema: the stream has no schema frame before its first message (FORMAT.md §12); give its schema file with --schema",
        input.display()
    )
    .into()
}
