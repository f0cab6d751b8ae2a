//! Order-sensitive fold of field values, so that every format's read path
//! has to touch every field and produce the same number as the model.

/// Folds field values into a `u64` with wrapping add and rotate.
///
/// Cheap on purpose: the fold should cost little next to the access it
/// checks. Strings fold their length and the wrapping sum of their bytes, so
/// every byte is read but the fold stays the same for any representation.
#[derive(Debug, Clone, Copy, Default)]
pub struct Fold(u64);

impl Fold {
    /// Starts an empty fold.
    pub const fn new() -> Self {
        Self(0)
    }

    /// Folds one 64-bit value; every other method goes through here.
    #[inline(always)]
    pub fn u64(&mut self, value: u64) {
        self.0 = self.0.rotate_left(5).wrapping_add(value);
    }

    /// Folds a signed integer by its two's-complement bits.
    #[inline(always)]
    pub fn i64(&mut self, value: i64) {
        self.u64(value as u64);
    }

    /// Folds a float by its bits (so `0.0` and `-0.0` differ, as on the wire).
    #[inline(always)]
    pub fn f64(&mut self, value: f64) {
        self.u64(value.to_bits());
    }

    /// Folds a length (string, byte string or list).
    #[inline(always)]
    pub fn len(&mut self, len: usize) {
        self.u64(len as u64);
    }

    /// Folds a byte string: its length, then the wrapping sum of its bytes.
    #[inline(always)]
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.len(bytes.len());
        self.u64(
            bytes
                .iter()
                .fold(0u64, |acc, &b| acc.wrapping_add(u64::from(b))),
        );
    }

    /// Folds a string as its UTF-8 bytes.
    #[inline(always)]
    pub fn str(&mut self, s: &str) {
        self.bytes(s.as_bytes());
    }

    /// Folds an optional string: presence first, then the value if present,
    /// so `None` and `Some("")` differ.
    #[inline(always)]
    pub fn opt_str(&mut self, s: Option<&str>) {
        self.u64(u64::from(s.is_some()));
        if let Some(s) = s {
            self.str(s);
        }
    }

    /// Folds an optional number: presence first, then the value if present,
    /// so `None` and `Some(0)` differ.
    #[inline(always)]
    pub fn opt(&mut self, value: Option<u64>) {
        self.u64(u64::from(value.is_some()));
        if let Some(value) = value {
            self.u64(value);
        }
    }

    /// Folds a list: its length, then each element with `each`.
    #[inline(always)]
    pub fn list<T>(
        &mut self,
        items: impl ExactSizeIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T),
    ) {
        self.len(items.len());
        for item in items {
            each(self, item);
        }
    }

    /// The folded value.
    pub const fn finish(self) -> u64 {
        self.0
    }
}
