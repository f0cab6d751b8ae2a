//! Field types of trading protocols: NUL-padded text (FORMAT.md §4.3), decimals
//! (§4.8), optional numbers with a null sentinel (§4.9) and bounded lists (§6.5):
//! golden bytes, round trips, hostile bytes and values, and property tests.

#[path = "common/cases.rs"]
mod cases;
#[path = "common/golden.rs"]
mod format_golden;
use format_golden::golden;
use proptest::prelude::*;
use wiremsg::{
    Decimal, DecimalError, ErrorKind, FixedStr, FixedStrError, Rounding, TypeSchema, WireMsg,
};

type Px = Decimal<i64, 4>;

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Level {
    symbol: FixedStr<8, 0>,
    #[wire(null = i64::MIN)]
    bid: Option<Px>,
    ask: Decimal<u32, 4>,
    #[wire(null = u32::MAX)]
    size: Option<u32>,
    #[wire(max_len = 4)]
    venues: Vec<u16>,
}

/// The same fields without the declarations: presence bytes, no maximum.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct LevelPlain {
    symbol: FixedStr<8, 0>,
    bid: Option<Px>,
    ask: Decimal<u32, 4>,
    size: Option<u32>,
    venues: Vec<u16>,
}

fn level() -> Level {
    Level {
        symbol: FixedStr::new("NQ").unwrap(),
        bid: None,
        ask: "123.45".parse().unwrap(),
        size: Some(300),
        venues: vec![1, 2],
    }
}

#[test]
fn e10_golden_bytes_view_and_decode() {
    let bytes = golden("E10");
    assert_eq!(bytes.len(), 34);
    assert_eq!(level().to_bytes().unwrap(), bytes);
    assert_eq!(Level::BLOCK_LENGTH, 30);
    assert_eq!(LevelView::BID_SIZE, 8);
    assert_eq!(LevelView::SIZE_OFFSET, 22);
    let view = Level::view(&bytes).unwrap();
    assert_eq!(view.symbol(), "NQ");
    assert_eq!(view.bid(), None);
    assert_eq!(view.ask().mantissa(), 1_234_500);
    assert_eq!(view.ask().to_string(), "123.4500");
    assert_eq!(view.size(), Some(300));
    assert_eq!(view.venues(), [1, 2][..]);
    assert_eq!(Level::decode(&bytes).unwrap(), level());
    // Presence bytes would take two more.
    assert_eq!(
        LevelPlain::BLOCK_LENGTH,
        Level::BLOCK_LENGTH + 2,
        "null sentinels save the presence bytes"
    );
}

#[test]
fn schema_names_the_new_wire_types() {
    let fields = &Level::SCHEMA.fields;
    assert_eq!(*fields[0].ty, TypeSchema::FixedStrPadded { len: 8, pad: 0 });
    assert_eq!(
        *fields[1].ty,
        TypeSchema::Nullable {
            value: TypeSchema::Decimal {
                mantissa: TypeSchema::I64.into(),
                scale: 4
            }
            .into(),
            null: i128::from(i64::MIN),
        }
    );
    assert_eq!(
        *fields[3].ty,
        TypeSchema::Nullable {
            value: TypeSchema::U32.into(),
            null: i128::from(u32::MAX),
        }
    );
    assert_eq!(
        *fields[4].ty,
        TypeSchema::BoundedList {
            element: TypeSchema::U16.into(),
            max_len: 4
        }
    );
    assert_eq!((fields[1].size, fields[3].size), (8, 4));
    // Space padding keeps its descriptor.
    assert_eq!(
        *<FixedStr<8> as wiremsg::Field>::TYPE,
        TypeSchema::FixedStr { len: 8 }
    );
    // The schema file keeps them.
    let set = wiremsg::SchemaSet::of::<Level>().unwrap();
    let back = wiremsg::SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap();
    assert_eq!(back, set);
}

// -- NUL-padded text (FORMAT.md §4.3) --

#[derive(WireMsg, Debug, PartialEq)]
struct Symbols {
    nul: FixedStr<8, 0>,
    space: FixedStr<8>,
    list: Vec<FixedStr<3, 0>>,
}

