use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Counter<'a> {
    count: &'a u32,
}

fn main() {}
