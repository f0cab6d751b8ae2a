use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Label {
    text: &'static str,
}

fn main() {
    let bytes = Label { text: "bid" }.to_bytes().unwrap();
    let _ = Label::decode(&bytes);
}
