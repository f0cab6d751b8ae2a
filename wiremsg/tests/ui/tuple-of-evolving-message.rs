use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct Px {
    mantissa: i64,
    #[wire(since = 2)]
    exponent: i8,
}

// A tuple's block is frozen: `Px` could grow inside it.
#[derive(WireMsg)]
struct Quote {
    venue: String,
    px: (u8, Px),
}

fn main() {}
