//! What describing a stream costs (FORMAT.md §12, issue 15; reference R5: gob sends
//! its types once per stream): bytes per message of streams of 1, 10, 1,000 and
//! 100,000 messages of the R2 order and the R6 tick, as frames without and with
//! schema frames, beside JSON lines of the same values (serde_json). Prints the table
//! of the README's "Self-describing streams" and asserts what it shows: the schema
//! frame is written once (640 bytes for the order, 538 for the tick, in version 3 of
//! the schema encoding), which at 1,000 messages adds 0.155 % per order and 0.868 %
//! per tick (a 62-byte frame: under 1 % from 868 ticks on).
//!
//! `cargo test -p wiremsg --test stream_overhead -- --nocapture`
//!
//! The types are those of `benches/src/model.rs` (R2 `Order`, R6 `Tick`, the same
//! fields and sample values), with the template ids that frames need.

use serde::Serialize;
use wiremsg::{FrameReader, FrameWriter, SchemaSet, Template, WireEnum, WireMsg};

/// R2: customer of an [`Order`].
#[derive(WireMsg, Serialize, Debug, Clone, PartialEq)]
struct Customer {
    id: i64,
    name: String,
    email: String,
}

/// R2: one line of an [`Order`].
#[derive(WireMsg, Serialize, Debug, Clone, PartialEq)]
struct LineItem {
    sku: String,
    name: String,
    quantity: i32,
    unit_price: f64,
    discount: f64,
}

/// R2: order with line items.
#[derive(WireMsg, Serialize, Debug, Clone, PartialEq)]
#[wire(template_id = 1)]
struct Order {
    id: i64,
    customer: Customer,
    items: Vec<LineItem>,
    note: String,
}

/// R6: side of the book.
#[derive(WireEnum, Serialize, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

/// R6: a top-of-book tick.
#[derive(WireMsg, Serialize, Debug, Clone, PartialEq)]
#[wire(template_id = 2)]
struct Tick {
    sequence: u64,
    timestamp_ns: u64,
    symbol: [u8; 8],
    bid_price: i64,
    bid_size: u32,
    ask_price: i64,
    ask_size: u32,
    side: Side,
    flags: u8,
}

fn item(sku: &str, name: &str, quantity: i32, unit_price: f64, discount: f64) -> LineItem {
    LineItem {
        sku: sku.into(),
        name: name.into(),
        quantity,
        unit_price,
        discount,
    }
}

fn order() -> Order {
    Order {
        id: 20_261_129_001,
        customer: Customer {
            id: 42,
            name: "Trần Thị Bích".into(),
            email: "tran.thi.bich@example.com".into(),
        },
        items: vec![
            item("SKU-0001", "Cà phê sữa đá 500ml", 2, 35000.0, 0.0),
            item("SKU-0002", "Bánh mì thịt nướng", 1, 25000.0, 2000.0),
            item("SKU-0003", "Trà đào cam sả", 3, 45000.0, 0.0),
            item("SKU-0004", "Nước suối 350ml", 6, 5000.0, 0.0),
            item("SKU-0005", "Bánh flan caramel", 2, 18000.0, 1500.0),
        ],
        note: String::new(),
    }
}

fn tick() -> Tick {
    Tick {
        sequence: 1_000_042,
        timestamp_ns: 1_764_000_000_123_456_789,
        symbol: *b"AAPL    ",
        bid_price: 2_345_600,
        bid_size: 300,
        ask_price: 2_345_700,
        ask_size: 200,
        side: Side::Buy,
        flags: 0b0000_0001,
    }
}

const COUNTS: [usize; 4] = [1, 10, 1_000, 100_000];

/// The bytes of a stream of `n` messages of one type: frames, frames after schema
/// frames, JSON lines.
type StreamOf = dyn Fn(usize) -> (usize, usize, usize);

/// Bytes of a stream of `n` copies of `msg`: frames, frames after schema frames, and
/// JSON lines.
fn stream_bytes<T: Template + Serialize>(msg: &T, n: usize) -> (usize, usize, usize) {
    let mut plain = FrameWriter::new(Vec::new());
    let mut described = FrameWriter::new(Vec::new()).with_schema_frames();
    for _ in 0..n {
        plain.write(msg).unwrap();
        described.write(msg).unwrap();
    }
    let (plain, described) = (plain.into_inner(), described.into_inner());

    // The described stream reads back with the types (schema frames skipped) and
    // without them: both stay honest about what was measured.
    let mut reader =
        FrameReader::new(&described[..]).check_schema_frames(SchemaSet::of::<T>().unwrap());
    let mut read = 0;
    while reader.next_view::<T>().unwrap().is_some() {
        read += 1;
    }
    assert_eq!(read, n);

    let json_line = serde_json::to_vec(msg).unwrap().len() + 1; // and its newline
    (plain.len(), described.len(), n * json_line)
}

fn per_message(bytes: usize, n: usize) -> f64 {
    bytes as f64 / n as f64
}

#[test]
fn a_schema_frame_is_written_once_and_costs_about_one_percent_per_message_at_a_thousand() {
    println!(
        "| message | messages | frames (B/msg) | with schema frames (B/msg) | overhead | JSON lines (B/msg) |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    let mut at_1000 = Vec::new();
    let rows: [(&str, Box<StreamOf>); 2] = [
        ("R2 order", Box::new(|n| stream_bytes(&order(), n))),
        ("R6 tick", Box::new(|n| stream_bytes(&tick(), n))),
    ];
    for (name, bytes) in &rows {
        for n in COUNTS {
            let (plain, described, json) = bytes(n);
            let overhead = (described - plain) as f64 / plain as f64 * 100.0;
            println!(
                "| {name} | {} | {:.1} | {:.2} | {:.3} % | {:.1} |",
                thousands(n),
                per_message(plain, n),
                per_message(described, n),
                overhead,
                per_message(json, n)
            );
            if n == 1_000 {
                at_1000.push((*name, overhead));
            }
            // The schema frame is written once, whatever the count.
            assert_eq!(described - plain, bytes(1).1 - bytes(1).0);
        }
    }
    // The figures the README quotes: frames, schema frames (each type's schema set
    // encoded once, FORMAT.md §11), JSON lines.
    let (order_plain, order_described, order_json) = stream_bytes(&order(), 1);
    assert_eq!(
        (order_plain, order_described - order_plain, order_json),
        (412, 640, 626)
    );
    let (tick_plain, tick_described, tick_json) = stream_bytes(&tick(), 1);
    assert_eq!(
        (tick_plain, tick_described - tick_plain, tick_json),
        (62, 538, 184)
    );
    assert_eq!(at_1000[0].0, "R2 order");
    assert!(at_1000[0].1 < 0.16, "{at_1000:?}");
    // The tick's 538-byte schema over 1,000 62-byte frames is 0.868 %: under 1 %
    // from 868 ticks on (the bound: under 1 % at 1,000).
    assert!(at_1000[1].1 < 0.87, "{at_1000:?}");
    let break_even = (1..).find(|&n| 538 * 100 < 62 * n).unwrap();
    assert_eq!(break_even, 868);
    let (plain, described, _) = stream_bytes(&tick(), break_even);
    assert!(((described - plain) as f64 / plain as f64) < 0.01);
}

fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}
