use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(borrowed = LegRef)]
struct Leg {
    symbol: String,
}

// A field's `borrowed` without the struct's.
#[derive(WireMsg)]
struct Spread {
    #[wire(borrowed = LegRef)]
    front: Leg,
}

// A field's `borrowed` on a type that is not a message, an option or a list of one.
#[derive(WireMsg)]
#[wire(borrowed = OrderRef)]
struct Order {
    #[wire(borrowed = LegRef)]
    id: u64,
    #[wire(borrowed = LegRef)]
    legs: [Leg; 2],
}

fn main() {}
