//! Hostile input: every check of FORMAT.md §7 fails with the right error kind, field
//! path and byte offset, and never with a panic.

mod common;

use common::handmade::{Part, message, split};
use common::*;
use wiremsg::{Error, ErrorKind, MAX_DEPTH, WireMsg};

fn put_u32(bytes: &mut [u8], at: usize, value: u32) {
    bytes[at..at + 4].copy_from_slice(&value.to_le_bytes());
}

fn get_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap())
}

fn find(bytes: &[u8], needle: &[u8]) -> usize {
    bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("needle in bytes")
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = order().to_bytes().unwrap();
    for len in 0..bytes.len() {
        assert!(
            Order::view(&bytes[..len]).is_err(),
            "order prefix of {len} bytes"
        );
    }
    let bytes = tick().to_bytes().unwrap();
    for len in 0..bytes.len() {
        let err = Tick::view(&bytes[..len]).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::Truncated {
                needed: 50,
                available: len
            }
        );
    }
    let bytes = chain(5).to_bytes().unwrap();
    for len in 0..bytes.len() {
        assert!(
            Node::view(&bytes[..len]).is_err(),
            "node prefix of {len} bytes"
        );
    }
}

#[test]
fn invalid_utf8_names_the_list_element_and_offset() {
    let mut bytes = order().to_bytes().unwrap();
    let at = find(&bytes, b"SKU-0004");
    bytes[at + 2] = 0xFF;
    let err = Order::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 2 });
    assert_eq!(err.path(), "items[3].sku");
    assert_eq!(err.offset(), at + 2);
    assert_eq!(
        err.to_string(),
        format!(
            "invalid UTF-8 after 2 valid bytes at byte {} in `items[3].sku`",
            at + 2
        )
    );
    let _: &dyn std::error::Error = &err;
}

#[test]
fn a_split_multibyte_char_is_invalid_utf8() {
    // "Trần" has a 3-byte char; cut the customer name in the middle of it.
    let mut bytes = order().to_bytes().unwrap();
    let customer_at = find(&bytes, "Trần".as_bytes());
    // Move the name's end offset into the middle of "ầ" (bytes 2..5 of the name).
    let block = Customer::BLOCK_LENGTH;
    let customer_start = customer_at - block;
    let name_end_slot = customer_start + CustomerView::NAME_OFFSET;
    let end = get_u32(&bytes, name_end_slot);
    put_u32(&mut bytes, name_end_slot, (block + 3) as u32);
    let err = Order::view(&bytes).unwrap_err();
    assert_eq!(err.path(), "customer.name");
    assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 2 });
    put_u32(&mut bytes, name_end_slot, end);
    assert!(Order::view(&bytes).is_ok());
}

#[test]
fn unknown_enum_value_bad_bool_and_bad_presence() {
    let mut bytes = tick().to_bytes().unwrap();
    bytes[TickView::SIDE_OFFSET] = 9;
    let err = Tick::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownEnumValue {
            enum_name: "Side".into(),
            value: 9
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("side", 48));

    #[derive(WireMsg, Debug)]
    struct Flags {
        id: u16,
        on: bool,
        limit: Option<u32>,
    }
    let good = Flags {
        id: 1,
        on: true,
        limit: Some(5),
    }
    .to_bytes()
    .unwrap();
    let mut bytes = good.clone();
    bytes[2] = 2;
    let err = Flags::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidBool { value: 2 });
    assert_eq!((err.path().as_str(), err.offset()), ("on", 2));
    let mut bytes = good;
    bytes[3] = 0x80;
    let err = Flags::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidPresence { value: 0x80 });
    assert_eq!((err.path().as_str(), err.offset()), ("limit", 3));
}

#[test]
fn end_offsets_out_of_range() {
    let good = login().to_bytes().unwrap();
    // username's end before the tail: no buffer holds such a message.
    let mut bytes = good.clone();
    put_u32(&mut bytes, 2, 14);
    let err = LoginRequest::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::OffsetOutOfRange {
            end: 14,
            min: 15,
            max: 42
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("username", 2));
    // username's end past the buffer, by one byte and by u32::MAX: the buffer is
    // truncated, and says how many bytes the message needs.
    for end in [43, u32::MAX] {
        let mut bytes = good.clone();
        put_u32(&mut bytes, 2, end);
        let err = LoginRequest::view(&bytes).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::Truncated {
                needed: end as usize,
                available: 42
            }
        );
        assert_eq!((err.path().as_str(), err.offset()), ("username", 2));
    }
    // password ends before username: regions may not go backwards.
    let mut bytes = good;
    put_u32(&mut bytes, 6, 20);
    let err = LoginRequest::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::OffsetOutOfRange {
            end: 20,
            min: 23,
            max: 42
        }
    );
    assert_eq!(err.path(), "password");
}

