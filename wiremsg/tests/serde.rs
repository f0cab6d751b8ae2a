//! `Serialize` for views (feature `serde`): JSON straight from the bytes.

use wiremsg::{FixedStr, WireEnum, WireMsg};

#[derive(WireEnum, Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
    #[wire(other)]
    Unknown(u8),
}

#[derive(WireMsg)]
struct Fill {
    qty: u32,
    px: f64,
}

#[derive(WireMsg)]
struct Note {
    author: String,
    tags: Vec<String>,
}

mod v1 {
    use super::*;

    #[derive(WireMsg)]
    #[wire(version = 1)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) symbol: FixedStr<8>,
        pub(crate) side: Side,
        pub(crate) limit: Option<i64>,
        pub(crate) stop: Option<i64>,
        pub(crate) flags: [bool; 2],
        pub(crate) fills: Vec<Fill>,
        pub(crate) notes: Vec<Note>,
        pub(crate) raw: Vec<u8>,
        // Written as 0, never read: a removed field's slot.
        #[allow(dead_code)]
        #[wire(reserved)]
        pub(crate) legacy: u16,
    }
}

mod v2 {
    use super::*;

    #[derive(WireMsg)]
    #[wire(version = 2)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) symbol: FixedStr<8>,
        pub(crate) side: Side,
        pub(crate) limit: Option<i64>,
        pub(crate) stop: Option<i64>,
        pub(crate) flags: [bool; 2],
        pub(crate) fills: Vec<Fill>,
        pub(crate) notes: Vec<Note>,
        pub(crate) raw: Vec<u8>,
        // Written as 0, never read: a removed field's slot.
        #[allow(dead_code)]
        #[wire(reserved)]
        pub(crate) legacy: u16,
        #[wire(since = 2)]
        pub(crate) venue: String,
    }
}

fn v1_order(side: Side) -> v1::Order {
    v1::Order {
        id: 7,
        symbol: FixedStr::new("AAPL").unwrap(),
        side,
        limit: Some(-150),
        stop: None,
        flags: [true, false],
        fills: vec![Fill { qty: 10, px: 1.5 }],
        notes: vec![Note {
            author: "ops".into(),
            tags: vec!["a".into(), "\"b\"".into()],
        }],
        raw: vec![0, 255],
        legacy: 0,
    }
}

const V1_JSON: &str = r#"{"id":7,"symbol":"AAPL","side":"Sell","limit":-150,"stop":null,"flags":[true,false],"fills":[{"qty":10,"px":1.5}],"notes":[{"author":"ops","tags":["a","\"b\""]}],"raw":[0,255]"#;

#[test]
fn a_view_serializes_as_json_without_decoding() {
    let bytes = v1_order(Side::Sell).to_bytes().unwrap();
    let view = v1::Order::view(&bytes).unwrap();
    // The reserved field is not readable, so not written.
    assert_eq!(
        serde_json::to_string(&view).unwrap(),
        format!("{V1_JSON}}}")
    );
}

#[test]
fn a_field_the_writer_did_not_have_is_left_out() {
    let bytes = v1_order(Side::Sell).to_bytes().unwrap();
    let view = v2::Order::view(&bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&view).unwrap(),
        format!("{V1_JSON}}}")
    );

    let new = v2::Order {
        id: 7,
        symbol: FixedStr::new("AAPL").unwrap(),
        side: Side::Sell,
        limit: Some(-150),
        stop: None,
        flags: [true, false],
        fills: vec![Fill { qty: 10, px: 1.5 }],
        notes: vec![Note {
            author: "ops".into(),
            tags: vec!["a".into(), "\"b\"".into()],
        }],
        raw: vec![0, 255],
        legacy: 0,
        venue: "XNAS".into(),
    };
    let bytes = new.to_bytes().unwrap();
    let view = v2::Order::view(&bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&view).unwrap(),
        format!(r#"{V1_JSON},"venue":"XNAS"}}"#)
    );
}

#[test]
fn an_unknown_enum_value_kept_by_a_catch_all_is_its_number() {
    let bytes = v1_order(Side::Unknown(9)).to_bytes().unwrap();
    let view = v1::Order::view(&bytes).unwrap();
    let json: serde_json::Value = serde_json::to_value(view).unwrap();
    assert_eq!(json["side"], serde_json::json!(9));
}

