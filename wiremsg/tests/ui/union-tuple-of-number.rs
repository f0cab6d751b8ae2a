use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u8)]
enum Instr {
    Market = 0,
    Price(i64) = 1,
}

fn main() {}
