use wiremsg::WireMsg;

type Ratio = f32;

#[derive(WireMsg)]
struct Quote {
    #[wire(null = 0.0)]
    ratio: Option<Ratio>,
}

fn main() {}
