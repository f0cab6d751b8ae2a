use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Order {
    #[wire(max_len = 5)]
    note: String,
    #[wire(max_len = -1)]
    ids: Vec<u32>,
}

fn main() {}
