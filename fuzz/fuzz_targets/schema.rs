#![no_main]
//! Hostile schemas: bytes that `SchemaSet::from_bytes` reads (a schema file, or a schema
//! frame's payload, FORMAT.md §11), then hostile message bytes read through the schema
//! by every schema-driven reader. Input: a `u16` LE length `n`, `n` bytes of schema,
//! then the message bytes.
//!
//! Checks, beyond no panic, hang or unbounded allocation: a schema that reads is
//! written back to bytes that read as the same set (same fingerprint); `compat` of a
//! set with itself reports no change; the on-demand reader accepts what the up-front
//! reader accepts.
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use wiremsg::{SchemaSet, dynamic, schema};

fuzz_target!(|data: &[u8]| {
    let Some((len, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let (schema_bytes, message) =
        rest.split_at(usize::from(u16::from_le_bytes(*len)).min(rest.len()));
    let Ok(set) = SchemaSet::from_bytes(schema_bytes) else {
        return;
    };
    let _ = format!("{set:?}");
    let written = set.to_bytes().expect("a schema that reads is written back");
    let again = SchemaSet::from_bytes(&written).expect("a written schema reads");
    assert!(again == set, "the schema read back differs");
    assert_eq!(again.fingerprint(), set.fingerprint());
    assert!(schema::compat(&set, &again).changes().is_empty());
    // Built once, not per input.
    static CANONICAL: OnceLock<SchemaSet> = OnceLock::new();
    let canonical = CANONICAL.get_or_init(dynamic::canonical_schema);
    let _ = schema::compat(canonical, &set).changes().len();
    let _ = schema::compat(&set, canonical).changes().len();
    for m in set.messages() {
        let name: &str = &m.name;
        let up_front = dynamic::view(&set, name, message);
        if let Ok(view) = &up_front {
            let _ = format!("{view:?} {view}");
        }
        let _ = dynamic::annotate(&set, name, message, false).to_string();
        if let Ok(lazy) = dynamic::view_lazy(&set, name, message) {
            for field in m.fields.iter() {
                if let Ok(Some(value)) = lazy.get(&field.name) {
                    let _ = value.to_string();
                }
            }
            let _ = lazy.to_view().map(|v| v.to_string());
        } else {
            assert!(up_front.is_err(), "view accepted what view_lazy refused");
        }
        let _ = set.closure(name);
    }
    let _ = dynamic::view_with_header(&set, message).map(|(_, v)| v.to_string());
    let _ = dynamic::annotate_with_header(&set, message).to_string();
});
