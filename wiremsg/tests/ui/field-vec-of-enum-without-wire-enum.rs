use wiremsg::WireMsg;

#[derive(Clone, Copy, Debug)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

#[derive(WireMsg)]
struct Basket {
    sides: Vec<Side>,
}

fn main() {}