#[test]
fn lists_and_fixed_str_serialize_on_their_own() {
    let bytes = v1_order(Side::Buy).to_bytes().unwrap();
    let view = v1::Order::view(&bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&view.fills()).unwrap(),
        r#"[{"qty":10,"px":1.5}]"#
    );
    assert_eq!(
        serde_json::to_string(&view.flags()).unwrap(),
        "[true,false]"
    );

    let symbol: FixedStr<8> = serde_json::from_str(r#""MSFT""#).unwrap();
    assert_eq!(symbol.as_str(), "MSFT");
    assert_eq!(serde_json::to_string(&symbol).unwrap(), r#""MSFT""#);
    let err = serde_json::from_str::<FixedStr<2>>(r#""MSFT""#).unwrap_err();
    assert!(
        err.to_string()
            .contains("does not fit a 2-byte fixed string"),
        "{err}"
    );
}

#[derive(WireMsg)]
struct TopOfBook {
    symbol: FixedStr<8, 0>,
    #[wire(null = i64::MIN)]
    bid: Option<wiremsg::Decimal<i64, 4>>,
    ask: wiremsg::Decimal<u32, 4>,
    #[wire(null = u32::MAX)]
    size: Option<u32>,
    #[wire(max_len = 4)]
    venues: Vec<u16>,
}

#[test]
fn trading_field_types_serialize_exactly() {
    let value = TopOfBook {
        symbol: FixedStr::new("NQ").unwrap(),
        bid: None,
        ask: wiremsg::Decimal::from_mantissa(1_234_500),
        size: Some(300),
        venues: vec![1, 2],
    };
    let bytes = value.to_bytes().unwrap();
    let view = TopOfBook::view(&bytes).unwrap();
    // Decimals as their exact text: a JSON number would round.
    assert_eq!(
        serde_json::to_string(&view).unwrap(),
        r#"{"symbol":"NQ","bid":null,"ask":"123.4500","size":300,"venues":[1,2]}"#
    );
}

/// The schema-driven reader writes the JSON the typed view writes.
#[test]
fn the_schema_driven_reader_writes_the_same_json() {
    use wiremsg::{SchemaSet, dynamic};
    let check = |set: &SchemaSet, name: &str, bytes: &[u8], typed: String| {
        let view = dynamic::view(set, name, bytes).unwrap();
        assert_eq!(serde_json::to_string(&view).unwrap(), typed, "{name}");
        // On demand too (`to_view()`, then the same JSON).
        let lazy = dynamic::view_lazy(set, name, bytes).unwrap();
        assert_eq!(
            serde_json::to_string(&lazy).unwrap(),
            typed,
            "{name} on demand"
        );
        assert!(lazy == dynamic::view_lazy(set, name, bytes).unwrap());
    };
    for side in [Side::Sell, Side::Unknown(9)] {
        let bytes = v1_order(side).to_bytes().unwrap();
        let typed = serde_json::to_string(&v1::Order::view(&bytes).unwrap()).unwrap();
        check(
            &SchemaSet::of::<v1::Order>().unwrap(),
            "Order",
            &bytes,
            typed,
        );
        // An older writer's bytes, read through the newer schema.
        let typed = serde_json::to_string(&v2::Order::view(&bytes).unwrap()).unwrap();
        check(
            &SchemaSet::of::<v2::Order>().unwrap(),
            "Order",
            &bytes,
            typed,
        );
    }
    let value = TopOfBook {
        symbol: FixedStr::new("NQ").unwrap(),
        bid: Some(wiremsg::Decimal::from_mantissa(-5)),
        ask: wiremsg::Decimal::from_mantissa(1_234_500),
        size: None,
        venues: vec![],
    };
    let bytes = value.to_bytes().unwrap();
    let typed = serde_json::to_string(&TopOfBook::view(&bytes).unwrap()).unwrap();
    assert_eq!(
        typed,
        r#"{"symbol":"NQ","bid":"-0.0005","ask":"123.4500","size":null,"venues":[]}"#
    );
    check(
        &SchemaSet::of::<TopOfBook>().unwrap(),
        "TopOfBook",
        &bytes,
        typed,
    );
}

#[test]
fn decimals_serialize_as_exact_text_and_parse_back() {
    type Price = wiremsg::Decimal<i64, 4>;
    let px: Price = "-12.5".parse().unwrap();
    assert_eq!(serde_json::to_string(&px).unwrap(), r#""-12.5000""#);
    assert_eq!(serde_json::from_str::<Price>(r#""-12.5000""#).unwrap(), px);
    let err = serde_json::from_str::<Price>(r#""1.23456""#).unwrap_err();
    assert!(err.to_string().contains("more decimal places"), "{err}");
}

/// The schema-driven reader's on-demand view: bytes that fail validation are the
/// serializer's error, before anything is written, and equal nothing.
#[test]
fn the_schema_driven_on_demand_view_fails_as_a_serde_error() {
    use wiremsg::{SchemaSet, dynamic};
    let set = SchemaSet::of::<v1::Order>().unwrap();
    let mut bytes = v1_order(Side::Sell).to_bytes().unwrap();
    let symbol = bytes.windows(4).position(|w| w == b"AAPL").unwrap();
    let good = dynamic::view_lazy(&set, "Order", &bytes).unwrap();
    assert!(good == good);
    bytes[symbol] = 0xFF; // the symbol is no longer UTF-8
    let expected = dynamic::view(&set, "Order", &bytes).unwrap_err();
    let lazy = dynamic::view_lazy(&set, "Order", &bytes).unwrap();
    let err = serde_json::to_string(&lazy).unwrap_err();
    assert_eq!(err.to_string(), expected.to_string());
    assert!(lazy != lazy);
}
