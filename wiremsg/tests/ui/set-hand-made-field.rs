// A field type implemented by hand can choose a kind but cannot be written in place:
// only wiremsg's scalars are, so a mutable view stays valid.
use wiremsg::{Field, FixedStr, TypeSchema, WireMsg};

#[derive(Debug, Default)]
struct Evil;

impl Field for Evil {
    type Kind = FixedStr<4>;
    const TYPE: &'static TypeSchema = &TypeSchema::FixedStr { len: 4 };
    fn tail_len(&self) -> usize {
        0
    }
    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        block.fill(0xFF);
    }
}

#[derive(WireMsg, Debug)]
struct Holder {
    symbol: Evil,
}

fn main() {
    let mut bytes = *b"ABCD";
    let mut holder = Holder::view_mut(&mut bytes).unwrap();
    holder.set_symbol(Evil);
}
