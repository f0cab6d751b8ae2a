use wiremsg::{FixedStr, WireMsg};

#[derive(WireMsg)]
struct Quote {
    symbol: FixedStr<4, 0xff>,
}

fn main() {}
