use wiremsg::WireMsg;

// `Level` is fixed-size and evolves; nested inline, its block is frozen.
#[derive(WireMsg)]
#[wire(version = 2)]
struct Level {
    price: i64,
    #[wire(since = 2)]
    orders: u32,
}

#[derive(WireMsg)]
struct Book {
    best: Level,
}

fn main() {}
