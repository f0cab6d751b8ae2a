use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u8)]
enum Instr {
    Market = 0,
    #[wire(since = 2)]
    Stop { trigger: i64 } = 1,
}

fn main() {}
