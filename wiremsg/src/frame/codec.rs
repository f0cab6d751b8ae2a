//! Frames as a `tokio_util::codec` (feature `tokio-util`; `FORMAT.md` §10).

use super::{
    DEFAULT_MAX_FRAME_SIZE, Described, FIRST_CHUNK, LENGTH_PREFIX_LEN, check_len,
    encode_schema_frame, finish_frame, is_schema_frame, prefix_for, read_len, read_schema_frame,
    stream_offset,
};
use crate::{Error, ErrorKind, MessageSchema, SchemaSet, WithHeader};
use alloc::vec::Vec;
use bytes::{Buf, BufMut, BytesMut};
use core::fmt;
use tokio_util::codec::{Decoder, Encoder};

/// A [`Decoder`] and [`Encoder`] of frames (`FORMAT.md` §10), for `tokio_util`'s
/// `FramedRead`, `FramedWrite` and `Framed`.
///
/// - **Decoding** yields one frame at a time as a [`BytesMut`]: the 8-byte
///   [`MessageHeader`](crate::MessageHeader) and the message, without the length
///   prefix, split off the read buffer without copying. View it with
///   [`Template::view_with_header`](crate::Template::view_with_header) or a `#[derive(WireDispatch)]` enum's `view`.
/// - **Encoding** takes `&T` for any [`Template`](crate::Template) message or
///   `#[derive(WireDispatch)]` enum (any [`WithHeader`]), written straight into the
///   write buffer, and [`EncodeWith`] (made by [`encode_with`]) for bytes a closure
///   appends, staged in a buffer the codec reuses.
///
/// Both directions refuse frames over the maximum frame size
/// ([`DEFAULT_MAX_FRAME_SIZE`], 1 MiB, unless set with
/// [`with_max_frame_size`](Self::with_max_frame_size)) with
/// [`ErrorKind::FrameTooLarge`]; the decoder finds it in the length prefix.
///
/// # Memory
///
/// Waiting for the rest of a frame, the decoder reserves room in the read buffer for
/// at most as many bytes as the buffer already holds (at least 8 KiB), never the whole
/// declared length at once: a peer that sends a length prefix of 1 MiB and stops costs
/// the read buffer's first 8 KiB, not 1 MiB. The read buffer thus grows with the bytes
/// that arrived, by doubling; its peak under `FramedRead` (its own 8 KiB buffer
/// included, a reallocation counted as the old and the new block at once) is at most
/// **32 KiB + 4 bytes per byte buffered**, and frames are split off it without a copy,
/// so many small frames reuse it. A schema frame read
/// [`check_schema_frames`](Self::check_schema_frames) adds the schema reader's peak
/// ([`SCHEMA_PEAK_PER_BYTE`](crate::schema::SCHEMA_PEAK_PER_BYTE) per byte of it).
/// Measured in `tests/peak_memory.rs` (1 MiB announced, 4 bytes sent: 24,576 bytes,
/// 1 MiB before; 500,000 bytes sent: 1,572,864).
///
/// # Errors
///
/// Decoding: [`ErrorKind::FrameTooLarge`], [`ErrorKind::FrameTooShort`] (a length
/// under 8), [`ErrorKind::UnexpectedEof`] (the stream ended inside a frame; from
/// `decode_eof`), [`ErrorKind::Io`] (from the transport, through `From<io::Error>`).
/// A framing error leaves the stream without a known frame boundary: `FramedRead`
/// ends the stream after it, and calling `decode` again returns it again. Framing
/// errors carry the offset of the frame's length prefix, counted from the first byte
/// this codec decoded.
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
/// use wiremsg::{Template, WireMsg, frame::WireCodec};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 7)]
/// struct Heartbeat { sequence: u64 }
///
/// let mut codec = WireCodec::new();
/// let mut wire = BytesMut::new();
/// codec.encode(&Heartbeat { sequence: 9 }, &mut wire)?;
/// assert_eq!(wire.len(), 4 + 8 + 8);
///
/// let frame = codec.decode(&mut wire)?.expect("a whole frame");
/// assert_eq!(Heartbeat::view_with_header(&frame)?.1.sequence(), 9);
/// assert!(codec.decode(&mut wire)?.is_none()); // nothing left
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// # Schema frames
///
/// Made [`with_schema_frames`](Self::with_schema_frames), the encoder describes its
/// stream as [`FrameWriter::with_schema_frames`](crate::FrameWriter::with_schema_frames)
/// does (FORMAT.md §12): a schema frame before the first message of each type, once;
/// encoding a `&SchemaSet` writes one now (a dispatch enum's `schema_set()`, up front).
/// The decoder skips schema frames (they are not messages), reads and checks them
/// against the reader's schemas with [`check_schema_frames`](Self::check_schema_frames),
/// and yields them too with [`keep_schema_frames`](Self::keep_schema_frames).
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
/// use wiremsg::{Template, WireMsg, frame::{WireCodec, is_schema_frame}};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 7)]
/// struct Heartbeat { sequence: u64 }
///
/// let mut encoder = WireCodec::new().with_schema_frames();
/// let mut wire = BytesMut::new();
/// encoder.encode(&Heartbeat { sequence: 1 }, &mut wire)?;
/// encoder.encode(&Heartbeat { sequence: 2 }, &mut wire)?;
/// assert!(is_schema_frame(&wire[4..]));
///
/// let mut tools = WireCodec::new().keep_schema_frames();
/// assert!(is_schema_frame(&tools.decode(&mut wire.clone())?.expect("the schema frame")));
/// let mut decoder = WireCodec::new(); // skips it
/// let frame = decoder.decode(&mut wire)?.expect("a frame");
/// assert_eq!(Heartbeat::view_with_header(&frame)?.1.sequence(), 1);
/// # Ok::<(), wiremsg::Error>(())
/// ```
///
/// A decoded frame is a `BytesMut` the caller owns: update its message in place with
/// [`Template::view_mut_with_header`](crate::Template::view_mut_with_header) (or a `#[derive(WireDispatch)]` enum's
/// `view_mut`), then forward its bytes as they are.
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
/// use wiremsg::{Template, WireMsg, frame::WireCodec};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 3)]
/// struct Execution { order: u64, status: u8 }
///
/// let mut codec = WireCodec::new();
/// let mut wire = BytesMut::new();
/// codec.encode(&Execution { order: 5, status: 0 }, &mut wire)?;
///
/// let mut frame = codec.decode(&mut wire)?.expect("a whole frame");
/// let (_, mut execution) = Execution::view_mut_with_header(&mut frame)?;
/// execution.set_status(2); // one store, in the frame's own bytes
/// assert_eq!(Execution::view_with_header(&frame)?.1.status(), 2);
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[derive(Clone)]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio-util")))]
pub struct WireCodec {
    max: usize,
    /// Bytes decoded so far: the stream offset of the next frame.
    position: u64,
    /// Staging for [`EncodeWith`].
    scratch: Vec<u8>,
    /// The types described so far, when the encoder describes its stream.
    described: Option<Described>,
    /// The reader's own schemas, when schema frames are checked against them.
    known: Option<SchemaSet>,
    /// The decoder yields schema frames instead of skipping them.
    keep_schema_frames: bool,
}