#[test]
fn nul_padded_text_reads_without_its_padding() {
    let mut bytes = b"NQ\0\0\0\0\0\0NQ\0\0\0\0\0\0".to_vec();
    bytes.splice(0..0, [22, 0]); // block length
    bytes.extend_from_slice(&[28, 0, 0, 0]); // the list ends at 28
    bytes.extend_from_slice(b"ES\0A\0B");
    let view = Symbols::view(&bytes).unwrap();
    assert_eq!(view.nul(), "NQ");
    // A space-padded field keeps NULs as text: both sides must agree on the padding.
    assert_eq!(view.space(), "NQ\0\0\0\0\0\0");
    assert_eq!(view.list().iter().collect::<Vec<_>>(), ["ES", "A\0B"]);
    let decoded = Symbols::decode(&bytes).unwrap();
    assert_eq!(decoded.nul.as_bytes(), b"NQ\0\0\0\0\0\0");
    assert_eq!(decoded.to_bytes().unwrap(), bytes);
}

#[test]
fn nul_padded_text_is_const_and_refuses_what_would_not_read_back() {
    const NQ: FixedStr<8, 0> = match FixedStr::new("NQ") {
        Ok(text) => text,
        Err(_) => panic!("fits"),
    };
    const EMPTY: FixedStr<2, 0> = match FixedStr::new("") {
        Ok(text) => text,
        Err(_) => panic!("fits"),
    };
    assert_eq!(NQ.as_bytes(), b"NQ\0\0\0\0\0\0");
    assert_eq!(EMPTY.as_bytes(), b"\0\0");
    assert_eq!(EMPTY, FixedStr::default());
    assert_eq!(
        FixedStr::<4, 0>::new("AB\0"),
        Err(FixedStrError::EndsWithPadding { at: 2, pad: 0 })
    );
    assert_eq!(
        FixedStr::<4>::new("AB "),
        Err(FixedStrError::EndsWithPadding { at: 2, pad: b' ' })
    );
    // Trailing spaces are text for NUL padding, and NUL for space padding.
    assert_eq!(FixedStr::<4, 0>::new("AB ").unwrap().as_str(), "AB ");
    assert_eq!(FixedStr::<4>::new("AB\0").unwrap().as_str(), "AB\0");
    assert_eq!(
        FixedStr::<2, 0>::new("ABC"),
        Err(FixedStrError::TooLong {
            len: 3,
            capacity: 2
        })
    );
    let err = wiremsg::Error::from(FixedStrError::EndsWithPadding { at: 2, pad: 0 });
    assert_eq!(
        (err.kind(), err.offset()),
        (&ErrorKind::FixedStrTrailingSpace, 2)
    );
    // Made from text, not read from bytes: the message places the fault in the text.
    assert_eq!(
        err.to_string(),
        "text for a fixed string ends with its padding character, which would read back \
         as padding, at byte 2 of the text"
    );
    let err: wiremsg::Error = FixedStr::<2, 0>::try_from("ABC").unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::FixedStrTooLong {
            len: 3,
            capacity: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "text of 3 bytes does not fit a 2-byte fixed string"
    );
}

#[test]
fn a_decimal_error_gives_its_byte_of_the_text_once() {
    let err = wiremsg::Error::from("12.505".parse::<Decimal<i64, 2>>().unwrap_err());
    assert_eq!(err.offset(), 5);
    assert_eq!(
        err.to_string(),
        "not a decimal: more decimal places than the scale allows, at byte 5"
    );
    let err = wiremsg::Error::from(
        Decimal::<i8, 0>::try_from_f64(f64::NAN, Rounding::Exact).unwrap_err(),
    );
    assert_eq!(
        err.to_string(),
        "not a decimal: NaN or infinity is not a decimal"
    );
}

#[test]
fn nul_padded_text_with_bad_utf8_names_field_and_byte() {
    #[derive(WireMsg, Debug)]
    struct Sym {
        id: u16,
        sym: FixedStr<8, 0>,
    }
    let mut bytes = vec![1, 0];
    bytes.extend_from_slice(b"N\xffQ\0\0\0\0\0");
    let err = Sym::view(&bytes).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidUtf8 { valid_up_to: 1 });
    assert_eq!((err.offset(), err.path().as_str()), (3, "sym"));
    // Padding is not text: bad bytes are found only before it.
    bytes[3..10].copy_from_slice(b"Q\0\0\0\0\0\0");
    assert_eq!(Sym::view(&bytes).unwrap().sym(), "NQ");
}

