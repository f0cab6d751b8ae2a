use wiremsg::{Decimal, WireMsg};

// A scale the derive cannot read: the runtime's assertion refuses it.
const SCALE: u32 = 19;

#[derive(WireMsg)]
struct Quote {
    price: Decimal<i64, SCALE>,
}

fn main() {}
