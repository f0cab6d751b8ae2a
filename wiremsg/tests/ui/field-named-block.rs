use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Frame {
    __block: u32,
}

fn main() {}
