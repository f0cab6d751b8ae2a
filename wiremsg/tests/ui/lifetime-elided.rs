use wiremsg::WireMsg;

// A borrow without a lifetime: rustc's one error, none from the derive.
#[derive(WireMsg)]
struct Login {
    user: &str,
    ids: Vec<u64>,
}

fn main() {}
