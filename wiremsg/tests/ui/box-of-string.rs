use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Note {
    text: Box<String>,
}

fn main() {}
