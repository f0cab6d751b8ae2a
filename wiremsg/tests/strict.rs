//! A user crate with strict lints: the generated code must compile under
//! `#![forbid(unsafe_code)]` and deny the documentation, idiom and clippy lints below.
//! (An integration test is its own crate, so these attributes apply to it as a whole.)
#![forbid(unsafe_code)]
#![deny(
    missing_docs,
    missing_debug_implementations,
    rust_2018_idioms,
    unreachable_pub,
    unused_qualifications,
    clippy::all
)]

use wiremsg::{FixedStr, WireEnum, WireMsg};

/// Order side.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Side {
    /// Buy.
    Buy = b'B',
    /// Sell.
    Sell = b'S',
}

/// Message type, keeping unknown values.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u32)]
pub enum Kind {
    /// New order.
    New = 1,
    /// Cancel.
    Cancel,
    /// Anything else.
    #[wire(other)]
    Other(u32),
}

/// A fixed-size message.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
pub struct Fill {
    /// Quantity.
    pub qty: u32,
    /// Price in ticks.
    pub price: i64,
    /// Side.
    pub side: Side,
}

/// A line of an order: has a tail.
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Line {
    /// Product code.
    pub sku: String,
    /// Quantity.
    pub qty: u16,
}

/// An order with every kind of field.
#[derive(WireMsg, Debug, PartialEq)]
pub struct Order<'a> {
    /// Order id.
    pub id: u64,
    /// Message type.
    pub kind: Kind,
    /// Instrument.
    pub symbol: FixedStr<8>,
    /// Whether the order is live.
    pub live: bool,
    /// Limit price, if any.
    pub limit: Option<i64>,
    /// Best three prices.
    pub book: [i32; 3],
    /// The last fill.
    pub last: Fill,
    /// Every fill.
    pub fills: Vec<Fill>,
    /// The lines.
    pub lines: Vec<Line>,
    /// The first line.
    pub head: Line,
    /// Client tag.
    pub tag: &'a str,
    /// Free text.
    pub text: Option<String>,
    /// Opaque bytes.
    pub blob: &'a [u8],
    /// Sides seen.
    pub sides: Vec<Side>,
}

fn fill(qty: u32, side: Side) -> Fill {
    Fill {
        qty,
        price: i64::from(qty) * 10,
        side,
    }
}

#[test]
fn strict_crate_round_trips_and_edits_in_place() {
    let order = Order {
        id: 77,
        kind: Kind::Other(9),
        symbol: FixedStr::new("ESZ6").unwrap(),
        live: true,
        limit: Some(-5),
        book: [100, 101, 102],
        last: fill(3, Side::Sell),
        fills: vec![fill(1, Side::Buy), fill(2, Side::Sell)],
        lines: vec![
            Line {
                sku: "w-1".into(),
                qty: 4,
            },
            Line {
                sku: "w-22".into(),
                qty: 5,
            },
        ],
        head: Line {
            sku: "h".into(),
            qty: 1,
        },
        tag: "client",
        text: None,
        blob: b"\x00\xff",
        sides: vec![Side::Sell, Side::Buy],
    };
    let mut bytes = order.to_bytes().unwrap();
    assert_eq!(bytes.len(), order.encoded_len());

    let view = Order::view(&bytes).unwrap();
    assert_eq!(view.id(), 77);
    assert_eq!(view.kind(), Kind::Other(9));
    assert_eq!(view.symbol(), "ESZ6");
    assert!(view.live());
    assert_eq!(view.limit(), Some(-5));
    assert_eq!(view.book().to_array(), [100, 101, 102]);
    assert_eq!(view.last().side(), Side::Sell);
    assert_eq!(view.fills().get(1).unwrap().price(), 20);
    assert_eq!(view.lines().get(1).unwrap().sku(), "w-22");
    assert_eq!(view.head().qty(), 1);
    assert_eq!(view.tag(), "client");
    assert_eq!(view.text(), None);
    assert_eq!(view.blob(), b"\x00\xff");
    assert_eq!(
        view.sides().iter().collect::<Vec<_>>(),
        [Side::Sell, Side::Buy]
    );
    assert_eq!(Order::decode(&bytes).unwrap(), order);
    // The views are `Debug` (missing_debug_implementations is denied above).
    let shown = format!("{view:?}");
    assert!(shown.starts_with("OrderView {"), "{shown}");
    assert!(shown.contains("tag: \"client\""), "{shown}");

    let mut edit = Order::view_mut(&mut bytes).unwrap();
    assert!(format!("{edit:?}").starts_with("OrderMut"));
    edit.set_kind(Kind::Cancel);
    edit.set_limit(None);
    edit.set_book([1, 2, 3]);
    edit.last_mut().set_qty(30);
    edit.fills_mut().get_mut(0).unwrap().set_side(Side::Sell);
    edit.lines_mut().get_mut(1).unwrap().set_qty(50);
    edit.head_mut().set_qty(10);
    assert!(edit.sides_mut().set(1, &Side::Sell));

    let decoded = Order::decode(&bytes).unwrap();
    assert_eq!(decoded.kind, Kind::Cancel);
    assert_eq!(decoded.limit, None);
    assert_eq!(decoded.book, [1, 2, 3]);
    assert_eq!(decoded.last.qty, 30);
    assert_eq!(decoded.fills[0].side, Side::Sell);
    assert_eq!(decoded.lines[1].qty, 50);
    assert_eq!(decoded.head.qty, 10);
    assert_eq!(decoded.sides, [Side::Sell, Side::Sell]);
    assert_eq!(decoded.tag, "client");
    assert_eq!(Kind::from_raw(2), Some(Kind::Cancel));
    assert_eq!(<Kind as WireEnum>::to_raw(Kind::Other(9)), 9);
}

/// A heartbeat.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1)]
pub struct Ping {
    /// Sequence number.
    pub sequence: u64,
}

/// A reply.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2)]
pub struct Pong {
    /// Sequence number answered.
    pub sequence: u64,
}

/// Either message, by template id.
#[derive(wiremsg::WireDispatch, Debug, Clone, PartialEq)]
pub enum Traffic {
    /// A heartbeat.
    Ping(Ping),
    /// A reply.
    Pong(Pong),
}

/// The dispatch enum's views and mutable views, under the same lints.
#[test]
fn strict_crate_dispatches_and_edits_in_place() {
    let mut bytes = Vec::new();
    Traffic::Pong(Pong { sequence: 4 })
        .encode_with_header(&mut bytes)
        .unwrap();
    match Traffic::view_mut(&mut bytes).unwrap() {
        (_, TrafficMut::Pong(mut pong)) => pong.set_sequence(5),
        (_, other) => panic!("{other:?}"),
    }
    let (_, view) = Traffic::view(&bytes).unwrap();
    let copy = bytes.clone();
    assert_eq!(view, Traffic::view(&copy).unwrap().1);
    match view {
        TrafficView::Pong(pong) => assert!(pong == Pong { sequence: 5 }),
        TrafficView::Ping(ping) => panic!("{ping:?}"),
    }
    let mut writer = wiremsg::FrameWriter::new(Vec::new());
    assert_eq!(
        writer.write(&Traffic::Ping(Ping { sequence: 1 })).unwrap(),
        4 + 8 + 8
    );
}
