//! Safe code outside wiremsg that implements its public traits by hand cannot get a
//! view over bytes that did not pass validation for that view's layout (issue: the
//! views redesign). Each test builds the bad bytes with a hand-made field type and
//! shows that validation, which only wiremsg runs, refuses them.

use wiremsg::{ErrorKind, Field, FixedStr, TypeSchema, WireMsg};

/// Claims the wire shape of `FixedStr<4>` but writes bytes that are not UTF-8.
#[derive(Debug, Default, PartialEq)]
struct NotText;

impl Field for NotText {
    type Kind = FixedStr<4>;
    const TYPE: &'static TypeSchema = &TypeSchema::FixedStr { len: 4 };

    fn tail_len(&self) -> usize {
        0
    }

    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        block.copy_from_slice(&[0xFF, 0xFE, 0xC3, 0x28]);
    }
}

/// Claims the shape of a string but writes an end offset past the message.
#[derive(Debug, Default, PartialEq)]
struct LongText;

impl Field for LongText {
    type Kind = wiremsg::kind::Text;
    const TYPE: &'static TypeSchema = &TypeSchema::Str;

    fn tail_len(&self) -> usize {
        2
    }

    fn write(&self, _: &mut [u8], tail: &mut [u8]) {
        tail.copy_from_slice(&[0xC3, 0x28]);
    }
}

#[derive(WireMsg, Debug)]
struct Holder {
    symbol: NotText,
}

#[derive(WireMsg, Debug)]
struct Nested {
    inner: [Holder; 1],
    text: LongText,
}

#[test]
fn hand_made_fixed_text_is_validated_by_its_kind() {
    let bytes = Holder { symbol: NotText }.to_bytes().unwrap();
    assert_eq!(bytes, [0xFF, 0xFE, 0xC3, 0x28]);
    let err = Holder::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 0 });
    assert_eq!(err.path(), "symbol");
    let mut copy = bytes.clone();
    assert!(Holder::view_mut(&mut copy).is_err());
}

#[test]
fn hand_made_text_and_arrays_of_messages_are_validated() {
    let bytes = Nested {
        inner: [Holder { symbol: NotText }],
        text: LongText,
    }
    .to_bytes()
    .unwrap();
    let err = Nested::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 0 });
    assert_eq!(err.path(), "inner[0].symbol");
    assert_eq!(err.offset(), 2);
}

#[test]
fn good_bytes_read_through_the_hand_made_kind() {
    let bytes = *b"AB  ";
    let view = Holder::view(&bytes).unwrap();
    assert_eq!(view.symbol(), "AB");
    // The unchecked path reads the same value in O(1).
    // SAFETY: `view` accepted these bytes just above.
    let unchecked = unsafe { Holder::view_unchecked(&bytes) };
    assert_eq!(unchecked.symbol(), "AB");
}

/// A fixed-size message whose encoding a hand-made field spoils is validated before it
/// is set in place as a whole: the bytes stay as they were.
#[test]
fn a_nested_message_set_in_place_is_validated_first() {
    #[derive(WireMsg, Debug)]
    struct Parent {
        id: u8,
        holder: Holder,
        maybe: Option<Holder>,
    }
    let mut bytes = vec![7, b'A', b'B', b'C', b'D', 0, 0, 0, 0, 0];
    let mut edit = Parent::view_mut(&mut bytes).unwrap();
    edit.set_holder(Holder { symbol: NotText });
    edit.set_maybe(Some(Holder { symbol: NotText }));
    assert_eq!(bytes, [7, b'A', b'B', b'C', b'D', 0, 0, 0, 0, 0]);
    let view = Parent::view(&bytes).unwrap();
    assert_eq!(
        (view.holder().symbol(), view.maybe().is_none()),
        ("ABCD", true)
    );
}