#[test]
fn nul_padded_text_is_set_in_place() {
    let mut bytes = level().to_bytes().unwrap();
    let mut edit = Level::view_mut(&mut bytes).unwrap();
    edit.set_symbol(FixedStr::new("ESZ6").unwrap());
    assert_eq!(&bytes[2..10], b"ESZ6\0\0\0\0");
}

// -- null sentinels (FORMAT.md §4.9) --

#[test]
fn the_sentinel_reads_as_absent_and_any_other_value_as_present() {
    let mut bytes = level().to_bytes().unwrap();
    bytes[10..18].copy_from_slice(&(i64::MIN + 1).to_le_bytes());
    bytes[22..26].copy_from_slice(&0u32.to_le_bytes());
    let view = Level::view(&bytes).unwrap();
    assert_eq!(view.bid(), Some(Px::from_mantissa(i64::MIN + 1)));
    assert_eq!(view.size(), Some(0), "zero is present");
    bytes[22..26].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(Level::view(&bytes).unwrap().size(), None);
}

#[test]
fn writing_the_sentinel_as_a_value_is_an_error_and_writes_nothing() {
    let bad = Level {
        size: Some(u32::MAX),
        ..level()
    };
    let err = bad.to_bytes().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::NullSentinel {
            value: i128::from(u32::MAX)
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("size", 22));
    assert_eq!(
        err.to_string(),
        "value 4294967295 is the field's null sentinel and would read back as absent; write `None` at byte 22 in `size`"
    );
    let mut out = vec![7u8; 3];
    assert!(bad.encode(&mut out).is_err());
    assert_eq!(out, [7, 7, 7], "nothing appended");
    let mut buf = [0u8; 64];
    assert!(bad.encode_into(&mut buf).is_err());
    assert_eq!(buf, [0; 64], "nothing written");
    let bad = Level {
        bid: Some(Px::from_mantissa(i64::MIN)),
        ..level()
    };
    let err = bad.to_bytes().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::NullSentinel {
            value: i128::from(i64::MIN)
        }
    );
    assert_eq!(err.path(), "bid");
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 9, version = 2)]
struct Book {
    id: u32,
    levels: Vec<Level>,
    #[wire(since = 2, null = -1)]
    depth: Option<i8>,
}

#[test]
fn nested_sentinels_and_lists_name_their_path_on_every_encode_path() {
    let mut second = level();
    second.venues = vec![1, 2, 3, 4, 5];
    let book = Book {
        id: 1,
        levels: vec![level(), second],
        depth: None,
    };
    let err = book.to_bytes().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::ListTooLong { len: 5, max: 4 });
    assert_eq!(err.path(), "levels[1].venues");
    use wiremsg::Template;
    let mut out = Vec::new();
    assert_eq!(
        book.encode_with_header(&mut out).unwrap_err().path(),
        "levels[1].venues"
    );
    assert!(out.is_empty());
    let mut writer = wiremsg::FrameWriter::new(Vec::new());
    assert_eq!(writer.write(&book).unwrap_err().path(), "levels[1].venues");
    assert!(writer.into_inner().is_empty());
    let book = Book {
        depth: Some(-1),
        levels: vec![],
        id: 1,
    };
    let err = book.to_bytes().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::NullSentinel { value: -1 });
    assert_eq!(err.path(), "depth");
}

#[test]
fn setters_refuse_the_sentinel() {
    let book = Book {
        id: 1,
        levels: vec![level()],
        depth: Some(3),
    };
    let mut bytes = book.to_bytes().unwrap();
    let mut edit = Book::view_mut(&mut bytes).unwrap();
    assert!(edit.set_depth(None).unwrap());
    assert_eq!(edit.depth(), None);
    assert!(edit.set_depth(Some(5)).unwrap());
    let err = edit.set_depth(Some(-1)).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::NullSentinel { value: -1 });
    assert_eq!(edit.depth(), Some(5), "nothing written");
    let mut levels = edit.levels_mut();
    let mut level = levels.get_mut(0).unwrap();
    level.set_size(None).unwrap();
    assert_eq!(level.size(), None);
    assert!(level.set_size(Some(u32::MAX)).is_err());
    level.set_bid(Some(Px::from_mantissa(5))).unwrap();
    let decoded = Book::decode(&bytes).unwrap();
    assert_eq!(decoded.depth, Some(5));
    assert_eq!(decoded.levels[0].size, None);
    assert_eq!(decoded.levels[0].bid, Some(Px::from_mantissa(5)));
}

