use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Batch<T> {
    seq: u64,
    items: Vec<T>,
}

struct Tick {
    px: i64,
}

// A payload instantiated with a type that lacks its derive: one error, naming it.
#[derive(WireUnion)]
#[repr(u8)]
enum Update {
    Ticks(Batch<Tick>) = 0,
    Reset = 1,
}

fn main() {}
