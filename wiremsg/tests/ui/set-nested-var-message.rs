use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Item {
    sku: String,
}

#[derive(WireMsg)]
struct Order {
    id: u64,
    item: Item,
}

fn main() {
    let order = Order {
        id: 1,
        item: Item { sku: "a".into() },
    };
    let mut bytes = order.to_bytes().unwrap();
    let mut edit = Order::view_mut(&mut bytes).unwrap();
    edit.set_item(Item { sku: "b".into() });
}
