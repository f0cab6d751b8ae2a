//! Schema frames (FORMAT.md §12): a frame whose header has the reserved template id
//! and schema id `0xFFFF` and whose message is the canonical encoding of a schema set
//! (§11), so that a stream carries the description of its message types.

#[cfg(feature = "std")]
use crate::MessageSchema;
use crate::schema::{SCHEMA_SCHEMA_ID, SCHEMA_TEMPLATE_ID};
use crate::{Error, MessageHeader, SchemaSet};
#[cfg(any(feature = "std", feature = "bytes"))]
use alloc::vec::Vec;

/// Whether `frame` (a frame's bytes after its length prefix: header and message, as
/// [`FrameReader::next_any_frame`](crate::FrameReader::next_any_frame) returns them)
/// is a schema frame: its header names template id `0xFFFF` in schema `0xFFFF`
/// (FORMAT.md §12). Only the header is looked at; [`read_schema_frame`] reads the rest.
///
/// # Examples
///
/// ```
/// use wiremsg::{SchemaSet, Template, WireMsg, frame::is_schema_frame};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Ping { seq: u32 }
///
/// let schema = SchemaSet::of::<Ping>()?.to_bytes()?; // header and schema message
/// assert!(is_schema_frame(&schema));
/// let mut message = Vec::new();
/// Ping { seq: 1 }.encode_with_header(&mut message)?;
/// assert!(!is_schema_frame(&message));
/// assert!(!is_schema_frame(&[0xff; 5])); // no whole header
/// # Ok::<(), wiremsg::Error>(())
/// ```
pub fn is_schema_frame(frame: &[u8]) -> bool {
    MessageHeader::read(frame).is_ok_and(|h| is_reserved(h.template_id, h.schema_id))
}

/// Reads a schema frame's bytes (header and message, without the length prefix) as
/// the schema set it describes (FORMAT.md §12): [`SchemaSet::from_bytes`], which
/// validates the encoding and the schema, and then the stream's own rule that no
/// message of the set claims the reserved pair (a frame of that pair is always a
/// schema frame, never a message).
///
/// # Examples
///
/// ```
/// use wiremsg::{ErrorKind, SchemaSet, WireMsg, frame::read_schema_frame};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Ping { seq: u32 }
///
/// let bytes = SchemaSet::of::<Ping>()?.to_bytes()?;
/// assert_eq!(read_schema_frame(&bytes)?, SchemaSet::of::<Ping>()?);
/// let err = read_schema_frame(&bytes[..60]).unwrap_err(); // cut short
/// assert!(matches!(err.kind(), ErrorKind::Truncated { available: 52, .. }));
/// assert_eq!((err.offset(), err.path().as_str()), (10, "messages"));
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Errors
///
/// Every error of [`SchemaSet::from_bytes`], with offsets from the start of the
/// header ([`ErrorKind::UnexpectedTemplate`](crate::ErrorKind::UnexpectedTemplate) if
/// it is not a schema frame); [`ErrorKind::InvalidSchema`](crate::ErrorKind::InvalidSchema)
/// naming the message that claims the reserved pair.
pub fn read_schema_frame(frame: &[u8]) -> Result<SchemaSet, Error> {
    let set = SchemaSet::from_bytes(frame)?;
    check_no_reserved(&set)?;
    Ok(set)
}

/// [`read_schema_frame`] with the types built within `budget` heap bytes (see
/// [`SchemaSet::from_bytes`]).
pub(crate) fn read_schema_frame_within(frame: &[u8], budget: usize) -> Result<SchemaSet, Error> {
    let set = SchemaSet::from_bytes_within(frame, budget)?;
    check_no_reserved(&set)?;
    Ok(set)
}

/// The reserved pair of ids of schema frames.
pub(crate) fn is_reserved(template_id: u16, schema_id: u16) -> bool {
    template_id == SCHEMA_TEMPLATE_ID && schema_id == SCHEMA_SCHEMA_ID
}

fn check_no_reserved(set: &SchemaSet) -> Result<(), Error> {
    match set
        .messages()
        .iter()
        .find(|m| m.template_id == Some(SCHEMA_TEMPLATE_ID) && m.schema_id == SCHEMA_SCHEMA_ID)
    {
        Some(m) => Err(Error::new(
            crate::ErrorKind::InvalidSchema {
                reason: "template id 0xFFFF in schema 0xFFFF is reserved for schema frames: no message of a stream may have it",
            },
            0,
        )
        .in_field_named(&m.name)),
        None => Ok(()),
    }
}

