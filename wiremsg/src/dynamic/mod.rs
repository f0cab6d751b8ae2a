//! The schema-driven reader: messages validated and read by a [`SchemaSet`] instead
//! of their Rust types, and annotated dumps of their bytes.
//!
//! [`view`] makes the checks of the typed [`WireMsg::view`](crate::WireMsg::view),
//! in the same order, and fails with the same [`Error`] (kind, field path, byte
//! offset); [`view_with_header`] and [`view_with_header_as`] make those of
//! [`Template::view_with_header`](crate::Template::view_with_header) and of a
//! dispatch enum's `view` (FORMAT.md §8). The [`DynView`] they return reads fields by
//! name or in wire order as [`Value`]s: the values the typed accessors return.
//! [`annotate`] walks the same checks and writes down every part of the bytes it
//! validated, up to the first fault. [`view_lazy`] is the on-demand view: the block
//! length checked, then each [`DynLazy::get`] checks the field it reads.
//!
//! The schema is checked first: a schema that the derive could not have written
//! (fields that are not back to back, sizes or block lengths that disagree with the
//! types, messages nested inline in themselves) is [`ErrorKind::InvalidSchema`].
//!
//! Where the two readers can differ (only in what a schema cannot state; the test
//! `documented_differences_*` in `tests/dynamic.rs` pins the first):
//!
//! - an absent enum field without a declared default reads as the enum's value 0
//!   (the typed accessor calls the enum's `Default`, which the schema does not
//!   know); an absent field whose declared default has no byte form (an array, a
//!   list, a message, an option of a variable-size type:
//!   [`DefaultValue::Opaque`](crate::DefaultValue)) and an absent nested message
//!   without one read as [`Value::Absent`];
//! - a schema whose messages nest inline (fixed-size messages in fixed-size
//!   messages, arrays and options of them) more than [`MAX_DEPTH`](crate::MAX_DEPTH)
//!   deep is refused as [`ErrorKind::InvalidSchema`] (the check that keeps a
//!   hand-made schema from nesting a message inline in itself).
//!
//! # Memory
//!
//! [`view`], [`view_with_header`], [`view_with_header_as`] and [`view_lazy`] validate
//! in place, and a [`DynView`], a [`DynLazy`] and their [`Value`]s borrow the bytes: reading a message, every value
//! of it, its `Display` text and its `Serialize` form (feature `serde`) into a writer
//! take no heap per input byte — an `Option` value boxes its content, one at a time,
//! and the schema's check allocates in proportion to the schema. The peak is a
//! constant, measured at 250 bytes in `tests/peak_memory.rs` on hostile messages of
//! about 1 MB (4-deep lists of 128,000 empty lists, 200,000 empty strings, 500,000
//! bools written as 4.2 MB of JSON). [`annotate`] keeps its rows: see its own bound.
//! A [`SchemaRegistry`] states its bound on its docs.
//!
//! # Examples
//!
//! ```
//! use wiremsg::dynamic::{self, Value};
//! use wiremsg::{ErrorKind, SchemaSet, WireMsg};
//!
//! #[derive(WireMsg)]
//! struct Venue {
//!     code: u8,
//!     name: String,
//! }
//!
//! #[derive(WireMsg)]
//! struct Book {
//!     id: u16,
//!     venue: Venue,
//! }
//!
//! let bytes = Book { id: 513, venue: Venue { code: 3, name: "XNAS".into() } }.to_bytes()?;
//! let set = SchemaSet::of::<Book>()?;
//! let book = dynamic::view(&set, "Book", &bytes)?;
//! assert_eq!(book.get("id"), Some(Value::Unsigned(513)));
//! let venue = book.get("venue").unwrap();
//! assert_eq!(venue.as_message().unwrap().get("name").unwrap().as_str(), Some("XNAS"));
//!
//! // The same error as `Book::view`.
//! let mut bad = bytes.clone();
//! *bad.last_mut().unwrap() = 0xff;
//! let err = dynamic::view(&set, "Book", &bad).unwrap_err();
//! assert_eq!(err.to_string(), Book::view(&bad).unwrap_err().to_string());
//! assert_eq!(err.path(), "venue.name");
//! assert!(matches!(err.kind(), ErrorKind::InvalidUtf8 { valid_up_to: 3 }));
//! # Ok::<(), wiremsg::Error>(())
//! ```

