// Outside code cannot turn a checked mode into the trusted token that skips checks:
// the reads of `Mode` take a proof that only wiremsg can make.
fn token<M: wiremsg::Mode>(mode: &M) -> wiremsg::Trusted {
    mode.validated()
}

fn main() {
    let _ = token(&wiremsg::Checked);
}
