//! Framing over `std::io`: [`FrameReader`] and [`FrameWriter`] (`FORMAT.md` §10).

use super::{
    DEFAULT_MAX_FRAME_SIZE, Described, FIRST_CHUNK, LENGTH_PREFIX_LEN, check_len,
    encode_schema_frame, finish_frame, is_schema_frame, prefix_for, read_len, read_schema_frame,
    stream_offset,
};
use crate::{Error, ErrorKind, MessageHeader, MessageSchema, SchemaSet, Template, WithHeader};
use alloc::vec::Vec;
use core::fmt;
use std::io::{self, Read, Write};

/// Reads frames (`FORMAT.md` §10) from a [`Read`], one at a time, into one buffer
/// that it reuses.
///
/// Each frame is a `u32` little-endian length `L`, then `L` bytes: the 8-byte
/// [`MessageHeader`] and the message. [`next_frame`](Self::next_frame) returns those
/// `L` bytes (header and message, without the length prefix), ready for
/// [`Template::view_with_header`] or a `#[derive(WireDispatch)]` enum's `view`.
///
/// # Memory
///
/// A length over the maximum frame size ([`DEFAULT_MAX_FRAME_SIZE`], 1 MiB, unless
/// set with [`with_max_frame_size`](Self::with_max_frame_size)) is refused before
/// anything is allocated for it. Below it, the buffer grows as the frame's bytes
/// arrive (8 KiB first, then doubling, never past `L`), so its capacity never exceeds
/// the maximum frame size. The peak, counting a reallocation as the old and the new
/// block at once: at most **3 bytes per byte of the frame received** (the buffer full
/// at `n` bytes, then `2n` allocated beside it), at least 8 KiB (or `L`, if smaller),
/// never over twice the maximum frame size; a peer that announces a large frame and
/// stops costs that, not the frame. The buffer is kept for the next frames: a stream
/// of frames that fit allocates once, for the longest. A schema frame read
/// [`check_schema_frames`](Self::check_schema_frames) adds the schema reader's peak
/// ([`SCHEMA_PEAK_PER_BYTE`](crate::schema::SCHEMA_PEAK_PER_BYTE) per byte of it).
/// Measured in `tests/peak_memory.rs` (1 MiB announced, 20,000 bytes sent: 49,152).
///
/// # Errors and recovery
///
/// - [`ErrorKind::FrameTooLarge`], [`ErrorKind::FrameTooShort`]: the length prefix is
///   over the maximum or under 8. The stream then has no known frame boundary: every
///   later call returns the same error.
/// - [`ErrorKind::UnexpectedEof`]: the stream ended inside a length prefix or a frame.
/// - [`ErrorKind::Io`]: the reader failed ([`io::ErrorKind::Interrupted`] is retried).
///
/// After `UnexpectedEof` or `Io` the bytes read so far are kept and the next call
/// goes on from there, so a reader that timed out or would block can be called again.
/// Framing errors carry the offset of the frame's length prefix in the stream.
///
/// The reader makes many small reads (4 bytes for each length): give it a
/// [`std::io::BufReader`] over a socket or a file.
///
/// # Schema frames
///
/// A stream may carry **schema frames** (FORMAT.md §12: header template id and schema
/// id `0xFFFF`, the canonical schema encoding of the types that follow), written by a
/// [`FrameWriter::with_schema_frames`]. A reader that knows the types does not need
/// them: [`next_frame`](Self::next_frame), [`next_frame_mut`](Self::next_frame_mut),
/// [`next_view`](Self::next_view) and [`next_view_mut`](Self::next_view_mut) skip them,
/// unread, so a dispatch enum's `view` never sees one. With
/// [`check_schema_frames`](Self::check_schema_frames) they are read and compared with
/// the reader's own schemas; [`next_any_frame`](Self::next_any_frame) returns them too
/// (to forward them, or to read them without the types, with
/// [`dynamic::SchemaRegistry`](crate::dynamic::SchemaRegistry)).
///
/// # Examples
///
/// ```
/// use wiremsg::{FrameReader, FrameWriter, WireDispatch, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 1)]
/// struct Trade { price: i64, size: u32 }
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 2)]
/// struct News { text: String }
///
/// #[derive(WireDispatch, Debug, PartialEq)]
/// enum Feed { Trade(Trade), News(News) }
///
/// let mut writer = FrameWriter::new(Vec::new());
/// writer.write(&Trade { price: 101, size: 5 })?;
/// writer.write(&News { text: "halt".into() })?;
/// let stream = writer.into_inner();
///
/// let mut reader = FrameReader::new(stream.as_slice());
/// let mut seen = Vec::new();
/// while let Some(frame) = reader.next_frame()? {
///     match Feed::view(frame)?.1 {
///         FeedView::Trade(t) => seen.push(format!("trade {} x {}", t.price(), t.size())),
///         FeedView::News(n) => seen.push(format!("news {}", n.text())),
///     }
/// }
/// assert_eq!(seen, ["trade 101 x 5", "news halt"]);
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct FrameReader<R> {
    reader: R,
    max: usize,
    /// Frame bytes. Only grows; its length is the part that is initialized.
    buf: Vec<u8>,
    /// The length prefix of the current frame, as far as it is read.
    prefix: [u8; LENGTH_PREFIX_LEN],
    /// Bytes of the current frame read so far, its length prefix included.
    filled: usize,
    /// Bytes read from `reader` so far.
    position: u64,
    /// A framing error after which the stream has no known frame boundary.
    failed: Option<(ErrorKind, usize)>,
    /// The reader's own schemas, when schema frames are checked against them.
    known: Option<SchemaSet>,
}

