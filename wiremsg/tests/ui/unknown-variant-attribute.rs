use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy,
    #[wire(catch_all)]
    Sell,
}

fn main() {}
