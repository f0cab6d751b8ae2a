use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Sparse {
    values: Vec<Option<u32>>,
}

fn main() {}
