use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(template_id = 7)]
struct Batch<T> {
    seq: u64,
    items: Vec<T>,
}

fn main() {}
