use wiremsg::WireMsg;

#[derive(WireMsg)]
#[wire(borrowed = NoteRef)]
struct Note<'a> {
    text: &'a str,
}

#[derive(WireMsg)]
#[wire(borrowed = Same)]
struct Same {
    text: String,
}

fn main() {}
