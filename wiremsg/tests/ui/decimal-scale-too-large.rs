use wiremsg::{Decimal, WireMsg};

#[derive(WireMsg)]
struct Quote {
    price: Decimal<i64, 19>,
}

fn main() {}
