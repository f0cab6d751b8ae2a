use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Limit {
    price: i64,
}

#[derive(WireUnion)]
#[repr(u8)]
enum Instr {
    Market = 1,
    #[wire(tag = 1)]
    Limit(Limit),
}

fn main() {}
