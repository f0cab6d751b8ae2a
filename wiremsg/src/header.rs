//! The message header: 8 bytes in front of a root message on a stream or datagram,
//! so that a receiver can dispatch on message type and version (FORMAT.md §8). The
//! fields follow SBE's message header (block length, template id, schema id,
//! version; SBE 1.0 specification, "Message header").

use crate::validated::{block_length_too_small, truncated};
use crate::{Error, ErrorKind, WireMsg};
use alloc::vec::Vec;

/// The 8-byte header of a root message: four little-endian `u16`s.
///
/// ```text
/// offset 0  u16 block_length  the message's block length on the wire (bytes)
/// offset 2  u16 template_id   which message type follows (#[wire(template_id = N)])
/// offset 4  u16 schema_id     which schema the type belongs to (#[wire(schema_id = N)])
/// offset 6  u16 version       the writer's schema version of the message
/// ```
///
/// For a message without a tail, `block_length` is the one place its block length is
/// written, which lets such a message evolve (`since` fields) even when it is not
/// alone in its buffer. For a message with a tail it repeats the message's own block
/// length field.
///
/// ```
/// use wiremsg::{ErrorKind, MessageHeader};
///
/// let header = MessageHeader { block_length: 28, template_id: 1, schema_id: 7, version: 2 };
/// let bytes = header.to_bytes();
/// assert_eq!(bytes, [28, 0, 1, 0, 7, 0, 2, 0]);
/// assert_eq!(MessageHeader::read(&bytes)?, header);
/// assert_eq!(
///     MessageHeader::read(&bytes[..5]).unwrap_err().kind(),
///     &ErrorKind::Truncated { needed: 8, available: 5 }
/// );
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MessageHeader {
    /// Block length of the message that follows, in bytes.
    pub block_length: u16,
    /// Template id of the message type.
    pub template_id: u16,
    /// Schema id of the message type.
    pub schema_id: u16,
    /// Schema version the writer encoded.
    pub version: u16,
}

impl MessageHeader {
    /// Bytes of the header on the wire.
    pub const LEN: usize = 8;

    /// Reads the header at the start of `bytes`.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Truncated`] if `bytes` is shorter than 8 bytes.
    #[inline]
    pub fn read(bytes: &[u8]) -> Result<Self, Error> {
        let Some(h) = bytes.first_chunk::<8>() else {
            return Err(truncated(Self::LEN, bytes.len()));
        };
        let field = |at: usize| u16::from_le_bytes([h[at], h[at + 1]]);
        Ok(MessageHeader {
            block_length: field(0),
            template_id: field(2),
            schema_id: field(4),
            version: field(6),
        })
    }

    /// The header's 8 bytes.
    pub fn to_bytes(&self) -> [u8; 8] {
        let mut out = [0; 8];
        out[0..2].copy_from_slice(&self.block_length.to_le_bytes());
        out[2..4].copy_from_slice(&self.template_id.to_le_bytes());
        out[4..6].copy_from_slice(&self.schema_id.to_le_bytes());
        out[6..8].copy_from_slice(&self.version.to_le_bytes());
        out
    }
}

/// A message type with a template id (`#[wire(template_id = N)]`, and optionally
/// `#[wire(schema_id = N)]`, default 0): it can be sent with a [`MessageHeader`].
///
/// # Examples
///
/// ```
/// use wiremsg::{MessageHeader, Template, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 7, schema_id = 1)]
/// struct Heartbeat {
///     sequence: u64,
/// }
///
/// let mut bytes = Vec::new();
/// Heartbeat { sequence: 42 }.encode_with_header(&mut bytes).unwrap();
/// assert_eq!(&bytes[..8], &[8, 0, 7, 0, 1, 0, 1, 0]); // block length 8, template 7, schema 1, version 1
/// let (header, view) = Heartbeat::view_with_header(&bytes).unwrap();
/// assert_eq!((header.template_id, view.sequence()), (7, 42));
///
/// let err = Heartbeat::view_with_header(&[8, 0, 9, 0, 1, 0, 1, 0]).unwrap_err();
/// assert_eq!(err.to_string(), "template id 9 (schema 1) is not the expected 7 at byte 2");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no template id",
    label = "sent with a message header",
    note = "add `#[wire(template_id = N)]` (and `schema_id = N` if the schema has an id) to `{Self}`"
)]
pub trait Template: WireMsg {
    /// The template id the header carries.
    const TEMPLATE_ID: u16;
    /// The schema id the header carries.
    const SCHEMA_ID: u16;

