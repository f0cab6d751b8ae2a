use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Item {
    sku: String,
}

#[derive(WireMsg)]
struct Basket {
    items: [Item; 2],
}

fn main() {}
