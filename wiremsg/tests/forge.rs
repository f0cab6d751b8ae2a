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

/// Claims 8 bytes of tail but appends 3, and puts another output in the place of
/// the one it was given: encoding must still hand back initialized bytes (zeros
/// where nothing was written), never memory it did not write.
#[derive(Debug, Default, PartialEq)]
struct ShortTail {
    swap: bool,
}

impl Field for ShortTail {
    type Kind = wiremsg::kind::Text;
    const TYPE: &'static TypeSchema = &TypeSchema::Str;

    fn tail_len(&self) -> usize {
        8
    }

    fn write(&self, _: &mut [u8], _: &mut [u8]) {}

    fn append_tail(&self, _: &mut [u8], tail: &mut wiremsg::__private::Out<'_>) {
        tail.append(b"abc");
        if self.swap {
            // An empty output elsewhere (no allocation, so nothing leaks under miri).
            let mut other = wiremsg::__private::Out::over(&mut []);
            core::mem::swap(tail, &mut other);
        }
    }
}

#[derive(WireMsg, Debug, Default, PartialEq)]
struct HoldsShortTail {
    id: u32,
    text: ShortTail,
    after: String,
}

#[test]
fn encoding_hands_back_only_bytes_it_wrote() {
    for swap in [false, true] {
        let value = HoldsShortTail {
            id: 9,
            text: ShortTail { swap },
            after: "xy".into(),
        };
        let mut out = vec![0xAA; 3];
        let len = value.encode(&mut out).unwrap();
        // Block: block length 14, id, the two end offsets; then the tails.
        assert_eq!(len, 14 + 8 + 2);
        assert_eq!(&out[..3], [0xAA; 3], "what was there is kept");
        let bytes = &out[3..];
        assert_eq!(&bytes[..6], [14, 0, 9, 0, 0, 0]);
        if swap {
            // The replaced output's bytes are not counted: the message's tail
            // after the block reads as zeros, whatever was appended.
            assert_eq!(&bytes[14..], [0; 10]);
        } else {
            assert_eq!(&bytes[14..17], b"abc");
            assert_eq!(&bytes[17..19], b"xy");
            assert_eq!(&bytes[19..], [0; 5]);
        }
        // The same bytes into a slice, whatever it held: none of its old bytes
        // reaches the wire.
        let mut slice = [0x55u8; 24];
        assert_eq!(value.encode_into(&mut slice).unwrap(), len);
        assert_eq!(&slice[..], bytes);
    }
}

/// A union's struct variant writes its fields as a message does: what a lying
/// field leaves unwritten is zeros through `encode_into` as through `encode`.
#[derive(wiremsg::WireUnion, Debug)]
#[repr(u8)]
enum HoldsShortTailInUnion {
    A {
        id: u32,
        text: ShortTail,
        after: String,
    } = 1,
}

#[test]
fn a_union_hands_back_only_bytes_it_wrote() {
    use wiremsg::WireUnion;
    let value = HoldsShortTailInUnion::A {
        id: 9,
        text: ShortTail { swap: false },
        after: "xy".into(),
    };
    let mut out = Vec::new();
    let len = value.encode(&mut out).unwrap();
    // The tag, then the message of `HoldsShortTail` above.
    assert_eq!(len, 1 + 14 + 8 + 2);
    assert_eq!(&out[15..], b"abcxy\0\0\0\0\0");
    let mut slice = vec![0x55u8; len];
    assert_eq!(value.encode_into(&mut slice).unwrap(), len);
    assert_eq!(slice, out);
}

/// Claims no tail but appends 4 bytes: the message after it in the tail no longer
/// fits in the bytes `encoded_len` counted.
#[derive(Debug, Default, PartialEq)]
struct UncountedTail;

impl Field for UncountedTail {
    type Kind = wiremsg::kind::Text;
    const TYPE: &'static TypeSchema = &TypeSchema::Str;

    fn tail_len(&self) -> usize {
        0
    }

    fn write(&self, _: &mut [u8], _: &mut [u8]) {}

    fn append_tail(&self, _: &mut [u8], tail: &mut wiremsg::__private::Out<'_>) {
        tail.append(&[0xEE; 4]);
    }
}

