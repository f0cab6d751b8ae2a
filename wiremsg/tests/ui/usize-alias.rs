// A type alias of `usize` gets past the derive's check by name: the trait error says
// what to use instead.
type Count = usize;

#[derive(wiremsg::WireMsg)]
struct Order {
    id: u64,
    n: Count,
}

fn main() {}
