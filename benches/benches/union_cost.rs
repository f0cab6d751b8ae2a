//! What a tagged union costs a reader, per element: the same 100,000 add orders
//! read through a list of the message and through a list of a union whose every
//! element is that message's variant.
//!
//! | id | the list | reaching element `i` |
//! |---|---|---|
//! | `union_cost/<metric>/message_list` | `Vec<AddOrder>`: strided (FORMAT.md §6.2) | `2 + i × stride` |
//! | `union_cost/<metric>/union_list` | `Vec<FeedMsg>`, every element `Add`: a table list (§6.4) of unions (§4.10) | a load from the offset table, the tag's load and a branch |
//!
//! Metrics: `read_some` (validated view, then `stock_locate` and `order_ref` of every
//! element folded, as the `events` data set's `read_some`) and `read_some_unchecked`
//! (the same after `view_unchecked`).
//!
//! ```sh
//! cargo bench -p wiremsg-benches --bench union_cost
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use wiremsg::WireMsg;
use wiremsg_benches::datasets::feed::{AddOrder, FeedMsg, FeedMsgView};
use wiremsg_benches::datasets::{Dataset, Events, fold_some};

/// The add orders as a list of the message.
#[derive(WireMsg, Debug, PartialEq)]
struct Adds {
    orders: Vec<AddOrder>,
}

/// The fields the fold loads.
#[inline(always)]
fn some(o: wiremsg_benches::datasets::feed::AddOrderView<'_>) -> [u64; 2] {
    [u64::from(o.stock_locate()), o.order_ref()]
}

#[inline(always)]
fn message_list(view: AddsView<'_>) -> u64 {
    fold_some(view.orders(), some)
}

#[inline(always)]
fn union_list(view: wiremsg_benches::datasets::events::EventsView<'_>) -> u64 {
    fold_some(view.events(), |event| match event {
        FeedMsgView::Add(o) => some(o),
        _ => unreachable!("every element is an add order"),
    })
}

fn union_cost(c: &mut Criterion) {
    const LEN: usize = 100_000;
    let mut orders: Vec<AddOrder> = Events::generate(4 * LEN)
        .events
        .into_iter()
        .filter_map(|m| match m {
            FeedMsg::Add(a) => Some(a),
            _ => None,
        })
        .collect();
    orders.truncate(LEN);
    assert_eq!(orders.len(), LEN);
    let as_messages = Adds {
        orders: orders.clone(),
    }
    .to_bytes()
    .unwrap();
    let as_unions = Events {
        events: orders.into_iter().map(FeedMsg::Add).collect(),
    }
    .to_bytes()
    .unwrap();
    // Both read the same values.
    let want = message_list(Adds::view(&as_messages).unwrap());
    assert_eq!(union_list(Events::view(&as_unions).unwrap()), want);

    let mut g = c.benchmark_group("union_cost");
    g.sample_size(20).sampling_mode(SamplingMode::Flat);
    g.bench_function(BenchmarkId::new("read_some", "message_list"), |b| {
        b.iter(|| message_list(Adds::view(black_box(&as_messages)).unwrap()))
    });
    g.bench_function(BenchmarkId::new("read_some", "union_list"), |b| {
        b.iter(|| union_list(Events::view(black_box(&as_unions)).unwrap()))
    });
    g.bench_function(
        BenchmarkId::new("read_some_unchecked", "message_list"),
        |b| {
            b.iter(|| {
                // SAFETY: `as_messages` is `Adds`'s own encoding, which `view` accepted.
                let view = unsafe { wiremsg::view_unchecked::<Adds>(black_box(&as_messages)) };
                message_list(view)
            })
        },
    );
    g.bench_function(BenchmarkId::new("read_some_unchecked", "union_list"), |b| {
        b.iter(|| {
            // SAFETY: `as_unions` is `Events`'s own encoding, which `view` accepted.
            let view = unsafe { wiremsg::view_unchecked::<Events>(black_box(&as_unions)) };
            union_list(view)
        })
    });
    g.finish();
}

criterion::criterion_group!(benches, union_cost);
criterion::criterion_main!(benches);
