use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Limit {
    price: i64,
}

// An unsupported tag width: the union's error only, not the holder's.
#[derive(WireUnion)]
#[repr(i8)]
enum Instr {
    Market = 1,
    Limit(Limit) = 2,
}

#[derive(WireMsg)]
struct Order {
    instr: Instr,
    history: Vec<Instr>,
}

fn main() {}
