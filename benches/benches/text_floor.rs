//! The floor of validating the `log` data set: one SIMD UTF-8 pass (simdutf8, as
//! wiremsg's batch check uses) over the same text, beside wiremsg's and rkyv's
//! validated `access` of the whole batch, in one group.
//!
//! | id | what is timed |
//! |---|---|
//! | `text_floor/simdutf8` | `simdutf8::basic::from_utf8` over the 40,000 strings of the batch, concatenated into one buffer beforehand |
//! | `text_floor/wiremsg` | `LogBatch::view` of the encoding (every check of FORMAT.md §7) |
//! | `text_floor/rkyv` | `rkyv::access` of rkyv's encoding (bytecheck) |
//!
//! The issue-13 target is wiremsg within 2x of the simdutf8 pass: everything
//! validation does beside the UTF-8 check (offsets, lengths, the gathering of
//! strings) is the difference.
//!
//! ```sh
//! cargo bench -p wiremsg-benches --bench text_floor
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, SamplingMode};
use wiremsg::WireMsg;
use wiremsg_benches::datasets::Dataset;
use wiremsg_benches::datasets::log::{ArchivedLogBatch, LogBatch};
use wiremsg_benches::format::aligned_copy;

fn text_floor(c: &mut Criterion) {
    let batch = LogBatch::generate(LogBatch::LEN);
    let text: Vec<u8> = batch
        .entries
        .iter()
        .flat_map(|e| [&e.identity, &e.userid, &e.date, &e.request])
        .flat_map(|s| s.bytes())
        .collect();
    let wire = aligned_copy(&batch.to_bytes().expect("the batch is far below 4 GiB"));
    let archived = aligned_copy(&rkyv::to_bytes::<rkyv::rancor::Error>(&batch).expect("rkyv"));
    let mut group = c.benchmark_group("text_floor");
    group
        .sample_size(20)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500));
    group.bench_function("simdutf8", |b| {
        b.iter(|| simdutf8::basic::from_utf8(black_box(&text)).is_ok())
    });
    group.bench_function("wiremsg", |b| {
        b.iter(|| LogBatch::view(black_box(&wire)).is_ok())
    });
    group.bench_function("rkyv", |b| {
        b.iter(|| {
            rkyv::access::<ArchivedLogBatch, rkyv::rancor::Error>(black_box(&archived)).is_ok()
        })
    });
    group.finish();
    println!(
        "text_floor: {} bytes of text in {} strings",
        text.len(),
        4 * batch.entries.len()
    );
}

criterion::criterion_group!(benches, text_floor);
criterion::criterion_main!(benches);
