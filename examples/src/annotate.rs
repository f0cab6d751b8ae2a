//! Annotated hex dumps of messages, driven by the schema descriptor
//! ([`WireMsg::SCHEMA`](wiremsg::WireMsg::SCHEMA)) through the runtime's
//! schema-driven reader ([`wiremsg::dynamic::annotate`]): field names, offsets and
//! sizes come from the derive, tail regions from the end offsets in the bytes, and
//! corrupt bytes are annotated up to the fault, then the error.

use std::fmt::Write as _;
use wiremsg::{MessageHeader, MessageSchema, SchemaSet, TypeSchema, dynamic};

/// One annotated span of a message's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Offset of the span from the start of the dump.
    pub offset: usize,
    /// Bytes of the span.
    pub len: usize,
    /// Nesting depth (nested messages and list elements are deeper).
    pub depth: usize,
    /// Field name, or a structural label (`block length`, `header: version`,
    /// `error`).
    pub field: String,
    /// What the bytes mean.
    pub meaning: String,
}

/// The set of `schema` and every message it nests (found through the derive's
/// references), without recursion.
fn set_of(schema: &MessageSchema) -> SchemaSet {
    let mut messages = vec![schema.clone()];
    let mut pending = vec![schema.clone()];
    while let Some(message) = pending.pop() {
        for field in message.fields.iter() {
            let mut ty: &TypeSchema = &field.ty;
            while let TypeSchema::Array { element: inner, .. }
            | TypeSchema::Option(inner)
            | TypeSchema::List(inner) = ty
            {
                ty = inner;
            }
            if let TypeSchema::Message(m) = ty
                && let Some(nested) = m.resolve()
                && !messages.iter().any(|known| known.name == nested.name)
            {
                messages.push(nested.clone());
                pending.push(nested.clone());
            }
        }
    }
    SchemaSet::from_messages(messages).unwrap_or_default()
}

/// The rows of an annotation, shifted by `base`, with its error (if any) last.
fn rows_of(annotation: &dynamic::Annotation<'_>, base: usize) -> Vec<Row> {
    let mut rows: Vec<Row> = annotation
        .rows()
        .iter()
        .map(|row| Row {
            offset: base + row.offset,
            len: row.len,
            depth: row.depth,
            field: row.name.clone(),
            meaning: row.meaning.clone(),
        })
        .collect();
    if let Some(error) = annotation.error() {
        rows.push(Row {
            offset: base + error.offset(),
            len: 0,
            depth: 0,
            field: "error".into(),
            meaning: error.to_string(),
        });
    }
    rows
}

/// The rows of a message at the start of `bytes` (`base` is added to every offset).
///
/// `block_length` is the block length for a message without a tail (from a header,
/// or the whole buffer); a message with a tail states its own.
pub fn annotate_message(
    schema: &MessageSchema,
    bytes: &[u8],
    block_length: usize,
    base: usize,
) -> Vec<Row> {
    let bytes = if schema.has_block_length {
        bytes
    } else {
        bytes.get(..block_length).unwrap_or(bytes)
    };
    let set = set_of(schema);
    rows_of(&dynamic::annotate(&set, &schema.name, bytes, false), base)
}

/// The rows of a header and the message after it; on bytes that fail validation,
/// the rows up to the fault and a last row `error`.
pub fn annotate_with_header(schema: &MessageSchema, bytes: &[u8]) -> Vec<Row> {
    let set = set_of(schema);
    let annotation = if schema.template_id.is_some() {
        dynamic::annotate(&set, &schema.name, bytes, true)
    } else {
        // No template id to check: the header's ids are shown, not checked.
        let block_length = MessageHeader::read(bytes).map_or(0, |h| h.block_length);
        let mut rows = annotate_message(
            schema,
            bytes.get(MessageHeader::LEN..).unwrap_or_default(),
            usize::from(block_length),
            MessageHeader::LEN,
        );
        if let Ok(header) = MessageHeader::read(bytes) {
            let head = [
                ("header: block length", header.block_length),
                ("header: template id", header.template_id),
                ("header: schema id", header.schema_id),
                ("header: version", header.version),
            ];
            let head = head.iter().enumerate().map(|(i, (field, value))| Row {
                offset: 2 * i,
                len: 2,
                depth: 0,
                field: (*field).into(),
                meaning: value.to_string(),
            });
            rows.splice(0..0, head);
        }
        return rows;
    };
    rows_of(&annotation, 0)
}

/// Renders rows as `offset  hex  field  meaning`, 16 bytes of hex per line, nested
/// rows indented; a row whose bytes the next rows show has no hex of its own.
pub fn render(rows: &[Row], bytes: &[u8]) -> String {
    let mut out = String::new();
    for (i, row) in rows.iter().enumerate() {
        let holds = rows
            .get(i + 1)
            .is_some_and(|next| next.depth > row.depth && next.offset < row.offset + row.len);
        let data = if holds {
            &[][..]
        } else {
            bytes
                .get(row.offset..row.offset + row.len)
                .unwrap_or_default()
        };
        let mut chunks = data.chunks(16);
        let first = chunks.next().unwrap_or_default();
        let field = format!("{:indent$}{}", "", row.field, indent = 2 * row.depth);
        let _ = writeln!(
            out,
            "  {:>4}  {:<48} {:<22} {}",
            row.offset,
            hex(first),
            field,
            row.meaning
        );
        for (i, chunk) in chunks.enumerate() {
            let _ = writeln!(out, "  {:>4}  {}", row.offset + 16 * (i + 1), hex(chunk));
        }
    }
    out
}

/// `bytes` as space-separated hex pairs.
pub fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 3);
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(out, "{b:02x}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiremsg::WireMsg;

    #[derive(WireMsg)]
    #[wire(template_id = 4)]
    struct Note {
        id: u8,
        text: String,
    }

    #[test]
    fn corrupt_bytes_annotate_up_to_the_fault() {
        use wiremsg::Template;
        let mut bytes = Vec::new();
        Note {
            id: 1,
            text: "hello".into(),
        }
        .encode_with_header(&mut bytes)
        .unwrap();
        // The end offset of `text` past the message: the old dump sliced out of range.
        bytes[11] = 0xff;
        let rows = annotate_with_header(Note::SCHEMA, &bytes);
        let last = rows.last().unwrap();
        assert_eq!(last.field, "error");
        assert_eq!(
            last.meaning,
            "truncated: needs 255 bytes, has 12 at byte 11 in `text`"
        );
        assert_eq!(rows[4].field, "block length");
        let text = render(&rows, &bytes);
        assert!(text.contains("error"), "{text}");
        for len in 0..bytes.len() {
            let rows = annotate_with_header(Note::SCHEMA, &bytes[..len]);
            assert_eq!(rows.last().unwrap().field, "error");
            render(&rows, &bytes[..len]);
        }
    }
}
