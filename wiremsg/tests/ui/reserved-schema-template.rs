use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(template_id = 0xFFFF, schema_id = 0xFFFF)]
struct Sneaky {
    seq: u32,
}

fn main() {}
