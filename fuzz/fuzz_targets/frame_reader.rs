#![no_main]
//! `FrameReader` over arbitrary streams, with a small maximum: no panic, frames within
//! the maximum, and each frame dispatched.
use libfuzzer_sys::fuzz_target;
use wiremsg::FrameReader;
use wiremsg_fuzz::Feed;

fuzz_target!(|data: &[u8]| {
    let max = 4096;
    let mut reader = FrameReader::with_max_frame_size(data, max);
    for _ in 0..data.len() + 1 {
        match reader.next_frame() {
            Ok(Some(frame)) => {
                assert!(frame.len() <= max);
                let _ = Feed::view(frame);
            }
            Ok(None) | Err(_) => break,
        }
    }
    assert!(reader.capacity() <= max);
});
