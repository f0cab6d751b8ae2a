// A wire enum is read by value and printed by the views' `Debug`: it needs `Clone`,
// `Copy` and `Debug`, and the error says so on the enum.
use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

fn main() {}
