use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    price: i64,
    #[wire(since = 2)]
    venue: u8,
}

fn main() {}