#[test]
fn block_length_too_small_or_past_the_end() {
    let good = login().to_bytes().unwrap();
    let mut bytes = good.clone();
    bytes[0] = 14;
    let err = LoginRequest::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BlockLengthTooSmall {
            declared: 14,
            required: 15,
            version: 1
        }
    );
    let mut bytes = good;
    bytes[..2].copy_from_slice(&500u16.to_le_bytes());
    let err = LoginRequest::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 500,
            available: 42
        }
    );
}

#[derive(WireMsg, Debug)]
struct Lists {
    prices: Vec<u32>,
    ticks: Vec<Tick>,
    names: Vec<String>,
}

fn lists() -> Vec<u8> {
    Lists {
        prices: vec![1, 2, 3],
        ticks: vec![tick(), tick()],
        names: vec!["a".into(), "bc".into()],
    }
    .to_bytes()
    .unwrap()
}

#[test]
fn packed_list_not_a_whole_number_of_elements() {
    let mut bytes = lists();
    // Shrink `prices` by one byte and grow `ticks` by one at its start: the price list
    // is 11 bytes.
    let prices_end = get_u32(&bytes, 2);
    put_u32(&mut bytes, 2, prices_end - 1);
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::ListLengthMismatch {
            len: 11,
            element_size: 4
        }
    );
    assert_eq!(err.path(), "prices");
}

#[test]
fn strided_list_stride_too_small_or_ragged() {
    let good = lists();
    let ticks_at = get_u32(&good, 2) as usize;
    let mut bytes = good.clone();
    bytes[ticks_at..ticks_at + 2].copy_from_slice(&0u16.to_le_bytes());
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::StrideTooSmall {
            stride: 0,
            required: 50
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("ticks", ticks_at));
    // Another version's stride (checked out of line) that does not divide the list.
    let mut bytes = good.clone();
    bytes[ticks_at..ticks_at + 2].copy_from_slice(&60u16.to_le_bytes());
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::ListLengthMismatch {
            len: 100,
            element_size: 60
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("ticks", ticks_at + 2));
    // The reader's own stride (checked inline) over a list one byte short.
    let mut bytes = good;
    let names_at = get_u32(&bytes, 6);
    put_u32(&mut bytes, 6, names_at - 1);
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::ListLengthMismatch {
            len: 99,
            element_size: 50
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("ticks", ticks_at + 2));
}

#[test]
fn table_list_count_too_large_does_not_allocate_or_loop() {
    let good = lists();
    let names_at = get_u32(&good, 6) as usize;
    assert_eq!(good.len() - names_at, 11); // starts 8, 9; "a", "bc"
    let mut bytes = good.clone();
    put_u32(&mut bytes, names_at, 0xFFFF_FFFC);
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::ListCountTooLarge {
            count: 0x3FFF_FFFF,
            available: 11
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("names", names_at));

    // A first start offset that is not a whole number of table entries.
    let mut bytes = good.clone();
    put_u32(&mut bytes, names_at, 7);
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::BadTableStart { start: 7, len: 11 });

    // Start offsets that go backwards.
    let mut bytes = good;
    put_u32(&mut bytes, names_at + 4, 7);
    let err = Lists::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::OffsetOutOfRange {
            end: 7,
            min: 8,
            max: 11
        }
    );
    assert_eq!(
        (err.path().as_str(), err.offset()),
        ("names[1]", names_at + 4)
    );
}

#[test]
fn nesting_deeper_than_the_limit_is_refused() {
    let ok = chain(MAX_DEPTH).to_bytes().unwrap();
    assert_eq!(Node::decode(&ok).unwrap(), chain(MAX_DEPTH));
    let written = chain(MAX_DEPTH + 1).to_bytes().unwrap_err();
    // The same nodes by hand: one more around the deepest list the encoder writes.
    let deep = message(&[Part::Fixed(&0u32.to_le_bytes()), Part::Tail(&split(&[&ok]))]);
    let err = Node::view(&deep).unwrap_err();
    assert_eq!((written.kind(), written.path()), (err.kind(), err.path()));
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    assert!(err.path().starts_with("children[0].children[0]"));
}

#[test]
fn errors_are_std_errors_with_debug() {
    let err: Error = Tick::view(&[]).unwrap_err();
    let debug = format!("{err:?}");
    assert!(debug.contains("Truncated"), "{debug}");
    assert_eq!(
        err.to_string(),
        "truncated: needs 50 bytes, has 0 at byte 0"
    );
}