mod annotate;
mod lazy;
#[cfg(feature = "serde")]
mod serialize;
mod stream;
mod value;
mod view;
mod walk;

pub use annotate::{Annotation, Row};
pub use lazy::DynLazy;
pub use stream::{DEFAULT_MAX_SCHEMA_BYTES, SchemaRegistry, StreamFrame};
pub use value::{DynArray, DynList, DynTuple, EnumValue, UnionValue, Value};
pub use view::{DynField, DynView};

use crate::schema::{MessageSchema, SchemaSet};
use crate::{Error, ErrorKind, MessageHeader};
use walk::{Rows, Walk};

/// Validates `bytes` as one message `message` of `set` and returns its view.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Tick { price: i64, size: u32 }
///
/// let set = SchemaSet::of::<Tick>().unwrap();
/// let bytes = Tick { price: -5, size: 10 }.to_bytes().unwrap();
/// let tick = dynamic::view(&set, "Tick", &bytes).unwrap();
/// assert_eq!(tick.get("price"), Some(Value::Signed(-5)));
/// let err = dynamic::view(&set, "Tick", &bytes[..5]).unwrap_err();
/// assert_eq!(err.to_string(), "truncated: needs 12 bytes, has 5 at byte 0");
/// ```
///
/// # Errors
///
/// Every error of [`WireMsg::view`](crate::WireMsg::view) for the bytes, the same
/// one; [`ErrorKind::InvalidSchema`] if `set` has no message `message` or the
/// schema is not one the derive could have written.
pub fn view<'a>(set: &'a SchemaSet, message: &str, bytes: &'a [u8]) -> Result<DynView<'a>, Error> {
    let schema = find(set, message)?;
    crate::schema::shape::check(set, schema)?;
    Walk::new(set).message(schema, bytes, 0, 0, 0)?;
    Ok(DynView::over(set, schema, bytes))
}

/// The on-demand view of `bytes` as one message `message` of `set`: the schema and
/// the block length checked, O(1) in the bytes; each [`DynLazy::get`] checks the
/// field it reads, as the typed [`WireMsg::view_lazy`](crate::WireMsg::view_lazy)'s
/// accessors do, with [`view`]'s error for that field.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Tick { price: i64, size: u32 }
///
/// let set = SchemaSet::of::<Tick>().unwrap();
/// let bytes = Tick { price: -5, size: 10 }.to_bytes().unwrap();
/// let tick = dynamic::view_lazy(&set, "Tick", &bytes).unwrap();
/// assert_eq!(tick.get("price").unwrap(), Some(Value::Signed(-5)));
/// let err = dynamic::view_lazy(&set, "Tick", &bytes[..5]).unwrap_err();
/// assert_eq!(err.to_string(), "truncated: needs 12 bytes, has 5 at byte 0");
/// ```
///
/// # Errors
///
/// The block length's errors of [`view`] ([`ErrorKind::Truncated`],
/// [`ErrorKind::BlockLengthTooSmall`]); [`ErrorKind::InvalidSchema`] as for [`view`].
pub fn view_lazy<'a>(
    set: &'a SchemaSet,
    message: &str,
    bytes: &'a [u8],
) -> Result<DynLazy<'a>, Error> {
    let schema = find(set, message)?;
    crate::schema::shape::check(set, schema)?;
    let declared = walk::declared_block(schema, bytes)?;
    Ok(DynLazy::new(set, schema, bytes, declared))
}

