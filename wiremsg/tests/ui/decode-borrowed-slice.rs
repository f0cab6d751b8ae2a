use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Samples<'a> {
    values: &'a [u32],
}

fn main() {
    let bytes = Samples { values: &[1, 2, 3] }.to_bytes().unwrap();
    let _ = Samples::decode(&bytes);
}
