// A catch-all cannot be given a version: it would make a fixed-size union's lists
// table lists.
use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u8)]
#[wire(version = 2)]
enum Event {
    Heartbeat = 0,
    #[wire(other, since = 2)]
    Other { tag: u8, bytes: Vec<u8> },
}

fn main() {}
