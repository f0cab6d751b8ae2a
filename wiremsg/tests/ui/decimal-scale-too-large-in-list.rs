use wiremsg::{Decimal, WireMsg};

#[derive(WireMsg)]
struct Book {
    levels: Vec<(Decimal<i64, 20>, u32)>,
    last: Option<Decimal<u64, 4>>,
}

fn main() {}
