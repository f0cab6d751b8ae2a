//! Reading inputs: schema files (canonical or JSON) and message bytes (a file or
//! standard input).

use std::io::Read;
use std::path::Path;
use wiremsg::SchemaSet;

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