#[test]
fn a_later_field_with_a_sentinel_reads_as_absent_on_older_bytes() {
    #[derive(WireMsg, Debug)]
    #[wire(template_id = 9)]
    struct BookV1 {
        id: u32,
        levels: Vec<Level>,
    }
    let old = BookV1 {
        id: 4,
        levels: vec![],
    }
    .to_bytes()
    .unwrap();
    let view = Book::view(&old).unwrap();
    assert_eq!(
        (view.depth(), view.try_depth(), view.version()),
        (None, None, 1)
    );
}

macro_rules! every_width {
    ($($name:ident: $ty:ty = $null:expr, $other:expr;)*) => {$(
        #[test]
        fn $name() {
            #[derive(WireMsg, Debug, PartialEq)]
            struct One {
                #[wire(null = $null)]
                value: Option<$ty>,
            }
            assert_eq!(One::BLOCK_LENGTH, core::mem::size_of::<$ty>());
            let none = One { value: None }.to_bytes().unwrap();
            assert_eq!(none, <$ty>::to_le_bytes($null));
            assert_eq!(One::view(&none).unwrap().value(), None);
            let some = One { value: Some($other) }.to_bytes().unwrap();
            assert_eq!(some, <$ty>::to_le_bytes($other));
            assert_eq!(One::decode(&some).unwrap(), One { value: Some($other) });
            let err = One { value: Some($null) }.to_bytes().unwrap_err();
            assert_eq!(err.kind(), &ErrorKind::NullSentinel { value: i128::from($null) });
        }
    )*};
}

every_width! {
    null_u8: u8 = u8::MAX, 0;
    null_u16: u16 = 0, u16::MAX;
    null_u32: u32 = u32::MAX, 7;
    null_u64: u64 = u64::MAX, u64::MAX - 1;
    null_i8: i8 = i8::MIN, -1;
    null_i16: i16 = -1, i16::MIN;
    null_i32: i32 = i32::MIN, 0;
    null_i64: i64 = i64::MIN, i64::MAX;
}

// -- bounded lists (FORMAT.md §6.5) --

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Msg {
    text: String,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Pt {
    x: i32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Bounded {
    #[wire(max_len = 2)]
    packed: Vec<u32>,
    #[wire(max_len = 2)]
    strided: Vec<Pt>,
    #[wire(max_len = 2)]
    table: Vec<Msg>,
    #[wire(max_len = 3)]
    bytes: Vec<u8>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Unbounded {
    packed: Vec<u32>,
    strided: Vec<Pt>,
    table: Vec<Msg>,
    bytes: Vec<u8>,
}

#[derive(WireMsg, Debug)]
struct BoundedRef<'a> {
    #[wire(max_len = 2)]
    packed: &'a [u32],
    #[wire(max_len = 2)]
    strided: &'a [Pt],
    #[wire(max_len = 2)]
    table: &'a [Msg],
    #[wire(max_len = 3)]
    bytes: &'a [u8],
}

fn unbounded(n: [usize; 4]) -> Unbounded {
    Unbounded {
        packed: (0..n[0] as u32).collect(),
        strided: (0..n[1] as i32).map(|x| Pt { x }).collect(),
        table: (0..n[2])
            .map(|i| Msg {
                text: "m".repeat(i),
            })
            .collect(),
        bytes: vec![9; n[3]],
    }
}

#[test]
fn view_refuses_a_list_over_its_maximum_in_every_shape() {
    let ok = unbounded([2, 2, 2, 3]).to_bytes().unwrap();
    let view = Bounded::view(&ok).unwrap();
    assert_eq!(
        (
            view.packed().len(),
            view.strided().len(),
            view.table().len(),
            view.bytes().len()
        ),
        (2, 2, 2, 3)
    );
    let cases = [
        ([3, 0, 0, 0], "packed", 18, 3, 2),
        ([0, 3, 0, 0], "strided", 18, 3, 2),
        ([0, 0, 3, 0], "table", 18, 3, 2),
        ([0, 0, 0, 4], "bytes", 18, 4, 3),
        ([1, 1, 5, 0], "table", 18 + 4 + 6, 5, 2),
    ];
    for (n, path, offset, len, max) in cases {
        let bytes = unbounded(n).to_bytes().unwrap();
        let err = Bounded::view(&bytes).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::ListTooLong { len, max }, "{n:?}");
        assert_eq!((err.path().as_str(), err.offset()), (path, offset), "{n:?}");
        assert!(Bounded::view_mut(&mut bytes.clone()).is_err());
        assert!(Bounded::decode(&bytes).is_err());
    }
}

#[test]
fn encode_refuses_a_list_over_its_maximum_owned_or_borrowed() {
    for n in [[3, 0, 0, 0], [0, 3, 0, 0], [0, 0, 3, 0], [0, 0, 0, 4]] {
        let value = unbounded(n);
        let owned = Bounded {
            packed: value.packed.clone(),
            strided: value.strided.clone(),
            table: value.table.clone(),
            bytes: value.bytes.clone(),
        };
        let err = owned.to_bytes().unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::ListTooLong { .. }), "{n:?}");
        let borrowed = BoundedRef {
            packed: &value.packed,
            strided: &value.strided,
            table: &value.table,
            bytes: &value.bytes,
        };
        assert_eq!(
            borrowed.to_bytes().unwrap_err().to_string(),
            err.to_string()
        );
    }
    let value = unbounded([2, 1, 2, 3]);
    let borrowed = BoundedRef {
        packed: &value.packed,
        strided: &value.strided,
        table: &value.table,
        bytes: &value.bytes,
    };
    assert_eq!(borrowed.to_bytes().unwrap(), value.to_bytes().unwrap());
    assert_eq!(
        Bounded::decode(&value.to_bytes().unwrap()).unwrap().table,
        value.table
    );
}

