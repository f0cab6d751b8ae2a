use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Header {
    len: usize,
    initial: char,
}

fn main() {}