    /// The header this message is sent with.
    fn header(&self) -> MessageHeader {
        MessageHeader {
            block_length: Self::BLOCK_LENGTH as u16,
            template_id: Self::TEMPLATE_ID,
            schema_id: Self::SCHEMA_ID,
            version: Self::VERSION,
        }
    }

    /// Bytes of header and message (saturating at `usize::MAX`).
    fn encoded_len_with_header(&self) -> usize {
        self.encoded_len().saturating_add(MessageHeader::LEN)
    }

    /// Appends the header and the message to `out`; returns the bytes appended.
    ///
    /// # Errors
    ///
    /// As [`WireMsg::encode`].
    fn encode_with_header(&self, out: &mut Vec<u8>) -> Result<usize, Error> {
        let start = out.len();
        out.extend_from_slice(&self.header().to_bytes());
        match self.encode(out) {
            Ok(len) => Ok(MessageHeader::LEN + len),
            Err(err) => {
                out.truncate(start);
                Err(err)
            }
        }
    }

    /// Writes the header and the message at the start of `out` without allocating;
    /// returns the bytes written.
    ///
    /// # Errors
    ///
    /// As [`WireMsg::encode_into`].
    fn encode_with_header_into(&self, out: &mut [u8]) -> Result<usize, Error> {
        // Too large is too large, whatever the buffer (as `encode_into` says).
        crate::message::checked_len(self)?;
        let needed = self.encoded_len_with_header();
        if out.len() < needed {
            return Err(Error::new(
                ErrorKind::BufferTooSmall {
                    needed,
                    available: out.len(),
                },
                0,
            ));
        }
        out[..MessageHeader::LEN].copy_from_slice(&self.header().to_bytes());
        let len = self.encode_into(&mut out[MessageHeader::LEN..])?;
        Ok(MessageHeader::LEN + len)
    }

    /// Reads the header, checks that it names this type, and views the message after
    /// it. For a message without a tail, the header's block length bounds the block
    /// (so an older or newer writer's block is read correctly).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::UnexpectedTemplate`] or [`ErrorKind::SchemaMismatch`] if the
    /// header names another type; [`ErrorKind::BlockLengthTooSmall`] if the header's
    /// block length is under the block of the version it names (for a version newer
    /// than this reader's, under this reader's block); [`ErrorKind::HeaderMismatch`]
    /// if it is over the block of a version this reader knows, if the version is 0,
    /// or if it disagrees with the message's own block length field;
    /// [`ErrorKind::Truncated`] if the header or the block it announces is cut short;
    /// any error of [`WireMsg::view`], with offsets counted from the start of the
    /// header.
    fn view_with_header(bytes: &[u8]) -> Result<(MessageHeader, Self::View<'_>), Error> {
        let header = header_of::<Self>(bytes)?;
        view_body::<Self>(header, bytes).map(|view| (header, view))
    }

