use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Pair {
    names: [String; 2],
}

fn main() {}
