use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Range {
    bounds: (u32, u32),
}

fn main() {}
