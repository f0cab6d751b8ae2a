// A map read on demand, its keys and their iterator borrow the bytes: none of them
// outlives them.
use std::collections::BTreeMap;
use wiremsg::{LazyMap, WireMsg};

#[derive(WireMsg)]
pub struct Names {
    names: BTreeMap<String, u8>,
}

fn key() -> &'static str {
    let bytes = Names { names: BTreeMap::new() }.to_bytes().unwrap();
    let lazy = Names::view_lazy(&bytes).unwrap();
    lazy.names().unwrap().keys().next().unwrap()
}

fn map() -> LazyMap<'static, String, u8> {
    let bytes = Names { names: BTreeMap::new() }.to_bytes().unwrap();
    Names::view_lazy(&bytes).unwrap().names().unwrap()
}

fn keys() {
    let bytes = Names { names: BTreeMap::new() }.to_bytes().unwrap();
    let lazy = Names::view_lazy(&bytes).unwrap();
    let keys = lazy.names().unwrap().keys();
    drop(bytes);
    for _ in keys {}
}

fn main() {}
