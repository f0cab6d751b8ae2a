use wiremsg::WireUnion;

struct Fill {
    qty: u32,
}

// A union with a lifetime: one error, at the payload (3 before: the retyping of its
// lists added two).
#[derive(WireUnion)]
#[repr(u8)]
enum Event<'a> {
    Heartbeat,
    Fill(Fill),
    Text { text: &'a str },
}

fn main() {}
