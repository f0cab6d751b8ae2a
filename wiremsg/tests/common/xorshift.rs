//! A tiny deterministic generator for the tests' random inputs: xorshift64 (shifts
//! 13, 7 and 17, George Marsaglia, "Xorshift RNGs", 2003). Each test gives its own
//! seed, so a failure reruns as it happened.
#![allow(dead_code)]

/// The generator; its state is the seed, which must not be 0.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 for `n` 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// An index below `len` (0 for `len` 0).
    pub(crate) fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap_or(0)
    }

    /// One of `xs`, which must not be empty.
    pub(crate) fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.index(xs.len())]
    }
}
