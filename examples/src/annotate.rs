//! Annotated hex dumps of messages, driven by the schema descriptor
//! ([`WireMsg::SCHEMA`](wiremsg::WireMsg::SCHEMA)): field names, offsets and sizes come
//! from the derive, and tail regions are found from the end offsets in the bytes.

use std::fmt::Write as _;
use wiremsg::{MessageHeader, MessageSchema, TypeSchema};

/// One annotated span of a message's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Offset of the span from the start of the dump.
    pub offset: usize,
    /// Bytes of the span.
    pub len: usize,
    /// Field name, or a structural label (`block length`, `header: version`).
    pub field: String,
    /// What the bytes mean.
    pub meaning: String,
}

/// True if values of `ty` have data in the tail (their slot ends with an end offset).
fn in_tail(ty: &TypeSchema) -> bool {
    match ty {
        TypeSchema::Str | TypeSchema::List(_) => true,
        TypeSchema::Message(m) => m.resolve().is_some_and(|schema| schema.has_tail),
        TypeSchema::Option(inner) => in_tail(inner),
        _ => false,
    }
}

fn le(bytes: &[u8]) -> u128 {
    bytes
        .iter()
        .rev()
        .fold(0u128, |acc, &b| (acc << 8) | u128::from(b))
}

fn signed(bytes: &[u8]) -> i128 {
    let bits = 8 * bytes.len() as u32;
    let raw = le(bytes);
    if bits < 128 && raw >> (bits - 1) & 1 == 1 {
        raw as i128 - (1i128 << bits)
    } else {
        raw as i128
    }
}

/// The value in a fixed-size slot, in words.
fn describe(ty: &TypeSchema, slot: &[u8]) -> String {
    match ty {
        TypeSchema::Bool => format!("{}", slot.first() == Some(&1)),
        TypeSchema::U8 | TypeSchema::U16 | TypeSchema::U32 | TypeSchema::U64 | TypeSchema::U128 => {
            le(slot).to_string()
        }
        TypeSchema::I8 | TypeSchema::I16 | TypeSchema::I32 | TypeSchema::I64 | TypeSchema::I128 => {
            signed(slot).to_string()
        }
        TypeSchema::F32 if slot.len() == 4 => {
            f32::from_le_bytes(slot.try_into().expect("4 bytes")).to_string()
        }
        TypeSchema::F64 if slot.len() == 8 => {
            f64::from_le_bytes(slot.try_into().expect("8 bytes")).to_string()
        }
        TypeSchema::FixedStr { .. } => format!("{:?}", String::from_utf8_lossy(slot).trim_end()),
        TypeSchema::Enum(schema) => {
            let raw = le(slot) as u64;
            let name = schema
                .variants
                .iter()
                .find(|v| v.value == raw)
                .map_or("unknown", |v| &v.name);
            format!("{name} ({raw})")
        }
        TypeSchema::Array { element, len } => {
            let size = slot.len() / (*len).max(1);
            if **element == TypeSchema::U8 {
                let text: String = slot
                    .iter()
                    .map(|&b| match b {
                        0 => '.',
                        0x20..0x7f => char::from(b),
                        _ => '?',
                    })
                    .collect();
                format!("{len} bytes {text:?}")
            } else {
                let items: Vec<String> = slot
                    .chunks(size.max(1))
                    .map(|c| describe(element, c))
                    .collect();
                format!("[{}]", items.join(", "))
            }
        }
        TypeSchema::Option(inner) => match slot.first() {
            Some(1) => format!("present: {}", describe(inner, &slot[1..])),
            _ => "absent (zeroed)".to_string(),
        },
        TypeSchema::Message(m) => format!("inline {}", m.name),
        _ => String::new(),
    }
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
    let mut rows = Vec::new();
    let block = if schema.has_tail {
        let b = usize::from(u16::from_le_bytes([bytes[0], bytes[1]]));
        rows.push(Row {
            offset: base,
            len: 2,
            field: "block length".into(),
            meaning: b.to_string(),
        });
        b
    } else {
        block_length
    };
    let mut tail = Vec::new();
    let mut previous_end = block;
    for field in schema.fields.iter() {
        let end = field.offset + field.size;
        if end > block {
            // A field the writer's version did not have.
            continue;
        }
        let slot = &bytes[field.offset..end];
        let since = if field.since > 1 {
            format!(" (since {})", field.since)
        } else {
            String::new()
        };
        let meaning = if in_tail(&field.ty) {
            let data_end = le(&slot[slot.len() - 4..]) as usize;
            let range = previous_end..data_end;
            previous_end = data_end;
            let present = !matches!(*field.ty, TypeSchema::Option(_)) || slot[0] == 1;
            if !range.is_empty() {
                tail.push((&field.name, &field.ty, range));
            }
            match (present, matches!(*field.ty, TypeSchema::Option(_))) {
                (false, _) => format!("absent; its empty region ends at {data_end}"),
                (true, true) => format!("present, ends at {data_end}"),
                (true, false) => format!("ends at {data_end}"),
            }
        } else {
            describe(&field.ty, slot)
        };
        rows.push(Row {
            offset: base + field.offset,
            len: field.size,
            field: field.name.to_string(),
            meaning: format!("{meaning}{since}"),
        });
    }
    for (name, ty, range) in tail {
        let data = &bytes[range.clone()];
        let meaning = match &**ty {
            TypeSchema::Str => format!("{:?}", String::from_utf8_lossy(data)),
            TypeSchema::Option(inner) if **inner == TypeSchema::Str => {
                format!("{:?}", String::from_utf8_lossy(data))
            }
            _ => format!("{} bytes", data.len()),
        };
        rows.push(Row {
            offset: base + range.start,
            len: range.len(),
            field: format!("{name} (tail)"),
            meaning,
        });
    }
    rows
}

/// The rows of a header and the message after it.
pub fn annotate_with_header(schema: &MessageSchema, bytes: &[u8]) -> Vec<Row> {
    let header = MessageHeader::read(bytes).expect("a header");
    let mut rows: Vec<Row> = [
        ("header: block length", header.block_length),
        ("header: template id", header.template_id),
        ("header: schema id", header.schema_id),
        ("header: version", header.version),
    ]
    .iter()
    .enumerate()
    .map(|(i, (field, value))| Row {
        offset: 2 * i,
        len: 2,
        field: (*field).into(),
        meaning: value.to_string(),
    })
    .collect();
    rows.extend(annotate_message(
        schema,
        &bytes[MessageHeader::LEN..],
        usize::from(header.block_length),
        MessageHeader::LEN,
    ));
    rows
}

/// Renders rows as `offset  hex  field  meaning`, 16 bytes of hex per line.
pub fn render(rows: &[Row], bytes: &[u8]) -> String {
    let mut out = String::new();
    for row in rows {
        let data = &bytes[row.offset..row.offset + row.len];
        let mut chunks = data.chunks(16);
        let first = chunks.next().unwrap_or_default();
        let _ = writeln!(
            out,
            "  {:>4}  {:<48} {:<22} {}",
            row.offset,
            hex(first),
            row.field,
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
