#![deny(unused_must_use)]
use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Quote {
    #[wire(null = u32::MAX)]
    size: Option<u32>,
}

fn main() {
    let mut bytes = [0u8; 4];
    let mut quote = Quote::view_mut(&mut bytes).unwrap();
    quote.set_size(Some(u32::MAX));
}
