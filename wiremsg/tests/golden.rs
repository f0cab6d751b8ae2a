//! Golden vectors: the worked examples of FORMAT.md §9, read from the file itself, must
//! be exactly what encoding produces, and must view and decode to the values shown.

#[path = "common/golden.rs"]
mod format_golden;
use format_golden::golden;
use wiremsg::{FixedStr, WireEnum, WireMsg};

#[derive(WireMsg, Debug, PartialEq)]
struct Padded {
    a: u8,
    b: i32,
    c: u8,
}

#[test]
fn e1_padding_is_six_bytes_and_little_endian() {
    let value = Padded {
        a: 1,
        b: 0x1234_5678,
        c: 2,
    };
    let bytes = golden("E1");
    assert_eq!(bytes, [0x01, 0x78, 0x56, 0x34, 0x12, 0x02]);
    assert_eq!(value.to_bytes().unwrap(), bytes);
    assert_eq!(Padded::BLOCK_LENGTH, 6);
    assert_eq!(PaddedView::B_OFFSET, 1);
    assert_eq!(Padded::decode(&bytes).unwrap(), value);
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Tick {
    sequence: u64,
    timestamp_ns: u64,
    symbol: FixedStr<8>,
    bid_price: i64,
    bid_size: u32,
    ask_price: i64,
    ask_size: u32,
    side: Side,
    flags: u8,
}

fn tick() -> Tick {
    Tick {
        sequence: 1_000_042,
        timestamp_ns: 1_764_000_000_123_456_789,
        symbol: FixedStr::new("AAPL").unwrap(),
        bid_price: 2_345_600,
        bid_size: 300,
        ask_price: 2_345_700,
        ask_size: 200,
        side: Side::Buy,
        flags: 1,
    }
}

#[test]
fn e2_tick() {
    let bytes = golden("E2");
    assert_eq!(bytes.len(), 50);
    assert_eq!(tick().to_bytes().unwrap(), bytes);
    let view = Tick::view(&bytes).unwrap();
    assert_eq!(view.sequence(), 1_000_042);
    assert_eq!(view.symbol(), "AAPL");
    assert_eq!(view.ask_size(), 200);
    assert_eq!(view.side(), Side::Buy);
    assert_eq!(TickView::SIDE_OFFSET, 48);
    assert_eq!(Tick::decode(&bytes).unwrap(), tick());
}

#[derive(WireMsg, Debug, PartialEq)]
struct LoginRequest {
    username: String,
    password: String,
    mfa_token: Option<String>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct LoginRequestRef<'a> {
    username: &'a str,
    password: &'a str,
    mfa_token: Option<&'a str>,
}

#[test]
fn e3_login_request_owned_and_borrowed_encode_alike() {
    let bytes = golden("E3");
    let owned = LoginRequest {
        username: "hpn_user".into(),
        password: "secure_password_123".into(),
        mfa_token: None,
    };
    let borrowed = LoginRequestRef {
        username: "hpn_user",
        password: "secure_password_123",
        mfa_token: None,
    };
    assert_eq!(owned.to_bytes().unwrap(), bytes);
    assert_eq!(borrowed.to_bytes().unwrap(), bytes);
    assert_eq!(owned.encoded_len(), 42);
    assert_eq!(LoginRequest::BLOCK_LENGTH, 15);
    let view = LoginRequest::view(&bytes).unwrap();
    assert_eq!(view.username(), "hpn_user");
    assert_eq!(view.password(), "secure_password_123");
    assert_eq!(view.mfa_token(), None);
    assert_eq!(LoginRequest::decode(&bytes).unwrap(), owned);
    assert_eq!(LoginRequestRef::decode(&bytes).unwrap(), borrowed);
}

#[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
struct Level {
    price: i32,
    size: u16,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Venue {
    code: u8,
    name: String,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Book {
    id: u16,
    levels: Vec<u16>,
    quotes: Vec<Level>,
    tags: Vec<String>,
    venue: Venue,
}

#[test]
fn e4_lists_and_nested_message() {
    let bytes = golden("E4");
    let book = Book {
        id: 513,
        levels: vec![7, 9],
        quotes: vec![
            Level {
                price: -1,
                size: 10,
            },
            Level { price: 5, size: 20 },
        ],
        tags: vec!["ab".into(), "é".into()],
        venue: Venue {
            code: 3,
            name: "XNAS".into(),
        },
    };
    assert_eq!(book.to_bytes().unwrap(), bytes);
    let view = Book::view(&bytes).unwrap();
    assert_eq!(view.levels().iter().collect::<Vec<_>>(), [7, 9]);
    assert_eq!(view.quotes().get(1).unwrap().price(), 5);
    assert_eq!(view.tags().get(1), Some("é"));
    assert_eq!(view.venue().name(), "XNAS");
    assert_eq!(Book::decode(&bytes).unwrap(), book);
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
    qty: Option<u32>,
    price: Option<i64>,
    liquidity: Liquidity,
    last: bool,
}

#[test]
fn e5_options_catch_all_and_bool() {
    let bytes = golden("E5");
    let fill = Fill {
        qty: Some(500),
        price: None,
        liquidity: Liquidity::Other(7),
        last: true,
    };
    assert_eq!(fill.to_bytes().unwrap(), bytes);
    let view = Fill::view(&bytes).unwrap();
    assert_eq!(view.qty(), Some(500));
    assert_eq!(view.price(), None);
    assert_eq!(view.liquidity(), Liquidity::Other(7));
    assert_eq!(Fill::decode(&bytes).unwrap(), fill);
    // Some(0) and None are different bytes and different values (reference R2's lesson).
    let zero = Fill {
        qty: Some(0),
        ..fill
    };
    assert_ne!(
        zero.to_bytes().unwrap(),
        Fill { qty: None, ..zero }.to_bytes().unwrap()
    );
    assert_eq!(Liquidity::Removed.to_bytes_for_test(), [2]);
}

trait ToBytesForTest {
    fn to_bytes_for_test(self) -> Vec<u8>;
}

impl<T: wiremsg::Field> ToBytesForTest for T {
    fn to_bytes_for_test(self) -> Vec<u8> {
        let mut block = vec![0; T::BLOCK_SIZE];
        wiremsg::Field::write(&self, &mut block, &mut []);
        block
    }
}

#[derive(WireMsg, Debug, PartialEq)]
struct Sample {
    ratio: f32,
    price: f64,
    big: u128,
    levels: [i16; 2],
    inner: Level,
    bytes: Vec<u8>,
    venues: Vec<Venue>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct SampleRef<'a> {
    ratio: f32,
    price: f64,
    big: u128,
    levels: [i16; 2],
    inner: Level,
    bytes: &'a [u8],
    venues: Vec<Venue>,
}

#[test]
fn e6_floats_u128_array_inline_message_bytes_and_message_list() {
    let bytes = golden("E6");
    let venues = || {
        vec![
            Venue {
                code: 1,
                name: "A".into(),
            },
            Venue {
                code: 2,
                name: String::new(),
            },
        ]
    };
    let sample = Sample {
        ratio: 0.5,
        price: -1.25,
        big: 1 << 100,
        levels: [-2, 3],
        inner: Level {
            price: 100,
            size: 7,
        },
        bytes: vec![0xde, 0xad],
        venues: venues(),
    };
    assert_eq!(sample.to_bytes().unwrap(), bytes);
    let borrowed = SampleRef {
        ratio: 0.5,
        price: -1.25,
        big: 1 << 100,
        levels: [-2, 3],
        inner: Level {
            price: 100,
            size: 7,
        },
        bytes: &[0xde, 0xad],
        venues: venues(),
    };
    assert_eq!(borrowed.to_bytes().unwrap(), bytes);
    assert_eq!(Sample::BLOCK_LENGTH, 48);
    assert_eq!(SampleView::INNER_OFFSET, 34);
    let view = Sample::view(&bytes).unwrap();
    assert_eq!(view.levels().to_array(), [-2, 3]);
    assert_eq!(view.inner().size(), 7);
    assert_eq!(view.bytes(), [0xde, 0xad]);
    assert_eq!(view.venues().get(1).unwrap().code(), 2);
    assert_eq!(view.venues().get(0).unwrap().name(), "A");
    assert_eq!(Sample::decode(&bytes).unwrap(), sample);
    assert_eq!(SampleRef::decode(&bytes).unwrap(), borrowed);
}

mod quote_v1 {
    use wiremsg::WireMsg;
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) note: String,
    }
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(version = 3)]
struct Quote {
    price: i64,
    size: u32,
    #[wire(since = 2)]
    venue: u8,
    #[wire(since = 3, default = 7)]
    flags: u16,
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(version = 2)]
struct Order {
    id: u64,
    note: String,
    #[wire(since = 2)]
    tags: Vec<String>,
}

#[test]
fn e7_versions() {
    let (old, new) = (golden("E7a"), golden("E7b"));
    assert_eq!(
        quote_v1::Quote {
            price: -5,
            size: 10
        }
        .to_bytes()
        .unwrap(),
        old
    );
    let quote = Quote {
        price: -5,
        size: 10,
        venue: 4,
        flags: 9,
    };
    assert_eq!(quote.to_bytes().unwrap(), new);
    let view = Quote::view(&old).unwrap();
    assert_eq!((view.venue(), view.flags(), view.version()), (0, 7, 1));
    assert_eq!(quote_v1::Quote::view(&new).unwrap().size(), 10);

    let (old, new) = (golden("E7c"), golden("E7d"));
    let order_v1 = quote_v1::Order {
        id: 9,
        note: "rush".into(),
    };
    assert_eq!(order_v1.to_bytes().unwrap(), old);
    let order = Order {
        id: 9,
        note: "rush".into(),
        tags: vec!["a".into(), "bé".into()],
    };
    assert_eq!(order.to_bytes().unwrap(), new);
    assert_eq!(quote_v1::Order::decode(&new).unwrap(), order_v1);
    assert_eq!(Order::view(&old).unwrap().tags().len(), 0);
    assert_eq!(Order::decode(&new).unwrap(), order);
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(template_id = 1, schema_id = 7, version = 2)]
struct AddOrder {
    order: u64,
    symbol: FixedStr<8>,
    price: i64,
    #[wire(since = 2)]
    shares: u32,
}

#[test]
fn e8_header() {
    use wiremsg::Template;
    let bytes = golden("E8");
    let add = AddOrder {
        order: 5,
        symbol: FixedStr::new("MSFT").unwrap(),
        price: 4_200_000,
        shares: 100,
    };
    let mut out = Vec::new();
    add.encode_with_header(&mut out).unwrap();
    assert_eq!(out, bytes);
    let (header, view) = AddOrder::view_with_header(&bytes).unwrap();
    assert_eq!(
        (header.template_id, header.schema_id, header.version),
        (1, 7, 2)
    );
    assert_eq!(view.shares(), 100);
}

mod e9 {
    pub(crate) mod v1 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(block_length)]
        pub(crate) struct Alert {
            pub(crate) code: u32,
            pub(crate) level: u16,
        }
    }

    pub(crate) mod v2 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(block_length, version = 2)]
        pub(crate) struct Alert {
            pub(crate) code: u32,
            pub(crate) level: u16,
            #[wire(since = 2)]
            pub(crate) reason: String,
        }
    }
}

