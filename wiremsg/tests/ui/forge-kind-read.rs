// A kind's unchecked read takes a token that only wiremsg can make.
use wiremsg::{FixedStr, Kind};

fn main() {
    let bad = [0xFF, 0xFE, 0xC3, 0x28];
    let _text = unsafe { <FixedStr<4> as Kind>::read((), &bad, &[]) };
}
