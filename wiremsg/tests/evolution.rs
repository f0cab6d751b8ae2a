//! Every version pair reads correctly or fails loudly (FORMAT.md §5, §8): the holes
//! found by a hostile trial of the first release, each with the input that showed it.

use wiremsg::{ErrorKind, Template, WireDispatch, WireEnum, WireMsg};

mod v2 {
    #[derive(wiremsg::WireMsg, Debug, Clone, Copy, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Element {
        pub(crate) a: u32,
        #[wire(since = 2)]
        pub(crate) b: u32,
        #[wire(since = 2)]
        pub(crate) c: u64,
    }

    #[derive(wiremsg::WireMsg, Debug, PartialEq)]
    pub(crate) struct Holder {
        pub(crate) items: Vec<Element>,
    }
}

/// A list whose stride ends inside an element's field is no version's element: the
/// same rule as a block that ends inside a field, for every element kind.
#[test]
fn a_stride_that_ends_inside_a_field_is_block_length_too_small() {
    // Holder: block length 6, items end at 6 + 2 + 2 * 6; stride 6, two elements.
    let mut bytes = vec![6, 0, 20, 0, 0, 0, 6, 0];
    bytes.extend([1, 0, 0, 0, 9, 9, 2, 0, 0, 0, 9, 9]);
    let err = v2::Holder::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BlockLengthTooSmall {
            declared: 6,
            required: 8,
            version: 2
        }
    );
    assert_eq!(err.path(), "items[0].b");
    // Strides that end between fields are older (or newer) elements.
    for stride in [4u16, 8, 16, 20] {
        let mut bytes = vec![6, 0, 0, 0, 0, 0];
        bytes.extend(stride.to_le_bytes());
        bytes.extend(vec![0; usize::from(stride)]);
        let end = (bytes.len() as u32).to_le_bytes();
        bytes[2..6].copy_from_slice(&end);
        let view = v2::Holder::view(&bytes).unwrap();
        let element = view.items().get(0).unwrap();
        assert_eq!(element.has_b(), stride >= 8, "stride {stride}");
        assert_eq!(element.has_c(), stride >= 16, "stride {stride}");
    }
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(template_id = 1, schema_id = 1)]
struct Ping {
    id: u32,
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(template_id = 1, schema_id = 2)]
struct Quote {
    price: i64,
    size: u32,
}

#[derive(WireDispatch, Debug, PartialEq)]
enum Mixed {
    Ping(Ping),
    Quote(Quote),
}

/// Variants that share a template id under different schema ids are each read.
#[test]
fn dispatch_matches_the_template_and_schema_pair() {
    let mut bytes = Vec::new();
    Quote { price: 5, size: 7 }
        .encode_with_header(&mut bytes)
        .unwrap();
    assert_eq!(
        Mixed::decode(&bytes).unwrap(),
        Mixed::Quote(Quote { price: 5, size: 7 })
    );
    let mut bytes = Vec::new();
    Ping { id: 3 }.encode_with_header(&mut bytes).unwrap();
    assert_eq!(Mixed::decode(&bytes).unwrap(), Mixed::Ping(Ping { id: 3 }));
    // A known template id under an unknown schema id.
    bytes[4] = 9;
    let err = Mixed::view(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            &ErrorKind::SchemaMismatch {
                schema_id: 9,
                expected: Ping::SCHEMA_ID
            },
            4
        )
    );
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Liquidity {
    Added = 1,
    Removed = 2,
    #[wire(other)]
    Other(u8),
}

#[derive(WireMsg, Debug, PartialEq)]
struct Fill {
    liquidity: Liquidity,
}

/// A catch-all variant holding a known value is that value on the wire: it reads back
/// as the known variant (FORMAT.md §4.4). `Other(v)` round-trips for unknown `v` only.
#[test]
fn a_catch_all_holding_a_known_value_reads_as_the_known_variant() {
    let bytes = Fill {
        liquidity: Liquidity::Other(2),
    }
    .to_bytes()
    .unwrap();
    assert_eq!(bytes, [2]);
    assert_eq!(Fill::decode(&bytes).unwrap().liquidity, Liquidity::Removed);
    for raw in [0u8, 3, 255] {
        let bytes = Fill {
            liquidity: Liquidity::Other(raw),
        }
        .to_bytes()
        .unwrap();
        assert_eq!(
            Fill::decode(&bytes).unwrap().liquidity,
            Liquidity::Other(raw)
        );
    }
}

mod tick {
    pub(crate) mod v1 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(template_id = 4)]
        pub(crate) struct Tick {
            pub(crate) price: i64,
        }
    }

    pub(crate) mod v2 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(template_id = 4, version = 2)]
        pub(crate) struct Tick {
            pub(crate) price: i64,
            #[wire(since = 2)]
            pub(crate) size: u32,
        }
    }
}

