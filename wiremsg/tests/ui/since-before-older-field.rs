use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct Quote {
    price: i64,
    #[wire(since = 2)]
    venue: u8,
    size: u32,
}

fn main() {}
