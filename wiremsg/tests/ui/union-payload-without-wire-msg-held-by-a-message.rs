use wiremsg::{WireMsg, WireUnion};

struct Fill {
    qty: u32,
}

// The union's error at the payload, and one where the message holds the union: the
// message's items that use the union add none (13 errors before; a second field
// holding the union adds one).
#[derive(WireUnion)]
#[repr(u8)]
enum Event {
    Heartbeat,
    Fill(Fill),
}

#[derive(WireMsg)]
struct Batch {
    seq: u32,
    events: Vec<Event>,
}

fn main() {}
