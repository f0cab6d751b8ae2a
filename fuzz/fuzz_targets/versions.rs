#![no_main]
//! Version 1 and version 2 readers over the same bytes: whatever the newer reader
//! accepts, the older one accepts too and reads the same values for the fields both
//! know.
use libfuzzer_sys::fuzz_target;
use wiremsg::WireMsg;
use wiremsg_fuzz::{agree, v1, v2};

fuzz_target!(|data: &[u8]| {
    let new = agree!(v2::Quote, data);
    let old = agree!(v1::Quote, data);
    if new {
        assert!(old, "a v1 reader refused bytes a v2 reader accepted");
        let (a, b) = (
            v1::Quote::view(data).unwrap(),
            v2::Quote::view(data).unwrap(),
        );
        assert_eq!((a.price(), a.venue()), (b.price(), b.venue()));
    }
});
