use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Point(u32, u32);

fn main() {}
