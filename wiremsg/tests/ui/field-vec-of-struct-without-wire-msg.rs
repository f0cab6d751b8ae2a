use wiremsg::WireMsg;

struct Leg {
    qty: u32,
}

#[derive(WireMsg)]
struct Order {
    id: u64,
    legs: Vec<Leg>,
}

fn main() {}
