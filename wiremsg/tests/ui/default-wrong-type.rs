use wiremsg::WireMsg;

// A `default` of the wrong type is one error, at the expression: the accessors and the
// schema return it from the same kind of closure, which rustc reports once.
#[derive(WireMsg)]
#[wire(version = 2)]
struct Order {
    id: u64,
    #[wire(since = 2, default = "day")]
    tif: u8,
}

fn main() {}
