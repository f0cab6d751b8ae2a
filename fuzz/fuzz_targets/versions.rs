#![no_main]
//! Version 1 and version 2 readers over the same bytes: whatever the newer reader
//! accepts, the older one accepts too and reads the same values for the fields both
//! know; alone, and as the elements of a split list (FORMAT.md §6.3), whose blocks
//! and tails are longer in version 2. In a dense list (§6.8) of a union that gains a
//! variant and whose payload gains a field, the older reader accepts exactly what
//! the newer one accepts without that variant in an element, and reads the same
//! variants and the fields it knows.
use libfuzzer_sys::fuzz_target;
use wiremsg::WireMsg;
use wiremsg_fuzz::{agree, book_v1, book_v2, ticks_v1, ticks_v2, v1, v2};

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

    let new = agree!(ticks_v2::Ticks, data);
    let old = agree!(ticks_v1::Ticks, data);
    if new {
        let b = ticks_v2::Ticks::view(data).unwrap();
        let newer = b
            .ticks()
            .iter()
            .any(|t| matches!(t, ticks_v2::TickView::Stop(_)));
        assert_eq!(
            old, !newer,
            "a v1 reader of a dense list a v2 reader accepted: refused it without a \
             v2 variant in an element, or accepted one"
        );
        if old {
            let a = ticks_v1::Ticks::view(data).unwrap();
            assert_eq!(a.seq(), b.seq());
            assert_eq!(a.ticks().len(), b.ticks().len());
            for (a, b) in a.ticks().iter().zip(b.ticks().iter()) {
                use ticks_v1::TickView as A;
                use ticks_v2::TickView as B;
                match (a, b) {
                    (A::Halt, B::Halt) => {}
                    (A::Trade(a), B::Trade(b)) => assert_eq!(a.px(), b.px()),
                    (A::Cancel(a), B::Cancel(b)) => assert_eq!(a.id(), b.id()),
                    (a, b) => panic!("v1 read {a:?}, v2 {b:?}"),
                }
            }
        }
    }
});
