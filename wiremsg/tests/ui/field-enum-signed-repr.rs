use wiremsg::{WireEnum, WireMsg};

// An enum whose one mistake is its width is one error, there: the message holding it
// adds none (its error would say to derive `WireEnum`, which the enum has).
#[derive(WireEnum, Clone, Copy, Debug)]
#[repr(i8)]
enum Capacity {
    Agency = -1,
    Principal = 1,
}

#[derive(WireMsg)]
struct Order {
    id: u64,
    capacity: Capacity,
}

fn main() {}