impl<R: Read> FrameReader<R> {
    /// A reader of frames of at most [`DEFAULT_MAX_FRAME_SIZE`] bytes (1 MiB). It
    /// allocates nothing until the first frame.
    pub fn new(reader: R) -> Self {
        Self::with_max_frame_size(reader, DEFAULT_MAX_FRAME_SIZE)
    }

    /// A reader of frames of at most `max` bytes each: the frame length `L` (header
    /// and message; the 4-byte length prefix not counted). A frame longer than that is
    /// [`ErrorKind::FrameTooLarge`]; `max` is also the most the reader allocates.
    ///
    /// ```
    /// use wiremsg::{ErrorKind, FrameReader};
    ///
    /// // A length prefix of 4 GiB - 1, and nothing after it.
    /// let mut reader = FrameReader::with_max_frame_size(&[0xff, 0xff, 0xff, 0xff][..], 4096);
    /// let err = reader.next_frame().unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::FrameTooLarge { len: 0xffff_ffff, max: 4096 });
    /// assert_eq!(reader.capacity(), 0); // nothing was allocated
    /// ```
    pub fn with_max_frame_size(reader: R, max: usize) -> Self {
        FrameReader {
            reader,
            max,
            buf: Vec::new(),
            prefix: [0; LENGTH_PREFIX_LEN],
            filled: 0,
            position: 0,
            failed: None,
            known: None,
        }
    }

    /// Checks every schema frame (FORMAT.md §12) against `known`, the reader's own
    /// schemas (`SchemaSet::of::<T>()?`, or a dispatch enum's `schema_set()?`), before
    /// skipping it: a schema frame that is not a valid schema, or that describes a type
    /// of `known` at `known`'s versions differently, is an error of that frame
    /// ([`SchemaSet::check_descriptions`] states the rule). Without it, schema frames
    /// are skipped unread. Each schema frame is then decoded once (an allocation per
    /// schema frame, none per message).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{ErrorKind, FrameReader, FrameWriter, SchemaSet, WireMsg};
    ///
    /// mod v1 {
    ///     #[derive(wiremsg::WireMsg)]
    ///     #[wire(template_id = 1)]
    ///     pub struct Tick { pub price: i64, pub size: u32 }
    /// }
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Tick { price: i64, size: i32 } // the same version, another field type
    ///
    /// let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    /// writer.write(&v1::Tick { price: 5, size: u32::MAX })?;
    /// let stream = writer.into_inner();
    ///
    /// // Without the check the schema frame is skipped, and the bytes are misread.
    /// let mut unchecked = FrameReader::new(&stream[..]);
    /// assert_eq!(unchecked.next_view::<Tick>()?.expect("a tick").1.size(), -1);
    /// let mut checked = FrameReader::new(&stream[..]).check_schema_frames(SchemaSet::of::<Tick>()?);
    /// let err = checked.next_view::<Tick>().unwrap_err();
    /// assert!(matches!(err.kind(), ErrorKind::SchemaFrameMismatch { .. }));
    /// assert!(err.to_string().contains("but this reader's `Tick` has fingerprint"));
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn check_schema_frames(mut self, known: SchemaSet) -> Self {
        self.known = Some(known);
        self
    }

