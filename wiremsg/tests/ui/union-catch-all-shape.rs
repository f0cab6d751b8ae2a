use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u16)]
enum Instr {
    Market = 0,
    #[wire(other)]
    Other { tag: u8, bytes: Vec<u8> },
}

fn main() {}
