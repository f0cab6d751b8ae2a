//! The one error type of the crate: what went wrong, where (byte offset) and in
//! which field (path such as `items[3].sku`).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

/// A validation or encoding failure.
///
/// Carries the [`ErrorKind`], the byte offset (from the start of the buffer given to
/// `view`, `view_mut` or `decode`) where the bad bytes start, and the path of the
/// field that holds them, outermost first (`items[3].sku`). The error is boxed so that
/// `Result<View, Error>` stays two words wide on the success path.
///
/// # Examples
///
/// ```
/// use wiremsg::{ErrorKind, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Flag {
///     on: bool,
/// }
///
/// let err = Flag::view(&[7]).unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::InvalidBool { value: 7 });
/// assert_eq!(err.offset(), 0);
/// assert_eq!(err.path(), "on");
/// assert_eq!(err.to_string(), "invalid bool byte 0x07 (expected 0 or 1) at byte 0 in `on`");
/// ```
pub struct Error(Box<Inner>);

/// `Result` with the error type of this crate: what every fallible function of
/// `wiremsg` and of the generated code returns.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Ping {
///     sequence: u64,
/// }
///
/// fn sequence_of(bytes: &[u8]) -> wiremsg::Result<u64> {
///     Ok(Ping::view(bytes)?.sequence())
/// }
///
/// assert_eq!(sequence_of(&[7, 0, 0, 0, 0, 0, 0, 0]).unwrap(), 7);
/// assert!(sequence_of(&[7]).is_err());
/// ```
pub type Result<T, E = Error> = core::result::Result<T, E>;

struct Inner {
    kind: ErrorKind,
    offset: usize,
    /// Innermost segment first; reversed when displayed.
    path: Vec<Segment>,
    /// The I/O error behind an [`ErrorKind::Io`], kept as the error's `source()`.
    #[cfg(feature = "std")]
    io: Option<std::io::Error>,
    /// Behind an [`ErrorKind::UnsupportedFormat`] told from a list's shape (FORMAT.md
    /// §6.3, §6.8): what the bytes gave read as this reader's format. Corrupt bytes
    /// can have an older format's shape by chance, so both are reported; kept as the
    /// error's `source()` and in its message.
    current: Option<Error>,
    /// The likely cause, where the bytes fail the way a known mistake makes them
    /// fail ([`Error::hint`]).
    hint: Option<&'static str>,
}

/// Paths longer than this many segments (field names and list indexes) are shown
/// as their first and last [`PATH_KEPT`] segments, with the count of those between:
/// a path through 64 nested messages would otherwise be hundreds of characters.
const PATH_SHOWN: usize = 12;

/// Segments kept at each end of a path longer than [`PATH_SHOWN`].
const PATH_KEPT: usize = 4;

