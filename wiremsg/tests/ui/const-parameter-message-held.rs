use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Buffer<const N: usize> {
    data: [u8; N],
}

// The derive refuses `Buffer`'s const parameter: its uses are one error each (the
// holder's guard), not the dozens of a holder that assumes a message.
#[derive(WireMsg)]
struct Frame {
    id: u32,
    buf: Buffer<4>,
}

fn main() {}
