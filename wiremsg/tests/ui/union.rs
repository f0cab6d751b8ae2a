use wiremsg::WireMsg;

#[derive(WireMsg)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