    /// Reads the next message frame and returns its bytes: the 8-byte message header
    /// and the message, without the length prefix. `Ok(None)` when the stream ends
    /// between two frames (or is empty). Schema frames (FORMAT.md §12) are skipped
    /// (see the type's docs; [`next_any_frame`](Self::next_any_frame) returns them).
    ///
    /// The bytes are in the reader's buffer, which the next call overwrites.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] for a length over the maximum frame size (nothing
    /// is allocated for it); [`ErrorKind::FrameTooShort`] for a length under 8;
    /// [`ErrorKind::UnexpectedEof`] if the stream ends inside the length or inside the
    /// frame; [`ErrorKind::Io`] if the underlying reader fails. See the type's docs for
    /// what a later call does. With
    /// [`check_schema_frames`](Self::check_schema_frames), the errors of a schema frame
    /// that fails its check (offsets from the start of its header), after which the
    /// next call goes on with the next frame.
    pub fn next_frame(&mut self) -> Result<Option<&[u8]>, Error> {
        Ok(self.next_frame_mut()?.map(|frame| &*frame))
    }

    /// Reads the next frame, a schema frame (FORMAT.md §12) or a message frame, and
    /// returns its bytes (header and message, without the length prefix). `Ok(None)`
    /// at the end of the stream. A relay forwards schema frames by reading with this;
    /// [`crate::frame::is_schema_frame`] tells them apart.
    ///
    /// # Errors
    ///
    /// As [`next_frame`](Self::next_frame) (a schema frame is checked before it is
    /// returned, with [`check_schema_frames`](Self::check_schema_frames)).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameReader, FrameWriter, WireMsg, frame::is_schema_frame};
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Ping { seq: u32 }
    ///
    /// let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    /// writer.write(&Ping { seq: 1 })?;
    /// writer.write(&Ping { seq: 2 })?;
    /// let stream = writer.into_inner();
    ///
    /// let mut kinds = Vec::new();
    /// let mut reader = FrameReader::new(&stream[..]);
    /// while let Some(frame) = reader.next_any_frame()? {
    ///     kinds.push(if is_schema_frame(frame) { "schema" } else { "message" });
    /// }
    /// assert_eq!(kinds, ["schema", "message", "message"]);
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn next_any_frame(&mut self) -> Result<Option<&[u8]>, Error> {
        let Some(len) = self.read_frame()? else {
            return Ok(None);
        };
        let frame = &self.buf[..len];
        if is_schema_frame(frame) {
            check_schema_frame(self.known.as_ref(), frame)?;
        }
        Ok(Some(frame))
    }

    /// Reads the next frame like [`next_frame`](Self::next_frame) and returns its bytes
    /// mutably, to update the message in place (with
    /// [`Template::view_mut_with_header`]) before forwarding it, for example.
    ///
    /// # Errors
    ///
    /// As [`next_frame`](Self::next_frame).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameReader, FrameWriter, Template, WireMsg};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 2)]
    /// struct Order { id: u64, hops: u8 }
    ///
    /// let mut writer = FrameWriter::new(Vec::new());
    /// writer.write(&Order { id: 1, hops: 0 })?;
    /// let stream = writer.into_inner();
    ///
    /// let mut reader = FrameReader::new(&stream[..]);
    /// let mut relay = FrameWriter::new(Vec::new());
    /// while let Some(frame) = reader.next_frame_mut()? {
    ///     let (_, mut order) = Order::view_mut_with_header(frame)?;
    ///     order.set_hops(order.hops() + 1);
    ///     relay.write_frame(frame)?;
    /// }
    /// let relayed = relay.into_inner();
    /// assert_eq!(Order::view_with_header(&relayed[4..])?.1.hops(), 1);
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn next_frame_mut(&mut self) -> Result<Option<&mut [u8]>, Error> {
        loop {
            let Some(len) = self.read_frame()? else {
                return Ok(None);
            };
            if !is_schema_frame(&self.buf[..len]) {
                return Ok(Some(&mut self.buf[..len]));
            }
            check_schema_frame(self.known.as_ref(), &self.buf[..len])?;
        }
    }

