// A message with lifetimes that holds a list of a struct without a derive.
use wiremsg::WireMsg;

struct Leg {
    qty: u32,
}

#[derive(WireMsg)]
struct Order<'a> {
    name: &'a str,
    legs: Vec<Leg>,
}

fn main() {}
