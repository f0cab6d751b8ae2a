use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    #[wire(null = i64::MIN)]
    price: i64,
}

fn main() {}
