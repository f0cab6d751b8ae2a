use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Ack {
    id: u64,
}

struct Fill {
    qty: u32,
}

// A later variant's payload without its derive, beside a catch-all: the union's
// errors for its payload, and no error of the list-shape check (3 before).
#[derive(WireUnion)]
#[repr(u8)]
#[wire(version = 2)]
enum Event {
    Heartbeat,
    Ack(Ack),
    #[wire(since = 2)]
    Fill(Fill),
    #[wire(other)]
    Unknown { tag: u8, bytes: Vec<u8> },
}

fn main() {}