#[test]
fn a_bounded_list_is_updated_in_place() {
    let mut bytes = unbounded([2, 2, 0, 0]).to_bytes().unwrap();
    let mut edit = Bounded::view_mut(&mut bytes).unwrap();
    assert!(edit.packed_mut().set(1, &77));
    edit.strided_mut().get_mut(0).unwrap().set_x(-3);
    let decoded = Bounded::decode(&bytes).unwrap();
    assert_eq!((decoded.packed, decoded.strided[0].x), (vec![0, 77], -3));
}

// -- decimals (FORMAT.md §4.8) --

#[test]
fn decimal_text_is_exact() {
    type D4 = Decimal<i64, 4>;
    for (text, mantissa, shown) in [
        ("0", 0, "0.0000"),
        ("-0", 0, "0.0000"),
        ("+1", 10_000, "1.0000"),
        ("234.56", 2_345_600, "234.5600"),
        ("-0.0001", -1, "-0.0001"),
        ("-12.", -120_000, "-12.0000"),
        (".5", 5_000, "0.5000"),
        ("922337203685477.5807", i64::MAX, "922337203685477.5807"),
        ("-922337203685477.5808", i64::MIN, "-922337203685477.5808"),
        ("00001.1000000000", 11_000, "1.1000"),
    ] {
        let d: D4 = text.parse().unwrap();
        assert_eq!(d.mantissa(), mantissa, "{text}");
        assert_eq!(d.to_string(), shown, "{text}");
        assert_eq!(shown.parse::<D4>().unwrap(), d);
    }
    for (text, err) in [
        ("", DecimalError::Invalid { at: 0 }),
        ("-", DecimalError::Invalid { at: 1 }),
        (".", DecimalError::Invalid { at: 1 }),
        ("1.2.3", DecimalError::Invalid { at: 3 }),
        (" 1", DecimalError::Invalid { at: 0 }),
        ("1e4", DecimalError::Invalid { at: 1 }),
        ("1.00005", DecimalError::TooPrecise { at: 6 }),
        ("922337203685477.5808", DecimalError::Overflow),
        (
            "99999999999999999999999999999999999999999",
            DecimalError::Overflow,
        ),
    ] {
        assert_eq!(text.parse::<D4>(), Err(err), "{text:?}");
    }
    assert_eq!("-1".parse::<Decimal<u8, 0>>(), Err(DecimalError::Overflow));
    assert_eq!("255".parse::<Decimal<u8, 0>>().unwrap().to_string(), "255");
    assert_eq!(format!("{:>10}", D4::from_mantissa(-5)), "   -0.0005");
    assert_eq!(
        format!("{:?}", Some(Decimal::<u32, 2>::from_mantissa(150))),
        "Some(1.50)"
    );
    assert_eq!(
        Decimal::<u64, 18>::from_mantissa(u64::MAX).to_string(),
        "18.446744073709551615"
    );
}

