//! Iterating a list of plain numbers (issue 31: "iteration over plain elements
//! should compile to the loop a slice gives"): the sum of 16,384 `u16` prices and
//! of 16,384 `f32` weights read through wiremsg's unchecked view, rkyv's unchecked
//! archive and a native slice, in one run.
//!
//! | id | what is iterated |
//! |---|---|
//! | `plain_list/<sum>/wiremsg` | `List<u16>` / `List<f32>` of `view_unchecked` (a packed list, FORMAT.md §6.1) |
//! | `plain_list/<sum>/rkyv` | `ArchivedVec<u16_le>` / `ArchivedVec<f32_le>` of `access_unchecked` |
//! | `plain_list/<sum>/slice` | `&[u16]` / `&[f32]` in memory: the floor |
//!
//! Each sum is a function that takes the list and is not inlined, as a reader's
//! function that is handed a list field is: the loop sees only what the list's type
//! says, not what the encoder wrote. The `u16` sum widens each element to `u64`,
//! which a compiler vectorises when the elements are a fixed distance apart. The
//! `f32` sum is a serial chain (float addition is not reassociated), so it measures
//! the loop's overhead per element.
//!
//! ```sh
//! cargo bench -p wiremsg-benches --bench plain_list
//! ```

use std::hint::black_box;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use wiremsg::WireMsg;

/// The list in wiremsg's and rkyv's encodings.
#[derive(WireMsg, rkyv::Archive, rkyv::Serialize, Debug, PartialEq)]
struct Series {
    prices: Vec<u16>,
    weights: Vec<f32>,
}

const LEN: usize = 16_384;

#[inline(never)]
fn sum_u16_wiremsg(prices: wiremsg::List<'_, u16>) -> u64 {
    prices.iter().map(u64::from).sum()
}

#[inline(never)]
fn sum_u16_rkyv(prices: &rkyv::vec::ArchivedVec<rkyv::rend::u16_le>) -> u64 {
    prices.iter().map(|p| u64::from(p.to_native())).sum()
}

#[inline(never)]
fn sum_u16_slice(prices: &[u16]) -> u64 {
    prices.iter().map(|&p| u64::from(p)).sum()
}

#[inline(never)]
fn sum_f32_wiremsg(weights: wiremsg::List<'_, f32>) -> f32 {
    weights.iter().sum()
}

#[inline(never)]
fn sum_f32_rkyv(weights: &rkyv::vec::ArchivedVec<rkyv::rend::f32_le>) -> f32 {
    weights.iter().map(|w| w.to_native()).sum()
}

#[inline(never)]
fn sum_f32_slice(weights: &[f32]) -> f32 {
    weights.iter().sum()
}

/// The unchecked view of `wire`, which `plain_list` made with `to_bytes`.
fn view(wire: &[u8]) -> SeriesView<'_> {
    // SAFETY: every caller passes `Series`'s own encoding.
    unsafe { wiremsg::view_unchecked::<Series>(wire) }
}

/// The unchecked archive of `archive`, which `plain_list` made with `rkyv::to_bytes`.
fn archived(archive: &[u8]) -> &ArchivedSeries {
    // SAFETY: every caller passes rkyv's serialization of a `Series`, in rkyv's
    // aligned buffer.
    unsafe { rkyv::access_unchecked::<ArchivedSeries>(archive) }
}

/// Checks that each format's sum is `want`, then times each as `<sum>/<format>`.
fn sums<T: PartialEq + std::fmt::Debug>(
    g: &mut BenchmarkGroup<'_, WallTime>,
    sum: &str,
    want: T,
    formats: [(&str, &dyn Fn() -> T); 3],
) {
    for (format, run) in formats {
        assert_eq!(run(), want, "{sum}/{format}");
        g.bench_function(BenchmarkId::new(sum, format), |b| b.iter(run));
    }
}

fn plain_list(c: &mut Criterion) {
    let series = Series {
        prices: (0..LEN).map(|i| (i * 7919 % 65_521) as u16).collect(),
        weights: (0..LEN).map(|i| (i % 1000) as f32 * 0.25).collect(),
    };
    let wire = series.to_bytes().unwrap();
    let archive = rkyv::to_bytes::<rkyv::rancor::Error>(&series).unwrap();

    let mut g = c.benchmark_group("plain_list");
    sums(
        &mut g,
        "sum_u16",
        series.prices.iter().map(|&p| u64::from(p)).sum(),
        [
            ("wiremsg", &|| {
                sum_u16_wiremsg(view(black_box(&wire)).prices())
            }),
            ("rkyv", &|| {
                sum_u16_rkyv(&archived(black_box(&archive)).prices)
            }),
            ("slice", &|| sum_u16_slice(black_box(&series.prices))),
        ],
    );
    sums(
        &mut g,
        "sum_f32",
        series.weights.iter().sum(),
        [
            ("wiremsg", &|| {
                sum_f32_wiremsg(view(black_box(&wire)).weights())
            }),
            ("rkyv", &|| {
                sum_f32_rkyv(&archived(black_box(&archive)).weights)
            }),
            ("slice", &|| sum_f32_slice(black_box(&series.weights))),
        ],
    );
    g.finish();
}

criterion::criterion_group!(benches, plain_list);
criterion::criterion_main!(benches);
