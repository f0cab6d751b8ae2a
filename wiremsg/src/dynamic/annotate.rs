//! An annotated dump of a message's bytes: one row per header field, block length,
//! field slot, tail region, list table entry (or a dense list's variant entry) and
//! element, in byte order, nested parts indented; on bytes that fail validation,
//! every part up to the fault and then the error.

use crate::{Error, MessageHeader};
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// One annotated part of the bytes.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Row};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Pair { a: u8, b: [u16; 2] }
///
/// let set = SchemaSet::of::<Pair>().unwrap();
/// let dump = dynamic::annotate(&set, "Pair", &[1, 2, 0, 3, 0], false);
/// assert_eq!(dump.rows()[1], Row {
///     offset: 1,
///     len: 4,
///     depth: 0,
///     name: "b".into(),
///     meaning: "[2, 3]".into(),
/// });
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Offset of the part from the start of the bytes annotated.
    pub offset: usize,
    /// Bytes of the part (0 for a field the writer's version did not have).
    pub len: usize,
    /// Nesting depth, for indentation: 0 for the root message's own parts.
    pub depth: usize,
    /// The field's name, an element index (`[3]`), a tail region (`name (tail)`) or
    /// a part of the format (`block length`, `stride`, `table`, a dense list's
    /// `entries`, `entry 0` and `(padding)`, `header: template id`).
    pub name: String,
    /// What the bytes mean: a value, an end offset, a size.
    pub meaning: String,
}

/// The annotated bytes of one message ([`annotate`](super::annotate)): its rows, and
/// the validation error that stopped the walk, if any.
///
/// Its `Display` writes one line per row, `offset  hex  name  meaning`, the hex of
/// parts that hold other rows left out (their rows show it), 16 bytes of hex per
/// line, and the error last.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic;
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Flag { id: u16, on: bool }
///
/// let set = SchemaSet::of::<Flag>().unwrap();
/// let dump = dynamic::annotate(&set, "Flag", &[7, 0, 2], false);
/// assert_eq!(dump.rows().len(), 1); // `id`, then the fault
/// assert_eq!(
///     dump.to_string(),
///     "     0  07 00                                             id                       7\n\
///      error: invalid bool byte 0x02 (expected 0 or 1) at byte 2 in `on`\n"
/// );
/// ```
#[derive(Debug)]
pub struct Annotation<'b> {
    pub(super) bytes: &'b [u8],
    pub(super) rows: Vec<Row>,
    pub(super) error: Option<Error>,
}

impl<'b> Annotation<'b> {
    /// The rows, in byte order (a part before the parts it holds).
    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The error that stopped validation: the rows cover the bytes up to it.
    pub fn error(&self) -> Option<&Error> {
        self.error.as_ref()
    }

    /// The bytes annotated.
    pub fn bytes(&self) -> &'b [u8] {
        self.bytes
    }

    /// The rows, given up.
    pub fn into_rows(self) -> Vec<Row> {
        self.rows
    }
}

/// The rows of a message header (FORMAT.md §8).
pub(super) fn header_rows(header: &MessageHeader) -> [Row; 4] {
    let row = |i: usize, name: &str, value: u16| Row {
        offset: 2 * i,
        len: 2,
        depth: 0,
        name: alloc::format!("header: {name}"),
        meaning: alloc::format!("{value}"),
    };
    [
        row(0, "block length", header.block_length),
        row(1, "template id", header.template_id),
        row(2, "schema id", header.schema_id),
        row(3, "version", header.version),
    ]
}

const HEX_PER_LINE: usize = 16;

impl fmt::Display for Annotation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in self.rows.iter().enumerate() {
            // A part whose bytes the next rows show gets no hex of its own.
            let holds = self
                .rows
                .get(i + 1)
                .is_some_and(|next| next.depth > row.depth && next.offset < row.offset + row.len);
            let data = if holds {
                &[][..]
            } else {
                self.bytes
                    .get(row.offset..row.offset.saturating_add(row.len))
                    .unwrap_or_default()
            };
            let mut chunks = data.chunks(HEX_PER_LINE);
            let first = chunks.next().unwrap_or_default();
            let label = alloc::format!("{:indent$}{}", "", row.name, indent = 2 * row.depth);
            writeln!(
                f,
                "{:>6}  {:<48}  {:<24} {}",
                row.offset,
                Hex(first),
                label,
                row.meaning
            )?;
            for (line, chunk) in chunks.enumerate() {
                writeln!(
                    f,
                    "{:>6}  {}",
                    row.offset + HEX_PER_LINE * (line + 1),
                    Hex(chunk)
                )?;
            }
        }
        if let Some(error) = &self.error {
            writeln!(f, "error: {error}")?;
        }
        Ok(())
    }
}

/// Bytes as space-separated hex pairs.
struct Hex<'a>(&'a [u8]);

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(3 * self.0.len());
        for (i, b) in self.0.iter().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            let _ = fmt::Write::write_fmt(&mut text, format_args!("{b:02x}"));
        }
        f.pad(&text)
    }
}
