#![no_main]
//! `WireCodec` over arbitrary streams fed in chunks (the first byte picks the chunk
//! size): no panic, and the same frames as `FrameReader` reads from the whole stream.
use bytes::BytesMut;
use libfuzzer_sys::fuzz_target;
use tokio_util::codec::Decoder;
use wiremsg::FrameReader;
use wiremsg::frame::WireCodec;

fuzz_target!(|data: &[u8]| {
    let Some((&chunk, stream)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(chunk % 16) + 1;
    let max = 4096;

    let mut expected = Vec::new();
    let mut reader = FrameReader::with_max_frame_size(stream, max);
    let reader_end = loop {
        match reader.next_frame() {
            Ok(Some(frame)) => expected.push(frame.to_vec()),
            Ok(None) => break Ok(()),
            Err(err) => break Err(err.kind().clone()),
        }
    };

    let mut codec = WireCodec::with_max_frame_size(max);
    let mut src = BytesMut::new();
    let mut got = Vec::new();
    let mut codec_end = Ok(());
    'feed: for piece in stream.chunks(chunk) {
        src.extend_from_slice(piece);
        loop {
            match codec.decode(&mut src) {
                Ok(Some(frame)) => got.push(frame.to_vec()),
                Ok(None) => break,
                Err(err) => {
                    codec_end = Err(err.kind().clone());
                    break 'feed;
                }
            }
        }
    }
    if codec_end.is_ok() {
        loop {
            match codec.decode_eof(&mut src) {
                Ok(Some(frame)) => got.push(frame.to_vec()),
                Ok(None) => break,
                Err(err) => {
                    codec_end = Err(err.kind().clone());
                    break;
                }
            }
        }
    }
    assert_eq!(got, expected);
    assert_eq!(codec_end.is_ok(), reader_end.is_ok());
});
