//! Reading a self-describing stream (FORMAT.md §12) without the Rust types: the
//! schemas of its schema frames, accumulated, read its message frames.

use super::DynView;
use crate::frame::{is_schema_frame, read_schema_frame_within};
use crate::{Error, ErrorKind, MessageHeader, SchemaSet};
use alloc::collections::BTreeMap;
use alloc::sync::Arc;
use core::fmt;

/// The most bytes of schema frames a [`SchemaRegistry`] keeps by default: 16 MiB, far
/// more than any real stream's schemas (the market-data example's schema frame, six
/// message types, is 2,126 bytes), and a bound on what a hostile stream can make it
/// hold.
pub const DEFAULT_MAX_SCHEMA_BYTES: usize = 16 << 20;

/// The heap bytes of types, enums and unions a [`SchemaRegistry`] builds per byte of
/// a schema frame: [`decode_budget`](crate::decode_budget)'s 64, without its 1 MiB
/// minimum (which a stream of small schema frames would otherwise get once each).
const TYPES_PER_BYTE: usize = 64;

/// The schemas a stream has described so far, to read its frames without the Rust
/// types (FORMAT.md §12): feed it every frame in stream order with
/// [`read`](Self::read); a schema frame is learned, a message frame is viewed with the
/// latest schema frame that described its template id and schema id.
///
/// - **Latest wins.** A later schema frame for a type replaces the earlier
///   description (a concatenation of two recordings, or a writer that was upgraded);
///   an identical one (a writer that repeats its schemas for late joiners) costs
///   nothing more. Each schema frame is a closed set, so the messages a type nests are
///   read as that frame describes them.
/// - **A given schema** ([`with_schema`](Self::with_schema): a schema file, the
///   `wiremsg --schema` option) is used for every type it has, whatever the stream
///   says; schema frames serve the other types.
/// - **Memory**: the registry keeps the schema sets that still describe a type, at
///   most [`DEFAULT_MAX_SCHEMA_BYTES`] of their encodings
///   ([`with_max_schema_bytes`](Self::with_max_schema_bytes)); viewing a message
///   allocates nothing. Each schema frame's types are built within 64 heap bytes per
///   byte of it (no 1 MiB minimum, unlike [`SchemaSet::from_bytes`]: a frame whose
///   types expand past that is [`ErrorKind::InvalidSchema`]), so the registry's peak
///   is at most [`SCHEMA_PEAK_PER_BYTE`](crate::schema::SCHEMA_PEAK_PER_BYTE) (128)
///   bytes per byte of the schema frames read, at least
///   [`SCHEMA_PEAK_MIN`](crate::schema::SCHEMA_PEAK_MIN) (measured in
///   `tests/peak_memory.rs`: 40 frames of 604 bytes whose types a lone
///   `from_bytes` builds to 1 MiB each, 24,160 bytes: 41,969,953 bytes before, 59,069
///   now, every one refused).
///
/// # Examples
///
/// ```
/// use wiremsg::dynamic::{SchemaRegistry, StreamFrame, Value};
/// use wiremsg::{FrameReader, FrameWriter, WireMsg};
///
/// #[derive(WireMsg)]
/// #[wire(template_id = 1)]
/// struct Tick { price: i64, size: u32 }
///
/// let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
/// writer.write(&Tick { price: 2_345_600, size: 300 })?;
/// let stream = writer.into_inner();
///
/// // Later, without `Tick`:
/// let mut schemas = SchemaRegistry::new();
/// let mut reader = FrameReader::new(&stream[..]);
/// let mut seen = Vec::new();
/// while let Some(frame) = reader.next_any_frame()? {
///     match schemas.read(frame)? {
///         StreamFrame::Schema(set) => seen.push(format!("{} message(s)", set.messages().len())),
///         StreamFrame::Message(_, tick) => seen.push(tick.to_string()),
///     }
/// }
/// assert_eq!(seen, ["1 message(s)", "Tick { price: 2345600, size: 300 }"]);
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[derive(Clone)]
pub struct SchemaRegistry {
    given: Option<SchemaSet>,
    /// The latest schema frame's set for each (schema id, template id).
    learned: BTreeMap<(u16, u16), Arc<Learned>>,
    /// The set of the latest schema frame read.
    last: Option<Arc<Learned>>,
    /// Encoded bytes of the distinct sets held.
    held: usize,
    max: usize,
}

struct Learned {
    set: SchemaSet,
    /// The schema frame's length: what the set counts against the limit.
    len: usize,
}

