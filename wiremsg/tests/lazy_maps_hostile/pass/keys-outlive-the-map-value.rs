// `LazyMap` is `Copy` and `keys()` copies it: the keys borrow the bytes (`'v`), not
// the map value they were taken from, as `iter()`'s do.
use std::collections::BTreeMap;
use wiremsg::WireMsg;

#[derive(WireMsg)]
pub struct Names {
    names: BTreeMap<String, u8>,
}

fn keys(bytes: &[u8]) -> impl Iterator<Item = &str> + '_ {
    let lazy = Names::view_lazy(bytes).unwrap();
    lazy.names().unwrap().keys()
}

fn entries(bytes: &[u8]) -> impl Iterator<Item = Result<(&str, u8), wiremsg::Error>> + '_ {
    let lazy = Names::view_lazy(bytes).unwrap();
    lazy.names().unwrap().iter()
}

fn main() {
    let bytes = Names { names: BTreeMap::from([("a".into(), 1)]) }.to_bytes().unwrap();
    assert_eq!(keys(&bytes).collect::<Vec<_>>(), ["a"]);
    assert_eq!(entries(&bytes).count(), 1);
}
