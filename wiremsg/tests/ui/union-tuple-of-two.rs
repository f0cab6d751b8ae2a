use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u8)]
enum Instr {
    Market = 0,
    Limit(i64, u32) = 1,
}

fn main() {}
