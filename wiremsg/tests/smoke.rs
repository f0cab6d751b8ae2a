//! Smoke test of the derive across field kinds.
use wiremsg::{FixedStr, WireEnum, WireMsg};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Tick {
    seq: u64,
    symbol: FixedStr<8>,
    price: i64,
    side: Side,
    on: bool,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Item {
    sku: String,
    qty: i32,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Order<'a> {
    id: i64,
    items: Vec<Item>,
    note: &'a str,
    ticks: Vec<Tick>,
    opt: Option<u32>,
    mfa: Option<String>,
    raw: &'a [u8],
}

#[test]
fn smoke() {
    let t = Tick {
        seq: 1,
        symbol: FixedStr::new("AAPL").unwrap(),
        price: -5,
        side: Side::Sell,
        on: true,
    };
    let b = t.to_bytes().unwrap();
    assert_eq!(b.len(), 8 + 8 + 8 + 1 + 1);
    let v = Tick::view(&b).unwrap();
    assert_eq!(v.symbol(), "AAPL");
    assert_eq!(v.side(), Side::Sell);
    assert_eq!(Tick::decode(&b).unwrap(), t);
    let o = Order {
        id: 9,
        items: vec![
            Item {
                sku: "a".into(),
                qty: 2,
            },
            Item {
                sku: "bé".into(),
                qty: 3,
            },
        ],
        note: "hi",
        ticks: vec![t],
        opt: Some(3),
        mfa: None,
        raw: b"xy",
    };
    let b = o.to_bytes().unwrap();
    let v = Order::view(&b).unwrap();
    println!("{v:?}");
    assert_eq!(v.items().get(1).unwrap().sku(), "bé");
    assert_eq!(Order::decode(&b).unwrap(), o);
    let mut b2 = b.clone();
    let mut m = Order::view_mut(&mut b2).unwrap();
    m.set_id(10);
    m.items_mut().get_mut(0).unwrap().set_qty(7);
    m.ticks_mut().get_mut(0).unwrap().set_side(Side::Buy);
    let d = Order::decode(&b2).unwrap();
    assert_eq!(d.id, 10);
    assert_eq!(d.items[0].qty, 7);
    assert_eq!(d.ticks[0].side, Side::Buy);
}
