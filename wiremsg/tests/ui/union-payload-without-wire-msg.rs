use wiremsg::WireUnion;

struct Fill {
    qty: u32,
}

// One error, at the payload, naming the derive to add (issue 33's rule for messages,
// for unions too).
#[derive(WireUnion)]
#[repr(u8)]
enum Event {
    Heartbeat,
    Fill(Fill),
}

fn main() {}
