use wiremsg::{WireEnum, WireMsg};

#[derive(WireEnum, Clone, Copy, Debug)]
enum Side {
    Buy,
    Sell,
}

#[derive(WireMsg)]
struct Order {
    id: u64,
    side: Side,
}

fn main() {}
