// A union whose version-1 variants are all fixed-size has dense lists (FORMAT.md
// §6.8); a later variant with a tail would change their shape under every reader.
use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Fill {
    qty: u32,
}

#[derive(WireUnion)]
#[repr(u8)]
#[wire(version = 2)]
enum Event {
    Heartbeat = 0,
    Fill(Fill) = 1,
    #[wire(since = 2)]
    Note { text: String } = 2,
}

fn main() {}
