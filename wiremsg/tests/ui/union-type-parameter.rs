use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u8)]
enum Instr<T> {
    Market = 0,
    Limit(T) = 1,
}

fn main() {}