#[test]
fn e9_a_fixed_size_message_with_a_block_length_gains_a_string() {
    use e9::{v1, v2};
    let (old, new) = (golden("E9a"), golden("E9b"));
    let v1_value = v1::Alert { code: 7, level: 2 };
    let v2_value = v2::Alert {
        code: 7,
        level: 2,
        reason: "disk".into(),
    };
    assert_eq!(v1_value.to_bytes().unwrap(), old);
    assert_eq!(v2_value.to_bytes().unwrap(), new);
    // Every reader of every writer.
    assert_eq!(v1::Alert::decode(&old).unwrap(), v1_value);
    assert_eq!(v1::Alert::decode(&new).unwrap(), v1_value);
    let view = v2::Alert::view(&old).unwrap();
    assert_eq!(
        (view.code(), view.reason(), view.has_reason()),
        (7, "", false)
    );
    assert_eq!(v2::Alert::decode(&new).unwrap(), v2_value);
    // The block on the wire (12 bytes) and no tail data this reader knows.
    assert_eq!(v1::Alert::view(&new).unwrap().as_bytes(), Some(&new[..12]));
}

/// The schema file (FORMAT.md §11) of each golden vector's message types, committed
/// under `tests/schemas/golden/` for tools that read the vectors without the Rust
/// types (the `wiremsg` command's tests). A missing file is written; a file that
/// differs fails, unless `WIREMSG_UPDATE_SNAPSHOTS=1` rewrites it.
#[test]
fn schema_files_of_the_golden_vectors_are_current() {
    use wiremsg::SchemaSet;
    fn set<T: WireMsg>() -> SchemaSet {
        SchemaSet::of::<T>().unwrap()
    }
    let mut e7_v1 = set::<quote_v1::Quote>();
    e7_v1.add::<quote_v1::Order>().unwrap();
    let mut e7 = set::<Quote>();
    e7.add::<Order>().unwrap();
    let files = [
        ("E1", set::<Padded>()),
        ("E2", set::<Tick>()),
        ("E3", set::<LoginRequest>()),
        ("E4", set::<Book>()),
        ("E5", set::<Fill>()),
        ("E6", set::<Sample>()),
        ("E7-v1", e7_v1),
        ("E7", e7),
        ("E8", set::<AddOrder>()),
        ("E9-v1", set::<e9::v1::Alert>()),
        ("E9", set::<e9::v2::Alert>()),
        ("E10", set::<TopLevel>()),
        ("E11", set::<unions::Order>()),
        ("E16", set::<dense::Batch>()),
    ];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/golden");
    std::fs::create_dir_all(&dir).unwrap();
    let update = std::env::var_os("WIREMSG_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    for (name, set) in files {
        let path = dir.join(format!("{name}.wms"));
        let bytes = set.to_bytes().unwrap();
        match std::fs::read(&path) {
            Ok(committed) if !update => assert!(
                committed == bytes,
                "{} is out of date: rerun with WIREMSG_UPDATE_SNAPSHOTS=1 and commit it",
                path.display()
            ),
            _ => std::fs::write(&path, &bytes).unwrap(),
        }
        assert_eq!(SchemaSet::read_file(&path).unwrap(), set);
    }
}