#[derive(WireMsg, Debug, Default, PartialEq)]
struct Named {
    name: String,
}

#[derive(WireMsg, Debug, Default, PartialEq)]
struct HoldsUncountedTail {
    text: UncountedTail,
    inner: Named,
}

/// A nested block that does not fit what is left of the output is not written at
/// all: the rest of the output is zeros, and nothing is written past its end.
#[test]
fn a_block_that_no_longer_fits_is_cut_to_zeros() {
    let value = HoldsUncountedTail {
        text: UncountedTail,
        inner: Named { name: "x".into() },
    };
    // Block: block length 10, the two end offsets; the inner message (block length
    // 6, its end offset, "x") would take 7 bytes, of which 3 are left.
    let expected = [
        10, 0, 14, 0, 0, 0, 17, 0, 0, 0, 0xEE, 0xEE, 0xEE, 0xEE, 0, 0, 0,
    ];
    let mut out = vec![0xAA; 2];
    assert_eq!(value.encode(&mut out).unwrap(), 17);
    assert_eq!((&out[..2], &out[2..]), (&[0xAA; 2][..], &expected[..]));
    let mut slice = [0x55u8; 20];
    assert_eq!(value.encode_into(&mut slice).unwrap(), 17);
    assert_eq!(
        (&slice[..17], &slice[17..]),
        (&expected[..], &[0x55; 3][..])
    );
}

/// Says its tail is empty the first time it is asked, then `usize::MAX`: sums a
/// list or map makes while writing must not overflow (a panic in a debug build).
#[derive(Debug, Default)]
struct FickleTail {
    asked: core::cell::Cell<u32>,
}

impl Field for FickleTail {
    type Kind = wiremsg::kind::Text;
    const TYPE: &'static TypeSchema = &TypeSchema::Str;

    fn tail_len(&self) -> usize {
        let asked = self.asked.get();
        self.asked.set(asked + 1);
        if asked == 0 { 0 } else { usize::MAX }
    }

    fn write(&self, _: &mut [u8], _: &mut [u8]) {}
}

impl wiremsg::Element for FickleTail {
    type ListView<'v> = wiremsg::List<'v, Self>;

    fn list_view<'v>(list: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self> {
        list
    }

    fn list_of<'v>(list: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self>
    where
        Self: 'v,
    {
        list
    }
}

#[derive(WireMsg, Debug, Default)]
#[wire(no_decode)] // `FickleTail` has no `DecodeField`
struct HoldsFickleTails {
    list: Vec<FickleTail>,
    map: std::collections::BTreeMap<u32, FickleTail>,
    pair: Vec<(FickleTail, u8)>,
}

#[test]
fn a_tail_length_that_changes_while_writing_is_cut_not_overflowed() {
    let fresh = || HoldsFickleTails {
        list: vec![FickleTail::default()],
        map: [(7, FickleTail::default())].into(),
        pair: vec![(FickleTail::default(), 1)],
    };
    // The length summed first: the block (block length, three end offsets), then
    // each list's one-entry offset table with an empty element, and the map's
    // entry block (its block length, key, value end offset) in its own table.
    let len = fresh().encoded_len();
    let mut out = Vec::new();
    assert_eq!(fresh().encode(&mut out).unwrap(), len);
    assert_eq!(out.len(), len);
    let mut slice = vec![0x55; len];
    assert_eq!(fresh().encode_into(&mut slice).unwrap(), len);
    assert_eq!(slice, out, "both encoders write the same bytes");
}

/// A map key that states a wrong `BLOCK_SIZE` and `IN_TAIL` (its kind is `Text`, a
/// 4-byte end offset in the tail): `Field`'s layout constants are copies of the kind's
/// for users to read, and nothing in wiremsg reads them. Were the map's entry layout
/// taken from them, setting a value would overwrite the key's end offset, and the
/// next read of the key would reach past the bytes (issue 30).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct LyingKey(String);

impl Field for LyingKey {
    type Kind = wiremsg::kind::Text;
    const TYPE: &'static TypeSchema = &TypeSchema::Str;
    const BLOCK_SIZE: usize = 2;
    const IN_TAIL: bool = false;

