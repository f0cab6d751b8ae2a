use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy,
    Sell,
    Other(u8),
}

fn main() {}
