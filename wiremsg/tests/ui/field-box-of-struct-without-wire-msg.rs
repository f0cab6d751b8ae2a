use wiremsg::WireMsg;

struct Inner {
    x: u32,
}

#[derive(WireMsg)]
struct Outer {
    inner: Box<Inner>,
}

fn main() {}
