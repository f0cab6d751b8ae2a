use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Order {
    id: u64,
    note: String,
}

fn main() {
    let order = Order {
        id: 1,
        note: "a".into(),
    };
    let mut bytes = order.to_bytes().unwrap();
    let mut edit = Order::view_mut(&mut bytes).unwrap();
    edit.set_note("b");
}
