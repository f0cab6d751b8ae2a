use wiremsg::WireMsg;

#[derive(WireMsg)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

fn main() {}