    fn tail_len(&self) -> usize {
        self.0.len()
    }

    fn write(&self, _: &mut [u8], tail: &mut [u8]) {
        tail.copy_from_slice(self.0.as_bytes());
    }
}

impl wiremsg::MapKey for LyingKey {
    fn key_view(&self) -> &str {
        &self.0
    }
}

#[derive(WireMsg, Debug)]
#[wire(no_decode)]
struct LyingBook {
    limits: std::collections::BTreeMap<LyingKey, u32>,
}

#[derive(WireMsg, Debug)]
struct HonestBook {
    limits: std::collections::BTreeMap<String, u32>,
}

#[test]
fn layout_constants_stated_by_a_field_type_are_never_read() {
    let lying = LyingBook {
        limits: [("ab", 1), ("cd", 2)]
            .map(|(k, v)| (LyingKey(k.into()), v))
            .into(),
    };
    let honest = HonestBook {
        limits: [("ab", 1), ("cd", 2)]
            .map(|(k, v)| (k.to_owned(), v))
            .into(),
    };
    let mut bytes = lying.to_bytes().unwrap();
    assert_eq!(bytes, honest.to_bytes().unwrap());

    let mut edit = LyingBook::view_mut(&mut bytes).unwrap();
    assert!(edit.limits_mut().set_at(0, &u32::MAX));
    let view = LyingBook::view(&bytes).unwrap();
    let entries: Vec<_> = view.limits().iter().collect();
    assert_eq!(entries, [("ab", u32::MAX), ("cd", 2)]);
    let view = HonestBook::view(&bytes).unwrap();
    assert_eq!(view.limits().get("ab"), Some(u32::MAX));
}

/// A hand-written `WireEnum` (a public, unsealed trait) whose `to_raw` writes a value
/// its own `from_raw` refuses.
#[derive(Debug, Clone, Copy, PartialEq)]
enum LyingEnum {
    A,
    B,
}

#[derive(wiremsg::WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum HonestEnum {
    A = 0,
    B = 1,
}

impl wiremsg::WireEnum for LyingEnum {
    type Repr = u8;
    const ENUM_SCHEMA: &'static wiremsg::EnumSchema =
        <HonestEnum as wiremsg::WireEnum>::ENUM_SCHEMA;
    const __FALLBACK: Self = LyingEnum::A;
    fn from_raw(raw: u8) -> Option<Self> {
        match raw {
            0 => Some(LyingEnum::A),
            1 => Some(LyingEnum::B),
            _ => None,
        }
    }
    fn to_raw(self) -> u8 {
        match self {
            LyingEnum::A => 0,
            LyingEnum::B => 7, // no variant has 7
        }
    }
}

impl Field for LyingEnum {
    type Kind = wiremsg::kind::EnumOf<LyingEnum>;
    const TYPE: &'static TypeSchema = <HonestEnum as Field>::TYPE;
    fn tail_len(&self) -> usize {
        0
    }
    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        wiremsg::__private::write_enum(*self, block);
    }
}

impl<'v> wiremsg::DecodeField<'v> for LyingEnum {
    fn decode_view(view: LyingEnum) -> Self {
        view
    }
}

#[derive(WireMsg, Debug)]
struct HoldsLyingEnum {
    id: u8,
    side: LyingEnum,
}

/// An enum set in place writes its repr value only if validation would accept it
/// (`from_raw` knows it); a hand-written enum whose `to_raw` gives another value
/// leaves the bytes as they were, valid (the adversarial pass of issue 30 found the
/// set wrote 7, which `view` then refused).
#[test]
fn an_enum_set_in_place_keeps_the_bytes_valid() {
    let mut bytes = vec![1, 0];
    let mut edit = HoldsLyingEnum::view_mut(&mut bytes).unwrap();
    edit.set_side(LyingEnum::B);
    assert_eq!(bytes, [1, 0]);
    assert_eq!(HoldsLyingEnum::view(&bytes).unwrap().side(), LyingEnum::A);
    let mut edit = HoldsLyingEnum::view_mut(&mut bytes).unwrap();
    edit.set_side(LyingEnum::A);
    assert_eq!(bytes, [1, 0]);
}
