use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Limit {
    price: i64,
}

const LIMIT: u8 = b'L';

// A tag that is a constant expression is compared by the compiler, not the derive.
#[derive(WireUnion)]
#[repr(u8)]
enum Instr {
    Market = b'L',
    #[wire(tag = LIMIT)]
    Limit(Limit),
}

fn main() {}
