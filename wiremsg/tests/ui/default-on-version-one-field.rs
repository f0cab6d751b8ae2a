use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    #[wire(default = 5)]
    price: i64,
}

fn main() {}
