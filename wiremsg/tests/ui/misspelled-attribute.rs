use wiremsg::{WireMsg, WireUnion};

// A key one or two edits away from a known one, or one that starts like it: the error
// names it. A key without its value shows the form.
#[derive(WireMsg)]
#[wire(version = 2, templateid = 7)]
struct Order {
    id: u64,
    #[wire(sinse = 2)]
    qty: u32,
    #[wire(max_length = 8)]
    tags: Vec<u32>,
}

#[derive(WireMsg)]
#[wire(version = 2)]
struct Fill {
    id: u64,
    #[wire(since)]
    qty: u32,
}

#[derive(WireUnion)]
#[repr(u8)]
enum Event {
    #[wire(tag)]
    Fill(Fill) = 1,
}

fn main() {}
