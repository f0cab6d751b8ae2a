// The route of the first forgery: validate good bytes through the hidden trait
// methods, then read other bytes with the proof. The methods are gone: a field type
// names a sealed kind, and only wiremsg validates and reads.
use wiremsg::{Field, FixedStr};

fn main() {
    let good = b"ABCD";
    let _proof = <[FixedStr<4>; 1] as Field>::validate(good);
    let _text = <[FixedStr<4>; 1] as Field>::get(&[0xFF, 0xFE, 0xC3, 0x28]);
}
