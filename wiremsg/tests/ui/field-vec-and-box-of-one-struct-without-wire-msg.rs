// One type without its derive, held as a list element, in a box and as a map value:
// one error, at its first use (`Element` implies `Field`).
use std::collections::BTreeMap;
use wiremsg::WireMsg;

struct Leg {
    qty: u32,
}

#[derive(WireMsg)]
struct Order {
    id: u64,
    legs: Vec<Leg>,
    first: Box<Leg>,
    by_id: BTreeMap<u32, Leg>,
}

fn main() {}
