use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Tagged {
    #[wire = 1]
    id: u32,
}

fn main() {}
