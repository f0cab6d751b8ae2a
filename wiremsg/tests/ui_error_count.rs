//! Issue 33: each common mistake gives at most two errors, the first naming the field
//! and the fix. Counts the `error` lines of the pinned `.stderr` of each mistake.

const MISTAKES: &[&str] = &[
    "field-enum-without-wire-enum",
    "field-struct-without-wire-msg",
    "field-duration",
    "field-enum-without-repr",
    "enum-without-repr",
    "decimal-float-mantissa",
    "null-on-alias-without-sentinel",
    "dispatch-variant-without-template-id",
    "set-string-field",
    "field-option-of-struct-without-wire-msg",
];

#[test]
fn each_mistake_gives_at_most_two_errors() {
    for name in MISTAKES {
        let path = format!("{}/tests/ui/{name}.stderr", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let errors = text.lines().filter(|l| l.starts_with("error")).count();
        assert!((1..=2).contains(&errors), "{name}: {errors} errors");
    }
}
