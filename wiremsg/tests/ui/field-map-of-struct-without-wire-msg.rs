use std::collections::BTreeMap;
use wiremsg::WireMsg;

struct Limit {
    max: u64,
}

#[derive(WireMsg)]
struct Limits {
    by_venue: BTreeMap<String, Limit>,
}

fn main() {}
