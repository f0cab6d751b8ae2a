// A hand-written `Field` cannot claim, in safe code, that its memory is its wire
// block: lists of plain types are copied as memory, so the claim is `unsafe`.
use wiremsg::__private::Plain;
use wiremsg::{Field, TypeSchema};

struct Pair {
    a: u16,
    b: u8,
}

impl Field for Pair {
    type Kind = u32;
    const TYPE: &'static TypeSchema = &TypeSchema::U32;
    const PLAIN: Plain<Self> = Plain::promise();

    fn tail_len(&self) -> usize {
        0
    }

    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        block[..2].copy_from_slice(&self.a.to_le_bytes());
        block[2] = self.b;
    }
}

fn main() {}