#[test]
fn readme_error_example_is_real() {
    let mut bytes = order().to_bytes().unwrap();
    let at = find(&bytes, b"SKU-0004");
    bytes[at + 2] = 0xFF;
    let err = Order::view(&bytes).unwrap_err();
    let readme = include_str!("../../README.md");
    assert!(
        readme.contains(&err.to_string()),
        "README should quote: {err}"
    );
}

#[test]
fn list_elements_with_checked_fields_are_still_checked() {
    // Lists of number-only elements are validated by length alone; elements with a
    // bool, an enum or text are still checked one by one.
    #[derive(WireMsg, Debug)]
    struct Flagged {
        id: u32,
        on: bool,
    }
    #[derive(WireMsg, Debug)]
    struct Batch {
        numbers: Vec<Level>,
        flags: Vec<Flagged>,
    }
    #[derive(WireMsg, Debug)]
    struct Level {
        price: i64,
        size: u32,
    }
    let batch = Batch {
        numbers: vec![Level { price: 1, size: 2 }],
        flags: vec![Flagged { id: 1, on: true }, Flagged { id: 2, on: false }],
    };
    let mut bytes = batch.to_bytes().unwrap();
    let last = bytes.len() - 1;
    bytes[last] = 2;
    let err = Batch::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidBool { value: 2 });
    assert_eq!((err.path().as_str(), err.offset()), ("flags[1].on", last));
}

/// A message whose tail holds only text: validation checks that tail as one run and
/// each string only where it starts and ends (`mode::Skim`).
#[derive(WireMsg, Debug, PartialEq)]
struct TextTail {
    a: String,
    b: Option<String>,
    c: String,
}

#[derive(WireMsg, Debug, PartialEq)]
struct TextTails {
    items: Vec<TextTail>,
}

#[test]
fn a_tail_of_text_checked_as_one_run_still_checks_every_string() {
    let value = TextTail {
        a: "xé".into(),
        b: None,
        c: "yz".into(),
    };
    let block = TextTail::BLOCK_LENGTH;
    let a_end = TextTailView::A_OFFSET;
    let b_end = TextTailView::B_OFFSET + 1;
    let root = value.to_bytes().unwrap();
    let nested = TextTails { items: vec![value] }.to_bytes().unwrap();
    // The root message, or the list element at `base`.
    let view = |bytes: &[u8], base: usize| match base {
        0 => TextTail::view(bytes).map(|_| ()),
        _ => TextTails::view(bytes).map(|_| ()),
    };
    let element = find(&nested, "xé".as_bytes()) - block;
    for (bytes, path, c_path, base) in [
        (root, "a", "c", 0),
        (nested.clone(), "items[0].a", "items[0].c", element),
    ] {
        // `a` ends inside "é", whose last byte is the absent `b`'s region: the tail
        // as a whole is UTF-8, `a` is not.
        let mut cut = bytes.clone();
        put_u32(&mut cut, base + a_end, (block + 2) as u32);
        put_u32(&mut cut, base + b_end, (block + 3) as u32);
        let err = view(&cut, base).unwrap_err();
        assert_eq!(err.path(), path);
        assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 1 });
        assert_eq!(err.offset(), base + block + 1);
        // `c` starts inside "é", whose first byte is the absent `b`'s region.
        let mut cut = bytes.clone();
        put_u32(&mut cut, base + a_end, (block + 1) as u32);
        put_u32(&mut cut, base + b_end, (block + 2) as u32);
        let err = view(&cut, base).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 0 });
        assert_eq!(err.offset(), base + block + 2);
        assert_eq!(err.path(), c_path);
        assert!(view(&bytes, base).is_ok());
    }
}

#[test]
fn an_absent_options_stray_bytes_do_not_fail_a_tail_of_text() {
    // A writer leaves an absent option's region empty; a reader ignores one that is
    // not, even when it is not UTF-8 (the one-run check then defers to the checked
    // pass).
    let block = TextTail::BLOCK_LENGTH;
    let mut bytes = TextTail {
        a: "xé".into(),
        b: None,
        c: "yz".into(),
    }
    .to_bytes()
    .unwrap();
    bytes.insert(block + 3, 0xFF);
    put_u32(&mut bytes, TextTailView::B_OFFSET + 1, (block + 4) as u32);
    put_u32(&mut bytes, TextTailView::C_OFFSET, (block + 6) as u32);
    let view = TextTail::view(&bytes).unwrap();
    assert_eq!((view.a(), view.b(), view.c()), ("xé", None, "yz"));
}
