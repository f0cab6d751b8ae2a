// A view is a proof of validation; it cannot be built from bytes by hand.
use wiremsg::WireMsg;

#[derive(WireMsg, Debug)]
pub struct Note {
    pub text: String,
}

fn main() {
    let bad = [6, 0, 8, 0, 0, 0, 0xFF, 0xFE];
    let _view = NoteView(wiremsg::__private::Validated { bytes: &bad[..] });
}
