use wiremsg::WireMsg;
use wiremsg_benches::datasets::Dataset;
#[test]
fn dump() {
    let e = wiremsg_benches::datasets::events::Events::generate(100_000);
    std::fs::write("/tmp/proto/events.bin", e.to_bytes().unwrap()).unwrap();
    let r = rkyv::to_bytes::<rkyv::rancor::Error>(&e).unwrap();
    std::fs::write("/tmp/proto/events.rkyv", &r).unwrap();
}
