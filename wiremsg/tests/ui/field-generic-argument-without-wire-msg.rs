use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Batch<T> {
    seq: u64,
    items: Vec<T>,
}

struct Tick {
    px: i64,
}

// The instantiation's argument lacks its derive: one error, naming it.
#[derive(WireMsg)]
struct Feed {
    ticks: Batch<Tick>,
}

fn main() {}