/// One frame of a stream as a [`SchemaRegistry`] reads it.
#[derive(Debug)]
pub enum StreamFrame<'a> {
    /// A schema frame, now learned: the set it describes.
    Schema(&'a SchemaSet),
    /// A message frame: its header and the view of its message.
    Message(MessageHeader, DynView<'a>),
}

impl SchemaRegistry {
    /// A registry that knows no schema yet.
    pub fn new() -> Self {
        SchemaRegistry {
            given: None,
            learned: BTreeMap::new(),
            last: None,
            held: 0,
            max: DEFAULT_MAX_SCHEMA_BYTES,
        }
    }

    /// A registry that reads every type of `given` with it, whatever the stream's
    /// schema frames say, and the other types with the stream's.
    pub fn with_schema(given: SchemaSet) -> Self {
        SchemaRegistry {
            given: Some(given),
            ..Self::new()
        }
    }

    /// Sets the most bytes of schema frames the registry holds at once (counted as
    /// the frames' lengths; sets no type refers to any more are dropped).
    pub fn with_max_schema_bytes(mut self, max: usize) -> Self {
        self.max = max;
        self
    }

    /// The schema given to [`with_schema`](Self::with_schema), if any.
    pub fn given(&self) -> Option<&SchemaSet> {
        self.given.as_ref()
    }

    /// True if the registry has no schema: none given and no schema frame learned
    /// (a stream without schema frames cannot be read then).
    pub fn is_empty(&self) -> bool {
        self.given.is_none() && self.learned.is_empty()
    }

    /// The schema set a message with this header's ids is read with: the given one if
    /// it has the type, else the latest schema frame's that described it.
    pub fn schema_for(&self, schema_id: u16, template_id: u16) -> Option<&SchemaSet> {
        if let Some(given) = &self.given {
            if given.by_template(schema_id, template_id).is_some() {
                return Some(given);
            }
        }
        self.learned
            .get(&(schema_id, template_id))
            .map(|learned| &learned.set)
    }

    /// Reads one frame (header and message, without the length prefix, as
    /// [`FrameReader::next_any_frame`](crate::FrameReader::next_any_frame) returns
    /// it): a schema frame is [learned](Self::learn), a message frame
    /// [viewed](Self::view).
    ///
    /// # Errors
    ///
    /// Those of [`learn`](Self::learn) for a schema frame, of [`view`](Self::view)
    /// for a message frame. Either concerns that frame only: the next frame can be
    /// read.
    pub fn read<'a>(&'a mut self, frame: &'a [u8]) -> Result<StreamFrame<'a>, Error> {
        if is_schema_frame(frame) {
            return self.learn(frame).map(StreamFrame::Schema);
        }
        let (header, view) = self.view(frame)?;
        Ok(StreamFrame::Message(header, view))
    }

    /// Reads a schema frame and learns what it describes: for each of its messages
    /// with a template id, the set is now the one messages of that template id and
    /// schema id are read with (the latest wins). Returns the set.
    ///
    /// # Errors
    ///
    /// Those of [`read_schema_frame`](crate::frame::read_schema_frame) (a frame that is not a valid schema frame;
    /// offsets from the start of its header); [`ErrorKind::InvalidSchema`] if the
    /// sets held would pass the registry's limit. The registry is unchanged then.
    pub fn learn(&mut self, frame: &[u8]) -> Result<&SchemaSet, Error> {
        // No 1 MiB floor: the registry keeps what it reads, frame after frame.
        let set = read_schema_frame_within(frame, frame.len().saturating_mul(TYPES_PER_BYTE))?;
        // A repeated schema frame: every type it describes is described by an equal
        // set already (one comparison of the sets, not one per type).
        if let Some(same) = self.describing_all(&set) {
            return Ok(self.set_last(same));
        }
        if self.held.saturating_add(frame.len()) > self.max {
            return Err(Error::new(
                ErrorKind::InvalidSchema {
                    reason: "the stream's schema frames hold more bytes than the reader's limit",
                },
                0,
            ));
        }
        let learned = Arc::new(Learned {
            len: frame.len(),
            set,
        });
        self.held += learned.len;
        let pairs: alloc::vec::Vec<_> = pairs_of(&learned.set).collect();
        for pair in pairs {
            if let Some(old) = self.learned.insert(pair, Arc::clone(&learned)) {
                self.release(old);
            }
        }
        Ok(self.set_last(learned))
    }

    /// Reads the header of a message frame and views its message with the schema its
    /// template id and schema id have ([`schema_for`](Self::schema_for)), as
    /// [`dynamic::view_with_header`](super::view_with_header) does.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UndescribedTemplate`] (at byte 2) for a type that no schema frame
    /// before it described and that the given schema (if any) does not have — with a
    /// given schema, the error it gives (`UnexpectedTemplate`, `SchemaMismatch`);
    /// otherwise every error of [`view_with_header`](super::view_with_header).
    pub fn view<'a>(&'a self, frame: &'a [u8]) -> Result<(MessageHeader, DynView<'a>), Error> {
        let header = MessageHeader::read(frame)?;
        match self.schema_for(header.schema_id, header.template_id) {
            Some(set) => super::view_with_header(set, frame),
            None => match &self.given {
                Some(given) => super::view_with_header(given, frame),
                None => Err(Error::new(
                    ErrorKind::UndescribedTemplate {
                        template_id: header.template_id,
                        schema_id: header.schema_id,
                    },
                    2,
                )),
            },
        }
    }

    /// Checks that the schema a message frame is read with ([`view`](Self::view))
    /// describes its version or a newer one: a frame of a newer version than its
    /// schema reads, but without the fields added since, which a tool should not drop
    /// silently. A frame of a type no schema describes passes (its
    /// [`view`](Self::view) is the error).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::NewerThanDescribed`] (at byte 6, the header's version) for a frame
    /// whose header's version is newer than its schema's; the error of
    /// [`MessageHeader::read`] for a frame shorter than a header.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::dynamic::SchemaRegistry;
    /// use wiremsg::{ErrorKind, SchemaSet, Template, WireMsg};
    ///
    /// mod v1 {
    ///     #[derive(wiremsg::WireMsg)]
    ///     #[wire(template_id = 1)]
    ///     pub struct Tick { pub price: i64 }
    /// }
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1, version = 2)]
    /// struct Tick { price: i64, #[wire(since = 2)] size: u32 }
    ///
    /// let registry = SchemaRegistry::with_schema(SchemaSet::of::<v1::Tick>()?);
    /// let mut old = Vec::new();
    /// v1::Tick { price: 5 }.encode_with_header(&mut old)?;
    /// registry.check_version(&old)?;
    /// let mut new = Vec::new();
    /// Tick { price: 5, size: 100 }.encode_with_header(&mut new)?;
    /// assert_eq!(registry.view(&new)?.1.to_string(), "Tick { price: 5 }"); // `size` unread
    /// let err = registry.check_version(&new).unwrap_err();
    /// assert_eq!(
    ///     err.kind(),
    ///     &ErrorKind::NewerThanDescribed { template_id: 1, schema_id: 0, version: 2, described: 1 }
    /// );
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn check_version(&self, frame: &[u8]) -> Result<(), Error> {
        let header = MessageHeader::read(frame)?;
        let described = self
            .schema_for(header.schema_id, header.template_id)
            .and_then(|set| set.by_template(header.schema_id, header.template_id))
            .map(|m| m.version);
        match described {
            Some(described) if header.version > described => Err(Error::new(
                ErrorKind::NewerThanDescribed {
                    template_id: header.template_id,
                    schema_id: header.schema_id,
                    version: header.version,
                    described,
                },
                6,
            )),
            _ => Ok(()),
        }
    }

    /// The set held that describes every type of `set` and equals it, if there is one.
    fn describing_all(&self, set: &SchemaSet) -> Option<Arc<Learned>> {
        let mut current = pairs_of(set).map(|pair| self.learned.get(&pair));
        let first = current.next()??;
        let all = current.all(|c| c.is_some_and(|c| Arc::ptr_eq(c, first)));
        (all && first.set == *set).then(|| Arc::clone(first))
    }

    /// Makes `learned` the latest schema frame's set, and returns it.
    fn set_last(&mut self, learned: Arc<Learned>) -> &SchemaSet {
        if let Some(old) = self.last.take() {
            self.release(old);
        }
        &self.last.insert(learned).set
    }

    /// Drops one handle on a set, counting its bytes out if it was the last.
    fn release(&mut self, handle: Arc<Learned>) {
        if Arc::strong_count(&handle) == 1 {
            self.held -= handle.len;
        }
    }
}

fn pairs_of(set: &SchemaSet) -> impl Iterator<Item = (u16, u16)> + '_ {
    set.messages()
        .iter()
        .filter_map(|m| m.template_id.map(|t| (m.schema_id, t)))
}

impl Default for SchemaRegistry {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for SchemaRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SchemaRegistry")
            .field("given", &self.given.as_ref().map(SchemaSet::fingerprint))
            .field("described_types", &self.learned.len())
            .field("held_bytes", &self.held)
            .finish_non_exhaustive()
    }
}
