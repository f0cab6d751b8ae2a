use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
enum Side {
    Buy,
    Sell,
}

fn main() {}
