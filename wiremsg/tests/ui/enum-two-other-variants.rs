use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy,
    Sell,
    #[wire(other)]
    Unknown(u8),
    #[wire(other)]
    Invalid(u8),
}

fn main() {}
