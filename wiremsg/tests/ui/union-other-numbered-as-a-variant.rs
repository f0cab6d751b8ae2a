use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg, Debug)]
struct Limit {
    px: i64,
}

// `Other` counts on from `Limit`'s 1, and `Market` after it takes 3, as `Stop` does.
#[derive(WireUnion, Debug)]
#[repr(u8)]
enum Instr {
    Limit(Limit) = 1,
    #[wire(other)]
    Other { tag: u8, bytes: Vec<u8> },
    Market,
    Stop = 3,
}

fn main() {}
