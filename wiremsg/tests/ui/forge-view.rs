// A view is a proof of validation; it cannot be built from bytes by hand.
use wiremsg::WireMsg;

#[derive(WireMsg, Debug)]
pub struct Note {
    pub text: String,
}

fn main() {
    let bad = [6, 0, 8, 0, 0, 0, 0xFF, 0xFE];
    let proof = wiremsg::__private::Validated {
        ptr: core::ptr::NonNull::from(&bad).cast(),
        tail: core::ptr::NonNull::from(&bad).cast(),
        _bytes: core::marker::PhantomData,
    };
    let _view = NoteView(proof);
}
