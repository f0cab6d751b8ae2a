use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Frame {
    r#as_bytes: u32,
}

fn main() {}
