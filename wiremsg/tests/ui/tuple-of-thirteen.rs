use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Wide {
    all: (u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8, u8),
}

fn main() {}
