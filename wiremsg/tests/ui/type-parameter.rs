use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Wrapper<T> {
    value: T,
}

fn main() {}
