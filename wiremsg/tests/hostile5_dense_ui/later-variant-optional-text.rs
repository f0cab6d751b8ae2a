// A later struct variant whose only tail field is an optional string.
use wiremsg::WireUnion;

#[derive(WireUnion)]
#[repr(u32)]
#[wire(version = 2)]
enum Event {
    Heartbeat = 0,
    Cancel { id: u16 } = 1,
    #[wire(since = 2)]
    Note { id: u16, text: Option<String> } = 2,
}

fn main() {}
