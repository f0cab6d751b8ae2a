use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg)]
struct Halt<'a> {
    why: &'a str,
}

// The union's one mistake is its missing `#[repr]` (rustc adds its own error for the
// explicit tags): the message that holds it, inline and in a list, adds none.
#[derive(WireUnion)]
enum Update<'a> {
    Clear = 1,
    Halt(Halt<'a>) = 2,
}

#[derive(WireMsg)]
struct Snapshot<'a> {
    last: Update<'a>,
    recent: Vec<Update<'a>>,
}

fn main() {}