    /// Reads the next frame of any kind into the buffer; returns its length.
    fn read_frame(&mut self) -> Result<Option<usize>, Error> {
        if let Some((kind, offset)) = &self.failed {
            return Err(Error::new(kind.clone(), *offset));
        }
        while self.filled < LENGTH_PREFIX_LEN {
            match read_some(&mut self.reader, &mut self.prefix[self.filled..]) {
                Ok(0) if self.filled == 0 => return Ok(None),
                Ok(0) => return Err(self.unexpected_eof(LENGTH_PREFIX_LEN)),
                Ok(n) => self.advance(n),
                Err(err) => return Err(self.io_error(err)),
            }
        }
        let len = read_len(self.prefix);
        if let Err(kind) = check_len(len, self.max) {
            let offset = self.frame_start();
            self.failed = Some((kind.clone(), offset));
            return Err(Error::new(kind, offset));
        }
        loop {
            let body = self.filled - LENGTH_PREFIX_LEN;
            if body == len {
                break;
            }
            if body == self.buf.len() {
                // Full up to its initialized length, which is below `len`: grow,
                // exactly, by doubling, to at most `len` (<= max).
                let new_len = len.min(self.buf.len().saturating_mul(2).max(FIRST_CHUNK));
                self.buf.reserve_exact(new_len - self.buf.len());
                self.buf.resize(new_len, 0);
            }
            let end = self.buf.len().min(len);
            match read_some(&mut self.reader, &mut self.buf[body..end]) {
                Ok(0) => return Err(self.unexpected_eof(LENGTH_PREFIX_LEN + len)),
                Ok(n) => self.advance(n),
                Err(err) => return Err(self.io_error(err)),
            }
        }
        self.filled = 0;
        Ok(Some(len))
    }

    /// Reads the next frame and views it as a `T`: [`next_frame`](Self::next_frame),
    /// then [`Template::view_with_header`]. `Ok(None)` at the end of the stream.
    ///
    /// # Errors
    ///
    /// As [`next_frame`](Self::next_frame), then as [`Template::view_with_header`]
    /// (offsets from the start of the frame's header). An error of the second kind
    /// concerns that frame only: the next call reads the next frame.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameReader, FrameWriter, WireMsg};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 7)]
    /// struct Heartbeat { sequence: u64 }
    ///
    /// let mut writer = FrameWriter::new(Vec::new());
    /// for sequence in 1..=3 {
    ///     writer.write(&Heartbeat { sequence })?;
    /// }
    /// let stream = writer.into_inner();
    /// assert_eq!(stream.len(), 3 * (4 + 8 + 8)); // prefix, header, message
    ///
    /// let mut reader = FrameReader::new(&stream[..]);
    /// let mut sum = 0;
    /// while let Some((_header, beat)) = reader.next_view::<Heartbeat>()? {
    ///     sum += beat.sequence();
    /// }
    /// assert_eq!(sum, 6);
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn next_view<T: Template>(
        &mut self,
    ) -> Result<Option<(MessageHeader, T::View<'_>)>, Error> {
        match self.next_frame()? {
            Some(frame) => T::view_with_header(frame).map(Some),
            None => Ok(None),
        }
    }