#[test]
fn decimal_from_f64_rounds_the_exact_binary_value() {
    type D2 = Decimal<i64, 2>;
    let m = |x: f64, r: Rounding| D2::try_from_f64(x, r).map(Decimal::mantissa);
    // 2.675 is 2.67499999999999982236431605997495353221893310546875 in binary.
    assert_eq!(m(2.675, Rounding::HalfEven), Ok(267));
    assert_eq!(m(2.675, Rounding::HalfAwayFromZero), Ok(267));
    assert_eq!(m(2.675, Rounding::Ceiling), Ok(268));
    // 0.125 is exact: a true tie.
    assert_eq!(m(0.125, Rounding::HalfEven), Ok(12));
    assert_eq!(m(0.135, Rounding::HalfEven), Ok(14)); // 0.13500000000000000888
    assert_eq!(m(-0.125, Rounding::HalfEven), Ok(-12));
    assert_eq!(m(-0.125, Rounding::HalfAwayFromZero), Ok(-13));
    assert_eq!(m(-0.125, Rounding::Floor), Ok(-13));
    assert_eq!(m(-0.125, Rounding::Ceiling), Ok(-12));
    assert_eq!(m(-0.125, Rounding::TowardZero), Ok(-12));
    assert_eq!(m(0.125, Rounding::Exact), Err(DecimalError::Inexact));
    assert_eq!(m(0.1, Rounding::Exact), Err(DecimalError::Inexact));
    assert_eq!(m(1.5, Rounding::Exact), Ok(150));
    assert_eq!(m(-0.0, Rounding::Exact), Ok(0));
    assert_eq!(m(5e-324, Rounding::Ceiling), Ok(1));
    assert_eq!(m(5e-324, Rounding::HalfEven), Ok(0));
    assert_eq!(m(-5e-324, Rounding::Floor), Ok(-1));
    assert_eq!(m(1e300, Rounding::Floor), Err(DecimalError::Overflow));
    assert_eq!(
        m(f64::INFINITY, Rounding::Floor),
        Err(DecimalError::NotFinite)
    );
    assert_eq!(m(9.2e16, Rounding::Floor), Ok(9_200_000_000_000_000_000));
    assert_eq!(m(9.3e16, Rounding::Floor), Err(DecimalError::Overflow));
    assert_eq!(m(9.0e16, Rounding::Exact), Ok(9_000_000_000_000_000_000));
    assert_eq!(
        Decimal::<u32, 4>::try_from_f64(-0.00001, Rounding::TowardZero).map(Decimal::mantissa),
        Ok(0)
    );
    assert_eq!(
        Decimal::<u32, 4>::try_from_f64(-0.00001, Rounding::Floor),
        Err(DecimalError::Overflow)
    );
    assert_eq!(D2::from_mantissa(-12_345).to_f64(), -123.45);
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Prices {
    last: Decimal<i32, 2>,
    maybe: Option<Decimal<u16, 1>>,
    pair: [Decimal<i64, 8>; 2],
    list: Vec<Decimal<u64, 8>>,
}

#[test]
fn decimals_in_options_arrays_and_lists() {
    let value = Prices {
        last: Decimal::from_mantissa(-150),
        maybe: Some(Decimal::from_mantissa(7)),
        pair: [Decimal::from_mantissa(1), Decimal::from_mantissa(-1)],
        list: vec![Decimal::from_mantissa(u64::MAX), Decimal::from_mantissa(0)],
    };
    let bytes = value.to_bytes().unwrap();
    // block length, 4-byte mantissa, presence + 2 bytes, 2 x 8, end offset; 16 in the tail
    assert_eq!(bytes.len(), 2 + 4 + 3 + 16 + 4 + 16);
    assert_eq!(bytes[2..6], (-150i32).to_le_bytes());
    assert_eq!(bytes[6..9], [1, 7, 0]);
    let view = Prices::view(&bytes).unwrap();
    assert_eq!(view.last().to_string(), "-1.50");
    assert_eq!(view.maybe().map(|d| d.to_string()), Some("0.7".into()));
    assert_eq!(view.pair().to_array(), value.pair);
    assert_eq!(view.list().get(0), Some(Decimal::from_mantissa(u64::MAX)));
    assert_eq!(Prices::decode(&bytes).unwrap(), value);
    let mut bytes = bytes;
    let mut edit = Prices::view_mut(&mut bytes).unwrap();
    edit.set_last(Decimal::from_mantissa(99));
    assert!(edit.list_mut().set(1, &Decimal::from_mantissa(5)));
    let decoded = Prices::decode(&bytes).unwrap();
    assert_eq!(
        (decoded.last.mantissa(), decoded.list[1].mantissa()),
        (99, 5)
    );
}

// -- properties --

fn levels() -> impl Strategy<Value = Level> {
    (
        "[A-Z]{0,8}",
        proptest::option::of(any::<i64>().prop_filter("not the sentinel", |v| *v != i64::MIN)),
        any::<u32>(),
        proptest::option::of(any::<u32>().prop_filter("not the sentinel", |v| *v != u32::MAX)),
        proptest::collection::vec(any::<u16>(), 0..=4),
    )
        .prop_map(|(symbol, bid, ask, size, venues)| Level {
            symbol: FixedStr::new(&symbol).unwrap(),
            bid: bid.map(Px::from_mantissa),
            ask: Decimal::from_mantissa(ask),
            size,
            venues,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    #[test]
    fn levels_round_trip(value in levels()) {
        let bytes = value.to_bytes().unwrap();
        prop_assert_eq!(Level::decode(&bytes).unwrap(), value);
    }

    #[test]
    fn a_list_encodes_and_views_exactly_up_to_its_maximum(n in 0usize..8, at in 0usize..4) {
        let mut sizes = [0; 4];
        sizes[at] = n;
        let value = unbounded(sizes);
        let max = if at == 3 { 3 } else { 2 };
        let bytes = value.to_bytes().unwrap();
        prop_assert_eq!(Bounded::view(&bytes).is_ok(), n <= max);
        let owned = Bounded {
            packed: value.packed.clone(),
            strided: value.strided.clone(),
            table: value.table.clone(),
            bytes: value.bytes.clone(),
        };
        match owned.to_bytes() {
            Ok(encoded) => prop_assert_eq!(encoded, bytes),
            Err(err) => {
                prop_assert!(n > max);
                prop_assert_eq!(err.kind(), &ErrorKind::ListTooLong { len: n, max });
            }
        }
    }

    #[test]
    fn a_sentinel_encodes_only_as_none(size in any::<u32>(), bid in any::<i64>()) {
        let value = Level { size: Some(size), bid: Some(Px::from_mantissa(bid)), ..level() };
        let result = value.to_bytes();
        prop_assert_eq!(result.is_ok(), size != u32::MAX && bid != i64::MIN);
    }

    #[test]
    fn hostile_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
        if let Ok(view) = Level::view(&bytes) {
            let _ = format!("{view:?}");
            prop_assert!(view.venues().len() <= 4);
            let decoded = view.decode();
            // What a view accepted re-encodes: a null reads back as `None`, never as
            // `Some(sentinel)`.
            let again = decoded.to_bytes().unwrap();
            prop_assert_eq!(Level::decode(&again).unwrap(), decoded);
        }
    }

    #[test]
    fn decimal_text_round_trips(mantissa in any::<i64>(), scale in 0usize..4) {
        let shown = match scale {
            0 => Decimal::<i64, 0>::from_mantissa(mantissa).to_string(),
            1 => Decimal::<i64, 4>::from_mantissa(mantissa).to_string(),
            2 => Decimal::<i64, 9>::from_mantissa(mantissa).to_string(),
            _ => Decimal::<i64, 18>::from_mantissa(mantissa).to_string(),
        };
        let back = match scale {
            0 => shown.parse::<Decimal<i64, 0>>().map(Decimal::mantissa),
            1 => shown.parse::<Decimal<i64, 4>>().map(Decimal::mantissa),
            2 => shown.parse::<Decimal<i64, 9>>().map(Decimal::mantissa),
            _ => shown.parse::<Decimal<i64, 18>>().map(Decimal::mantissa),
        };
        prop_assert_eq!(back, Ok(mantissa));
    }

    #[test]
    fn decimal_f64_round_trips_below_2_pow_52(mantissa in -(1i64 << 52)..(1i64 << 52)) {
        let d = Decimal::<i64, 4>::from_mantissa(mantissa);
        let x = d.to_f64();
        prop_assert_eq!(Decimal::<i64, 4>::try_from_f64(x, Rounding::HalfEven), Ok(d));
        let floor = Decimal::<i64, 4>::try_from_f64(x, Rounding::Floor).unwrap().mantissa();
        let ceiling = Decimal::<i64, 4>::try_from_f64(x, Rounding::Ceiling).unwrap().mantissa();
        prop_assert!(floor <= mantissa && mantissa <= ceiling && ceiling - floor <= 1);
    }

    #[test]
    fn decimal_from_f64_brackets_the_value(x in -1e9f64..1e9) {
        let floor = Decimal::<i64, 6>::try_from_f64(x, Rounding::Floor).unwrap();
        let ceiling = Decimal::<i64, 6>::try_from_f64(x, Rounding::Ceiling).unwrap();
        let near = Decimal::<i64, 6>::try_from_f64(x, Rounding::HalfEven).unwrap();
        prop_assert!(ceiling.mantissa() - floor.mantissa() <= 1);
        prop_assert!(near == floor || near == ceiling);
        prop_assert!(floor.to_f64() <= x + 1e-6 && ceiling.to_f64() >= x - 1e-6);
    }
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Siblings {
    pair: [FixedStr<3, 0>; 2],
    maybe: Option<FixedStr<4, 0>>,
    #[wire(null = 0)]
    first: Option<Decimal<u8, 2>>,
    #[wire(max_len = 1)]
    syms: Vec<FixedStr<2, 0>>,
    #[wire(max_len = 2)]
    names: Vec<String>,
}

#[test]
fn siblings_arrays_options_and_lists_of_the_new_types() {
    let value = Siblings {
        pair: [FixedStr::new("A").unwrap(), FixedStr::new("").unwrap()],
        maybe: Some(FixedStr::new("XY").unwrap()),
        first: Some(Decimal::from_mantissa(255)),
        syms: vec![FixedStr::new("Z").unwrap()],
        names: vec!["a".into(), "b".into()],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(&bytes[2..8], b"A\0\0\0\0\0");
    assert_eq!(&bytes[8..13], b"\x01XY\0\0");
    assert_eq!(bytes[13], 255);
    let view = Siblings::view(&bytes).unwrap();
    assert_eq!(view.pair().to_array(), ["A", ""]);
    assert_eq!(view.maybe(), Some("XY"));
    assert_eq!(view.first().map(|d| d.to_string()), Some("2.55".into()));
    assert_eq!(Siblings::decode(&bytes).unwrap(), value);
    let mut edited = bytes.clone();
    edited[13] = 0;
    assert_eq!(Siblings::view(&edited).unwrap().first(), None);
    // One element too many in each bounded list, from the bytes and from the value.
    let long = Siblings {
        syms: vec![FixedStr::new("Z").unwrap(); 2],
        ..value.clone()
    };
    let err = long.to_bytes().unwrap_err();
    assert_eq!(
        (err.kind(), err.path().as_str()),
        (&ErrorKind::ListTooLong { len: 2, max: 1 }, "syms")
    );
    let long = Siblings {
        names: vec![String::new(); 3],
        ..value
    };
    let err = long.to_bytes().unwrap_err();
    assert_eq!(
        (err.kind(), err.path().as_str()),
        (&ErrorKind::ListTooLong { len: 3, max: 2 }, "names")
    );
    let first = Siblings {
        first: Some(Decimal::from_mantissa(0)),
        ..Siblings::decode(&bytes).unwrap()
    };
    assert_eq!(
        first.to_bytes().unwrap_err().kind(),
        &ErrorKind::NullSentinel { value: 0 }
    );
}

/// An `Option` of an `Option` of a number nests (FORMAT.md §4.5): two presence bytes,
/// absent and present-but-empty apart.
#[test]
fn options_of_options_of_numbers_keep_both_presences() {
    #[derive(WireMsg, Debug, Clone, PartialEq)]
    struct Limit {
        limit: Option<Option<i64>>,
    }
    let cases: [(Option<Option<i64>>, [u8; 10]); 3] = [
        (None, [0; 10]),
        (Some(None), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
        (Some(Some(5)), [1, 1, 5, 0, 0, 0, 0, 0, 0, 0]),
    ];
    for (limit, bytes) in cases {
        let value = Limit { limit };
        assert_eq!(value.to_bytes().unwrap(), bytes, "{limit:?}");
        assert_eq!(Limit::view(&bytes).unwrap().limit(), limit);
        assert_eq!(Limit::decode(&bytes).unwrap(), value);
    }
    let err = Limit::view(&[1, 2, 0, 0, 0, 0, 0, 0, 0, 0]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidPresence { .. }),
        "{err}"
    );
    assert_eq!(err.offset(), 1);
}
