use std::collections::BTreeMap;
use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Curve {
    points: BTreeMap<f64, f64>,
}

fn main() {}
