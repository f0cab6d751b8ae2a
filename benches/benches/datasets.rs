//! Criterion benches of issue 4: every data set x metric x format, named
//! `<dataset>/<metric>/<format>` (see `wiremsg_benches::datasets`).
//!
//! ```sh
//! cargo bench -p wiremsg-benches --bench datasets                  # everything
//! cargo bench -p wiremsg-benches --bench datasets -- 'log/read/'   # a filter
//! cargo bench -p wiremsg-benches --bench datasets -- --test        # smoke: each once
//! cargo run --release -p wiremsg-benches --bin bench_table         # the table
//! ```
//!
//! Before any timing, each format's encoding of each data set is checked
//! against the model (`datasets::verify`: the `read` and `read_some`
//! checksums and their `_unchecked` and `_lazy` twins, decode, `update` and
//! `update_unchecked`); a mismatch aborts the run.

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode};
use wiremsg_benches::datasets::{
    Codec, CodecVisitor, Dataset, DatasetVisitor, for_each_dataset, verify,
};

/// Registers every data set's group.
struct Datasets<'c> {
    criterion: &'c mut Criterion,
}

impl DatasetVisitor for Datasets<'_> {
    fn visit<D: Dataset>(&mut self) {
        let data = D::generate(D::LEN);
        let mut group = self.criterion.benchmark_group(D::NAME);
        if D::LEN > 1 {
            // Batches take 0.1–100 ms: few samples, one iteration each.
            group
                .sample_size(10)
                .sampling_mode(SamplingMode::Flat)
                .warm_up_time(Duration::from_millis(500));
        }
        D::codecs(&mut Formats {
            group: &mut group,
            data: &data,
        });
        group.finish();
    }
}

/// Registers one data set's metrics for each format.
struct Formats<'g, 'c, D> {
    group: &'g mut BenchmarkGroup<'c, WallTime>,
    data: &'g D,
}

impl<D: Dataset> CodecVisitor<D> for Formats<'_, '_, D> {
    fn visit<C: Codec<D>>(&mut self) {
        let data = self.data;
        let mut codec = C::default();
        let verified = verify(&mut codec, data).unwrap_or_else(|e| panic!("{e}"));
        let bytes = &verified.bytes[..];
        let has = verified.has;
        let g = &mut *self.group;
        let id = |metric: &str| BenchmarkId::new(metric, C::ID);

        g.bench_function(id("encode"), |b| {
            b.iter(|| {
                black_box(codec.encode(black_box(data)));
            })
        });
        let codec = &codec;
        if has.access {
            g.bench_function(id("access"), |b| b.iter(|| codec.access(black_box(bytes))));
        }
        if has.read {
            g.bench_function(id("read"), |b| b.iter(|| codec.read(black_box(bytes))));
        }
        if has.read_some {
            g.bench_function(id("read_some"), |b| {
                b.iter(|| codec.read_some(black_box(bytes)))
            });
        }
        if has.access_unchecked {
            g.bench_function(id("access_unchecked"), |b| {
                // SAFETY: `bytes` is this codec's verified encoding of
                // `data`, 16-byte aligned.
                b.iter(|| unsafe { codec.access_unchecked(black_box(bytes)) })
            });
        }
        if has.read_unchecked {
            g.bench_function(id("read_unchecked"), |b| {
                // SAFETY: as above.
                b.iter(|| unsafe { codec.read_unchecked(black_box(bytes)) })
            });
        }
        if has.read_some_unchecked {
            g.bench_function(id("read_some_unchecked"), |b| {
                // SAFETY: as above.
                b.iter(|| unsafe { codec.read_some_unchecked(black_box(bytes)) })
            });
        }
        if has.access_lazy {
            g.bench_function(id("access_lazy"), |b| {
                b.iter(|| codec.access_lazy(black_box(bytes)))
            });
        }
        if has.read_lazy {
            g.bench_function(id("read_lazy"), |b| {
                b.iter(|| codec.read_lazy(black_box(bytes)))
            });
        }
        if has.read_some_lazy {
            g.bench_function(id("read_some_lazy"), |b| {
                b.iter(|| codec.read_some_lazy(black_box(bytes)))
            });
        }
        if has.update {
            let mut target = verified.bytes.clone();
            let mut round = 0u64;
            g.bench_function(id("update"), |b| {
                b.iter(|| {
                    round += 1;
                    codec.update(black_box(&mut target[..]), black_box(round))
                })
            });
        }
        if has.update_unchecked {
            let mut target = verified.bytes.clone();
            let mut round = 0u64;
            g.bench_function(id("update_unchecked"), |b| {
                b.iter(|| {
                    round += 1;
                    // SAFETY: `target` is an aligned copy of this codec's
                    // verified encoding, changed since only by earlier
                    // rounds of this same update.
                    unsafe { codec.update_unchecked(black_box(&mut target[..]), black_box(round)) }
                })
            });
        }
        g.bench_function(id("decode"), |b| b.iter(|| codec.decode(black_box(bytes))));
    }
}

fn datasets(criterion: &mut Criterion) {
    for_each_dataset(&mut Datasets { criterion });
}

criterion::criterion_group!(benches, datasets);
criterion::criterion_main!(benches);
