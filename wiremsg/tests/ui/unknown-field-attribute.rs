use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Tagged {
    #[wire(foo)]
    id: u32,
}

fn main() {}