    /// Reads and checks the header like [`view_with_header`](Self::view_with_header)
    /// and returns the on-demand view of the message after it (see
    /// [`WireMsg::view_lazy`]): O(1), the header and the message's block length
    /// checked, each accessor checking what it reads. For a reader of a few fields
    /// of each frame of an untrusted stream.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{ErrorKind, Template, WireMsg};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 7)]
    /// struct Quote { bid: i64, venue: String }
    ///
    /// let mut bytes = Vec::new();
    /// Quote { bid: 101, venue: "XNAS".into() }.encode_with_header(&mut bytes)?;
    /// let (header, quote) = Quote::view_lazy_with_header(&bytes)?;
    /// assert_eq!(header.template_id, 7);
    /// assert_eq!(quote.bid()?, 101);
    ///
    /// // A broken venue is found when it is read, at its offset in the frame
    /// // (header included), as `view_with_header` reports it.
    /// let last = bytes.len() - 1;
    /// bytes[last] = 0xFF;
    /// let (_, quote) = Quote::view_lazy_with_header(&bytes)?;
    /// assert_eq!(quote.bid()?, 101);
    /// let err = quote.venue().unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::InvalidUtf8 { .. }));
    /// assert_eq!(err.to_string(), Quote::view_with_header(&bytes).unwrap_err().to_string());
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The header's, as [`view_with_header`](Self::view_with_header), and the
    /// message's block length's, as [`WireMsg::view_lazy`]; each accessor returns
    /// the errors [`view_with_header`](Self::view_with_header) reports for what it
    /// reads, with the same path and offset (counted from the header's start).
    fn view_lazy_with_header(bytes: &[u8]) -> Result<(MessageHeader, Self::Lazy<'_>), Error> {
        let header = header_of::<Self>(bytes)?;
        view_body_lazy::<Self>(header, bytes).map(|view| (header, view))
    }

    /// Reads the header like [`view_with_header`](Self::view_with_header) and returns
    /// the mutable view of the message after it: a received frame updated in place.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{Template, WireMsg};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 4)]
    /// struct Fill {
    ///     order: u64,
    ///     filled: u32,
    /// }
    ///
    /// let mut bytes = Vec::new();
    /// Fill { order: 9, filled: 0 }.encode_with_header(&mut bytes)?;
    /// let (header, mut fill) = Fill::view_mut_with_header(&mut bytes)?;
    /// assert_eq!(header.template_id, 4);
    /// fill.set_filled(300);
    /// assert_eq!(Fill::view_with_header(&bytes)?.1.filled(), 300);
    ///
    /// bytes[2] = 5; // another template id
    /// assert!(Fill::view_mut_with_header(&mut bytes).is_err());
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`view_with_header`](Self::view_with_header).
    fn view_mut_with_header(bytes: &mut [u8]) -> Result<(MessageHeader, Self::Mut<'_>), Error> {
        let header = header_of::<Self>(bytes)?;
        view_body_mut::<Self>(header, bytes).map(|view| (header, view))
    }
}

/// A value that is sent as a message header and a message: every [`Template`]
/// message, and every `#[derive(WireDispatch)]` enum (the header and message of its
/// variant). What [`FrameWriter::write`](crate::FrameWriter::write),
/// `frame::WireCodec` and `frame::put_frame` take, so that a dispatch enum is sent as
/// it is, encoded straight into the frame.
///
/// Implemented by this crate for every `Template` and by `#[derive(WireDispatch)]`;
/// its methods are the ones the framing calls.
///
/// # Examples
///
/// ```
/// use wiremsg::{FrameReader, FrameWriter, WireDispatch, WireMsg, WithHeader};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 1)]
/// struct NewOrder { id: u64, qty: u32 }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 2)]
/// struct Cancel { id: u64 }
///
/// #[derive(WireDispatch, Debug, PartialEq)]
/// enum ClientMsg { NewOrder(NewOrder), Cancel(Cancel) }
///
/// let cancel = ClientMsg::Cancel(Cancel { id: 7 });
/// assert_eq!(cancel.len_with_header(), 8 + 8);
///
/// let mut writer = FrameWriter::new(Vec::new());
/// writer.write(&ClientMsg::NewOrder(NewOrder { id: 7, qty: 100 }))?; // no staging
/// writer.write(&cancel)?;
/// writer.write(&Cancel { id: 8 })?; // a message on its own, as before
/// let stream = writer.into_inner();
///
/// let mut reader = FrameReader::new(&stream[..]);
/// let mut got = Vec::new();
/// while let Some(frame) = reader.next_frame()? {
///     got.push(ClientMsg::decode(frame)?);
/// }
/// assert_eq!(got[1], cancel);
/// assert_eq!(got[2], ClientMsg::Cancel(Cancel { id: 8 }));
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be sent with a message header: it has no template id",
    label = "sent with a message header",
    note = "add `#[wire(template_id = N)]` (and `schema_id = N` if the schema has an id) to `{Self}`, or send a `#[derive(WireDispatch)]` enum of messages that have one"
)]
pub trait WithHeader {
    /// Bytes of header and message (saturating at `usize::MAX`, which is also the
    /// length of a value that encoding refuses).
    fn len_with_header(&self) -> usize;

