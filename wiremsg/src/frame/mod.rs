//! Length-prefixed framing: messages with a [`MessageHeader`], one after another on a
//! byte stream (`FORMAT.md` §10).
//!
//! A **frame** is a `u32` little-endian length, then that many bytes: the 8-byte
//! message header (§8) and the message (§2, §3). A stream is frames back to back,
//! with nothing before, between or after them.
//!
//! ```text
//! offset 0   u32      frame length L: the bytes that follow (header + message), >= 8
//! offset 4   8 bytes  message header: block length, template id, schema id, version
//! offset 12  L - 8    the message
//! ```
//!
//! The length lets a reader take a whole frame off the stream before it looks inside,
//! so a frame whose message it cannot view (an unknown template id, a bad field) is
//! an error for that frame only: the next frame is read as usual.
//!
//! | item | feature | what it does |
//! |---|---|---|
//! | `FrameReader` | `std` (default) | reads frames from a `std::io::Read` into one reused buffer |
//! | `FrameWriter` | `std` (default) | writes frames to a `std::io::Write` from one reused buffer |
//! | `put_frame` | `bytes` | appends a frame to any `bytes::BufMut` (`no_std` + `alloc` is enough) |
//! | `WireCodec` | `tokio-util` | `tokio_util::codec` `Decoder` and `Encoder` of frames |
//!
//! # Limits
//!
//! Every reader has a **maximum frame size**, in bytes of `L` (the 4 prefix bytes are
//! not counted): [`DEFAULT_MAX_FRAME_SIZE`] (1 MiB) unless configured. A larger `L` is
//! [`FrameTooLarge`](crate::ErrorKind::FrameTooLarge), found before anything is
//! allocated for the frame, and a reader never holds more than that many bytes for one
//! frame. An `L` below 8 (no room for the header) is
//! [`FrameTooShort`](crate::ErrorKind::FrameTooShort). Both leave the stream without a
//! known frame boundary, so a reader reports them again on every later call. A stream
//! that ends inside the length or inside a frame is
//! [`UnexpectedEof`](crate::ErrorKind::UnexpectedEof); one that ends between frames is
//! the normal end. Writers refuse to write a frame over their own maximum (the same
//! default), so that a peer with the default limit will not refuse it.
//!
//! Error offsets of framing errors count bytes from the start of the stream (as far
//! as the reader has read it) to the frame's length prefix; errors of viewing a
//! frame's message count from the start of its header, as in
//! [`Template::view_with_header`](crate::Template::view_with_header).
//!
//! # Examples
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use wiremsg::{FrameReader, FrameWriter, WireMsg};
//!
//! #[derive(WireMsg, Debug, PartialEq)]
//! #[wire(template_id = 3, schema_id = 7)]
//! struct Text { body: String }
//!
//! let mut writer = FrameWriter::new(Vec::new());
//! writer.write(&Text { body: "halt".into() }).unwrap();
//! let stream = writer.into_inner();
//! assert_eq!(stream.len(), 22); // F1 of FORMAT.md §10
//! assert_eq!(stream[..4], [18, 0, 0, 0]); // header 8 + message 10
//!
//! let mut reader = FrameReader::new(&stream[..]);
//! let (header, text) = reader.next_view::<Text>().unwrap().unwrap();
//! assert_eq!((header.template_id, text.body()), (3, "halt"));
//! # }
//! ```

use crate::MessageHeader;
#[cfg(any(feature = "std", feature = "bytes"))]
use crate::{Error, ErrorKind};

#[cfg(feature = "bytes")]
mod buf;
#[cfg(feature = "tokio-util")]
mod codec;
#[cfg(feature = "std")]
mod io;
mod schema_frame;

#[cfg(feature = "bytes")]
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub use buf::{put_frame, put_schema_frame};
#[cfg(feature = "tokio-util")]
#[cfg_attr(docsrs, doc(cfg(feature = "tokio-util")))]
pub use codec::{EncodeWith, WireCodec, encode_with};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use io::{FrameReader, FrameWriter};
#[cfg(feature = "std")]
pub(crate) use schema_frame::Described;
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) use schema_frame::encode as encode_schema_frame;
pub(crate) use schema_frame::read_schema_frame_within;
pub use schema_frame::{is_schema_frame, read_schema_frame};

/// Bytes of the length prefix in front of every frame: one little-endian `u32`.
///
/// ```
/// # #[cfg(feature = "std")] {
/// use wiremsg::{FrameWriter, WireMsg, frame::LENGTH_PREFIX_LEN};
///
/// #[derive(WireMsg, Debug)]
/// #[wire(template_id = 1)]
/// struct Ping { sequence: u32 }
///
/// let mut writer = FrameWriter::new(Vec::new());
/// let written = writer.write(&Ping { sequence: 1 }).unwrap();
/// assert_eq!(written, LENGTH_PREFIX_LEN + 8 + 4);
/// assert_eq!(writer.get_ref()[..LENGTH_PREFIX_LEN], [12, 0, 0, 0]);
/// # }
/// ```
pub const LENGTH_PREFIX_LEN: usize = 4;

