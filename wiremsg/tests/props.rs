//! Property tests: round trips of arbitrary values; arbitrary or mutated bytes never
//! make `view` (or the accessors of a view it accepts) panic; and over every accepted
//! buffer the checked, unchecked and mutable views and decoding read the same values.

#[path = "common/cases.rs"]
mod cases;
mod common;

use common::*;
use proptest::prelude::*;
use wiremsg::{FixedStr, WireMsg};

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Mixed {
    a: u8,
    b: i64,
    c: f64,
    flag: bool,
    opt: Option<u32>,
    text: String,
    bytes: Vec<u8>,
    numbers: Vec<i16>,
    maybe: Option<String>,
    arr: [u16; 3],
    sym: FixedStr<4>,
    items: Vec<LineItem>,
}

fn line_item() -> impl Strategy<Value = LineItem> {
    (
        ".{0,12}",
        ".{0,20}",
        any::<i32>(),
        any::<f64>(),
        any::<f64>(),
    )
        .prop_map(|(sku, name, quantity, unit_price, discount)| LineItem {
            sku,
            name,
            quantity,
            unit_price,
            discount,
        })
}

fn mixed() -> impl Strategy<Value = Mixed> {
    (
        (
            any::<u8>(),
            any::<i64>(),
            any::<f64>(),
            any::<bool>(),
            any::<Option<u32>>(),
        ),
        (".{0,16}", proptest::collection::vec(any::<u8>(), 0..24)),
        proptest::collection::vec(any::<i16>(), 0..8),
        proptest::option::of(".{0,8}"),
        any::<[u16; 3]>(),
        "[A-Z]{0,4}",
        proptest::collection::vec(line_item(), 0..4),
    )
        .prop_map(
            |((a, b, c, flag, opt), (text, bytes), numbers, maybe, arr, sym, items)| Mixed {
                a,
                b,
                c,
                flag,
                opt,
                text,
                bytes,
                numbers,
                maybe,
                arr,
                sym: FixedStr::new(&sym).unwrap(),
                items,
            },
        )
}

/// Equality that treats floats by their bits (NaN round-trips bit for bit).
fn same(x: &Mixed, y: &Mixed) -> bool {
    let items = x.items.len() == y.items.len()
        && x.items.iter().zip(&y.items).all(|(p, q)| {
            p.sku == q.sku
                && p.name == q.name
                && p.quantity == q.quantity
                && p.unit_price.to_bits() == q.unit_price.to_bits()
                && p.discount.to_bits() == q.discount.to_bits()
        });
    items
        && x.c.to_bits() == y.c.to_bits()
        && (
            x.a, x.b, x.flag, x.opt, &x.text, &x.bytes, &x.numbers, &x.maybe, x.arr, x.sym,
        ) == (
            y.a, y.b, y.flag, y.opt, &y.text, &y.bytes, &y.numbers, &y.maybe, y.arr, y.sym,
        )
}

/// Over bytes that `view` accepts, every way of reading agrees: the checked view, the
/// unchecked view, the mutable view (checked and unchecked), its read-only view, and
/// the view of the re-encoded decoded value. Each reads every field (`Debug`).
macro_rules! agree {
    ($ty:ty, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        if let Ok(view) = <$ty>::view(bytes) {
            let checked = format!("{view:?}");
            // SAFETY: `view` accepted these bytes just above.
            let unchecked = format!("{:?}", unsafe { <$ty>::view_unchecked(bytes) });
            assert_eq!(checked, unchecked);
            let mut copy = bytes.to_vec();
            let edit = <$ty>::view_mut(&mut copy).unwrap();
            assert_eq!(format!("{:?}", edit.as_view()), checked);
            let named = format!("{edit:?}").replacen("Mut", "View", 1);
            assert_eq!(named, checked);
            // SAFETY: as above; `copy` holds the same bytes.
            let edit = unsafe { <$ty>::view_mut_unchecked(&mut copy) };
            assert_eq!(format!("{:?}", edit.as_view()), checked);
            // Decoding fills absent fields with their defaults and encoding writes this
            // version: the decoded values, not the views, must survive.
            let decoded = view.decode();
            let again = decoded.to_bytes().unwrap();
            let reread = <$ty>::view(&again).unwrap().decode();
            assert_eq!(format!("{reread:?}"), format!("{decoded:?}"));
        }
    }};
}