impl WireCodec {
    /// A codec for frames of at most [`DEFAULT_MAX_FRAME_SIZE`] bytes (1 MiB).
    pub fn new() -> Self {
        Self::with_max_frame_size(DEFAULT_MAX_FRAME_SIZE)
    }

    /// A codec for frames of at most `max` bytes each: the frame length (header and
    /// message; the 4-byte length prefix not counted), in both directions.
    pub fn with_max_frame_size(max: usize) -> Self {
        WireCodec {
            max,
            position: 0,
            scratch: Vec::new(),
            described: None,
            known: None,
            keep_schema_frames: false,
        }
    }

    /// Makes the encoder describe its stream (FORMAT.md §12): a schema frame before
    /// the first message of each type, once, as
    /// [`FrameWriter::with_schema_frames`](crate::FrameWriter::with_schema_frames)
    /// (a `#[derive(WireDispatch)]` enum's value by its variant's schema; a new
    /// version of a type by a schema frame of its own). Encoding an
    /// `&Enum::schema_set()?` sends all of an enum's schemas at once. See the type's
    /// docs.
    pub fn with_schema_frames(mut self) -> Self {
        self.described = Some(Described::default());
        self
    }

    /// Makes the decoder read every schema frame and check it against `known`, the
    /// reader's own schemas, as
    /// [`FrameReader::check_schema_frames`](crate::FrameReader::check_schema_frames)
    /// does: a schema frame that is not a valid schema, or that describes a type of
    /// `known` differently at its versions, is an error
    /// ([`SchemaSet::check_descriptions`]). That error concerns that frame only: the
    /// codec has taken it off the buffer, and the next `decode` goes on.
    pub fn check_schema_frames(mut self, known: SchemaSet) -> Self {
        self.known = Some(known);
        self
    }

