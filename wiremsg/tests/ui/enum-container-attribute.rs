use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
#[wire(other)]
enum Side {
    Buy,
    Sell,
}

fn main() {}