#[derive(Clone)]
enum Segment {
    Field(&'static str),
    /// A name known only at run time (a schema-driven reader's field).
    Named(Box<str>),
    Index(usize),
}

/// What went wrong. Each variant names the rule of `FORMAT.md` that the bytes broke.
///
/// ```
/// use wiremsg::{ErrorKind, WireMsg};
///
/// #[derive(WireMsg, Debug)]
/// struct Note { id: u32, text: String }
///
/// let bytes = Note { id: 1, text: "hi".into() }.to_bytes().unwrap();
/// match Note::view(&bytes[..7]).unwrap_err().kind() {
///     ErrorKind::Truncated { needed, available } => assert_eq!((*needed, *available), (10, 7)),
///     other => panic!("{other:?}"),
/// }
/// // Cut inside the tail (a short read): the slot of `text` says 12 bytes are needed.
/// assert_eq!(
///     Note::view(&bytes[..11]).unwrap_err().kind(),
///     &ErrorKind::Truncated { needed: 12, available: 11 }
/// );
/// let mut bad = bytes.clone();
/// bad[6] = 9; // the end offset of `text`, before the end of the block
/// assert_eq!(
///     Note::view(&bad).unwrap_err().kind(),
///     &ErrorKind::OffsetOutOfRange { end: 9, min: 10, max: 12 }
/// );
/// assert_eq!(ErrorKind::InvalidBool { value: 2 }.to_string(), "invalid bool byte 0x02 (expected 0 or 1)");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Fewer bytes than the block (or a list header) needs (FORMAT.md §2, §6), or an
    /// end offset past the end of the message or list (§3, §6.3): the error a reader
    /// that is still receiving the bytes can wait on.
    Truncated {
        /// Bytes needed, counted from the start of the message or list.
        needed: usize,
        /// Bytes present.
        available: usize,
    },
    /// A block length is smaller than the block this reader requires: the `u16`
    /// block length of a message with a tail (FORMAT.md §3), a message header's block
    /// length (§8: under the block of the version it names, or of this reader for a
    /// newer version), or a block that ends inside a field (§5). A short buffer with
    /// no block length of its own is [`Truncated`](Self::Truncated) instead.
    BlockLengthTooSmall {
        /// Block length written on the wire, in bytes.
        declared: usize,
        /// Bytes of block that a writer of `version`
        /// or later writes (the smallest block this reader accepts for such bytes).
        required: usize,
        /// The schema version whose writers write at least `required` bytes: 1 for a
        /// block under every version's, the version that added the field a block ends
        /// inside, or the version a message header names.
        version: u16,
    },
    /// An end offset (FORMAT.md §3) or a list table's start offset (§6.4) is before the
    /// end of the previous region. (One past the end of the message or list, such as
    /// a buffer cut inside the tail by a short read, is [`Truncated`](Self::Truncated),
    /// with the bytes that offset needs.)
    OffsetOutOfRange {
        /// The end offset read from the slot, relative to the message start.
        end: usize,
        /// Smallest allowed value (end of the previous region).
        min: usize,
        /// Largest allowed value (message length).
        max: usize,
    },
    /// A string or fixed-width text field is not UTF-8 (FORMAT.md §4.2).
    InvalidUtf8 {
        /// Bytes of the field that are valid UTF-8 before the first bad one.
        valid_up_to: usize,
    },
    /// A `bool` byte other than 0 or 1 (FORMAT.md §4.1).
    InvalidBool {
        /// The byte found.
        value: u8,
    },
    /// An `Option` presence byte other than 0 or 1 (FORMAT.md §4.5).
    InvalidPresence {
        /// The byte found.
        value: u8,
    },
    /// An enum value with no variant and no catch-all variant (FORMAT.md §4.4).
    UnknownEnumValue {
        /// Name of the enum type (borrowed from the derive's schema; owned for a schema
        /// read at run time).
        enum_name: crate::schema::Name,
        /// The raw value found, zero-extended.
        value: u64,
    },
    /// A list's byte length is not a whole number of elements (FORMAT.md §6).
    ListLengthMismatch {
        /// Byte length of the list's elements.
        len: usize,
        /// Element size (stride) in bytes.
        element_size: usize,
    },
    /// The stride of a list of fixed-size messages is smaller than the element's block
    /// (FORMAT.md §6.2).
    StrideTooSmall {
        /// Stride on the wire, in bytes.
        stride: usize,
        /// Smallest stride this reader accepts, in bytes.
        required: usize,
    },
    /// A list's element count needs more bytes for its offset table (or its blocks)
    /// than the list has (FORMAT.md §6.3, §6.4).
    ListCountTooLarge {
        /// The count on the wire.
        count: usize,
        /// Bytes available for the list.
        available: usize,
    },
    /// An element of a split list (FORMAT.md §6.3) states another block length than
    /// the list's first element: the elements' blocks share one stride.
    StrideMismatch {
        /// The element's block length on the wire.
        block_length: usize,
        /// The first element's block length.
        expected: usize,
    },
    /// Bytes of a wire format version this reader does not read (FORMAT.md, "Format
    /// versions"): a schema encoding (§11) of format version 1 or 2, or a list whose
    /// bytes have the shape an older format gave it (§6.3, §6.8). Told from a list's
    /// shape, the error's message also gives what the bytes fail with as this
    /// reader's format (corrupt bytes can have that shape by chance), and that error
    /// is its [`source()`](core::error::Error::source).
    UnsupportedFormat {
        /// The format version of the bytes.
        version: u16,
        /// The format version this reader reads.
        supported: u16,
    },
    /// The first start offset of a table list (§6.4) is zero or not a multiple of 4.
    BadTableStart {
        /// The first start offset, relative to the list.
        start: usize,
        /// Bytes of the list.
        len: usize,
    },
    /// Nested messages and lists go deeper than [`MAX_DEPTH`](crate::MAX_DEPTH).
    DepthLimitExceeded {
        /// The limit.
        limit: u32,
    },
    /// A message header names a template id that is not the one expected, or that a
    /// dispatch enum does not know (FORMAT.md §8).
    UnexpectedTemplate {
        /// Template id in the header.
        template_id: u16,
        /// Schema id in the header.
        schema_id: u16,
        /// The template id expected (`u16::MAX` for a dispatch enum: any it knows).
        expected: u16,
    },
    /// A message header names another schema than the message type's (FORMAT.md §8).
    SchemaMismatch {
        /// Schema id in the header.
        schema_id: u16,
        /// The message type's schema id.
        expected: u16,
    },
    /// A message header's block length or version disagrees with the message after
    /// it (FORMAT.md §8): its block length is not the message's own block length field,
    /// or over the block of the version it names, or its version is 0. (One under
    /// that block is [`BlockLengthTooSmall`](Self::BlockLengthTooSmall).)
    HeaderMismatch {
        /// Block length in the header, in bytes.
        block_length: usize,
        /// Version in the header.
        version: u16,
        /// The block length the message (or the version) shows, in bytes.
        expected: usize,
    },
    /// Decoding would allocate more heap than its budget (see
    /// [`WireMsg::decode`](crate::WireMsg::decode)); nothing was allocated.
    DecodeBudgetExceeded {
        /// Heap bytes the decoded value would take.
        needed: usize,
        /// Heap bytes allowed.
        budget: usize,
    },
    /// `encode_into` got a buffer shorter than `encoded_len`.
    BufferTooSmall {
        /// Bytes the encoding needs.
        needed: usize,
        /// Bytes the buffer has.
        available: usize,
    },
    /// The message is larger than a `u32` offset can address (4 GiB), or a block is
    /// larger than a `u16` block length can state.
    TooLarge {
        /// Bytes the encoding would need.
        len: usize,
    },
    /// Text longer than the capacity of a [`FixedStr`](crate::FixedStr) (FORMAT.md §4.3).
    FixedStrTooLong {
        /// Byte length of the text.
        len: usize,
        /// Capacity in bytes.
        capacity: usize,
    },
    /// Text for a [`FixedStr`](crate::FixedStr) that ends with its padding character
    /// (a space, or NUL for NUL-padded text), which reads back as padding
    /// (FORMAT.md §4.3).
    FixedStrTrailingSpace,
    /// A value that does not convert to a [`Decimal`](crate::Decimal): text that is
    /// not a decimal number or has more places than its scale, an `f64` that is not
    /// finite or (with [`Rounding::Exact`](crate::Rounding::Exact)) falls between two
    /// decimals, or a value past the mantissa's range (FORMAT.md §4.8). The error's
    /// offset is the byte of the text at fault, 0 for the others.
    Decimal(crate::DecimalError),
    // -- field types of trading protocols (FORMAT.md §4.8, §4.9, §6.5) --
    /// A list holds more elements than the maximum its field declares
    /// (`#[wire(max_len = N)]`, FORMAT.md §6.5): found by `view` in the bytes, or by
    /// `encode` in the value (nothing is written).
    ListTooLong {
        /// Elements in the list.
        len: usize,
        /// The declared maximum.
        max: usize,
    },
    /// An optional number with a null sentinel (`#[wire(null = ...)]`, FORMAT.md §4.9)
    /// holds the sentinel itself as a present value, which would read back as absent:
    /// refused by `encode` (nothing is written) and by the setter (nothing is set).
    NullSentinel {
        /// The sentinel (as a mantissa for a [`Decimal`](crate::Decimal)).
        value: i128,
    },
    // -- tagged unions (FORMAT.md §4.10) --
    /// A union's tag names no variant, and the union has no catch-all variant
    /// (FORMAT.md §4.10). The offset is the tag's.
    UnknownVariant {
        /// Name of the union type (borrowed from the derive's schema; owned for a
        /// schema read at run time).
        union_name: crate::schema::Name,
        /// The tag found, zero-extended.
        tag: u64,
    },
    /// An element of a dense list (FORMAT.md §6.8) names an entry past the end of
    /// the list's variant table. The offset is the entry index's.
    VariantEntryOutOfRange {
        /// The entry index found, zero-extended.
        index: u64,
        /// Entries in the list's variant table.
        entries: usize,
    },
    /// A union's catch-all variant holds the tag of a known variant: its bytes would
    /// read back as that variant's payload. Refused by `encode` (nothing is written).
    CatchAllKnownTag {
        /// Name of the union type.
        union_name: crate::schema::Name,
        /// The tag the catch-all holds.
        tag: u64,
    },
    // -- maps (FORMAT.md §6.7) --
    /// A map entry's key equals the previous entry's (in wire order): found by `view`
    /// in the bytes (the offset is the later entry's), or by `encode` in the value (two
    /// keys with one wire value, such as an enum's catch-all variant holding a known
    /// value; nothing is written).
    DuplicateKey,
    /// A map entry's key is smaller than the previous entry's: map entries are in
    /// strictly increasing key order (FORMAT.md §6.7). The offset is the later entry's.
    UnsortedKeys,
    // -- framing (FORMAT.md §10) --
    /// A frame's length prefix is over the maximum frame size of the reader, or a
    /// frame to write is over the writer's (FORMAT.md §10). Nothing is allocated for
    /// it.
    FrameTooLarge {
        /// The frame length: bytes of header and message, the length prefix not
        /// counted.
        len: usize,
        /// The maximum frame size, in the same unit.
        max: usize,
    },
    /// A frame's length prefix is under the 8 bytes of a message header
    /// (FORMAT.md §10).
    FrameTooShort {
        /// The frame length read, in bytes.
        len: usize,
        /// The smallest frame length: 8.
        min: usize,
    },
    /// The stream ended inside a frame's length prefix or inside the frame
    /// (FORMAT.md §10). A stream that ends between frames is not an error.
    UnexpectedEof {
        /// Bytes of the frame, its 4-byte length prefix included, that were needed:
        /// 4 while the prefix is incomplete.
        needed: usize,
        /// Bytes of the frame the stream had.
        available: usize,
    },
    /// A schema (a schema file, or a set of messages) breaks a rule of FORMAT.md §11;
    /// the path names the message and field.
    InvalidSchema {
        /// The rule broken.
        reason: &'static str,
    },
    // -- self-describing streams (FORMAT.md §12) --
    /// A schema frame describes a message type that the reader knows, at the reader's
    /// versions, differently from the reader's own schema of it: the fingerprints of
    /// the two closures differ (FORMAT.md §12). Found by a reader that checks schema
    /// frames ([`FrameReader::check_schema_frames`](crate::FrameReader::check_schema_frames),
    /// [`SchemaSet::check_descriptions`](crate::SchemaSet::check_descriptions)).
    SchemaFrameMismatch {
        /// The reader's name of the message type.
        message: crate::schema::Name,
        /// The schema frame's name of it.
        described: crate::schema::Name,
        /// The template id of the type.
        template_id: u16,
        /// The schema id of the type.
        schema_id: u16,
        /// The schema version described (the reader's too).
        version: u16,
        /// The fingerprint of the reader's description.
        expected: crate::schema::Fingerprint,
        /// The fingerprint of the schema frame's description.
        found: crate::schema::Fingerprint,
    },
    /// No schema frame before this point of the stream describes the message type of
    /// this template id and schema id (FORMAT.md §12): a schema-driven reader cannot
    /// read the message, and a writer that describes its stream refuses to write it
    /// (for a `#[derive(WireDispatch)]` enum, write its `schema_set()` first).
    UndescribedTemplate {
        /// Template id in the header.
        template_id: u16,
        /// Schema id in the header.
        schema_id: u16,
    },
    /// A message frame is of a newer version than the schema that describes its type
    /// (FORMAT.md §12): a schema-driven reader reads the fields of the version
    /// described and cannot show those added since. A describing writer writes a
    /// schema frame of each version it sends; a stream whose writer did not (or a
    /// `--schema` file of an older version) gives this. Found by
    /// [`SchemaRegistry::check_version`](crate::dynamic::SchemaRegistry::check_version).
    NewerThanDescribed {
        /// Template id in the header.
        template_id: u16,
        /// Schema id in the header.
        schema_id: u16,
        /// Version in the header.
        version: u16,
        /// Version of the schema that describes the type.
        described: u16,
    },
    /// The underlying reader or writer of a framed stream failed (feature `std`).
    /// The [`std::io::Error`] itself is the error's
    /// [`source()`](core::error::Error::source), and its text is in the message.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    Io(std::io::ErrorKind),
    // -- end framing --
}

