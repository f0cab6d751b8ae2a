#![no_main]
//! Dispatch on message headers: no panic; an accepted message decodes, re-encodes
//! with its header (as this reader's version) and decodes to the same value; read on
//! demand (`Feed::view_lazy`), every field fails exactly where `Feed::view` does,
//! with the same error, or reads the decoded value.
use libfuzzer_sys::fuzz_target;
use wiremsg_fuzz::Feed;

fuzz_target!(|data: &[u8]| {
    wiremsg_fuzz::lazy::check_framed(data);
    if Feed::view(data).is_ok() {
        let value = Feed::decode(data).expect("decode accepts what view does");
        let mut again = Vec::new();
        value
            .encode_with_header(&mut again)
            .expect("a decoded value encodes");
        let reread = Feed::decode(&again).expect("an encoded value decodes");
        // Debug, not PartialEq: NaN payloads compare unequal but print alike.
        assert_eq!(format!("{reread:?}"), format!("{value:?}"));
    }
});
