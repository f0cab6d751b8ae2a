use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Glyph {
    code: char,
}

fn main() {}