    /// Makes the decoder yield schema frames, which it skips otherwise: for a relay
    /// that forwards them, or a reader without the types
    /// ([`dynamic::SchemaRegistry`](crate::dynamic::SchemaRegistry)).
    /// [`is_schema_frame`](super::is_schema_frame) tells them apart.
    pub fn keep_schema_frames(mut self) -> Self {
        self.keep_schema_frames = true;
        self
    }

    /// Splits the next whole frame of any kind off `src`, or returns `Ok(None)` and
    /// reserves room for the rest of it.
    fn split_frame(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, Error> {
        let Some(prefix) = src.first_chunk::<LENGTH_PREFIX_LEN>() else {
            return Ok(None);
        };
        let len = read_len(*prefix);
        check_len(len, self.max).map_err(|kind| Error::new(kind, stream_offset(self.position)))?;
        let total = LENGTH_PREFIX_LEN + len;
        if src.len() < total {
            // Room for what is missing, but never more than what arrived (at least
            // FIRST_CHUNK): a length prefix alone does not buy its whole frame.
            src.reserve((total - src.len()).min(src.len().max(FIRST_CHUNK)));
            return Ok(None);
        }
        src.advance(LENGTH_PREFIX_LEN);
        self.position += total as u64;
        Ok(Some(src.split_to(len)))
    }

    /// Puts the schema frame of the frame at `dst[start..]` before it, if the encoder
    /// describes its stream and the frame's type is new.
    #[inline]
    fn describe_last(
        &mut self,
        dst: &mut BytesMut,
        start: usize,
        schema: Option<&'static MessageSchema>,
    ) -> Result<(), Error> {
        let Some(described) = &mut self.described else {
            return Ok(());
        };
        let schema_frame =
            match described.before(&dst[start + LENGTH_PREFIX_LEN..], schema, self.max) {
                Ok(None) => return Ok(()),
                Ok(Some(schema_frame)) => schema_frame,
                Err(err) => {
                    dst.truncate(start);
                    return Err(err);
                }
            };
        // Once per type: the message moves behind its schema frame.
        let message = dst.split_off(start);
        dst.extend_from_slice(&schema_frame);
        dst.extend_from_slice(&message);
        Ok(())
    }

    /// The maximum frame size, in bytes of frame length (header and message).
    pub fn max_frame_size(&self) -> usize {
        self.max
    }
}

impl Default for WireCodec {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for WireCodec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WireCodec")
            .field("max_frame_size", &self.max)
            .field("position", &self.position)
            .field("schema_frames", &self.described.is_some())
            .finish_non_exhaustive()
    }
}

