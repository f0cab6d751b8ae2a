use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Matrix {
    rows: Vec<Vec<u8>>,
}

fn main() {}
