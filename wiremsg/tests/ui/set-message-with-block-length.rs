// A fixed-size message with `#[wire(block_length)]` nests in the tail like a message
// with variable-size data: it cannot be set in place as a whole.
use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(block_length)]
struct Alert {
    code: u32,
}

#[derive(WireMsg)]
struct Holder {
    id: u64,
    alert: Alert,
}

fn main() {
    let holder = Holder {
        id: 1,
        alert: Alert { code: 2 },
    };
    let mut bytes = holder.to_bytes().unwrap();
    let mut edit = Holder::view_mut(&mut bytes).unwrap();
    edit.set_alert(Alert { code: 3 });
}
