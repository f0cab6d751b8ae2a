use wiremsg::WireUnion;

struct Fill {
    qty: u32,
}

// A payload type written by a macro (`$payload:ty`, which reaches the derive as an
// invisible group): one error, at the payload, as without the macro.
macro_rules! event {
    ($payload:ty) => {
        #[derive(WireUnion)]
        #[repr(u8)]
        enum Event {
            Heartbeat,
            Fill($payload),
        }
    };
}

event!(Fill);

fn main() {}
