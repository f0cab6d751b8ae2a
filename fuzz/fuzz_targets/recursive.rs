#![no_main]
//! `view` of recursive messages (a list of itself, a boxed linked list, an expression
//! tree of boxed unions): bounded depth, no panic, the typed views agreeing with each
//! other and with the schema-driven reader.
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use wiremsg::SchemaSet;
use wiremsg_fuzz::{Chain, Formula, Node, agree, agree_dynamic};

fn sets() -> &'static (SchemaSet, SchemaSet) {
    static SETS: OnceLock<(SchemaSet, SchemaSet)> = OnceLock::new();
    SETS.get_or_init(|| {
        (
            SchemaSet::of::<Chain>().unwrap(),
            SchemaSet::of::<Formula>().unwrap(),
        )
    })
}

fuzz_target!(|data: &[u8]| {
    agree!(Node, data);
    agree!(Chain, data);
    agree!(Formula, data);
    let (chain, formula) = sets();
    agree_dynamic!(Chain, chain, data);
    agree_dynamic!(Formula, formula, data);
});
