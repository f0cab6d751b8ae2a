use wiremsg::WireMsg;

#[derive(WireMsg, Debug)]
struct Label {
    text: &'static str,
}

// A list of a message that cannot decode: the derive asks for `no_decode`.
#[derive(WireMsg, Debug)]
struct Labels {
    all: Vec<Label>,
}

fn main() {}
