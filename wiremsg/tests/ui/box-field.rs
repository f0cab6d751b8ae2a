use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Boxed {
    value: Box<u32>,
}

fn main() {}