#[cfg(any(feature = "std", feature = "bytes"))]
/// A schema frame of `set`, its length prefix included, for a writer whose maximum
/// frame size is `max`.
///
/// # Errors
///
/// [`ErrorKind::InvalidSchema`](crate::ErrorKind::InvalidSchema) if a message of the
/// set claims the reserved pair, or as [`SchemaSet::to_bytes`];
/// [`ErrorKind::FrameTooLarge`](crate::ErrorKind::FrameTooLarge) if the encoding is
/// over `max`.
pub(crate) fn encode(set: &SchemaSet, max: usize) -> Result<Vec<u8>, Error> {
    check_no_reserved(set)?;
    let message = set.to_bytes()?;
    let prefix = super::prefix_for(message.len(), max)?;
    let mut frame = Vec::with_capacity(prefix.len() + message.len());
    frame.extend_from_slice(&prefix);
    frame.extend_from_slice(&message);
    Ok(frame)
}

#[cfg(feature = "std")]
/// What a writer that describes its stream has described: the (template id, schema
/// id, version) of every message of every schema frame it wrote. A message of a
/// version not described yet (a writer that sends version 1 and version 2 of a type)
/// gets a schema frame of its own, so that no reader reads it with an older schema.
/// A stream has a handful of types, so a `Vec` scanned in order is the cheapest check
/// per message (no hashing).
#[derive(Debug, Clone, Default)]
pub(crate) struct Described {
    pairs: Vec<(u16, u16, u16)>,
}

#[cfg(feature = "std")]
impl Described {
    /// Called with a frame (header and message) about to be written: the schema frame
    /// (prefix included) to write before it if its type has not been described yet,
    /// built from `schema`. A schema frame written as bytes marks what it describes.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UndescribedTemplate`](crate::ErrorKind::UndescribedTemplate) if the
    /// type is new and `schema` is `None`; those of [`encode`] and, for a schema frame
    /// given as bytes, of [`read_schema_frame`].
    #[inline]
    pub(crate) fn before(
        &mut self,
        frame: &[u8],
        schema: Option<&'static MessageSchema>,
        max: usize,
    ) -> Result<Option<Vec<u8>>, Error> {
        let Ok(header) = MessageHeader::read(frame) else {
            // Shorter than a header: the framing refuses it before it is written.
            return Ok(None);
        };
        let key = (header.template_id, header.schema_id, header.version);
        if self.pairs.contains(&key) {
            return Ok(None);
        }
        self.describe(frame, key, schema, max)
    }

    #[cold]
    fn describe(
        &mut self,
        frame: &[u8],
        key @ (template_id, schema_id, _): (u16, u16, u16),
        schema: Option<&'static MessageSchema>,
        max: usize,
    ) -> Result<Option<Vec<u8>>, Error> {
        if is_reserved(template_id, schema_id) {
            // A schema frame forwarded as bytes: what it describes is described.
            let set = read_schema_frame(frame)?;
            self.mark(&set);
            return Ok(None);
        }
        let Some(schema) = schema else {
            return Err(Error::new(
                crate::ErrorKind::UndescribedTemplate {
                    template_id,
                    schema_id,
                },
                2,
            ));
        };
        let set = set_for(schema, template_id, schema_id)?;
        let bytes = encode(&set, max)?;
        self.mark(&set);
        // A header that names another version than its schema (a `Template` made by
        // hand): described all the same, once.
        if !self.pairs.contains(&key) {
            self.pairs.push(key);
        }
        Ok(Some(bytes))
    }

    /// Marks every message of `set` with a template id as described, at its version.
    pub(crate) fn mark(&mut self, set: &SchemaSet) {
        for m in set.messages() {
            if let Some(t) = m.template_id {
                let key = (t, m.schema_id, m.version);
                if !self.pairs.contains(&key) {
                    self.pairs.push(key);
                }
            }
        }
    }
}

#[cfg(feature = "std")]
/// The schema set that describes `schema` as sent with a header of `template_id` and
/// `schema_id`: `SchemaSet::of` the type, with the header's ids on the root message if
/// its schema does not carry them (a `Template` implemented by hand).
fn set_for(
    schema: &'static MessageSchema,
    template_id: u16,
    schema_id: u16,
) -> Result<SchemaSet, Error> {
    let set = SchemaSet::of_static(schema)?;
    if set.by_template(schema_id, template_id).is_some() {
        return Ok(set);
    }
    let mut messages = set.messages().to_vec();
    for m in &mut messages {
        if m.name == schema.name {
            m.template_id = Some(template_id);
            m.schema_id = schema_id;
        }
    }
    SchemaSet::from_messages(messages)
}
