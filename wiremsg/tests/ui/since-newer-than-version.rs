use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct Quote {
    price: i64,
    #[wire(since = 3)]
    venue: u8,
}

fn main() {}