impl Decoder for WireCodec {
    type Item = BytesMut;
    type Error = Error;

    /// Splits the next whole frame (header and message) off `src`, or returns
    /// `Ok(None)` and reserves room for more of it (at most what `src` holds, at least
    /// 8 KiB; see [`WireCodec`]'s memory bound). Schema frames are skipped
    /// (and checked, with [`WireCodec::check_schema_frames`]), unless
    /// [`WireCodec::keep_schema_frames`].
    fn decode(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, Error> {
        loop {
            let Some(frame) = self.split_frame(src)? else {
                return Ok(None);
            };
            if !is_schema_frame(&frame) {
                return Ok(Some(frame));
            }
            if let Some(known) = &self.known {
                known.check_descriptions(&read_schema_frame(&frame)?)?;
            }
            if self.keep_schema_frames {
                return Ok(Some(frame));
            }
        }
    }

    /// As [`decode`](Self::decode), then, if bytes are left that are not a whole
    /// frame, [`ErrorKind::UnexpectedEof`].
    fn decode_eof(&mut self, src: &mut BytesMut) -> Result<Option<BytesMut>, Error> {
        if let Some(frame) = self.decode(src)? {
            return Ok(Some(frame));
        }
        if src.is_empty() {
            return Ok(None);
        }
        let needed = match src.first_chunk::<LENGTH_PREFIX_LEN>() {
            Some(prefix) => LENGTH_PREFIX_LEN + read_len(*prefix),
            None => LENGTH_PREFIX_LEN,
        };
        Err(Error::new(
            ErrorKind::UnexpectedEof {
                needed,
                available: src.len(),
            },
            stream_offset(self.position),
        ))
    }
}

/// A [`Template`](crate::Template) message or a `#[derive(WireDispatch)]` enum (any
/// [`WithHeader`]).
impl<T: WithHeader + ?Sized> Encoder<&T> for WireCodec {
    type Error = Error;

    /// Appends `msg` to `dst` as one frame, encoded in place.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::FrameTooLarge`] if header and message are longer than the maximum
    /// frame size (`dst` is left as it was). An encoder made
    /// [`with_schema_frames`](WireCodec::with_schema_frames): as
    /// [`FrameWriter::write`](crate::FrameWriter::write) (`dst` is left as it was).
    fn encode(&mut self, msg: &T, dst: &mut BytesMut) -> Result<(), Error> {
        let len = msg.checked_len_with_header()?;
        let prefix = prefix_for(len, self.max)?;
        let start = dst.len();
        dst.reserve(LENGTH_PREFIX_LEN + len);
        dst.put_slice(&prefix);
        dst.resize(start + LENGTH_PREFIX_LEN + len, 0);
        if let Err(err) = msg.write_with_header(&mut dst[start + LENGTH_PREFIX_LEN..]) {
            dst.truncate(start);
            return Err(err);
        }
        self.describe_last(dst, start, msg.message_schema())
    }
}

/// A schema frame (FORMAT.md §12) of the set: a dispatch enum's `schema_set()` sent up
/// front by an encoder made [`with_schema_frames`](WireCodec::with_schema_frames),
/// which then counts its messages as described (as
/// [`FrameWriter::write_schema`](crate::FrameWriter::write_schema)).
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::Encoder;
/// use wiremsg::{WireDispatch, WireMsg, frame::{WireCodec, is_schema_frame}};
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
/// let mut codec = WireCodec::new().with_schema_frames();
/// let mut wire = BytesMut::new();
/// codec.encode(&Feed::schema_set()?, &mut wire)?;
/// let schema_len = wire.len();
/// codec.encode(&Feed::Delete(Delete { order: 4 }), &mut wire)?;
/// assert!(is_schema_frame(&wire[4..]));
/// assert_eq!(wire.len(), schema_len + 4 + 8 + 8);
/// # Ok::<(), wiremsg::Error>(())
/// ```
impl Encoder<&SchemaSet> for WireCodec {
    type Error = Error;