    /// Reads the next frame and returns the mutable view of its message, as a `T`:
    /// [`next_frame_mut`](Self::next_frame_mut), then
    /// [`Template::view_mut_with_header`]. `Ok(None)` at the end of the stream.
    ///
    /// # Errors
    ///
    /// As [`next_view`](Self::next_view).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameReader, FrameWriter, WireMsg};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 7)]
    /// struct Heartbeat { sequence: u64 }
    ///
    /// let mut writer = FrameWriter::new(Vec::new());
    /// writer.write(&Heartbeat { sequence: 41 })?;
    /// let stream = writer.into_inner();
    ///
    /// let mut reader = FrameReader::new(&stream[..]);
    /// let (_, mut beat) = reader.next_view_mut::<Heartbeat>()?.expect("a frame");
    /// beat.set_sequence(beat.sequence() + 1);
    /// assert_eq!(beat.sequence(), 42);
    /// assert!(reader.next_view_mut::<Heartbeat>()?.is_none());
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn next_view_mut<T: Template>(
        &mut self,
    ) -> Result<Option<(MessageHeader, T::Mut<'_>)>, Error> {
        match self.next_frame_mut()? {
            Some(frame) => T::view_mut_with_header(frame).map(Some),
            None => Ok(None),
        }
    }

    fn advance(&mut self, n: usize) {
        self.filled += n;
        self.position += n as u64;
    }

    fn unexpected_eof(&self, needed: usize) -> Error {
        Error::new(
            ErrorKind::UnexpectedEof {
                needed,
                available: self.filled,
            },
            self.frame_start(),
        )
    }

    fn io_error(&self, err: io::Error) -> Error {
        Error::from_io(err, self.frame_start())
    }
}

impl<R> FrameReader<R> {
    /// The maximum frame size, in bytes of frame length (header and message).
    pub fn max_frame_size(&self) -> usize {
        self.max
    }

    /// Bytes the reader has allocated for frames: at most
    /// [`max_frame_size`](Self::max_frame_size).
    pub fn capacity(&self) -> usize {
        self.buf.capacity()
    }

    /// Bytes read from the underlying reader so far, including those of a frame not
    /// yet complete.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The underlying reader.
    pub fn get_ref(&self) -> &R {
        &self.reader
    }

    /// The underlying reader. Reading from it directly desynchronizes the frames.
    pub fn get_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// The underlying reader; the bytes of a frame not yet complete are lost.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The stream offset of the current frame's length prefix.
    fn frame_start(&self) -> usize {
        stream_offset(self.position - self.filled as u64)
    }
}

impl<R: fmt::Debug> fmt::Debug for FrameReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameReader")
            .field("reader", &self.reader)
            .field("max_frame_size", &self.max)
            .field("capacity", &self.buf.capacity())
            .field("position", &self.position)
            .field("partial_frame_bytes", &self.filled)
            .finish_non_exhaustive()
    }
}

/// Reads and checks a schema frame against `known`, the reader's own schemas, if it
/// has them (FORMAT.md §12); without them, schema frames are skipped unread.
#[cold]
fn check_schema_frame(known: Option<&SchemaSet>, frame: &[u8]) -> Result<(), Error> {
    match known {
        Some(known) => known.check_descriptions(&read_schema_frame(frame)?),
        None => Ok(()),
    }
}

/// One `read`, retried while it is interrupted, never counting more than `buf` holds.
fn read_some<R: Read>(reader: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Ok(n) => return Ok(n.min(buf.len())),
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
}

/// Writes frames (`FORMAT.md` §10) to a [`Write`]: for each message, a `u32`
/// little-endian length, the 8-byte [`MessageHeader`] and the message.
///
/// Each frame is encoded into one buffer that the writer reuses, then handed to the
/// underlying writer with one `write_all`: once the buffer has grown to the largest
/// frame, writing allocates nothing. The writer does no other buffering, so
/// [`flush`](Self::flush) only flushes the underlying writer; wrap a socket in a
/// [`std::io::BufWriter`] to send many small frames in fewer system calls.
///
/// A frame longer than the maximum frame size ([`DEFAULT_MAX_FRAME_SIZE`], 1 MiB,
/// unless set with [`with_max_frame_size`](Self::with_max_frame_size)) is refused
/// with [`ErrorKind::FrameTooLarge`] and nothing is written, so that a reader with
/// the same limit accepts every frame this writer sends.
///
/// # Schema frames
///
/// A writer made [`with_schema_frames`](Self::with_schema_frames) describes its stream
/// (FORMAT.md §12): before the first message of each type it writes a **schema frame**
/// holding the type's schema set (the type and the messages it nests), so that readers
/// without the Rust types (the `wiremsg` tool, [`crate::dynamic::SchemaRegistry`]) can
/// read the stream. A message of another version of a type already described (a
/// writer that sends version 1 and version 2 messages of one template id) gets a
/// schema frame of its version before it, so that no reader reads it with an older
/// schema. Each type's schema is built and encoded once; for every message after
/// that the writer checks its (template id, schema id, version) in a short list, with
/// no allocation. A `#[derive(WireDispatch)]` enum's value is described by its
/// variant's schema, as a message on its own is.
///
/// # Examples
///
/// ```
/// use wiremsg::{FrameWriter, WireMsg};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 3, schema_id = 7)]
/// struct Text { body: String }
///
/// let mut writer = FrameWriter::new(Vec::new());
/// assert_eq!(writer.write(&Text { body: "halt".into() })?, 22);
/// assert_eq!(
///     writer.get_ref()[..12],
///     [18, 0, 0, 0, /* header: */ 6, 0, 3, 0, 7, 0, 1, 0] // 18 bytes follow the length
/// );
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub struct FrameWriter<W> {
    writer: W,
    max: usize,
    buf: Vec<u8>,
    /// The types described so far, when the writer describes its stream.
    described: Option<Described>,
}

