use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Words<'a> {
    lines: Vec<Vec<&'a str>>,
}

fn main() {}
