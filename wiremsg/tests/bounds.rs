//! Resource bounds: sizes past what the format can address are errors, never panics,
//! wrapped arithmetic or short messages (FORMAT.md §1).

use wiremsg::{ErrorKind, Template, WireMsg};

#[derive(WireMsg, Debug)]
#[wire(template_id = 1)]
struct Batch<'a> {
    id: u32,
    names: Vec<&'a str>,
}

#[derive(WireMsg, Debug)]
struct Nested<'a> {
    inner: Vec<Batch<'a>>,
    tail: &'a [u8],
}

/// 1,100 borrowed 4 MiB strings: 4.6 GB of text that takes 4 MiB of memory.
fn huge() -> (String, usize) {
    ("x".repeat(4 << 20), 1100)
}

#[test]
fn a_message_past_u32_max_is_too_large_everywhere() {
    let (text, count) = huge();
    let batch = Batch {
        id: 1,
        names: vec![text.as_str(); count],
    };
    // Past u32::MAX on 64-bit targets; saturated at usize::MAX (= u32::MAX) on 32-bit.
    assert!(batch.encoded_len() >= u32::MAX as usize);
    let too_large = |kind: &ErrorKind| matches!(kind, ErrorKind::TooLarge { .. });
    assert!(too_large(batch.to_bytes().unwrap_err().kind()));
    assert!(too_large(
        batch.encode_into(&mut [0; 64]).unwrap_err().kind()
    ));
    let mut out = Vec::new();
    assert!(too_large(batch.encode(&mut out).unwrap_err().kind()));
    assert!(out.is_empty());
    assert!(too_large(
        batch
            .encode_with_header_into(&mut [0; 64])
            .unwrap_err()
            .kind()
    ));
    assert!(too_large(
        batch.encode_with_header(&mut out).unwrap_err().kind()
    ));
    assert!(out.is_empty());
    // Nested, the sums saturate instead of wrapping.
    let nested = Nested {
        inner: vec![
            Batch {
                id: 2,
                names: vec![text.as_str(); count],
            };
            4
        ],
        tail: &[],
    };
    assert!(too_large(nested.to_bytes().unwrap_err().kind()));
}

impl Clone for Batch<'_> {
    fn clone(&self) -> Self {
        Batch {
            id: self.id,
            names: self.names.clone(),
        }
    }
}

mod grown {
    pub(crate) mod v1 {
        #[derive(wiremsg::WireMsg, Debug, Clone, Copy, Default, PartialEq)]
        pub(crate) struct Element {
            pub(crate) a: u8,
        }

        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Holder {
            pub(crate) items: Vec<Element>,
        }
    }

    pub(crate) mod v2 {
        #[derive(wiremsg::WireMsg, Debug, Clone, Copy, Default, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Element {
            pub(crate) a: u8,
            #[wire(since = 2)]
            pub(crate) big: [[u64; 32]; 32],
        }

        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Holder {
            pub(crate) items: Vec<Element>,
        }
    }
}

/// A newer reader decoding an older writer's list gives every element its own (here
/// 8 KiB) size: 16 KB of 1-byte elements would decode into 134 MB. `decode` refuses
/// before allocating; a larger budget is the caller's explicit choice.
#[test]
fn decode_allocates_within_its_budget() {
    use grown::{v1, v2};
    let old = v1::Holder {
        items: vec![v1::Element { a: 7 }; 16_000],
    }
    .to_bytes()
    .unwrap();
    assert!(old.len() < 16_100);
    let err = v2::Holder::decode(&old).unwrap_err();
    let element = core::mem::size_of::<v2::Element>();
    assert_eq!(
        err.kind(),
        &ErrorKind::DecodeBudgetExceeded {
            needed: 16_000 * element,
            budget: wiremsg::decode_budget(old.len())
        }
    );
    assert_eq!(wiremsg::decode_budget(old.len()), 1 << 20);

    let few = v1::Holder {
        items: vec![v1::Element { a: 7 }; 100],
    }
    .to_bytes()
    .unwrap();
    let decoded = v2::Holder::decode(&few).unwrap();
    assert_eq!(decoded.items.len(), 100);
    assert_eq!(decoded.items[99].a, 7);
    assert!(v2::Holder::decode_with_budget(&few, 100 * element - 1).is_err());
    assert!(v2::Holder::decode_with_budget(&few, 100 * element).is_ok());
}
