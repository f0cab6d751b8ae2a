//! A small self-calibrating timing loop: good enough for a side-by-side
//! table on a noisy 2-core machine in seconds, not a criterion replacement.
//!
//! [`Timer::interleave`] times several operations round-robin: each round runs
//! one batch of every operation, so a burst of load from another process hits
//! all of them alike, and a ratio taken within a round holds when the machine is
//! busy (the medians of separately timed cells did not: a loaded run flipped
//! wiremsg-vs-rkyv ratios from 0.87 to 1.27).

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
    /// 100 ms per cell in 15 batches (rounds), each of three tries of ~2 ms.
    fn default() -> Self {
        Self::new(Duration::from_millis(100), 15)
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

/// One operation to time with [`Timer::interleave`]: its batch loop is
/// compiled for the operation itself (only the batch call is dynamic), so the
/// per-iteration cost is that of [`Timer::ns_per_op`].
pub struct Lane<'a> {
    batch: Box<dyn FnMut(u64) -> Duration + 'a>,
}

impl<'a> Lane<'a> {
    /// A lane timing calls of `op`, whose result goes through [`black_box`].
    pub fn new<R>(mut op: impl FnMut() -> R + 'a) -> Self {
        Self {
            batch: Box::new(move |iters| run(&mut op, iters)),
        }
    }
}

impl std::fmt::Debug for Lane<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Lane")
    }
}

impl Timer {
    /// ns per call of every lane in each round: `result[lane][round]`.
    ///
    /// Each lane is calibrated to batches of about `cell / (batches * 3)`;
    /// then `batches` rounds each time three batches of every lane,
    /// round-robin, starting one lane later each round so that no lane always
    /// runs first (after a warm cache or a context switch). A lane's figure for
    /// the round is the fastest of its three batches: a batch that another
    /// process preempted is slower, never faster, so the minimum drops most of
    /// the load's noise while the round keeps the lanes' figures side by side.
    pub fn interleave(&self, lanes: &mut [Lane<'_>]) -> Vec<Vec<f64>> {
        const TRIES: u32 = 3;
        let rounds = self.batches.max(1);
        let batch = (self.cell / (rounds * TRIES)).max(Duration::from_micros(10));
        let iters: Vec<u64> = lanes
            .iter_mut()
            .map(|lane| calibrate_batch(&mut lane.batch, batch))
            .collect();
        let mut samples = vec![Vec::with_capacity(rounds as usize); lanes.len()];
        for round in 0..rounds as usize {
            let mut best = vec![f64::INFINITY; lanes.len()];
            for _ in 0..TRIES {
                for k in 0..lanes.len() {
                    let i = (round + k) % lanes.len();
                    let took = (lanes[i].batch)(iters[i]);
                    best[i] = best[i].min(took.as_nanos() as f64 / iters[i] as f64);
                }
            }
            for (lane, ns) in samples.iter_mut().zip(best) {
                lane.push(ns);
            }
        }
        samples
    }
}

/// The median of `values`; NaN when empty.
pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// The `q` quantile of `values` (`q` in 0..=1), interpolating linearly
/// between the two nearest sorted values (the usual "type 7" definition);
/// NaN when empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let pos = q.clamp(0.0, 1.0) * (sorted.len() - 1) as f64;
    let (below, frac) = (pos.floor() as usize, pos.fract());
    let above = (below + 1).min(sorted.len() - 1);
    sorted[below] + (sorted[above] - sorted[below]) * frac
}

fn calibrate_batch(batch: &mut dyn FnMut(u64) -> Duration, target: Duration) -> u64 {
    let mut iters: u64 = 1;
    loop {
        let took = batch(iters);
        if took >= target / 4 || iters >= 1 << 40 {
            let per_op = took.as_secs_f64() / iters as f64;
            return ((target.as_secs_f64() / per_op.max(1e-12)) as u64).max(1);
        }
        iters *= if took < target / 100 { 10 } else { 2 };
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
    calibrate_batch(&mut |iters| run(op, iters), batch)
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

    #[test]
    fn interleave_gives_every_lane_one_sample_per_round() {
        let timer = Timer::new(Duration::from_millis(6), 3);
        let mut slow_calls = 0u64;
        let samples = timer.interleave(&mut [
            Lane::new(|| black_box(3u64).pow(black_box(5))),
            Lane::new(|| {
                slow_calls += 1;
                (0..black_box(200u64)).map(black_box).sum::<u64>()
            }),
        ]);
        assert_eq!(samples.len(), 2);
        assert!(samples.iter().all(|s| s.len() == 3));
        // The 200-step sum is slower per call than one `pow` in every round.
        assert!((0..3).all(|r| samples[1][r] > samples[0][r]));
        assert!(slow_calls > 3);
    }

    #[test]
    fn quantiles_interpolate() {
        let v = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(median(&v), 3.0);
        assert_eq!(quantile(&v, 0.25), 2.0);
        assert_eq!(quantile(&v, 0.75), 4.0);
        assert_eq!(quantile(&v, 0.0), 1.0);
        assert_eq!(median(&[1.0, 2.0, 4.0, 8.0]), 3.0);
        assert_eq!(quantile(&[1.0, 2.0, 4.0], 0.25), 1.5);
        assert!(median(&[]).is_nan());
    }
}
