use std::collections::BTreeMap;
use wiremsg::WireMsg;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Venue {
    Xnas = 1,
    Xlon = 2,
}

#[derive(WireMsg)]
struct Limits {
    by_venue: BTreeMap<Venue, u64>,
}

fn main() {}
