//! Framing under every chunking (FORMAT.md §10): frames whose messages are 0, 1, 7, 8,
//! 9 and 4096 bytes, fed to `FrameReader` and to `WireCodec` 1 byte, 3 bytes or a
//! random number of bytes at a time, come out equal to what went in; an incomplete
//! frame consumes nothing; a partial frame at the end is an error; a frame exactly at
//! the maximum passes and one byte more fails before anything is allocated for it.

use bytes::BytesMut;
use std::io::Read;
use tokio_util::codec::Decoder;
use wiremsg::frame::{LENGTH_PREFIX_LEN, WireCodec};
use wiremsg::{ErrorKind, FrameReader, MessageHeader};

const PAYLOADS: [usize; 6] = [0, 1, 7, 8, 9, 4096];

/// One frame: prefix, an 8-byte header, `payload` bytes (not a valid message: framing
/// does not look inside).
fn frame(payload: usize, seed: u8) -> Vec<u8> {
    let len = (MessageHeader::LEN + payload) as u32;
    let mut out = len.to_le_bytes().to_vec();
    out.extend((0..MessageHeader::LEN + payload).map(|i| seed.wrapping_add(i as u8)));
    out
}

fn stream() -> (Vec<u8>, Vec<Vec<u8>>) {
    let frames: Vec<Vec<u8>> = PAYLOADS
        .iter()
        .enumerate()
        .map(|(i, &p)| frame(p, i as u8 * 31))
        .collect();
    (frames.concat(), frames)
}

/// Chunk sizes: always `k`, or pseudo-random in 1..=64 when `k` is 0.
struct Chunks {
    k: usize,
    state: u64,
}

impl Chunks {
    fn next(&mut self) -> usize {
        if self.k > 0 {
            return self.k;
        }
        self.state = self
            .state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        1 + (self.state >> 33) as usize % 64
    }
}

/// A reader that returns at most one chunk per call.
struct Chunked<'a> {
    data: &'a [u8],
    chunks: Chunks,
}

impl Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.chunks.next().min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn chunkings() -> [Chunks; 4] {
    [
        Chunks { k: 1, state: 0 },
        Chunks { k: 3, state: 0 },
        Chunks { k: 0, state: 7 },
        Chunks { k: 0, state: 99 },
    ]
}

#[test]
fn frame_reader_reads_every_chunking() {
    let (bytes, frames) = stream();
    for chunks in chunkings() {
        let mut reader = FrameReader::new(Chunked {
            data: &bytes,
            chunks,
        });
        for expected in &frames {
            let got = reader.next_frame().unwrap().expect("a frame");
            assert_eq!(got, &expected[LENGTH_PREFIX_LEN..]);
        }
        assert!(reader.next_frame().unwrap().is_none());
    }
}

#[test]
fn frame_reader_reports_a_partial_frame_at_the_end() {
    for cut in 1..frame(9, 0).len() {
        let data = frame(9, 0);
        let mut reader = FrameReader::new(&data[..cut]);
        let err = reader.next_frame().unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "cut {cut}: {err}"
        );
    }
}

#[test]
fn codec_decodes_every_chunking_and_consumes_nothing_while_incomplete() {
    let (bytes, frames) = stream();
    for mut chunks in chunkings() {
        let mut codec = WireCodec::new();
        let mut src = BytesMut::new();
        let mut out = Vec::new();
        let mut fed = 0;
        while fed < bytes.len() {
            let n = chunks.next().min(bytes.len() - fed);
            src.extend_from_slice(&bytes[fed..fed + n]);
            fed += n;
            loop {
                let before = src.clone();
                match codec.decode(&mut src).unwrap() {
                    Some(frame) => out.push(frame.to_vec()),
                    None => {
                        assert_eq!(src, before, "nothing consumed while incomplete");
                        break;
                    }
                }
            }
        }
        assert!(codec.decode_eof(&mut src).unwrap().is_none());
        let expected: Vec<Vec<u8>> = frames
            .iter()
            .map(|f| f[LENGTH_PREFIX_LEN..].to_vec())
            .collect();
        assert_eq!(out, expected);
    }
}

#[test]
fn codec_reports_a_partial_frame_at_the_end() {
    let data = frame(9, 0);
    for cut in 1..data.len() {
        let mut codec = WireCodec::new();
        let mut src = BytesMut::from(&data[..cut]);
        assert!(codec.decode(&mut src).unwrap().is_none());
        let err = codec.decode_eof(&mut src).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::UnexpectedEof { .. }),
            "cut {cut}: {err}"
        );
    }
}

#[test]
fn a_frame_at_the_maximum_passes_and_one_byte_more_fails_before_allocating() {
    let max = MessageHeader::LEN + 4096;
    let at_max = frame(4096, 1);
    let over = frame(4097, 1);

    let mut reader = FrameReader::with_max_frame_size(&at_max[..], max);
    assert_eq!(reader.next_frame().unwrap().unwrap().len(), max);
    let mut reader = FrameReader::with_max_frame_size(&over[..], max);
    let err = reader.next_frame().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::FrameTooLarge { len: max + 1, max });
    assert_eq!(reader.capacity(), 0);

    let mut codec = WireCodec::with_max_frame_size(max);
    let mut src = BytesMut::from(&at_max[..]);
    assert_eq!(codec.decode(&mut src).unwrap().unwrap().len(), max);
    let mut codec = WireCodec::with_max_frame_size(max);
    // Only the prefix has arrived: the error comes before any room is reserved.
    let mut src = BytesMut::from(&over[..LENGTH_PREFIX_LEN]);
    let capacity = src.capacity();
    let err = codec.decode(&mut src).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::FrameTooLarge { .. }));
    assert_eq!(src.capacity(), capacity);
}

#[test]
fn a_length_near_u32_max_is_too_large_not_an_overflow() {
    let prefix = u32::MAX.to_le_bytes();
    let mut reader = FrameReader::with_max_frame_size(&prefix[..], usize::MAX);
    let err = reader.next_frame();
    // On 64-bit targets the frame is merely missing; on 32-bit its prefix and body do
    // not fit in memory: either way an error, never a panic.
    assert!(err.is_err());
    let mut codec = WireCodec::with_max_frame_size(usize::MAX);
    let mut src = BytesMut::from(&prefix[..]);
    match codec.decode(&mut src) {
        Ok(None) => assert!(std::hint::black_box(usize::BITS) > 32),
        Err(err) => assert!(matches!(err.kind(), ErrorKind::FrameTooLarge { .. })),
        Ok(Some(_)) => panic!("no frame is there"),
    }
}
