use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy, Debug)]
enum Side {
    Buy,
    Sell,
}

fn main() {}