    /// Appends a schema frame of `set` to `dst`.
    ///
    /// # Errors
    ///
    /// As [`FrameWriter::write_schema`](crate::FrameWriter::write_schema) (`dst` is
    /// left as it was).
    fn encode(&mut self, set: &SchemaSet, dst: &mut BytesMut) -> Result<(), Error> {
        let frame = encode_schema_frame(set, self.max)?;
        dst.extend_from_slice(&frame);
        if let Some(described) = &mut self.described {
            described.mark(set);
        }
        Ok(())
    }
}

/// A frame whose header and message a closure appends to a `Vec`, for
/// [`WireCodec`]. Made by [`encode_with`]. (A `#[derive(WireDispatch)]` enum needs
/// none: the codec encodes `&enum` in place.)
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::Encoder;
/// use wiremsg::{Template, WireMsg, frame::{WireCodec, encode_with}};
///
/// #[derive(WireMsg, Debug)]
/// #[wire(template_id = 5)]
/// struct Ping { sequence: u32 }
///
/// // Forward a header and message received earlier, as bytes.
/// let mut received = Vec::new();
/// Ping { sequence: 3 }.encode_with_header(&mut received)?;
/// let mut wire = BytesMut::new();
/// WireCodec::new().encode(
///     encode_with(|out| {
///         out.extend_from_slice(&received);
///         Ok(received.len())
///     }),
///     &mut wire,
/// )?;
/// assert_eq!(wire[..4], [12, 0, 0, 0]);
/// assert_eq!(wire[4..], received[..]);
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "tokio-util")))]
pub struct EncodeWith<F>(F);

/// Wraps `encode`, which appends a header and a message to the `Vec` it is given and
/// returns the bytes appended, as an item for [`WireCodec`]'s [`Encoder`]: the codec
/// stages the frame in a buffer it reuses, then copies it into the write buffer.
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use tokio_util::codec::{Decoder, Encoder};
/// use wiremsg::{WireDispatch, WireMsg, frame::{WireCodec, encode_with}};
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
/// let event = Feed::Delete(Delete { order: 4 });
/// let mut codec = WireCodec::new();
/// let mut wire = BytesMut::new();
/// codec.encode(encode_with(|out| event.encode_with_header(out)), &mut wire)?;
/// let frame = codec.decode(&mut wire)?.expect("a whole frame");
/// assert_eq!(Feed::decode(&frame)?, event);
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "tokio-util")))]
pub fn encode_with<F>(encode: F) -> EncodeWith<F>
where
    F: FnOnce(&mut Vec<u8>) -> Result<usize, Error>,
{
    EncodeWith(encode)
}

impl<F> fmt::Debug for EncodeWith<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("EncodeWith(..)")
    }
}

impl<F> Encoder<EncodeWith<F>> for WireCodec
where
    F: FnOnce(&mut Vec<u8>) -> Result<usize, Error>,
{
    type Error = Error;

    /// Appends the closure's header and message to `dst` as one frame.
    ///
    /// # Errors
    ///
    /// The closure's error; [`ErrorKind::FrameTooLarge`] or
    /// [`ErrorKind::FrameTooShort`] if what it appended is longer than the maximum
    /// frame size or shorter than a header (`dst` is left as it was).
    fn encode(&mut self, item: EncodeWith<F>, dst: &mut BytesMut) -> Result<(), Error> {
        self.scratch.clear();
        self.scratch.extend_from_slice(&[0; LENGTH_PREFIX_LEN]);
        (item.0)(&mut self.scratch)?;
        finish_frame(&mut self.scratch, 0, self.max)?;
        let start = dst.len();
        dst.extend_from_slice(&self.scratch);
        self.describe_last(dst, start, None)
    }
}
