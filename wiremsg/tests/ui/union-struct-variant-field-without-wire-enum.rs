use wiremsg::WireUnion;

enum Side {
    Buy,
    Sell,
}

// The anonymous message of a struct variant reports its field's missing derive once;
// the union adds no error of its own.
#[derive(WireUnion)]
#[repr(u8)]
enum Instr {
    Market,
    Stop { side: Side, trigger: i64 },
}

fn main() {}
