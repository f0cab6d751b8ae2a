use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy)]
struct Side {
    buy: bool,
}

fn main() {}
