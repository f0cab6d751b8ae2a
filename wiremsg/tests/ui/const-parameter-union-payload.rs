use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Buffer<const N: usize> {
    data: [u8; N],
}

// A union payload of the refused message: one error at the payload.
#[derive(WireUnion)]
#[repr(u8)]
enum Body {
    Small(Buffer<{ 2 * 4 }>),
    Empty,
}

fn main() {}