impl<W: Write> FrameWriter<W> {
    /// A writer of frames of at most [`DEFAULT_MAX_FRAME_SIZE`] bytes (1 MiB).
    pub fn new(writer: W) -> Self {
        Self::with_max_frame_size(writer, DEFAULT_MAX_FRAME_SIZE)
    }

    /// A writer of frames of at most `max` bytes each: the frame length (header and
    /// message; the 4-byte length prefix not counted).
    pub fn with_max_frame_size(writer: W, max: usize) -> Self {
        FrameWriter {
            writer,
            max,
            buf: Vec::new(),
            described: None,
        }
    }

    /// Makes the writer describe its stream (FORMAT.md §12): before the first message
    /// of each type (each template id and schema id), [`write`](Self::write) writes a
    /// schema frame with the schema set of the type, once. See the type's docs.
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameReader, FrameWriter, WireMsg, frame::is_schema_frame};
    ///
    /// #[derive(WireMsg)]
    /// #[wire(template_id = 1)]
    /// struct Tick { price: i64, size: u32 }
    ///
    /// let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    /// let first = writer.write(&Tick { price: 2_345_600, size: 300 })?;
    /// let second = writer.write(&Tick { price: 2_345_700, size: 100 })?;
    /// assert_eq!(second, 4 + 8 + 12); // a frame as without schema frames
    /// assert_eq!(first, second + 4 + 158); // the first one is after its schema frame
    /// let stream = writer.into_inner();
    /// assert!(is_schema_frame(&stream[4..]));
    ///
    /// // A reader with the types skips the schema frame.
    /// let mut reader = FrameReader::new(&stream[..]);
    /// let (_, tick) = reader.next_view::<Tick>()?.expect("a tick");
    /// assert_eq!(tick.size(), 300);
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn with_schema_frames(mut self) -> Self {
        self.described = Some(Described::default());
        self
    }

    /// Writes a schema frame (FORMAT.md §12) of `set` now, and returns the bytes
    /// written, length prefix included. A writer made
    /// [`with_schema_frames`](Self::with_schema_frames) then counts every message of
    /// `set` that has a template id as described: this is how a
    /// `#[derive(WireDispatch)]` enum's `schema_set()` is written up front. (Any writer
    /// may write schema frames; readers with the types skip them.)
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameWriter, WireDispatch, WireMsg};
    ///
    /// #[derive(WireMsg, Debug)]
    /// #[wire(template_id = 1)]
    /// struct Add { order: u64 }
    ///
    /// #[derive(WireMsg, Debug)]
    /// #[wire(template_id = 2)]
    /// struct Delete { order: u64 }
    ///
    /// #[derive(WireDispatch, Debug)]
    /// enum Feed { Add(Add), Delete(Delete) }
    ///
    /// let mut writer = FrameWriter::new(Vec::new()).with_schema_frames();
    /// let schema_frame = writer.write_schema(&Feed::schema_set()?)?; // both types, up front
    /// let add = writer.write(&Feed::Add(Add { order: 1 }))?;
    /// let delete = writer.write(&Feed::Delete(Delete { order: 1 }))?;
    /// assert_eq!((add, delete), (4 + 8 + 8, 4 + 8 + 8)); // no schema frame before them
    /// assert_eq!(writer.get_ref().len(), schema_frame + add + delete);
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`ErrorKind::InvalidSchema`] if a message of `set` claims the reserved pair of
    /// schema frames (template id and schema id `0xFFFF`), or as
    /// [`SchemaSet::to_bytes`]; [`ErrorKind::FrameTooLarge`] if the frame is over the
    /// maximum frame size; [`ErrorKind::Io`] as for [`write`](Self::write). Nothing is
    /// marked described unless the frame was written.
    pub fn write_schema(&mut self, set: &SchemaSet) -> Result<usize, Error> {
        let frame = encode_schema_frame(set, self.max)?;
        self.writer.write_all(&frame)?;
        if let Some(described) = &mut self.described {
            described.mark(set);
        }
        Ok(frame.len())
    }

    /// Writes `msg` as one frame: length prefix, header, message. `msg` is a
    /// [`Template`] message or a `#[derive(WireDispatch)]` enum (any [`WithHeader`]),
    /// encoded straight into the writer's buffer. Returns the bytes written, length
    /// prefix included (`4 + msg.len_with_header()`, which is `12 +
    /// msg.encoded_len()` for a message), and those of the schema frame written before
    /// it, the first time, by a writer made
    /// [`with_schema_frames`](Self::with_schema_frames).
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] if header and message are longer than the maximum
    /// frame size (checked before encoding; nothing is written);
    /// [`ErrorKind::Io`] if the underlying writer fails, in which case part of the
    /// frame may have been written and the stream should be abandoned. A writer made
    /// `with_schema_frames`: [`ErrorKind::UndescribedTemplate`] for a first message of
    /// a type (or of a version of it) that `msg` cannot give the schema of (a
    /// [`WithHeader`] implemented by hand without
    /// [`message_schema`](WithHeader::message_schema); see
    /// [`write_schema`](Self::write_schema)), and the errors of `write_schema`;
    /// nothing is written.
    pub fn write<T: WithHeader + ?Sized>(&mut self, msg: &T) -> Result<usize, Error> {
        let len = msg.checked_len_with_header()?;
        let prefix = prefix_for(len, self.max)?;
        self.buf.clear();
        self.buf.resize(LENGTH_PREFIX_LEN + len, 0);
        self.buf[..LENGTH_PREFIX_LEN].copy_from_slice(&prefix);
        msg.write_with_header(&mut self.buf[LENGTH_PREFIX_LEN..])?;
        self.send_described(msg.message_schema())
    }

    /// Writes one frame whose header and message `encode` appends to the `Vec` it is
    /// given, and returns the bytes written, length prefix included: for bytes that
    /// are not one [`WithHeader`] value (a [`write`](Self::write) takes a
    /// `#[derive(WireDispatch)]` enum as it is).
    ///
    /// # Errors
    ///
    /// The error of `encode`; [`ErrorKind::FrameTooLarge`] or
    /// [`ErrorKind::FrameTooShort`] if what it appended is longer than the maximum
    /// frame size or shorter than a header (nothing is written); [`ErrorKind::Io`] as
    /// for [`write`](Self::write). A writer made
    /// [`with_schema_frames`](Self::with_schema_frames) cannot know the schema of
    /// these bytes: [`ErrorKind::UndescribedTemplate`] for a type not yet described
    /// (write its schema first with [`write_schema`](Self::write_schema)).
    ///
    /// # Examples
    ///
    /// ```
    /// use wiremsg::{FrameReader, FrameWriter, WireDispatch, WireMsg};
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 1)]
    /// struct Add { order: u64 }
    ///
    /// #[derive(WireMsg, Debug, PartialEq)]
    /// #[wire(template_id = 2)]
    /// struct Delete { order: u64 }
    ///
    /// #[derive(WireDispatch, Debug, PartialEq)]
    /// enum Feed { Add(Add), Delete(Delete) }
    ///
    /// let events = [Feed::Add(Add { order: 1 }), Feed::Delete(Delete { order: 1 })];
    /// let mut writer = FrameWriter::new(Vec::new());
    /// for event in &events {
    ///     writer.write_with(|out| event.encode_with_header(out))?;
    /// }
    /// let stream = writer.into_inner();
    ///
    /// let mut reader = FrameReader::new(&stream[..]);
    /// for event in &events {
    ///     let frame = reader.next_frame()?.expect("a frame");
    ///     assert_eq!(&Feed::decode(frame)?, event);
    /// }
    /// assert!(reader.next_frame()?.is_none());
    /// # Ok::<(), wiremsg::Error>(())
    /// ```
    pub fn write_with<F>(&mut self, encode: F) -> Result<usize, Error>
    where
        F: FnOnce(&mut Vec<u8>) -> Result<usize, Error>,
    {
        self.buf.clear();
        self.buf.extend_from_slice(&[0; LENGTH_PREFIX_LEN]);
        encode(&mut self.buf)?;
        finish_frame(&mut self.buf, 0, self.max)?;
        self.send_described(None)
    }

    /// Writes `frame`, the bytes of a header and a message (such as
    /// [`FrameReader::next_frame`] returns), as one frame; returns the bytes written,
    /// length prefix included. The bytes are not validated beyond their length: this
    /// forwards frames.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] or [`ErrorKind::FrameTooShort`] if `frame` is
    /// longer than the maximum frame size or shorter than 8 bytes (nothing is
    /// written); [`ErrorKind::Io`] as for [`write`](Self::write). A writer made
    /// [`with_schema_frames`](Self::with_schema_frames) reads a schema frame it
    /// forwards (its errors if it is not a valid one) and counts what it describes as
    /// described, and refuses a message frame of a type not yet described
    /// ([`ErrorKind::UndescribedTemplate`]).
    pub fn write_frame(&mut self, frame: &[u8]) -> Result<usize, Error> {
        let prefix = prefix_for(frame.len(), self.max)?;
        self.buf.clear();
        self.buf.extend_from_slice(&prefix);
        self.buf.extend_from_slice(frame);
        self.send_described(None)
    }

    /// Flushes the underlying writer.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] if it fails.
    pub fn flush(&mut self) -> Result<(), Error> {
        self.writer.flush().map_err(Error::from)
    }

    /// Sends the frame in the buffer, after the schema frame of its type if the writer
    /// describes its stream and the type is new (built from `schema`).
    #[inline]
    fn send_described(&mut self, schema: Option<&'static MessageSchema>) -> Result<usize, Error> {
        let mut written = 0;
        if let Some(described) = &mut self.described {
            let frame = &self.buf[LENGTH_PREFIX_LEN..];
            if let Some(schema_frame) = described.before(frame, schema, self.max)? {
                self.writer.write_all(&schema_frame)?;
                written = schema_frame.len();
            }
        }
        self.writer.write_all(&self.buf)?;
        Ok(written + self.buf.len())
    }
}

impl<W> FrameWriter<W> {
    /// The maximum frame size, in bytes of frame length (header and message).
    pub fn max_frame_size(&self) -> usize {
        self.max
    }

    /// The underlying writer.
    pub fn get_ref(&self) -> &W {
        &self.writer
    }

    /// The underlying writer. Writing to it directly between frames is allowed but
    /// makes a stream that only its own reader understands.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.writer
    }

    /// The underlying writer. Every frame written has already been handed to it with
    /// `write_all` (the writer holds nothing back), but it is not flushed.
    pub fn into_inner(self) -> W {
        self.writer
    }
}

impl<W: fmt::Debug> fmt::Debug for FrameWriter<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FrameWriter")
            .field("writer", &self.writer)
            .field("max_frame_size", &self.max)
            .field("schema_frames", &self.described.is_some())
            .finish_non_exhaustive()
    }
}

/// An [`ErrorKind::Io`] of the error's kind, at offset 0, that keeps the I/O error as
/// its [`source()`](std::error::Error::source) and its text in the message (as
/// [`Error::from_io`]).
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
impl From<io::Error> for Error {
    fn from(err: io::Error) -> Self {
        Error::from_io(err, 0)
    }
}
