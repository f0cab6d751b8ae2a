use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Item {
    sku: String,
}

#[derive(WireMsg)]
struct Basket {
    id: u32,
    items: Option<[Item; 2]>,
}

fn main() {}
