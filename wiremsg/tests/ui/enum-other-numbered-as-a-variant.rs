use wiremsg::WireEnum;

// Rust numbers `Unknown` 2, the value of `Cross`.
#[derive(WireEnum, Clone, Copy, Debug)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
    #[wire(other)]
    Unknown(u8),
    Cross = 2,
}

fn main() {}
