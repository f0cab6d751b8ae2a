use wiremsg::WireMsg;

struct Px {
    mantissa: i64,
}

#[derive(WireMsg)]
struct Quote {
    bid: Option<Px>,
}

fn main() {}