/// Reads the message header at the start of `bytes`, picks the message of `set` that
/// its template id and schema id name, checks the header against it and views the
/// message after it, as a dispatch enum's `view` does (FORMAT.md §8).
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{self, Value};
/// use wiremsg::{SchemaSet, Template, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 3, schema_id = 7)]
/// struct Text { body: String }
///
/// let set = SchemaSet::of::<Text>().unwrap();
/// let mut bytes = Vec::new();
/// Text { body: "halt".into() }.encode_with_header(&mut bytes).unwrap();
/// let (header, text) = dynamic::view_with_header(&set, &bytes).unwrap();
/// assert_eq!((header.template_id, text.name()), (3, "Text"));
/// assert_eq!(text.get("body").unwrap().as_str(), Some("halt"));
///
/// bytes[2] = 4; // template id 4: no message of the set has it
/// let err = dynamic::view_with_header(&set, &bytes).unwrap_err();
/// assert_eq!(err.to_string(), "unknown template id 4 (schema 7) at byte 2");
/// ```
///
/// # Errors
///
/// [`ErrorKind::UnexpectedTemplate`] (expected `u16::MAX`) for a template id no
/// message of `set` has; [`ErrorKind::SchemaMismatch`] for a known template id under
/// another schema id; otherwise as [`view_with_header_as`].
pub fn view_with_header<'a>(
    set: &'a SchemaSet,
    bytes: &'a [u8],
) -> Result<(MessageHeader, DynView<'a>), Error> {
    let header = MessageHeader::read(bytes)?;
    let schema = pick(set, &header)?;
    crate::schema::shape::check(set, schema)?;
    let body = body(schema, &header, bytes)?;
    Walk::new(set)
        .message(schema, body, MessageHeader::LEN, 0, 0)
        .map_err(|e| e.shift(MessageHeader::LEN))?;
    Ok((header, DynView::over(set, schema, body)))
}

/// Reads the message header at the start of `bytes`, checks that it names message
/// `message` of `set`, and views the message after it, as
/// [`Template::view_with_header`](crate::Template::view_with_header) does
/// (FORMAT.md §8).
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic;
/// use wiremsg::{SchemaSet, Template, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 7, schema_id = 1)]
/// struct Heartbeat { sequence: u64 }
///
/// let set = SchemaSet::of::<Heartbeat>().unwrap();
/// let err = dynamic::view_with_header_as(&set, "Heartbeat", &[8, 0, 9, 0, 1, 0, 1, 0]).unwrap_err();
/// assert_eq!(err.to_string(), "template id 9 (schema 1) is not the expected 7 at byte 2");
/// ```
///
/// # Errors
///
/// Every error of `Template::view_with_header` for the bytes, the same one (offsets
/// from the start of the header); [`ErrorKind::InvalidSchema`] if `set` has no
/// message `message`, it has no template id, or the schema is not one the derive
/// could have written.
pub fn view_with_header_as<'a>(
    set: &'a SchemaSet,
    message: &str,
    bytes: &'a [u8],
) -> Result<(MessageHeader, DynView<'a>), Error> {
    let schema = find(set, message)?;
    crate::schema::shape::check(set, schema)?;
    let header = MessageHeader::read(bytes)?;
    expect_template(schema, &header)?;
    let body = body(schema, &header, bytes)?;
    Walk::new(set)
        .message(schema, body, MessageHeader::LEN, 0, 0)
        .map_err(|e| e.shift(MessageHeader::LEN))?;
    Ok((header, DynView::over(set, schema, body)))
}

