use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Maybe {
    name: Option<Option<String>>,
}

fn main() {}

// Options of fixed-size types nest: two presence bytes.
#[derive(WireMsg)]
struct Fine {
    limit: Option<Option<i64>>,
}