/// Fixed-size messages one after another: without a header, a message takes the
/// whole buffer as its block (a newer reader would read the next message as its new
/// fields); with headers, each block is bounded and a setter stays inside it.
#[test]
fn back_to_back_fixed_size_messages_are_walked_with_headers() {
    use tick::{v1, v2};
    let mut stream = Vec::new();
    v1::Tick { price: 10 }
        .encode_with_header(&mut stream)
        .unwrap();
    v1::Tick { price: 20 }
        .encode_with_header(&mut stream)
        .unwrap();

    // Without headers the v2 reader sees one 16-byte v2 message.
    let bare: Vec<u8> = [10i64.to_le_bytes(), 20i64.to_le_bytes()].concat();
    assert!(v2::Tick::view(&bare).unwrap().has_size());

    let mut at = 0;
    let mut prices = Vec::new();
    while at < stream.len() {
        let (header, view) = v2::Tick::view_with_header(&stream[at..]).unwrap();
        assert!(!view.has_size());
        prices.push(view.price());
        at += wiremsg::MessageHeader::LEN + usize::from(header.block_length);
    }
    assert_eq!(prices, [10, 20]);
    // A setter of a field the writer did not have writes nothing.
    let (header, _) = v2::Tick::view_with_header(&stream).unwrap();
    let first = &mut stream[8..8 + usize::from(header.block_length)];
    assert!(!v2::Tick::view_mut(first).unwrap().set_size(7));
    assert_eq!(
        v1::Tick::view_with_header(&stream[16..]).unwrap().1.price(),
        20
    );
}

mod arrays {
    #[derive(wiremsg::WireEnum, Debug, Clone, Copy, PartialEq, Default)]
    #[repr(u8)]
    pub(crate) enum Venue {
        #[default]
        Xnas = 1,
        Xnys = 2,
    }

    pub(crate) mod v1 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Book {
            pub(crate) id: u32,
        }
    }

    pub(crate) mod v2 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Book {
            pub(crate) id: u32,
            #[wire(since = 2)]
            pub(crate) levels: [i64; 3],
            #[wire(since = 2)]
            pub(crate) venues: [super::Venue; 2],
        }
    }
}

/// An array field added in a later version, with no declared default, has a plain
/// accessor: older bytes read as zeros where zeros are valid elements, and as no
/// elements where they are not (an enum with no zero value); decode gives `Default`.
#[test]
fn a_later_array_field_without_a_default_reads_on_older_bytes() {
    use arrays::{Venue, v1, v2};
    let old = v1::Book { id: 4 }.to_bytes().unwrap();
    let view = v2::Book::view(&old).unwrap();
    assert!(!view.has_levels());
    assert_eq!(view.levels().to_array(), [0, 0, 0]);
    assert_eq!(view.levels().get(2), Some(0));
    assert_eq!(view.venues().get(0), None);
    assert_eq!(view.venues().iter().count(), 0);
    assert_eq!(view.venues().iter().len(), 0);
    let decoded = v2::Book::decode(&old).unwrap();
    assert_eq!(decoded.levels, [0, 0, 0]);
    assert_eq!(decoded.venues, [Venue::Xnas, Venue::Xnas]);
}

/// Arrays of more than 32 elements have no `Default`: a later or reserved field of
/// one still decodes, each element its type's default.
#[test]
fn later_and_reserved_arrays_of_any_length_decode_on_older_bytes() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct V1 {
        id: u32,
        spare: [u8; 40],
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    struct V2 {
        id: u32,
        #[wire(reserved)]
        spare: [u8; 40],
        #[wire(since = 2)]
        bands: [[u16; 2]; 33],
        #[wire(since = 2)]
        flags: Option<[bool; 48]>,
    }

    let old = V1 {
        id: 9,
        spare: [7; 40],
    }
    .to_bytes()
    .unwrap();
    let decoded = V2::decode(&old).unwrap();
    assert_eq!(
        decoded,
        V2 {
            id: 9,
            spare: [0; 40],
            bands: [[0; 2]; 33],
            flags: None,
        }
    );
    // Reserved: written as zeros whatever the value holds.
    let new = V2 {
        id: 1,
        spare: [5; 40],
        bands: [[3, 4]; 33],
        flags: Some([true; 48]),
    };
    let bytes = new.to_bytes().unwrap();
    assert_eq!(bytes[4..44], [0; 40]);
    let back = V2::decode(&bytes).unwrap();
    assert_eq!(
        (back.spare, back.bands, back.flags),
        ([0; 40], new.bands, new.flags)
    );
}

/// A field added in version 2 and since removed (`since = 2, reserved`) keeps its
/// slot and counts for `version()`: the derive read its presence through an accessor
/// a reserved field does not have (E0599 `has_gone`), so the message did not compile.
#[test]
fn a_reserved_field_of_a_later_version_counts_for_the_version() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct V1 {
        a: u8,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    struct V2 {
        a: u8,
        #[wire(since = 2, reserved)]
        gone: u16,
    }

    let new = V2 { a: 7, gone: 0 }.to_bytes().unwrap();
    assert_eq!(new, [7, 0, 0]);
    assert_eq!(V2::view(&new).unwrap().version(), 2);
    assert_eq!(V2::view_mut(&mut new.clone()).unwrap().version(), 2);

    let old = V1 { a: 7 }.to_bytes().unwrap();
    assert_eq!(old, [7]);
    let view = V2::view(&old).unwrap();
    assert_eq!((view.version(), view.a()), (1, 7));
}
