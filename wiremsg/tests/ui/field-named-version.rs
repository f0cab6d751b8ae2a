// `version()` is the view's own method.
use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Order {
    version: u16,
}

fn main() {}
