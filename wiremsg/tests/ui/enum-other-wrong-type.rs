use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy,
    Sell,
    #[wire(other)]
    Unknown(u16),
}

fn main() {}
