use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Maybe {
    name: Option<Option<String>>,
}

fn main() {}