/// Views every type over `bytes`; on success, checks that every way of reading the
/// fields agrees.
fn view_all(bytes: &[u8]) {
    agree!(Mixed, bytes);
    agree!(Order, bytes);
    agree!(Node, bytes);
    agree!(Tick, bytes);
    agree!(LoginRequest, bytes);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    #[test]
    fn round_trip(value in mixed()) {
        let bytes = value.to_bytes().unwrap();
        prop_assert_eq!(bytes.len(), value.encoded_len());
        let decoded = Mixed::decode(&bytes).unwrap();
        prop_assert!(same(&decoded, &value), "{:?} != {:?}", decoded, value);
        // Trusted and checked views agree.
        // SAFETY: `decode` (which validates) accepted the bytes just above.
        let trusted = unsafe { wiremsg::view_unchecked::<Mixed>(&bytes) };
        prop_assert!(same(&trusted.decode(), &value));
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        view_all(&bytes);
    }

    #[test]
    fn mutated_encodings_never_panic(
        value in mixed(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        let mut bytes = value.to_bytes().unwrap();
        for (at, byte) in flips {
            let i = at.index(bytes.len());
            bytes[i] = byte;
        }
        view_all(&bytes);
    }

    #[test]
    fn mutated_orders_never_panic(at in any::<prop::sample::Index>(), byte in any::<u8>()) {
        let mut bytes = order().to_bytes().unwrap();
        let i = at.index(bytes.len());
        bytes[i] = byte;
        view_all(&bytes);
    }
}

/// A type named like the generated code's generic parameters and locals.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct M {
    mode: u8,
    depth: u8,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Shadowing {
    bytes: Vec<u8>,
    block: String,
    m: M,
    tail_start: u16,
}

#[test]
fn field_and_type_names_do_not_shadow_generated_code() {
    let value = Shadowing {
        bytes: vec![1, 2],
        block: "b".into(),
        m: M { mode: 3, depth: 4 },
        tail_start: 5,
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Shadowing::decode(&bytes).unwrap(), value);
    assert_eq!(Shadowing::view(&bytes).unwrap().m().depth(), 4);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(1024)))]

    /// `view` checks the strings of a message in one batch; the string-by-string
    /// checked pass must accept exactly the same bytes and fail with the same error.
    #[test]
    fn batched_and_per_string_validation_agree(
        at in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..3),
        value in mixed(),
    ) {
        for mut bytes in [order().to_bytes().unwrap(), value.to_bytes().unwrap()] {
            for (i, byte) in &at {
                let i = i.index(bytes.len());
                bytes[i] = *byte;
            }
            let batched = Order::view(&bytes).map(|v| format!("{v:?}")).map_err(|e| e.to_string());
            let single = wiremsg::__private::validate_per_string::<Order>(&bytes)
                .map(|()| format!("{:?}", Order::view(&bytes).unwrap()))
                .map_err(|e| e.to_string());
            prop_assert_eq!(batched, single);
            let batched = Mixed::view(&bytes).map(|v| format!("{v:?}")).map_err(|e| e.to_string());
            let single = wiremsg::__private::validate_per_string::<Mixed>(&bytes)
                .map(|()| format!("{:?}", Mixed::view(&bytes).unwrap()))
                .map_err(|e| e.to_string());
            prop_assert_eq!(batched, single);
        }
    }
}

/// Strings that lie back to back (in one tail, in list elements, in nested messages),
/// for the joined runs of the batch check.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Texts {
    a: String,
    gap: u8,
    b: String,
    c: String,
    list: Vec<String>,
    pairs: Vec<TextPair>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct TextPair {
    x: String,
    y: String,
}

/// Text of ASCII, valid multi-byte characters and the odd stray byte.
fn text_bytes() -> impl Strategy<Value = Vec<u8>> {
    let token = prop_oneof![
        8 => (0x20u8..0x7f).prop_map(|b| vec![b]),
        2 => Just("é".as_bytes().to_vec()),
        2 => Just("ầ".as_bytes().to_vec()),
        1 => Just("😀".as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ];
    // Past 256 bytes the batch is checked and reused; under miri, short texts only.
    let tokens = if cfg!(miri) { 0..40 } else { 0..400 };
    proptest::collection::vec(token, tokens).prop_map(|t| t.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(2048)))]

    /// The text of 11 strings cut at arbitrary bytes (so a cut may fall inside a
    /// character, and every piece of a valid text may still be invalid): `view`
    /// accepts exactly when every piece is UTF-8, and agrees with the checked pass.
    #[test]
    fn batched_text_is_valid_exactly_when_every_piece_is(
        text in text_bytes(),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 10),
    ) {
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(text.len() + 1)).collect();
        cuts.sort_unstable();
        let bounds: Vec<usize> = [0].into_iter().chain(cuts).chain([text.len()]).collect();
        let pieces: Vec<&[u8]> = bounds.windows(2).map(|w| &text[w[0]..w[1]]).collect();
        let holder = |n: usize| "x".repeat(pieces[n].len());
        let value = Texts {
            a: holder(0),
            gap: 7,
            b: holder(1),
            c: holder(2),
            list: (3..7).map(holder).collect(),
            pairs: vec![
                TextPair { x: holder(7), y: holder(8) },
                TextPair { x: holder(9), y: holder(10) },
            ],
        };
        let mut bytes = value.to_bytes().unwrap();
        // Where each placeholder lies, in the order of `pieces`.
        let starts: Vec<usize> = {
            let view = Texts::view(&bytes).unwrap();
            let at = |s: &str| s.as_ptr() as usize - bytes.as_ptr() as usize;
            let mut starts = vec![at(view.a()), at(view.b()), at(view.c())];
            starts.extend(view.list().iter().map(at));
            for pair in view.pairs().iter() {
                starts.extend([at(pair.x()), at(pair.y())]);
            }
            starts
        };
        for (piece, start) in pieces.iter().zip(starts) {
            bytes[start..start + piece.len()].copy_from_slice(piece);
        }
        let expected = pieces.iter().all(|p| std::str::from_utf8(p).is_ok());
        let batched = Texts::view(&bytes).map(|v| format!("{v:?}")).map_err(|e| e.to_string());
        prop_assert_eq!(batched.is_ok(), expected, "{:?}", batched);
        let single = wiremsg::__private::validate_per_string::<Texts>(&bytes)
            .map(|()| format!("{:?}", Texts::view(&bytes).unwrap()))
            .map_err(|e| e.to_string());
        prop_assert_eq!(batched, single);
    }
}