#[derive(WireMsg, Debug, PartialEq)]
struct TopLevel {
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
fn e10_trading_field_types() {
    let bytes = golden("E10");
    let value = TopLevel {
        symbol: FixedStr::new("NQ").unwrap(),
        bid: None,
        ask: wiremsg::Decimal::from_mantissa(1_234_500),
        size: Some(300),
        venues: vec![1, 2],
    };
    assert_eq!(value.to_bytes().unwrap(), bytes);
    assert_eq!(TopLevel::BLOCK_LENGTH, 30);
    let view = TopLevel::view(&bytes).unwrap();
    assert_eq!(
        (
            view.symbol(),
            view.bid(),
            view.ask().to_string(),
            view.size()
        ),
        ("NQ", None, "123.4500".to_owned(), Some(300))
    );
    assert_eq!(TopLevel::decode(&bytes).unwrap(), value);
}

/// F2 (FORMAT.md §12): a describing writer's stream of one `Ping` is S1's schema in a
/// frame, then the message (`tests/stream.rs` reads it back every way).
#[test]
fn f2_schema_frame_then_message() {
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 1)]
    struct Ping {
        seq: u32,
    }
    let bytes = golden("F2");
    let mut writer = wiremsg::FrameWriter::new(Vec::new()).with_schema_frames();
    writer.write(&Ping { seq: 9 }).unwrap();
    assert_eq!(writer.into_inner(), bytes);
    assert_eq!(bytes[..4], 113u32.to_le_bytes());
    assert_eq!(bytes[4..117], golden("S1")[..]);
    let set = wiremsg::frame::read_schema_frame(&bytes[4..117]).unwrap();
    assert_eq!(
        set.describe(0, 1).unwrap().fingerprint.to_string(),
        "ba99f373cf3947a7"
    );
}

