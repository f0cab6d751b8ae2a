// Kinds are sealed: outside code cannot define a wire shape of its own.
use wiremsg::{Error, Kind, ListEncoding};

#[derive(Debug)]
struct Evil;

impl Kind for Evil {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = false;
    const CHECKS: bool = false;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = 4;
    type View<'v> = &'v str;
}

fn main() {
    let _: Option<Error> = None;
}
