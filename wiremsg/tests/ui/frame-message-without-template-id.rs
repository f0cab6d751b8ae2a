use wiremsg::{FrameWriter, WireMsg};

#[derive(WireMsg)]
struct Heartbeat {
    sequence: u64,
}

fn main() {
    let mut writer = FrameWriter::new(Vec::new());
    writer.write(&Heartbeat { sequence: 1 }).unwrap();
}
