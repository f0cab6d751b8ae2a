//! Reading inputs: schema files (canonical or JSON) and message bytes (a file or
//! standard input).

use std::io::Read;
use std::path::Path;
use wiremsg::SchemaSet;
use wiremsg::dynamic::SchemaRegistry;

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
