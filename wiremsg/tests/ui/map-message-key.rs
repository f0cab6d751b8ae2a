use std::collections::HashMap;
use wiremsg::WireMsg;

#[derive(WireMsg, Debug, PartialEq, Eq, Hash)]
struct Level {
    price: i64,
}

#[derive(WireMsg)]
struct Book {
    sizes: HashMap<Level, u32>,
}

fn main() {}
