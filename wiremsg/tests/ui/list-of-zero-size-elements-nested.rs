use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Empty {}

// Lists of zero-size elements inside a tuple, an option and a list of lists: each
// refused at its element type, before any encoding.
#[derive(WireMsg)]
struct Holder {
    pair: (u8, Vec<Empty>),
    maybe: Option<Vec<Empty>>,
    nested: Vec<Vec<Empty>>,
}

fn main() {}
