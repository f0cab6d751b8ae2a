// `has_limit` is what the views generate for `limit`, a field added in version 2.
use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct Order {
    has_limit: bool,
    #[wire(since = 2)]
    limit: i64,
}

fn main() {}
