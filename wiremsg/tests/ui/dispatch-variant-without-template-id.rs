use wiremsg::{WireDispatch, WireMsg};

#[derive(WireMsg)]
struct Add {
    order: u64,
}

#[derive(WireDispatch)]
enum Feed {
    Add(Add),
}

fn main() {}
