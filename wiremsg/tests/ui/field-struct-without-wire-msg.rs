use wiremsg::WireMsg;

struct Px {
    mantissa: i64,
}

#[derive(WireMsg)]
struct Quote {
    bid: Px,
    size: u32,
}

fn main() {}
