// `Unchecked` carries its maker's promise that a frame is valid. Like every type of
// wiremsg that carries a proof it is invariant, here in its lifetime, and safe code
// cannot make one: only the `unsafe` `Unchecked::new` does.
use wiremsg::Unchecked;

fn shorten<'short, 'long: 'short>(frame: Unchecked<'long>) -> Unchecked<'short> {
    frame
}

fn main() {
    let bytes = [0u8; 8];
    let _ = Unchecked::new(&bytes);
}
