//! How many cases a property test runs, shared by the files that CI also runs on
//! its emulated big-endian target (each includes this file with `#[path]`, so that
//! it need not compile `common`'s messages).

/// `n` cases; at most `PROPTEST_CASES` when that is set (`.ci/run` sets it for the
/// powerpc64 run, which QEMU makes ten to twenty times slower); 4 under Miri.
pub(crate) fn cases(n: u32) -> u32 {
    if cfg!(miri) {
        return 4;
    }
    let cap = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok());
    cap.map_or(n, |cap: u32| n.min(cap))
}