    /// [`len_with_header`](Self::len_with_header), or the error encoding would give
    /// (a list over its `max_len`, a null sentinel as a value, nesting past
    /// [`MAX_DEPTH`](crate::MAX_DEPTH), `TooLarge`): what a frame writer sizes its
    /// frame by, before it writes anything.
    ///
    /// # Errors
    ///
    /// As described.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{ErrorKind, MAX_DEPTH, WireMsg, WithHeader};
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Node { value: i64, next: Option<Box<Node>> }
    ///
    /// let one = Node { value: 1, next: None };
    /// assert_eq!(one.checked_len_with_header()?, 8 + 15); // header, block
    /// let mut deep = Node { value: 0, next: None };
    /// for value in 0..=MAX_DEPTH {
    ///     deep = Node { value: value.into(), next: Some(Box::new(deep)) };
    /// }
    /// let err = deep.checked_len_with_header().unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH });
    /// assert_eq!(deep.len_with_header(), usize::MAX);
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    fn checked_len_with_header(&self) -> Result<usize, Error> {
        match self.len_with_header() {
            usize::MAX => Err(Error::new(ErrorKind::TooLarge { len: usize::MAX }, 0)),
            len => Ok(len),
        }
    }

    /// Writes the header and the message at the start of `out` without allocating;
    /// returns the bytes written.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::BufferTooSmall`] if `out` is shorter than
    /// [`len_with_header`](Self::len_with_header) (nothing is written);
    /// [`ErrorKind::TooLarge`] if the message exceeds `u32::MAX` bytes.
    fn write_with_header(&self, out: &mut [u8]) -> Result<usize, Error>;

    /// The schema of the message type this value is sent as, for a writer that
    /// describes its stream: it writes the schema of the type in a schema frame before
    /// the type's first message (FORMAT.md §12,
    /// [`FrameWriter::with_schema_frames`](crate::FrameWriter::with_schema_frames)).
    ///
    /// Every [`Template`] message returns its [`WireMsg::SCHEMA`], and a
    /// `#[derive(WireDispatch)]` enum its variant's. The default is `None`: a value
    /// of a type implemented by hand is written to a describing stream after its
    /// schema ([`FrameWriter::write_schema`](crate::FrameWriter::write_schema)).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{WireMsg, WithHeader};
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Ping { seq: u32 }
    ///
    /// let schema = Ping { seq: 1 }.message_schema().expect("a message knows its schema");
    /// assert_eq!((schema.name.as_ref(), schema.template_id), ("Ping", Some(1)));
    /// ```
    fn message_schema(&self) -> Option<&'static crate::MessageSchema> {
        None
    }
}

impl<T: Template> WithHeader for T {
    #[inline]
    fn message_schema(&self) -> Option<&'static crate::MessageSchema> {
        Some(T::SCHEMA)
    }

    #[inline]
    fn len_with_header(&self) -> usize {
        self.encoded_len_with_header()
    }

    #[inline]
    fn checked_len_with_header(&self) -> Result<usize, Error> {
        let len = crate::message::checked_len(self)?;
        // `checked_len` stops at `u32::MAX`, which is `usize::MAX` on a 32-bit target.
        len.checked_add(MessageHeader::LEN)
            .ok_or_else(|| Error::new(ErrorKind::TooLarge { len }, 0))
    }

    #[inline]
    fn write_with_header(&self, out: &mut [u8]) -> Result<usize, Error> {
        self.encode_with_header_into(out)
    }
}

