//! A small self-calibrating timing loop: good enough for a side-by-side
//! table on a noisy 2-core machine in seconds, not a criterion replacement.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// Times one operation: calibrates a batch size, then takes the median
/// ns/op of several batches (the median shrugs off batches hit by noise).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timer {
    /// Time spent measuring one cell, calibration excluded.
    pub cell: Duration,
    /// Batches per cell; the result is the median of their ns/op.
    pub batches: u32,
}

impl Default for Timer {
    /// 100 ms per cell in 9 batches of ~11 ms.
    fn default() -> Self {
        Self::new(Duration::from_millis(100), 9)
    }
}

impl Timer {
    /// A timer spending about `cell` per measurement, in `batches` batches.
    pub const fn new(cell: Duration, batches: u32) -> Self {
        Self { cell, batches }
    }

    /// Median ns per call of `op` over the batches. The result of `op` goes
    /// through [`black_box`] so the work is not optimised away; inputs should
    /// be passed through it by the caller.
    pub fn ns_per_op<R>(&self, mut op: impl FnMut() -> R) -> f64 {
        let batches = self.batches.max(1);
        let batch = (self.cell / batches).max(Duration::from_micros(10));
        let iters = calibrate(&mut op, batch);
        let mut samples: Vec<f64> = (0..batches)
            .map(|_| run(&mut op, iters).as_nanos() as f64 / iters as f64)
            .collect();
        samples.sort_by(f64::total_cmp);
        samples[samples.len() / 2]
    }
}

fn run<R>(op: &mut impl FnMut() -> R, iters: u64) -> Duration {
    let start = Instant::now();
    for _ in 0..iters {
        black_box(op());
    }
    start.elapsed()
}

/// Iterations that fill about one `batch`; also warms caches and branch
/// predictors. Grows geometrically, then scales from the last measurement.
fn calibrate<R>(op: &mut impl FnMut() -> R, batch: Duration) -> u64 {
    let mut iters: u64 = 1;
    loop {
        let took = run(op, iters);
        if took >= batch / 4 || iters >= 1 << 40 {
            let per_op = took.as_secs_f64() / iters as f64;
            return ((batch.as_secs_f64() / per_op.max(1e-12)) as u64).max(1);
        }
        iters *= if took < batch / 100 { 10 } else { 2 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_something_positive_quickly() {
        let timer = Timer::new(Duration::from_millis(5), 3);
        let start = Instant::now();
        let ns = timer.ns_per_op(|| black_box(3u64).pow(black_box(5)));
        assert!(ns > 0.0 && ns.is_finite());
        assert!(start.elapsed() < Duration::from_secs(2));
    }
}
