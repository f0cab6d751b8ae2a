use std::collections::BTreeMap;
use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Names<'a> {
    by_name: &'a BTreeMap<&'a str, u32>,
}

fn main() {}