/// The annotated dump of message `message` of `set` in `bytes` (after its message
/// header if `with_header`): a row for each part that validation walked, in byte
/// order, and the error that stopped it, if any. It never panics.
///
/// # Memory
///
/// The rows take at most [`decode_budget`](crate::decode_budget)`(bytes.len())`
/// bytes (64 per input byte, at least 1 MiB), each counted as twice its `Row` (the
/// room of the vector that holds it) and its strings; the peak, with the vectors'
/// growth, stays under twice that (measured in `tests/peak_memory.rs`). Bytes that
/// need more (a row per element: a list of a million `bool`s would take 240 MB) get
/// the rows up to the budget, then [`ErrorKind::DecodeBudgetExceeded`] at the offset
/// of the first part left out, with the bytes all rows would take.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic;
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// struct Note { id: u8, text: String }
///
/// let set = SchemaSet::of::<Note>().unwrap();
/// let bytes = Note { id: 7, text: "hi".into() }.to_bytes().unwrap();
/// let dump = dynamic::annotate(&set, "Note", &bytes, false);
/// let rows: Vec<(usize, usize, &str, &str)> = dump
///     .rows()
///     .iter()
///     .map(|r| (r.offset, r.len, r.name.as_str(), r.meaning.as_str()))
///     .collect();
/// assert_eq!(rows, [
///     (0, 2, "block length", "7"),
///     (2, 1, "id", "7"),
///     (3, 4, "text", "ends at 9"),
///     (7, 2, "text (tail)", "\"hi\""),
/// ]);
/// assert!(dump.to_string().contains("     7  68 69"));
///
/// // Cut short: the parts before the fault, then the error.
/// let dump = dynamic::annotate(&set, "Note", &bytes[..8], false);
/// assert_eq!(dump.rows().len(), 3);
/// let error = "truncated: needs 9 bytes, has 8 at byte 3 in `text`";
/// assert_eq!(dump.error().unwrap().to_string(), error);
/// assert!(dump.to_string().ends_with(&format!("error: {error}\n")));
/// ```
pub fn annotate<'b>(
    set: &SchemaSet,
    message: &str,
    bytes: &'b [u8],
    with_header: bool,
) -> Annotation<'b> {
    let mut rows = Rows::new(crate::decode_budget(bytes.len()));
    let result = find(set, message).and_then(|schema| {
        crate::schema::shape::check(set, schema)?;
        if !with_header {
            Walk::annotating(set, &mut rows).message(schema, bytes, 0, 0, 0)?;
            after(&mut rows, DynView::over(set, schema, bytes), 0, bytes.len());
            return Ok(());
        }
        let header = MessageHeader::read(bytes)?;
        for row in annotate::header_rows(&header) {
            rows.push(row);
        }
        expect_template(schema, &header)?;
        walk_body(set, schema, &header, bytes, &mut rows)
    });
    finish(bytes, rows, result)
}

/// The annotated dump of the message after the message header at the start of
/// `bytes`, picked from `set` by the header's template id and schema id as
/// [`view_with_header`] picks it. Its rows are bounded as [`annotate`]'s.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic;
/// use wiremsg::{SchemaSet, Template, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Ping { seq: u32 }
///
/// let set = SchemaSet::of::<Ping>().unwrap();
/// let mut bytes = Vec::new();
/// Ping { seq: 9 }.encode_with_header(&mut bytes).unwrap();
/// let dump = dynamic::annotate_with_header(&set, &bytes);
/// assert!(dump.error().is_none());
/// assert_eq!(dump.rows()[1].meaning, "1"); // the template id
/// assert_eq!((dump.rows()[4].name.as_str(), dump.rows()[4].meaning.as_str()), ("seq", "9"));
/// ```
pub fn annotate_with_header<'b>(set: &SchemaSet, bytes: &'b [u8]) -> Annotation<'b> {
    let mut rows = Rows::new(crate::decode_budget(bytes.len()));
    let result = MessageHeader::read(bytes).and_then(|header| {
        for row in annotate::header_rows(&header) {
            rows.push(row);
        }
        let schema = pick(set, &header)?;
        crate::schema::shape::check(set, schema)?;
        walk_body(set, schema, &header, bytes, &mut rows)
    });
    finish(bytes, rows, result)
}

fn walk_body(
    set: &SchemaSet,
    schema: &MessageSchema,
    header: &MessageHeader,
    bytes: &[u8],
    rows: &mut Rows,
) -> Result<(), Error> {
    let body = body(schema, header, bytes)?;
    Walk::annotating(set, rows)
        .message(schema, body, MessageHeader::LEN, 0, 0)
        .map_err(|e| e.shift(MessageHeader::LEN))?;
    let view = DynView::over(set, schema, body);
    after(rows, view, MessageHeader::LEN, bytes.len());
    Ok(())
}

/// The row of the bytes after a valid message (at `base` in bytes of `total`
/// length), which its reader ignores.
fn after(rows: &mut Rows, view: DynView<'_>, base: usize, total: usize) {
    let end = base + view.known_len();
    if end < total {
        rows.push(Row {
            offset: end,
            len: total - end,
            depth: 0,
            name: "(after the message)".into(),
            meaning: alloc::format!(
                "{} bytes this reader ignores (a newer version's, or other data)",
                total - end
            ),
        });
    }
}

