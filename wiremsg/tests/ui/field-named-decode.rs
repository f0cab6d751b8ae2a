use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Codec {
    decode: u32,
}

fn main() {}
