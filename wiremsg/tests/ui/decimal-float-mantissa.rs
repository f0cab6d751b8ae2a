use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    price: wiremsg::Decimal<f64, 4>,
}

fn main() {}
