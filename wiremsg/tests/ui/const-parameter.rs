use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Buffer<const N: usize> {
    data: [u8; N],
}

fn main() {}
