// An enum without its derive in a message that another message holds in a list and
// a box: one error, at the enum, none from the holder's decoding.
use wiremsg::WireMsg;

#[derive(Debug)]
#[repr(u8)]
enum Side {
    Buy = 1,
}

#[derive(WireMsg, Debug)]
struct Order {
    side: Side,
}

#[derive(WireMsg, Debug)]
struct Batch {
    orders: Vec<Order>,
    first: Box<Order>,
}

fn main() {}
