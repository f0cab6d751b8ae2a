use wiremsg::WireMsg;

// A key of another place (`since` belongs on a field, `version` on the message type)
// says where it belongs; a number written as a string says the form.
#[derive(WireMsg)]
#[wire(since = 2)]
struct Order {
    id: u64,
}

#[derive(WireMsg)]
struct Fill {
    #[wire(version = 2)]
    id: u64,
}

#[derive(WireMsg)]
#[wire(version = 2)]
struct Quote {
    id: u64,
    #[wire(since = "2")]
    qty: u32,
}

fn main() {}
