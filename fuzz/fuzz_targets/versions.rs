#![no_main]
//! Version 1 and version 2 readers over the same bytes: whatever the newer reader
//! accepts, the older one accepts too and reads the same values for the fields both
//! know; alone, and as the elements of a split list (FORMAT.md §6.3), whose blocks
//! and tails are longer in version 2.
use libfuzzer_sys::fuzz_target;
use wiremsg::WireMsg;
use wiremsg_fuzz::{agree, book_v1, book_v2, v1, v2};

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

    let new = agree!(book_v2::Book, data);
    let old = agree!(book_v1::Book, data);
    if new {
        assert!(old, "a v1 reader refused a list a v2 reader accepted");
        let (a, b) = (
            book_v1::Book::view(data).unwrap().quotes(),
            book_v2::Book::view(data).unwrap().quotes(),
        );
        assert_eq!(a.len(), b.len());
        for (a, b) in a.iter().zip(b.iter()) {
            assert_eq!((a.price(), a.venue()), (b.price(), b.venue()));
        }
    }
});
