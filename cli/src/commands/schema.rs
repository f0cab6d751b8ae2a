//! `wiremsg schema`: a schema file, or the schema a stream's schema frames give
//! (FORMAT.md §12), listed readably or as JSON.

use crate::input::{Fatal, read_schema_or_stream};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use wiremsg::{FieldSchema, MessageSchema, SchemaSet, TypeSchema};

pub(crate) fn run(out: &mut dyn Write, path: &Path, json: bool) -> Result<(), Fatal> {
    let set = read_schema_or_stream(path)?;
    if json {
        serde_json::to_writer_pretty(&mut *out, &set)?;
        writeln!(out)?;
    } else {
        out.write_all(listing(&set).as_bytes())?;
    }
    Ok(())
}

/// Every message with its ids and block lengths, a line per field (offset, size,
/// name, type, since version, default), then every enum and every union.
pub(crate) fn listing(set: &SchemaSet) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "schema set: {} message(s), fingerprint {}",
        set.messages().len(),
        set.fingerprint()
    );
    let mut enums = Vec::new();
    let mut unions = Vec::new();
    for m in set.messages() {
        let _ = writeln!(out, "\nmessage {} {}", m.name, summary(m));
        for f in m.fields.iter() {
            let _ = writeln!(out, "  {}", field_line(f));
            collect_named(&f.ty, &mut enums, &mut unions);
        }
    }
    for e in enums {
        let variants: Vec<String> = e
            .variants
            .iter()
            .map(|v| format!("{} = {}", v.name, v.value))
            .collect();
        let other = e
            .catch_all
            .as_ref()
            .map(|c| format!(", other values: {c}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "\nenum {}: {} {{ {} }}{other}",
            e.name,
            e.repr.display(),
            variants.join(", ")
        );
    }
    for u in unions {
        let variants: Vec<String> = u.variants.iter().map(|v| format!("{v:?}")).collect();
        let version = if u.version > 1 {
            format!(" (version {})", u.version)
        } else {
            String::new()
        };
        let other = u
            .catch_all
            .as_ref()
            .map(|c| format!(", other tags: {c}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "\nunion {}{version}: {} {{ {} }}{other}",
            u.name,
            u.tag.display(),
            variants.join(", ")
        );
    }
    out
}

fn summary(m: &MessageSchema) -> String {
    let mut parts = vec![format!("version {}", m.version)];
    if let Some(id) = m.template_id {
        parts.push(format!("template id {id}, schema id {}", m.schema_id));
    }
    if m.min_block_length == m.block_length {
        parts.push(format!("block length {}", m.block_length));
    } else {
        parts.push(format!(
            "block length {} (version 1: {})",
            m.block_length, m.min_block_length
        ));
    }
    parts.push(
        match (m.has_block_length, m.has_tail) {
            (_, true) => "block length field and tail",
            (true, false) => "block length field, no tail",
            (false, false) => "fixed size",
        }
        .to_string(),
    );
    format!("({})", parts.join(", "))
}

fn field_line(f: &FieldSchema) -> String {
    let unit = if f.size == 1 { "byte " } else { "bytes" };
    let mut line = format!(
        "@{:<4} {:>3} {unit}  {:<20} {}",
        f.offset,
        f.size,
        f.name,
        f.ty.display()
    );
    if f.since > 1 {
        let _ = write!(line, "  since {}", f.since);
    }
    if f.reserved {
        line.push_str("  reserved");
    }
    if let Some(default) = &f.default {
        match default.bytes() {
            Some(bytes) => {
                let _ = write!(line, "  default {}", default_text(&f.ty, &bytes));
            }
            None => line.push_str("  default (not expressible as bytes)"),
        }
    }
    line
}

/// A field's default, from its bytes: text as a string, an enum's value by its
/// variant's name (`Day`), a bool or an integer as its value, anything else as
/// `bytes` and their hex.
fn default_text(ty: &TypeSchema, bytes: &[u8]) -> String {
    let unsigned = || {
        let mut le = [0u8; 8];
        let n = bytes.len().min(8);
        le[..n].copy_from_slice(&bytes[..n]);
        (bytes.len() <= 8).then_some(u64::from_le_bytes(le))
    };
    let signed = |width: u32| {
        unsigned().map(|v| {
            let shift = 64 - 8 * width;
            ((v << shift) as i64) >> shift
        })
    };
    let text = match ty {
        TypeSchema::Str => Some(format!("{:?}", String::from_utf8_lossy(bytes))),
        TypeSchema::Enum(e) => unsigned().map(|v| match e.variant_name(v) {
            Some(name) => name.to_string(),
            None => format!("{v} (no variant of {})", e.name),
        }),
        TypeSchema::Bool if bytes.len() == 1 => Some((bytes[0] != 0).to_string()),
        TypeSchema::U8 | TypeSchema::U16 | TypeSchema::U32 | TypeSchema::U64 => {
            unsigned().map(|v| v.to_string())
        }
        TypeSchema::I8 | TypeSchema::I16 | TypeSchema::I32 | TypeSchema::I64 => {
            u32::try_from(bytes.len())
                .ok()
                .filter(|w| (1..=8).contains(w))
                .and_then(signed)
                .map(|v| v.to_string())
        }
        _ => None,
    };
    text.unwrap_or_else(|| format!("bytes {}", hex(bytes)))
}

/// The enums and unions `ty` holds, each name once (a schema set has one of each
/// name), through every type that holds others (messages are listed on their own).
fn collect_named<'a>(
    ty: &'a TypeSchema,
    enums: &mut Vec<&'a wiremsg::EnumSchema>,
    unions: &mut Vec<&'a wiremsg::UnionSchema>,
) {
    match ty {
        TypeSchema::Array { element: inner, .. }
        | TypeSchema::Option(inner)
        | TypeSchema::List(inner)
        | TypeSchema::Map(inner)
        | TypeSchema::BoundedList { element: inner, .. }
        | TypeSchema::Nullable { value: inner, .. } => collect_named(inner, enums, unions),
        TypeSchema::Tuple(elements) => {
            for element in elements.iter() {
                collect_named(element, enums, unions);
            }
        }
        TypeSchema::Enum(e) if !enums.iter().any(|seen| seen.name == e.name) => enums.push(e),
        TypeSchema::Union(u) if !unions.iter().any(|seen| seen.name == u.name) => unions.push(u),
        _ => {}
    }
}

/// `bytes` as space-separated hex pairs.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}
