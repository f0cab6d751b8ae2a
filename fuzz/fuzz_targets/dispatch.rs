#![no_main]
//! Dispatch on message headers: no panic; an accepted message decodes, re-encodes with
//! its header and dispatches to the same value.
use libfuzzer_sys::fuzz_target;
use wiremsg_fuzz::Feed;

fuzz_target!(|data: &[u8]| {
    if let Ok((_, view)) = Feed::view(data) {
        let shown = format!("{view:?}");
        let value = Feed::decode(data).expect("decode accepts what view does");
        let mut again = Vec::new();
        value
            .encode_with_header(&mut again)
            .expect("a decoded value encodes");
        let (_, reread) = Feed::view(&again).expect("an encoded value views");
        assert_eq!(format!("{reread:?}"), shown);
    }
});
