use wiremsg::WireMsg;

#[derive(WireMsg)]
#[repr(C, packed)]
struct Packed {
    a: u8,
    b: u32,
}

fn main() {}
