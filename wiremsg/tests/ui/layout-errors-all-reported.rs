// Every failed layout check of a message is reported, not only the first.
use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct Level {
    price: i64,
    #[wire(since = 2)]
    orders: u32,
}

#[derive(WireMsg)]
struct Empty {}

#[derive(WireMsg)]
struct Bad {
    id: u32,
    best: Level,
    items: Vec<Empty>,
    other: Level,
}

fn main() {}