/// E11's types (FORMAT.md §4.10), for its schema file; `tests/unions.rs` checks its
/// bytes.
#[path = "common/e11.rs"]
mod unions;

/// E16's types (FORMAT.md §6.8), for its schema file; `tests/dense.rs` checks its
/// bytes.
#[path = "common/e16.rs"]
mod dense;

/// The `<FIELD>_OFFSET` constants count each field's block bytes in wire order from
/// the block length field: 2 bytes, then 1, 1, 3, 12, 4, 6, 16, 1, 4, 4, 4 and 8 (a
/// `u8`, a `bool`, an `Option<u16>` with its presence byte, an array, a string's end
/// offset, a nested fixed message, an `i128`, an alias of `u8`, an `f32`, a reserved
/// `u32`, a list's end offset, a field of version 2).
#[test]
fn offsets_count_every_earlier_fields_block_bytes() {
    type Short = u8;

    #[derive(WireMsg, Debug, PartialEq)]
    struct Pair {
        a: u16,
        b: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    #[allow(dead_code)]
    struct Wide {
        flag: u8,
        on: bool,
        maybe: Option<u16>,
        arr: [u32; 3],
        name: String,
        pair: Pair,
        big: i128,
        short: Short,
        ratio: f32,
        #[wire(reserved)]
        gone: u32,
        bytes: Vec<u8>,
        #[wire(since = 2)]
        late: u64,
    }

    let offsets = [
        WideView::FLAG_OFFSET,
        WideView::ON_OFFSET,
        WideView::MAYBE_OFFSET,
        WideView::ARR_OFFSET,
        WideView::NAME_OFFSET,
        WideView::PAIR_OFFSET,
        WideView::BIG_OFFSET,
        WideView::SHORT_OFFSET,
        WideView::RATIO_OFFSET,
        WideView::GONE_OFFSET,
        WideView::BYTES_OFFSET,
        WideView::LATE_OFFSET,
    ];
    assert_eq!(offsets, [2, 3, 4, 7, 19, 23, 29, 45, 46, 50, 54, 58]);
    assert_eq!(WideView::SHORT_SIZE, 1);
    assert_eq!(
        WideView::LATE_OFFSET + WideView::LATE_SIZE,
        Wide::BLOCK_LENGTH
    );
    let schema = Wide::SCHEMA;
    let listed: Vec<usize> = schema.fields.iter().map(|f| f.offset).collect();
    assert_eq!(listed, offsets);
}
