use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Edit<'a> {
    text: &'a mut str,
}

fn main() {}
