use wiremsg::WireMsg;

// Version 1 is fixed-size (no block length field); the recursive field of version 2
// would give the message one.
#[derive(WireMsg)]
#[wire(version = 2)]
struct Node {
    value: i64,
    #[wire(since = 2)]
    next: Option<Box<Node>>,
}

fn main() {}
