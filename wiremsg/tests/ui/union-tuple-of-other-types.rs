use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Fill {
    qty: u32,
}

// A tuple, an array or a reference is never a message, boxed or not: one error
// each, at the type, not one per generated item.
#[derive(WireUnion)]
#[repr(u8)]
enum Instr<'a> {
    Pair((u8, Fill)) = 1,
    Levels([Fill; 2]) = 2,
    Boxed(Box<(u8, u16)>) = 3,
    Borrowed(&'a Fill) = 4,
    Nothing(()) = 5,
}

fn main() {}
