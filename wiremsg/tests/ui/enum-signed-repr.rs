use wiremsg::WireEnum;

#[derive(WireEnum, Clone, Copy, Debug)]
#[repr(i8)]
enum Delta {
    Down = -1,
    Up = 1,
}

fn main() {}
