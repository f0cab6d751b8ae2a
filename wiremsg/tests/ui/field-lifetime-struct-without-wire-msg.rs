use wiremsg::WireMsg;

// A struct with a lifetime, without its derive, held inline by a borrowed message.
struct Name<'a> {
    first: &'a str,
}

#[derive(WireMsg)]
struct Order<'a> {
    id: u64,
    name: Name<'a>,
}

fn main() {}
