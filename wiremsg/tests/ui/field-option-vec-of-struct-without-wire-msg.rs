use wiremsg::WireMsg;

struct Fill {
    px: i64,
}

#[derive(WireMsg)]
struct Report {
    fills: Option<Vec<Fill>>,
}

fn main() {}
