use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(borrowed = BatchRef)]
struct Batch<T> {
    seq: u64,
    items: Vec<T>,
}

fn main() {}
