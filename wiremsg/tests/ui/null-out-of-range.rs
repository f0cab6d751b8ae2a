use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    #[wire(null = -1)]
    size: Option<u32>,
}

fn main() {}
