//! A whole fixed-size nested message (and options and arrays of them) set in place in
//! one call, writing the bytes its encoding has.

use wiremsg::{FixedStr, WireEnum, WireMsg};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

/// Only numbers: every byte pattern is valid.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Default)]
struct Px {
    mantissa: i64,
    exponent: i8,
}

/// Fields that validation checks (text, enum, bool, option), and a nested message.
#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    symbol: FixedStr<4>,
    side: Side,
    active: bool,
    px: Px,
    qty: Option<u32>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(version = 2)]
struct Order {
    id: u64,
    px: Px,
    leg: Leg,
    stop: Option<Px>,
    ladder: [Px; 2],
    note: String,
    #[wire(since = 2)]
    hedge: Leg,
}

fn leg(symbol: &str, side: Side, mantissa: i64) -> Leg {
    Leg {
        symbol: FixedStr::new(symbol).unwrap(),
        side,
        active: true,
        px: Px {
            mantissa,
            exponent: -2,
        },
        qty: Some(5),
    }
}

fn order() -> Order {
    Order {
        id: 1,
        px: Px {
            mantissa: 100,
            exponent: -2,
        },
        leg: leg("AB", Side::Buy, 7),
        stop: None,
        ladder: [Px::default(); 2],
        note: "keep".into(),
        hedge: leg("CD", Side::Sell, 9),
    }
}

#[test]
fn a_nested_message_is_set_in_one_call() {
    let mut bytes = order().to_bytes().unwrap();
    let mut edit = Order::view_mut(&mut bytes).unwrap();
    edit.set_px(Px {
        mantissa: 12_345,
        exponent: -4,
    });
    edit.set_leg(leg("XY", Side::Sell, -3));
    edit.set_stop(Some(Px {
        mantissa: 99,
        exponent: 0,
    }));
    edit.set_ladder([
        Px {
            mantissa: 1,
            exponent: 1,
        },
        Px {
            mantissa: 2,
            exponent: 2,
        },
    ]);
    assert!(edit.set_hedge(leg("ZZ", Side::Buy, 0)));
    assert_eq!((edit.px().mantissa(), edit.px().exponent()), (12_345, -4));

    let expected = Order {
        px: Px {
            mantissa: 12_345,
            exponent: -4,
        },
        leg: leg("XY", Side::Sell, -3),
        stop: Some(Px {
            mantissa: 99,
            exponent: 0,
        }),
        ladder: [
            Px {
                mantissa: 1,
                exponent: 1,
            },
            Px {
                mantissa: 2,
                exponent: 2,
            },
        ],
        hedge: leg("ZZ", Side::Buy, 0),
        ..order()
    };
    // The same bytes as encoding the updated value: block and tail alike.
    assert_eq!(bytes, expected.to_bytes().unwrap());
    let view = Order::view(&bytes).unwrap();
    assert_eq!((view.leg().symbol(), view.leg().side()), ("XY", Side::Sell));
    assert_eq!(view.try_hedge().map(|h| h.symbol()), Some("ZZ"));

    // Back to absent: the presence byte and zeroed bytes, as an encoder writes them.
    let mut edit = Order::view_mut(&mut bytes).unwrap();
    edit.set_stop(None);
    assert_eq!(
        bytes,
        Order {
            stop: None,
            ..expected
        }
        .to_bytes()
        .unwrap()
    );
}

#[test]
fn the_golden_bytes_of_a_set_message() {
    // `Leg` on its own: symbol, side, active, px (9 bytes), qty (1 + 4).
    let mut bytes = [0u8; 4 + 1 + 1 + 9 + 5];
    bytes[..4].copy_from_slice(b"    ");
    bytes[4] = 1;
    let mut edit = Leg::view_mut(&mut bytes).unwrap();
    edit.set_px(Px {
        mantissa: -2,
        exponent: 3,
    });
    assert_eq!(
        bytes,
        [
            0x20, 0x20, 0x20, 0x20, // symbol "" (padding)
            0x01, // side Buy
            0x00, // active false
            0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x03, // px (-2, 3)
            0x00, 0, 0, 0, 0, // qty absent
        ]
    );
}

#[test]
fn a_later_nested_message_on_older_bytes_is_not_written() {
    mod v1 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Order {
            pub(crate) id: u64,
            pub(crate) px: super::Px,
            pub(crate) leg: super::Leg,
            pub(crate) stop: Option<super::Px>,
            pub(crate) ladder: [super::Px; 2],
            pub(crate) note: String,
        }
    }
    let old = v1::Order {
        id: 3,
        px: Px::default(),
        leg: leg("AB", Side::Buy, 1),
        stop: None,
        ladder: [Px::default(); 2],
        note: String::new(),
    };
    let mut bytes = old.to_bytes().unwrap();
    let before = bytes.clone();
    let mut edit = Order::view_mut(&mut bytes).unwrap();
    assert!(!edit.set_hedge(leg("ZZ", Side::Sell, 4)));
    assert_eq!(bytes, before);
}

/// Elements of a list of fixed-size messages set as a whole: a newer writer's element
/// keeps its extra bytes; an older writer's element (a shorter stride) is not written.
#[test]
fn list_elements_are_set_as_whole_messages() {
    mod v1 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
        }
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Report {
            pub(crate) fills: Vec<Fill>,
        }
    }
    mod v3 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(version = 3)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
            #[wire(since = 2)]
            pub(crate) px: i64,
            #[wire(since = 3)]
            pub(crate) venue: u8,
        }
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Report {
            pub(crate) fills: Vec<Fill>,
        }
    }
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    struct Fill {
        qty: u32,
        #[wire(since = 2)]
        px: i64,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    struct Report {
        fills: Vec<Fill>,
    }

    // This reader's version: written, and read back.
    let mut bytes = Report {
        fills: vec![Fill { qty: 1, px: 2 }, Fill { qty: 3, px: 4 }],
    }
    .to_bytes()
    .unwrap();
    let mut edit = Report::view_mut(&mut bytes).unwrap();
    assert!(edit.fills_mut().set(1, &Fill { qty: 30, px: 40 }));
    assert_eq!(
        bytes,
        Report {
            fills: vec![Fill { qty: 1, px: 2 }, Fill { qty: 30, px: 40 }]
        }
        .to_bytes()
        .unwrap()
    );

    // A newer writer's elements (stride 13): the first 12 bytes are written, `venue`
    // stays.
    let mut newer = v3::Report {
        fills: vec![v3::Fill {
            qty: 1,
            px: 2,
            venue: 9,
        }],
    }
    .to_bytes()
    .unwrap();
    let mut edit = Report::view_mut(&mut newer).unwrap();
    assert!(edit.fills_mut().set(0, &Fill { qty: 5, px: 6 }));
    assert_eq!(
        v3::Report::decode(&newer).unwrap().fills,
        [v3::Fill {
            qty: 5,
            px: 6,
            venue: 9
        }]
    );

    // An older writer's elements (stride 4): there is no room for `px`.
    let mut older = v1::Report {
        fills: vec![v1::Fill { qty: 1 }],
    }
    .to_bytes()
    .unwrap();
    let before = older.clone();
    let mut edit = Report::view_mut(&mut older).unwrap();
    assert!(!edit.fills_mut().set(0, &Fill { qty: 5, px: 6 }));
    assert_eq!(older, before);
}
