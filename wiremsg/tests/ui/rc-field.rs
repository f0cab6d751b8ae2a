use std::rc::Rc;
use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Shared {
    value: Rc<String>,
}

fn main() {}
