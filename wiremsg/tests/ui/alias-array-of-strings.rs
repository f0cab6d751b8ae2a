use wiremsg::WireMsg;

// The alias hides the array from the derive: the runtime's own check catches it.
type Names<'a> = [&'a str; 2];

#[derive(WireMsg)]
struct Roster<'a> {
    id: u32,
    names: Names<'a>,
}

fn main() {}
