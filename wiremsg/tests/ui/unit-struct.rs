use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Empty;

fn main() {}
