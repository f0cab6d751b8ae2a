//! Compile-fail tests: every misuse of the derives is rejected with a message that
//! points at the offending token and says what to write instead.

#[test]
fn ui() {
    trybuild::TestCases::new().compile_fail("tests/ui/*.rs");
}
