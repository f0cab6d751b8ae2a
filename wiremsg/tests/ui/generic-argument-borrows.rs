use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Name<'a> {
    first: &'a str,
}

#[derive(WireMsg)]
struct Wrap<'a, T> {
    note: &'a str,
    inner: T,
}

// A generic message's type parameters are `'static`: its argument cannot borrow.
#[derive(WireMsg)]
struct Holder<'a> {
    id: u32,
    wrapped: Option<Wrap<'a, Name<'a>>>,
}

fn main() {}