impl Error {
    /// Makes an error of `kind` at `offset`, with an empty path.
    #[cold]
    pub fn new(kind: ErrorKind, offset: usize) -> Self {
        Error(Box::new(Inner {
            kind,
            offset,
            path: Vec::new(),
            #[cfg(feature = "std")]
            io: None,
            current: None,
            hint: None,
        }))
    }

    /// The likely cause of the error, where the bytes fail the way a known mistake
    /// makes them fail; also the end of the message ([`Display`](fmt::Display)).
    /// Today one: bytes that [`WireMsg::view`](crate::WireMsg::view) or
    /// [`view_mut`](crate::WireMsg::view_mut) refuses, and that
    /// [`Template::view_with_header`](crate::Template::view_with_header) would accept
    /// (the message's own template id and schema id, a header that passes its
    /// checks, a valid message after it), were written by `encode_with_header` or a
    /// frame writer and are read with `view_with_header`. Only in builds with debug
    /// assertions (Cargo's dev and test profiles): in release builds `view` makes no
    /// call on its error path, which kept the validation inlined into its caller.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{Template, WireMsg};
    ///
    /// #[derive(WireMsg, Debug)]
    /// #[wire(template_id = 7)]
    /// struct Quote { bid: i64, venue: String }
    ///
    /// let mut bytes = Vec::new();
    /// Quote { bid: 101, venue: "XNAS".into() }.encode_with_header(&mut bytes)?;
    /// let err = Quote::view(&bytes).unwrap_err(); // the header read as the message
    /// if cfg!(debug_assertions) {
    ///     assert_eq!(
    ///         err.to_string(),
    ///         "truncated: needs 101 bytes, has 26 at byte 10 in `venue`; the bytes start \
    ///          with this message's header (its template id and schema id) and hold a \
    ///          valid message after it: read them with `Template::view_with_header`"
    ///     );
    ///     assert!(err.hint().unwrap().ends_with("`Template::view_with_header`"));
    /// }
    /// assert_eq!(Quote::view_with_header(&bytes)?.1.venue(), "XNAS");
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn hint(&self) -> Option<&'static str> {
        self.0.hint
    }

    /// This error with `hint` as its likely cause.
    #[cold]
    pub(crate) fn with_hint(mut self, hint: &'static str) -> Self {
        self.0.hint = Some(hint);
        self
    }

    /// An [`ErrorKind::UnsupportedFormat`] of format `version` at `offset`, told from
    /// the shape of bytes that failed as this reader's format with `current`: the
    /// message says both (a guess from a shape cannot tell old bytes from corrupt
    /// ones), and `current` is the [`source()`](core::error::Error::source).
    #[cold]
    pub(crate) fn format_by_shape(version: u16, offset: usize, current: Error) -> Self {
        let kind = ErrorKind::UnsupportedFormat {
            version,
            supported: crate::FORMAT_VERSION,
        };
        let mut error = Error::new(kind, offset);
        error.0.current = Some(current);
        error
    }

    /// An [`ErrorKind::Io`] of `err`'s kind at `offset`, keeping `err` as the
    /// [`source()`](core::error::Error::source) and its text in the message.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::error::Error as _;
    /// use std::io;
    /// use wiremsg::{Error, ErrorKind};
    ///
    /// let err = Error::from_io(io::Error::new(io::ErrorKind::ConnectionReset, "peer went away"), 40);
    /// assert_eq!(err.kind(), &ErrorKind::Io(io::ErrorKind::ConnectionReset));
    /// assert_eq!(err.to_string(), "I/O error: peer went away at byte 40");
    /// assert_eq!(err.source().unwrap().to_string(), "peer went away");
    /// ```
    #[cold]
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn from_io(err: std::io::Error, offset: usize) -> Self {
        let mut error = Error::new(ErrorKind::Io(err.kind()), offset);
        error.0.io = Some(err);
        error
    }

    /// The I/O error behind an [`ErrorKind::Io`], if there is one.
    #[cfg(feature = "std")]
    #[cfg_attr(docsrs, doc(cfg(feature = "std")))]
    pub fn io_error(&self) -> Option<&std::io::Error> {
        self.0.io.as_ref()
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Byte offset of the bad bytes, from the start of the buffer that was validated.
    ///
    /// For an error made from text rather than read from bytes
    /// ([`ErrorKind::FixedStrTooLong`], [`ErrorKind::FixedStrTrailingSpace`],
    /// [`ErrorKind::Decimal`]), the byte of the text at fault, or 0 where no byte is;
    /// the message then says "of the text", or gives no offset.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The field path, outermost first, such as `items[3].sku`; empty for the root.
    ///
    /// A path of more than 12 segments (field names and list indexes), such as one
    /// through dozens of nested messages, shows its first and last 4 segments and the
    /// number of those left out: `children[0].children[0] … 120 segments …
    /// children[0].children[0]`.
    pub fn path(&self) -> alloc::string::String {
        let mut s = alloc::string::String::new();
        let _ = write_path(&mut s, &self.0.path);
        s
    }

    /// Adds `base` to the offset: the error moves from a sub-slice's coordinates to its
    /// parent's.
    #[cold]
    #[doc(hidden)]
    pub fn shift(mut self, base: usize) -> Self {
        // Wrapping: an element of a split list (FORMAT.md §6.3) places its block's
        // errors before its tail's origin, by a negative amount in two's complement,
        // that the shifts out to the buffer's start add back.
        self.0.offset = self.0.offset.wrapping_add(base);
        self.0.current = self.0.current.take().map(|c| c.shift(base));
        self
    }

    /// Prefixes the path with field `name`.
    #[cold]
    #[doc(hidden)]
    pub fn in_field(mut self, name: &'static str) -> Self {
        self.0.path.push(Segment::Field(name));
        self.0.current = self.0.current.take().map(|c| c.in_field(name));
        self
    }

    /// Prefixes the path with a field or message name known only at run time.
    #[cold]
    #[doc(hidden)]
    pub fn in_field_named(mut self, name: &str) -> Self {
        self.0.path.push(Segment::Named(name.into()));
        self.0.current = self.0.current.take().map(|c| c.in_field_named(name));
        self
    }

    /// Prefixes the path with list index `index`.
    #[cold]
    #[doc(hidden)]
    pub fn in_element(mut self, index: usize) -> Self {
        self.0.path.push(Segment::Index(index));
        self.0.current = self.0.current.take().map(|c| c.in_element(index));
        self
    }
}