/// The header at the start of `bytes`, if it names `T`'s template id (its schema id
/// and block length are checked with the message, `body_range`).
#[inline]
fn header_of<T: Template>(bytes: &[u8]) -> Result<MessageHeader, Error> {
    let header = MessageHeader::read(bytes)?;
    if header.template_id != T::TEMPLATE_ID {
        return Err(unexpected_template::<T>(header));
    }
    Ok(header)
}

#[cold]
fn unexpected_template<T: Template>(header: MessageHeader) -> Error {
    Error::new(
        ErrorKind::UnexpectedTemplate {
            template_id: header.template_id,
            schema_id: header.schema_id,
            expected: T::TEMPLATE_ID,
        },
        2,
    )
}

#[cold]
fn schema_mismatch(schema_id: u16, expected: u16) -> Error {
    Error::new(
        ErrorKind::SchemaMismatch {
            schema_id,
            expected,
        },
        4,
    )
}

#[cold]
fn header_mismatch(header: MessageHeader, expected: usize) -> Error {
    Error::new(
        ErrorKind::HeaderMismatch {
            block_length: usize::from(header.block_length),
            version: header.version,
            expected,
        },
        0,
    )
}

/// Views the message after a header whose template id already matched `T`.
#[doc(hidden)]
#[inline]
pub fn view_body<T: Template>(header: MessageHeader, bytes: &[u8]) -> Result<T::View<'_>, Error> {
    let body = body_range::<T>(header, bytes)?;
    crate::trust::message::view_of_message::<T>(&bytes[body])
        .map_err(|e| e.shift(MessageHeader::LEN))
}

/// The on-demand view of the message after a header whose template id already
/// matched `T`.
#[doc(hidden)]
#[inline]
pub fn view_body_lazy<T: Template>(
    header: MessageHeader,
    bytes: &[u8],
) -> Result<T::Lazy<'_>, Error> {
    let body = body_range::<T>(header, bytes)?;
    crate::lazy::framed_view_of::<T>(bytes, body)
}

/// Views the message after a header whose template id already matched `T`, mutably.
#[doc(hidden)]
#[inline]
pub fn view_body_mut<T: Template>(
    header: MessageHeader,
    bytes: &mut [u8],
) -> Result<T::Mut<'_>, Error> {
    let body = body_range::<T>(header, bytes)?;
    crate::trust::message::view_mut_of_message::<T>(&mut bytes[body])
        .map_err(|e| e.shift(MessageHeader::LEN))
}

/// The header at the start of `bytes`, checked against `T` as
/// [`Template::view_with_header`] checks it, and where the message after it is: what
/// the unchecked framed views (`crate::view_unchecked_with_header`) check, O(1).
#[inline]
pub(crate) fn framed_body<T: Template>(
    bytes: &[u8],
) -> Result<(MessageHeader, core::ops::Range<usize>), Error> {
    let header = header_of::<T>(bytes)?;
    body_range::<T>(header, bytes).map(|body| (header, body))
}

/// Checks a header whose template id already matched `T` against `T` and the bytes
/// (FORMAT.md §8), and returns where the message is in `bytes`: from the end of the
/// header to the end of the bytes, or of the announced block for a message without a
/// tail.
#[inline]
pub(crate) fn body_range<T: Template>(
    header: MessageHeader,
    bytes: &[u8],
) -> Result<core::ops::Range<usize>, Error> {
    body_range_of::<T>(T::SCHEMA_ID, header, bytes)
}

/// [`body_range`] for a message type `M` of schema id `schema_id`.
#[inline(always)]
fn body_range_of<M: WireMsg>(
    schema_id: u16,
    header: MessageHeader,
    bytes: &[u8],
) -> Result<core::ops::Range<usize>, Error> {
    let reader = Reader {
        schema_id,
        version: M::VERSION,
        block_length: M::BLOCK_LENGTH,
        has_block_length: <M::Kind as crate::Kind>::IN_TAIL,
    };
    reader.body_range(header, bytes, crate::layout::block_length_of::<M::Layout>)
}

