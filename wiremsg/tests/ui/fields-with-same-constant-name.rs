use wiremsg::WireMsg;

#[derive(WireMsg)]
#[allow(non_snake_case)]
struct Clash {
    price: i64,
    PRICE: i64,
}

fn main() {}
