use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Limit {
    price: i64,
}

#[derive(WireUnion)]
enum Instr {
    Market,
    Limit(Limit),
}

fn main() {}
