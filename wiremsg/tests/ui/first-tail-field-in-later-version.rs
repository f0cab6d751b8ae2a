// A message whose version-1 fields are all fixed-size has no block length field; a
// later version cannot give it one (version-1 readers would read it as `code`).
use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(version = 2)]
struct Alert {
    code: u32,
    level: u16,
    #[wire(since = 2)]
    reason: String,
}

fn main() {}