fn write_path(out: &mut impl fmt::Write, path: &[Segment]) -> fmt::Result {
    let len = path.len();
    let elided = if len > PATH_SHOWN {
        PATH_KEPT..len - PATH_KEPT
    } else {
        0..0
    };
    // `path` is innermost first: walk it from the outermost segment.
    for (i, seg) in path.iter().rev().enumerate() {
        if elided.contains(&i) {
            if i == elided.start {
                write!(out, " \u{2026} {} segments \u{2026} ", elided.len())?;
            }
            continue;
        }
        match seg {
            Segment::Field(name) => {
                if i > 0 && i != elided.end {
                    out.write_char('.')?;
                }
                out.write_str(name.trim_start_matches("r#"))?;
            }
            Segment::Named(name) => {
                if i > 0 && i != elided.end {
                    out.write_char('.')?;
                }
                out.write_str(name)?;
            }
            Segment::Index(ix) => write!(out, "[{ix}]")?,
        }
    }
    Ok(())
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Truncated { needed, available } => {
                let unit = if *needed == 1 { "byte" } else { "bytes" };
                write!(f, "truncated: needs {needed} {unit}, has {available}")
            }
            ErrorKind::BlockLengthTooSmall {
                declared,
                required,
                version,
            } => write!(
                f,
                "block length {declared} is too small: a writer of version {version} or later \
                 writes at least {required} bytes"
            ),
            ErrorKind::OffsetOutOfRange { end, min, max } => {
                write!(f, "offset {end} is outside {min}..={max}")
            }
            ErrorKind::InvalidUtf8 { valid_up_to } => {
                let s = if *valid_up_to == 1 { "" } else { "s" };
                write!(f, "invalid UTF-8 after {valid_up_to} valid byte{s}")
            }
            ErrorKind::InvalidBool { value } => {
                write!(f, "invalid bool byte {value:#04x} (expected 0 or 1)")
            }
            ErrorKind::InvalidPresence { value } => {
                write!(f, "invalid presence byte {value:#04x} (expected 0 or 1)")
            }
            ErrorKind::UnknownEnumValue { enum_name, value } => {
                write!(f, "unknown value {value} for enum {enum_name}")
            }
            ErrorKind::ListLengthMismatch { len, element_size } => write!(
                f,
                "list of {len} bytes is not a whole number of {element_size}-byte elements"
            ),
            ErrorKind::StrideTooSmall { stride, required } => write!(
                f,
                "list stride {stride} is smaller than the {required}-byte element block"
            ),
            ErrorKind::ListCountTooLarge { count, available } => write!(
                f,
                "list count {count} does not fit in the {available} bytes of the list"
            ),
            ErrorKind::StrideMismatch {
                block_length,
                expected,
            } => write!(
                f,
                "list element's block length {block_length} is not the list's {expected} (every element of a list of messages with a tail has the first one's)"
            ),
            ErrorKind::UnsupportedFormat { version, supported } => write!(
                f,
                "wire format version {version} is not read by this reader (it reads format version {supported}; FORMAT.md \"Format versions\" says what changed)"
            ),
            ErrorKind::BadTableStart { start, len } => write!(
                f,
                "list table of {len} bytes starts its elements at {start}, not a non-zero multiple of 4"
            ),
            ErrorKind::DepthLimitExceeded { limit } => {
                write!(f, "nesting deeper than {limit} levels")
            }
            ErrorKind::UnexpectedTemplate {
                template_id,
                schema_id,
                expected: u16::MAX,
            } => write!(f, "unknown template id {template_id} (schema {schema_id})"),
            ErrorKind::UnexpectedTemplate {
                template_id,
                schema_id,
                expected,
            } => write!(
                f,
                "template id {template_id} (schema {schema_id}) is not the expected {expected}"
            ),
            ErrorKind::SchemaMismatch {
                schema_id,
                expected,
            } => write!(f, "schema id {schema_id} is not the expected {expected}"),
            ErrorKind::HeaderMismatch { version: 0, .. } => {
                write!(
                    f,
                    "header version 0 is not a schema version (they start at 1)"
                )
            }
            ErrorKind::HeaderMismatch {
                block_length,
                version,
                expected,
            } => write!(
                f,
                "header block length {block_length} (version {version}) disagrees with the message's {expected}"
            ),
            ErrorKind::DecodeBudgetExceeded { needed, budget } => write!(
                f,
                "decoding needs {needed} bytes of heap, over its budget of {budget}"
            ),
            ErrorKind::BufferTooSmall { needed, available } => {
                write!(
                    f,
                    "output buffer too small: needs {needed} bytes, has {available}"
                )
            }
            ErrorKind::TooLarge { len } => {
                write!(
                    f,
                    "{len} bytes is too large for a u32 offset or u16 block length"
                )
            }
            ErrorKind::FixedStrTooLong { len, capacity } => write!(
                f,
                "text of {len} bytes does not fit a {capacity}-byte fixed string"
            ),
            ErrorKind::FixedStrTrailingSpace => f.write_str(
                "text for a fixed string ends with its padding character, which would read back as padding",
            ),
            ErrorKind::Decimal(err) => write!(f, "not a decimal: {err}"),
            ErrorKind::ListTooLong { len, max } => write!(
                f,
                "list of {len} elements is longer than its declared maximum of {max}"
            ),
            ErrorKind::NullSentinel { value } => write!(
                f,
                "value {value} is the field's null sentinel and would read back as absent; write `None`"
            ),
            ErrorKind::UnknownVariant { union_name, tag } => {
                write!(f, "unknown tag {tag} for union {union_name}")
            }
            ErrorKind::VariantEntryOutOfRange { index, entries } => write!(
                f,
                "variant entry {index} of a dense list whose variant table has {entries} entries"
            ),
            ErrorKind::CatchAllKnownTag { union_name, tag } => write!(
                f,
                "the catch-all variant of union {union_name} holds tag {tag}, which a variant has; build that variant instead"
            ),
            ErrorKind::DuplicateKey => {
                f.write_str("map key repeats the previous entry's key (keys must be distinct)")
            }
            ErrorKind::UnsortedKeys => f.write_str(
                "map key is smaller than the previous entry's key (entries must be in increasing key order)",
            ),
            // -- framing (FORMAT.md §10) --
            ErrorKind::FrameTooLarge { len, max } => write!(
                f,
                "frame of {len} bytes is over the maximum frame size of {max} bytes"
            ),
            ErrorKind::FrameTooShort { len, min } => write!(
                f,
                "frame of {len} bytes is shorter than the {min}-byte message header"
            ),
            ErrorKind::UnexpectedEof { needed, available } => write!(
                f,
                "stream ended inside a frame: needs {needed} bytes, has {available}"
            ),
            ErrorKind::InvalidSchema { reason } => write!(f, "invalid schema: {reason}"),
            ErrorKind::SchemaFrameMismatch {
                message,
                described,
                template_id,
                schema_id,
                version,
                expected,
                found,
            } => write!(
                f,
                "a schema frame describes `{described}` (template id {template_id}, schema \
                 {schema_id}, version {version}) with fingerprint {found}, but this reader's \
                 `{message}` has fingerprint {expected}"
            ),
            ErrorKind::UndescribedTemplate {
                template_id,
                schema_id,
            } => write!(
                f,
                "no schema frame describes template id {template_id} (schema {schema_id})"
            ),
            ErrorKind::NewerThanDescribed {
                template_id,
                schema_id,
                version,
                described,
            } => write!(
                f,
                "message of template id {template_id} (schema {schema_id}) is version \
                 {version}, newer than the version {described} its schema describes: fields \
                 added after version {described} are not read"
            ),
            #[cfg(feature = "std")]
            ErrorKind::Io(kind) => write!(f, "I/O error: {kind}"),
            // -- end framing --
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        #[cfg(feature = "std")]
        if let Some(io) = &self.0.io {
            return write!(f, "I/O error: {io} at byte {}", self.0.offset);
        }
        match &self.0.kind {
            // Made from text, not read from bytes: the offset is into the text, and
            // the decimal's own message already gives it (or it has none).
            ErrorKind::Decimal(_) | ErrorKind::FixedStrTooLong { .. } => {
                write!(f, "{}", self.0.kind)?
            }
            ErrorKind::FixedStrTrailingSpace => {
                write!(f, "{}, at byte {} of the text", self.0.kind, self.0.offset)?
            }
            _ => write!(f, "{} at byte {}", self.0.kind, self.0.offset)?,
        }
        if !self.0.path.is_empty() {
            f.write_str(" in `")?;
            write_path(f, &self.0.path)?;
            f.write_str("`")?;
        }
        if let Some(current) = &self.0.current {
            write!(
                f,
                "; or the bytes are corrupt: read as format version {}, {current}",
                crate::FORMAT_VERSION
            )?;
        }
        if let Some(hint) = self.0.hint {
            write!(f, "; {hint}")?;
        }
        Ok(())
    }
}

