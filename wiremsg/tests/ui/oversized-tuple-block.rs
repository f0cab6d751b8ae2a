use wiremsg::WireMsg;

// A tuple with a tail is laid out as a message: its block length is a u16.
#[derive(WireMsg)]
struct Boxed {
    t: Box<([u8; 40000], [u8; 30000], String)>,
}

// A fixed-size tuple in a list: its block is the list's u16 stride.
#[derive(WireMsg)]
struct Strided {
    items: Vec<([u8; 40000], [u8; 30000])>,
}

fn main() {}
