use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy,
    Sell,
    #[wire(catch_all)]
    Unknown(u8),
}

fn main() {}
