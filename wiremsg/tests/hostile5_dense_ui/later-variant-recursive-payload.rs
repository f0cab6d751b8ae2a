// A unit-only union gains, in version 3, a variant whose payload is recursive (a
// box in an option: a tail).
use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Node {
    value: i64,
    next: Option<Box<Node>>,
}

#[derive(WireUnion)]
#[repr(u64)]
#[wire(version = 3)]
enum State {
    Open = 1,
    #[wire(since = 2)]
    Closed = 2,
    #[wire(since = 3)]
    Chain(Node) = 3,
}

fn main() {}
