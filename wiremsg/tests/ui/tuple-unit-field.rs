use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Marker {
    id: u32,
    nothing: (),
}

fn main() {}
