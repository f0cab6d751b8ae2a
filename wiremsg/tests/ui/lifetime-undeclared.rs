use wiremsg::{WireMsg, WireUnion};

// A lifetime the message does not declare: rustc's one error, none from the derive.
#[derive(WireMsg)]
struct Order<'a> {
    symbol: &'a str,
    account: &'b str,
}

#[derive(WireUnion)]
#[repr(u8)]
enum Note<'a> {
    Text { body: &'a str } = 1,
    Tags { tags: Vec<&'c str> } = 2,
}

fn main() {}
