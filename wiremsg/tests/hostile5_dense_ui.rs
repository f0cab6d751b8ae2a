//! Compile-fail cases of the fixed-size union evolution rule (FORMAT.md §4.10):
//! later variants that would turn a dense list (§6.8) into a table list, in the
//! forms `union-fixed-gains-a-tail.rs` does not cover.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/hostile5_dense_ui/*.rs");
}
