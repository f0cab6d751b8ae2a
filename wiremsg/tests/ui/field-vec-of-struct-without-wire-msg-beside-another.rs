// Two types held in lists, one of them without a derive: the guard of that one comes first.
use wiremsg::WireMsg;

#[derive(WireMsg, Debug)]
struct Leg {
    qty: u32,
}

struct Fee {
    cents: i64,
}

#[derive(WireMsg)]
struct Order {
    id: u64,
    legs: Vec<Leg>,
    fees: Vec<Fee>,
}

fn main() {}
