use wiremsg::{WireDispatch, WireMsg};

#[derive(WireMsg)]
#[wire(template_id = 1)]
struct Add {
    order: u64,
}

#[derive(WireMsg)]
#[wire(template_id = 1)]
struct Delete {
    order: u64,
}

#[derive(WireDispatch)]
enum Feed {
    Add(Add),
    Delete(Delete),
}

fn main() {}
