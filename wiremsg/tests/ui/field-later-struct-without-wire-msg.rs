use wiremsg::WireMsg;

#[derive(Debug)]
struct Inner {
    a: u32,
}

// A field added in a later version whose type lacks its derive: one error, at the
// type, as for a field of version 1 (its accessors `t`, `try_t`, `has_t` in each view
// add none).
#[derive(WireMsg, Debug)]
#[wire(version = 2)]
struct Outer {
    x: u32,
    #[wire(since = 2)]
    t: Inner,
}

fn main() {}
