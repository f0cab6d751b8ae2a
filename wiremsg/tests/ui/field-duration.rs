use wiremsg::WireMsg;

#[derive(WireMsg)]
struct Heartbeat {
    seq: u64,
    interval: std::time::Duration,
}

fn main() {}
