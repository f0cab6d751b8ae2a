// The setter of a field added in a later version writes nothing on older bytes and
// says so with its `bool`, which must be used.
#![deny(unused_must_use)]
use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct NewOrder {
    id: u64,
    #[wire(since = 2)]
    min_qty: u32,
}

fn main() {
    let mut bytes = NewOrder { id: 1, min_qty: 0 }.to_bytes().unwrap();
    let mut edit = NewOrder::view_mut(&mut bytes).unwrap();
    edit.set_id(2);
    edit.set_min_qty(3);
}