/// The smallest frame length `L`: a frame holds at least a [`MessageHeader`] (8 bytes).
///
/// ```
/// # #[cfg(feature = "std")] {
/// use wiremsg::{ErrorKind, FrameReader, frame::MIN_FRAME_LEN};
///
/// let stream = [7, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7]; // a 7-byte frame: no room for a header
/// let err = FrameReader::new(&stream[..]).next_frame().unwrap_err();
/// assert_eq!(err.kind(), &ErrorKind::FrameTooShort { len: 7, min: MIN_FRAME_LEN });
/// # }
/// ```
pub const MIN_FRAME_LEN: usize = MessageHeader::LEN;

/// The maximum frame size a reader or writer uses unless told otherwise: 1 MiB
/// (1,048,576 bytes) of frame length `L`, header and message, the 4-byte length
/// prefix not counted.
///
/// ```
/// # #[cfg(feature = "std")] {
/// use wiremsg::{ErrorKind, FrameReader, frame::DEFAULT_MAX_FRAME_SIZE};
///
/// let too_long = (DEFAULT_MAX_FRAME_SIZE as u32 + 1).to_le_bytes();
/// let mut reader = FrameReader::new(&too_long[..]);
/// assert_eq!(reader.max_frame_size(), 1_048_576);
/// assert_eq!(
///     reader.next_frame().unwrap_err().kind(),
///     &ErrorKind::FrameTooLarge { len: 1_048_577, max: DEFAULT_MAX_FRAME_SIZE }
/// );
/// # }
/// ```
pub const DEFAULT_MAX_FRAME_SIZE: usize = 1 << 20;

/// Checks a frame length `len` (bytes after the prefix) against `max` and the header.
///
/// A frame whose prefix and body together do not fit in a `usize` (a length near
/// `u32::MAX` on a 32-bit target) is too large whatever `max` says, so that every
/// `LENGTH_PREFIX_LEN + len` after this check is exact.
/// The first allocation for a frame's bytes, and the step below which a reader's
/// buffer does not grow: `FrameReader` and `WireCodec` allocate a frame's bytes as
/// they arrive (this much first, then doubling), so that a length prefix alone (a
/// lying peer's) costs at most this much.
#[cfg(feature = "std")]
pub(crate) const FIRST_CHUNK: usize = 8 * 1024;

#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) fn check_len(len: usize, max: usize) -> Result<(), ErrorKind> {
    let max = max.min(usize::MAX - LENGTH_PREFIX_LEN);
    if len > max {
        Err(ErrorKind::FrameTooLarge { len, max })
    } else if len < MIN_FRAME_LEN {
        Err(ErrorKind::FrameTooShort {
            len,
            min: MIN_FRAME_LEN,
        })
    } else {
        Ok(())
    }
}

/// The length prefix of a frame of `len` bytes after it, for a writer whose maximum
/// frame size is `max`.
#[cfg(any(feature = "std", feature = "bytes"))]
pub(crate) fn prefix_for(len: usize, max: usize) -> Result<[u8; LENGTH_PREFIX_LEN], Error> {
    check_len(len, max).map_err(|kind| Error::new(kind, 0))?;
    match u32::try_from(len) {
        Ok(len) => Ok(len.to_le_bytes()),
        Err(_) => Err(Error::new(ErrorKind::TooLarge { len }, 0)),
    }
}

/// Turns `buf[start..]`, four placeholder bytes then a header and a message, into a
/// frame by writing its length prefix; on error, removes those bytes from `buf`.
/// Returns the bytes of the frame, prefix included.
#[cfg(feature = "std")]
pub(crate) fn finish_frame(
    buf: &mut alloc::vec::Vec<u8>,
    start: usize,
    max: usize,
) -> Result<usize, Error> {
    let len = buf.len() - start - LENGTH_PREFIX_LEN;
    match prefix_for(len, max) {
        Ok(prefix) => {
            buf[start..start + LENGTH_PREFIX_LEN].copy_from_slice(&prefix);
            Ok(LENGTH_PREFIX_LEN + len)
        }
        Err(err) => {
            buf.truncate(start);
            Err(err)
        }
    }
}

/// Reads the frame length from a complete 4-byte prefix.
#[cfg(feature = "std")]
pub(crate) fn read_len(prefix: [u8; LENGTH_PREFIX_LEN]) -> usize {
    // A u32 always fits: the crate's targets have at least 32-bit `usize`.
    u32::from_le_bytes(prefix) as usize
}

/// A stream offset as an error offset.
#[cfg(feature = "std")]
pub(crate) fn stream_offset(position: u64) -> usize {
    usize::try_from(position).unwrap_or(usize::MAX)
}
