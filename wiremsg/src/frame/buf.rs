//! A frame into any [`bytes::BufMut`] (feature `bytes`; `FORMAT.md` §10).

use super::{LENGTH_PREFIX_LEN, encode_schema_frame, prefix_for};
use crate::{Error, ErrorKind, SchemaSet, WithHeader};
use bytes::BufMut;

/// Messages of up to this many bytes (header included) are staged on the stack.
const STACK_LEN: usize = 512;

/// Appends `msg`, a [`Template`](crate::Template) message or a `#[derive(WireDispatch)]`
/// enum (any [`WithHeader`]), to `buf` as one frame (`FORMAT.md` §10): its length as a `u32`
/// little-endian (the bytes that follow), the 8-byte [`MessageHeader`](crate::MessageHeader),
/// and the message. Returns the bytes appended, length prefix included
/// (`12 + msg.encoded_len()`).
///
/// A `BufMut` offers its free space as uninitialized memory, which the encoder cannot
/// write into without `unsafe`, so the header and message are staged: on the stack
/// for frames of up to 512 bytes, else in one temporary `Vec` (one allocation). For a
/// `tokio_util` stream, `WireCodec` (feature `tokio-util`) encodes straight into the
/// `BytesMut`. There is no maximum frame size here beyond the format's (`u32::MAX`);
/// a peer may refuse frames over its own (1 MiB by default).
///
/// # Errors
///
/// [`ErrorKind::BufferTooSmall`] if `buf` has less room than the frame
/// ([`BufMut::remaining_mut`]; nothing is written); [`ErrorKind::TooLarge`] if the
/// frame is longer than `u32::MAX` bytes.
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use wiremsg::{WireMsg, frame::put_frame};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 7)]
/// struct Heartbeat { sequence: u64 }
///
/// let mut buf = BytesMut::new();
/// assert_eq!(put_frame(&mut buf, &Heartbeat { sequence: 1 })?, 20);
/// put_frame(&mut buf, &Heartbeat { sequence: 2 })?;
/// assert_eq!(buf.len(), 40);
/// assert_eq!(buf[..12], [16, 0, 0, 0, 8, 0, 7, 0, 0, 0, 1, 0]);
///
/// // A fixed-size buffer that is too small is left as it was.
/// let mut small = [0u8; 19];
/// let err = put_frame(&mut &mut small[..], &Heartbeat { sequence: 3 }).unwrap_err();
/// assert_eq!(err.kind(), &wiremsg::ErrorKind::BufferTooSmall { needed: 20, available: 19 });
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn put_frame<B, T>(buf: &mut B, msg: &T) -> Result<usize, Error>
where
    B: BufMut + ?Sized,
    T: WithHeader + ?Sized,
{
    let len = msg.checked_len_with_header()?;
    let prefix = prefix_for(len, usize::MAX)?;
    let needed = LENGTH_PREFIX_LEN + len;
    if buf.remaining_mut() < needed {
        return Err(Error::new(
            ErrorKind::BufferTooSmall {
                needed,
                available: buf.remaining_mut(),
            },
            0,
        ));
    }
    if len <= STACK_LEN {
        let mut stage = [0u8; STACK_LEN];
        let written = msg.write_with_header(&mut stage)?;
        buf.put_slice(&prefix);
        buf.put_slice(&stage[..written]);
    } else {
        let mut stage = alloc::vec![0; len];
        let written = msg.write_with_header(&mut stage)?;
        buf.put_slice(&prefix);
        buf.put_slice(&stage[..written]);
    }
    Ok(needed)
}

/// Appends a schema frame (FORMAT.md §12) of `set` to `buf`: a frame whose header has
/// the reserved template id and schema id `0xFFFF` and whose message is the canonical
/// encoding of `set` (§11). Put it before the first message of each type it describes,
/// so that readers without the Rust types can read the stream; readers with them skip
/// it. Returns the bytes appended, length prefix included. (A `put_frame` caller keeps
/// no state: deciding which types are new is the caller's; `FrameWriter` and
/// `WireCodec` can do it themselves.)
///
/// # Errors
///
/// [`ErrorKind::InvalidSchema`] if a message of `set` claims the reserved pair, or as
/// [`SchemaSet::to_bytes`]; [`ErrorKind::BufferTooSmall`] if `buf` has less room than
/// the frame (nothing is written).
///
/// # Examples
///
/// ```
/// use bytes::BytesMut;
/// use wiremsg::{SchemaSet, WireMsg, frame::{is_schema_frame, put_frame, put_schema_frame}};
///
/// #[derive(WireMsg, Debug, PartialEq)]
/// #[wire(template_id = 1)]
/// struct Ping { seq: u32 }
///
/// let mut buf = BytesMut::new();
/// assert_eq!(put_schema_frame(&mut buf, &SchemaSet::of::<Ping>()?)?, 4 + 113); // FORMAT.md F2
/// put_frame(&mut buf, &Ping { seq: 9 })?;
/// assert!(is_schema_frame(&buf[4..]));
/// assert_eq!(buf.len(), 133);
/// # Ok::<(), wiremsg::Error>(())
/// ```
#[cfg_attr(docsrs, doc(cfg(feature = "bytes")))]
pub fn put_schema_frame<B>(buf: &mut B, set: &SchemaSet) -> Result<usize, Error>
where
    B: BufMut + ?Sized,
{
    let frame = encode_schema_frame(set, usize::MAX)?;
    if buf.remaining_mut() < frame.len() {
        return Err(Error::new(
            ErrorKind::BufferTooSmall {
                needed: frame.len(),
                available: buf.remaining_mut(),
            },
            0,
        ));
    }
    buf.put_slice(&frame);
    Ok(frame.len())
}
