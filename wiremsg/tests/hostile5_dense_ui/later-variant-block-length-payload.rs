// A later variant whose payload declares `#[wire(block_length)]`: no tail yet, but a
// block length field, so not fixed-size (`Payload::FIXED_BLOCK` is `None`).
use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Fill {
    qty: u32,
}

#[derive(WireMsg)]
#[wire(block_length)]
struct Alert {
    code: u32,
}

#[derive(WireUnion)]
#[repr(u16)]
#[wire(version = 2)]
enum Event {
    Heartbeat = 0,
    Fill(Fill) = 1,
    #[wire(since = 2)]
    Alert(Alert) = 2,
}

fn main() {}