/// The message of [`Display`](fmt::Display), then the kind's fields: what
/// `fn main() -> Result<(), wiremsg::Error>` and `unwrap()` print. The alternate form
/// (`{:#?}`) is a struct with the message, kind, offset and path on lines of their own.
///
/// # Examples
///
/// ```
/// use wiremsg::{Error, ErrorKind};
///
/// let err = Error::new(ErrorKind::Truncated { needed: 46, available: 20 }, 0);
/// assert_eq!(
///     format!("{err:?}"),
///     "truncated: needs 46 bytes, has 20 at byte 0 (Truncated { needed: 46, available: 20 })"
/// );
/// assert!(format!("{err:#?}").starts_with("Error {\n    message: \"truncated: needs 46"));
/// ```
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return write!(f, "{self} ({:?})", self.0.kind);
        }
        let mut d = f.debug_struct("Error");
        d.field("message", &alloc::format!("{self}"))
            .field("kind", &self.0.kind)
            .field("offset", &self.0.offset)
            .field("path", &self.path());
        #[cfg(feature = "std")]
        if let Some(io) = &self.0.io {
            d.field("io", io);
        }
        d.finish()
    }
}

/// The source of an [`ErrorKind::Io`] is the [`std::io::Error`] itself; that of an
/// [`ErrorKind::UnsupportedFormat`] told from a list's shape is the error the bytes
/// gave read as this reader's format; other errors have none.
impl core::error::Error for Error {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        #[cfg(feature = "std")]
        if let Some(io) = &self.0.io {
            return Some(io);
        }
        self.0
            .current
            .as_ref()
            .map(|c| c as &(dyn core::error::Error + 'static))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn one_byte_is_a_byte() {
        let one = ErrorKind::Truncated {
            needed: 1,
            available: 0,
        };
        assert_eq!(one.to_string(), "truncated: needs 1 byte, has 0");
        let two = ErrorKind::Truncated {
            needed: 2,
            available: 1,
        };
        assert_eq!(two.to_string(), "truncated: needs 2 bytes, has 1");
    }

    #[test]
    fn debug_reads_like_display_then_the_kind() {
        let err = Error::new(
            ErrorKind::Truncated {
                needed: 80,
                available: 60,
            },
            48,
        )
        .in_field("venue")
        .in_element(3)
        .in_field("quotes");
        assert_eq!(
            alloc::format!("{err:?}"),
            "truncated: needs 80 bytes, has 60 at byte 48 in `quotes[3].venue` \
             (Truncated { needed: 80, available: 60 })"
        );
        assert_eq!(
            alloc::format!("{err:#?}"),
            "Error {\n    message: \"truncated: needs 80 bytes, has 60 at byte 48 in \
             `quotes[3].venue`\",\n    kind: Truncated {\n        needed: 80,\n        \
             available: 60,\n    },\n    offset: 48,\n    path: \"quotes[3].venue\",\n}"
        );
    }

    #[test]
    fn a_count_of_one_byte_is_singular() {
        let text = |valid_up_to| ErrorKind::InvalidUtf8 { valid_up_to }.to_string();
        assert_eq!(text(1), "invalid UTF-8 after 1 valid byte");
        assert_eq!(text(0), "invalid UTF-8 after 0 valid bytes");
        assert_eq!(text(2), "invalid UTF-8 after 2 valid bytes");
    }
}