/// What the header checks of FORMAT.md §8 need to know of the reader's message type:
/// the typed views and the schema-driven reader check headers by this one function.
pub(crate) struct Reader {
    pub(crate) schema_id: u16,
    pub(crate) version: u16,
    pub(crate) block_length: usize,
    pub(crate) has_block_length: bool,
}

impl Reader {
    /// Checks a header whose template id already matched against the reader's type
    /// and the bytes, and returns where the message is in `bytes`: from the end of
    /// the header to the end of the bytes, or of the announced block for a message
    /// without a block length field. `block_length_of(v)` is the block of version `v`.
    #[inline(always)]
    pub(crate) fn body_range(
        &self,
        header: MessageHeader,
        bytes: &[u8],
        block_length_of: impl FnOnce(u16) -> usize,
    ) -> Result<core::ops::Range<usize>, Error> {
        if header.schema_id != self.schema_id {
            return Err(schema_mismatch(header.schema_id, self.schema_id));
        }
        let body = bytes.get(MessageHeader::LEN..).unwrap_or_default();
        let announced = usize::from(header.block_length);
        // The header and the message must tell one story (FORMAT.md §8): a version
        // this reader knows has exactly its block; a newer one at least this reader's
        // block.
        let known = header.version <= self.version;
        let expected = if known {
            block_length_of(header.version)
        } else {
            self.block_length
        };
        let agrees = if known {
            announced == expected
        } else {
            announced >= expected
        };
        if header.version == 0 {
            return Err(header_mismatch(header, expected));
        }
        if announced < expected {
            // Fewer bytes than the block of the version named (or, for a newer
            // version, than this reader's block): the block is too small, whatever
            // follows it.
            let version = if known { header.version } else { self.version };
            return Err(block_length_too_small(announced, expected, version));
        }
        if !agrees {
            return Err(header_mismatch(header, expected));
        }
        let start = bytes.len().min(MessageHeader::LEN);
        if self.has_block_length {
            // The message states its block length itself: the two must be one.
            if let Some(own) = body.first_chunk::<2>() {
                let own = usize::from(u16::from_le_bytes(*own));
                if own != announced {
                    return Err(header_mismatch(header, own));
                }
            }
            Ok(start..bytes.len())
        } else if body.len() < announced {
            Err(truncated(MessageHeader::LEN + announced, bytes.len()))
        } else {
            Ok(start..start + announced)
        }
    }
}

/// [`Error::hint`] of bytes that [`WireMsg::view`] refuses, that are the message's
/// own header and a message that `view_with_header` accepts.
const HINT_HEADER: &str = "the bytes start with this message's header (its template id and \
     schema id) and hold a valid message after it: read them with \
     `Template::view_with_header`";

/// `err`, from [`WireMsg::view`] or `view_mut` of `bytes` as an `M`, with
/// [`HINT_HEADER`] where `bytes` are a frame that `M`'s provided `view_with_header`
/// accepts: `M`'s template id and schema id, a header that passes its checks for
/// `M` (version, block length), and a valid `M` after it. Only on the error path:
/// the header's O(1) checks and one more validation, of the message after it, with
/// the same bounds as the first.
#[cold]
#[inline(never)]
pub(crate) fn hint_header<M: WireMsg>(bytes: &[u8], err: Error) -> Error {
    let schema = M::SCHEMA;
    let (Some(template_id), Ok(header)) = (schema.template_id, MessageHeader::read(bytes)) else {
        return err;
    };
    let framed = header.template_id == template_id
        && body_range_of::<M>(schema.schema_id, header, bytes)
            .is_ok_and(|body| crate::validated::validate::<M::Layout>(&bytes[body]).is_ok());
    if framed {
        err.with_hint(HINT_HEADER)
    } else {
        err
    }
}
