use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Empty {}

#[derive(WireMsg)]
struct Many {
    items: Vec<Empty>,
}

fn main() {
    let _ = Many { items: vec![Empty {}] }.to_bytes();
}
