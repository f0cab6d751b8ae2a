use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    #[wire(null = f64::NAN)]
    price: Option<f64>,
}

fn main() {}