/// The annotation of `bytes`: its rows, and the error of the walk, or (the bytes
/// valid) the budget's if rows were left out.
fn finish(bytes: &[u8], rows: Rows, result: Result<(), Error>) -> Annotation<'_> {
    let error = match (result, rows.cut_at) {
        (Err(e), _) => Some(e),
        (Ok(()), Some(at)) => Some(Error::new(
            crate::ErrorKind::DecodeBudgetExceeded {
                needed: rows.needed,
                budget: rows.budget,
            },
            at,
        )),
        (Ok(()), None) => None,
    };
    Annotation {
        bytes,
        rows: rows.rows,
        error,
    }
}

/// The schema of the canonical schema encoding (FORMAT.md §11): what a schema file
/// is read by, so that [`view_with_header`] and [`annotate_with_header`] read schema
/// files too.
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic;
/// use wiremsg::{SchemaSet, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Ping { seq: u32 }
///
/// let file = SchemaSet::of::<Ping>().unwrap().to_bytes().unwrap();
/// let schemas = dynamic::canonical_schema();
/// let (_, set) = dynamic::view_with_header(&schemas, &file).unwrap();
/// let messages = set.get("messages").unwrap();
/// let ping = messages.as_list().unwrap().get(0).unwrap();
/// assert_eq!(ping.as_message().unwrap().get("name").unwrap().as_str(), Some("Ping"));
/// ```
pub fn canonical_schema() -> SchemaSet {
    let root = crate::schema::canonical::schema_message();
    let mut messages = SchemaSet::of::<crate::schema::WireSchemaSet>()
        .map(|set| set.messages().to_vec())
        .unwrap_or_default();
    for message in &mut messages {
        if message.name == root.name {
            *message = root.clone();
        }
    }
    SchemaSet::from_messages(messages).unwrap_or_default()
}

/// Message `name` of `set`.
fn find<'s>(set: &'s SchemaSet, name: &str) -> Result<&'s MessageSchema, Error> {
    set.message(name).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidSchema {
                reason: "the schema set has no message of this name",
            },
            0,
        )
        .in_field_named(name)
    })
}

/// The message of `set` that `header` names (as a dispatch enum picks its variant).
fn pick<'s>(set: &'s SchemaSet, header: &MessageHeader) -> Result<&'s MessageSchema, Error> {
    if let Some(schema) = set.by_template(header.schema_id, header.template_id) {
        return Ok(schema);
    }
    if let Some(known) = set
        .messages()
        .iter()
        .find(|m| m.template_id == Some(header.template_id))
    {
        return Err(Error::new(
            ErrorKind::SchemaMismatch {
                schema_id: header.schema_id,
                expected: known.schema_id,
            },
            4,
        ));
    }
    Err(Error::new(
        ErrorKind::UnexpectedTemplate {
            template_id: header.template_id,
            schema_id: header.schema_id,
            expected: u16::MAX,
        },
        2,
    ))
}

/// The header names `schema`'s template id (`Template::view_with_header`).
fn expect_template(schema: &MessageSchema, header: &MessageHeader) -> Result<(), Error> {
    let Some(expected) = schema.template_id else {
        return Err(Error::new(
            ErrorKind::InvalidSchema {
                reason: "the message has no template id to read a header of",
            },
            0,
        )
        .in_field_named(&schema.name));
    };
    if header.template_id != expected {
        return Err(Error::new(
            ErrorKind::UnexpectedTemplate {
                template_id: header.template_id,
                schema_id: header.schema_id,
                expected,
            },
            2,
        ));
    }
    Ok(())
}

/// The header checks of FORMAT.md §8 after the template id, as the typed views make
/// them (one function, `header::Reader::body_range`): the bytes of the message to
/// validate. A schema encoding of an older wire format (§11: versions 1 to 3,
/// format 1; version 4, format 2) is `UnsupportedFormat`, as
/// [`SchemaSet::from_bytes`] has it.
fn body<'b>(
    schema: &MessageSchema,
    header: &MessageHeader,
    bytes: &'b [u8],
) -> Result<&'b [u8], Error> {
    // A schema file of an older wire format is refused, not misread (FORMAT.md §11).
    crate::schema::canonical::check_format(header)?;
    let reader = crate::header::Reader {
        schema_id: schema.schema_id,
        version: schema.version,
        block_length: schema.block_length,
        has_block_length: schema.has_block_length,
    };
    let range = reader.body_range(*header, bytes, |v| schema.block_length_of(v))?;
    Ok(&bytes[range])
}
