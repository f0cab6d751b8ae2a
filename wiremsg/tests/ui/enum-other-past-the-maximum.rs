use wiremsg::WireEnum;

// Rust numbers `Unknown` 256, past `u8`.
#[derive(WireEnum, Clone, Copy, Debug)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 255,
    #[wire(other)]
    Unknown(u8),
}

fn main() {}
