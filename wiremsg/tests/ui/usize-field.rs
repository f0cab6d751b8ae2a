use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Header {
    len: usize,
}

fn main() {}
