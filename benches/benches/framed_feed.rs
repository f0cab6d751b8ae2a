//! The feed's 100,000 messages of five kinds, framed two ways, with `read_some`'s two
//! fields (`stock_locate`, `order_ref`) of every message read unchecked, up front and
//! on demand: what a reader of a stream pays per message for each view.
//!
//! | id | framing | the read |
//! |---|---|---|
//! | `framed_feed/kind_byte/unchecked` | the `feed` data set's: a `u16` length, the kind byte, the message | `view_unchecked` of the kind's message (`feed/read_some_unchecked`) |
//! | `framed_feed/kind_byte/lazy` | the same | the kind byte and message as one `FeedFrame` union, `view_lazy` |
//! | `framed_feed/header/unchecked` | a `u16` length, wiremsg's 8-byte message header (FORMAT.md §8), the message | `view_unchecked` of the message its template id names |
//! | `framed_feed/header/unchecked_with_header` | the same | `view_unchecked_with_header` of the kind its template id names: the header checked (O(1)), the message trusted |
//! | `framed_feed/header/dispatch_unchecked` | the same | the `#[derive(WireDispatch)]` enum's `unsafe fn view_unchecked`: the header checked, the message trusted |
//! | `framed_feed/header/view` | the same | the `#[derive(WireDispatch)]` enum's `view` (up front) |
//! | `framed_feed/header/lazy` | the same | the dispatch enum's `view_lazy` (on demand) |
//!
//! ```sh
//! cargo bench -p wiremsg-benches --bench framed_feed
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, SamplingMode};
use wiremsg::{MessageHeader, Template, WireDispatch, WireUnion};
use wiremsg_benches::datasets::feed::{
    AddOrder, Feed, FeedFrame, FeedFrameLazy, FeedMsg, Kind, OrderCancel, OrderDelete,
    OrderExecuted, Trade, tagged_frames,
};
use wiremsg_benches::datasets::{Dataset, fold_some};
use wiremsg_benches::each_variant;

/// The feed's kinds behind wiremsg's message header (their template ids 2 to 6 of
/// schema 6).
#[derive(WireDispatch)]
enum Framed {
    Add(AddOrder),
    Executed(OrderExecuted),
    Cancel(OrderCancel),
    Delete(OrderDelete),
    Trade(Trade),
}

/// Each frame of `stream`: a `u16` length, then that many bytes.
#[inline(always)]
fn frames(stream: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = stream;
    std::iter::from_fn(move || {
        let (len, after) = rest.split_first_chunk::<2>()?;
        let (frame, after) = after.split_at(usize::from(u16::from_le_bytes(*len)));
        rest = after;
        Some(frame)
    })
}

/// `$read::<K>($arg)` for the kind `K` whose template id `$frame`'s header names
/// (the trade for any other).
macro_rules! by_template_id {
    ($frame:expr, $read:ident($arg:expr)) => {
        match u16::from_le_bytes([$frame[2], $frame[3]]) {
            AddOrder::TEMPLATE_ID => $read::<AddOrder>($arg),
            OrderExecuted::TEMPLATE_ID => $read::<OrderExecuted>($arg),
            OrderCancel::TEMPLATE_ID => $read::<OrderCancel>($arg),
            OrderDelete::TEMPLATE_ID => $read::<OrderDelete>($arg),
            _ => $read::<Trade>($arg),
        }
    };
}

/// `read_some`'s fields of message `K`, by `view_unchecked`.
///
/// # Safety
///
/// `body` is a valid message `K`.
#[inline(always)]
unsafe fn some_unchecked<K: Kind>(body: &[u8]) -> [u64; 2] {
    // SAFETY: the caller's promise.
    K::some_view(unsafe { wiremsg::view_unchecked::<K>(body) })
}

/// The fields of the message behind `frame`'s header, by `view_unchecked`.
///
/// # Safety
///
/// `frame` is a header and a valid message of the kind its template id names.
#[inline(always)]
unsafe fn header_unchecked(frame: &[u8]) -> [u64; 2] {
    let body = &frame[MessageHeader::LEN..];
    // SAFETY: the caller's promise, for the kind the template id names.
    unsafe { by_template_id!(frame, some_unchecked(body)) }
}

/// `read_some`'s fields of message `K` behind its header, by
/// `view_unchecked_with_header`: the header checked as `view_with_header` checks it.
///
/// # Safety
///
/// `frame` is a header and, if the header names `K`, a valid message `K`.
#[inline(always)]
unsafe fn some_with_header<K: Kind + Template>(frame: &[u8]) -> [u64; 2] {
    // SAFETY: the caller's promise.
    let (_, view) = unsafe { wiremsg::view_unchecked_with_header::<K>(frame) }.unwrap();
    K::some_view(view)
}

/// The fields of the message behind `frame`'s header, by `view_unchecked_with_header`.
///
/// # Safety
///
/// `frame` is a header and a valid message of the kind its template id names.
#[inline(always)]
unsafe fn header_checked_unchecked(frame: &[u8]) -> [u64; 2] {
    // SAFETY: the caller's promise, for the kind the template id names.
    unsafe { by_template_id!(frame, some_with_header(frame)) }
}

/// A bench cell: framing, read, the stream and the fold over it.
type Cell<'a> = (&'a str, &'a str, &'a [u8], &'a dyn Fn(&[u8]) -> u64);

fn framed_feed(c: &mut Criterion) {
    let feed = Feed::generate(Feed::LEN);
    let kind_bytes = {
        use wiremsg_benches::datasets::Codec;
        Codec::<Feed>::encode(
            &mut wiremsg_benches::formats::wiremsg::Wiremsg::default(),
            &feed,
        )
        .to_vec()
    };
    let mut headers = Vec::new();
    let mut frame = Vec::new();
    for msg in &feed.messages {
        frame.clear();
        let msg = match msg.clone() {
            FeedMsg::Add(m) => Framed::Add(m),
            FeedMsg::Executed(m) => Framed::Executed(m),
            FeedMsg::Cancel(m) => Framed::Cancel(m),
            FeedMsg::Delete(m) => Framed::Delete(m),
            FeedMsg::Trade(m) => Framed::Trade(m),
        };
        msg.encode_with_header(&mut frame).unwrap();
        headers.extend_from_slice(&u16::try_from(frame.len()).unwrap().to_le_bytes());
        headers.extend_from_slice(&frame);
    }
    let want = feed.checksum_some().unwrap();
    let kind_byte_unchecked = |stream: &[u8]| {
        fold_some(tagged_frames(stream), |tagged| {
            let body = &tagged[1..];
            // SAFETY: `kind_bytes` is what `Wiremsg::encode` framed: each kind byte,
            // then a valid message of its kind.
            unsafe {
                match tagged[0] {
                    b'A' => some_unchecked::<AddOrder>(body),
                    b'E' => some_unchecked::<OrderExecuted>(body),
                    b'X' => some_unchecked::<OrderCancel>(body),
                    b'D' => some_unchecked::<OrderDelete>(body),
                    _ => some_unchecked::<Trade>(body),
                }
            }
        })
    };
    let kind_byte_lazy = |stream: &[u8]| {
        fold_some(tagged_frames(stream), |tagged| {
            let frame = FeedFrame::view_lazy(tagged).unwrap();
            each_variant!(FeedFrameLazy, frame, K, v => K::some_lazy(v).unwrap())
        })
    };
    let header_unchecked = |stream: &[u8]| {
        // SAFETY: `headers` holds the feed's messages behind their headers.
        fold_some(frames(stream), |frame| unsafe { header_unchecked(frame) })
    };
    let header_checked_unchecked = |stream: &[u8]| {
        // SAFETY: as `header_unchecked`'s.
        fold_some(frames(stream), |frame| unsafe {
            header_checked_unchecked(frame)
        })
    };
    let header_dispatch_unchecked = |stream: &[u8]| {
        fold_some(frames(stream), |frame| {
            // SAFETY: as `header_unchecked`'s.
            let (_, view) = unsafe { Framed::view_unchecked(frame) }.unwrap();
            each_variant!(FramedView, view, K, v => K::some_view(v))
        })
    };
    let header_view = |stream: &[u8]| {
        fold_some(frames(stream), |frame| {
            let (_, view) = Framed::view(frame).unwrap();
            each_variant!(FramedView, view, K, v => K::some_view(v))
        })
    };
    let header_lazy = |stream: &[u8]| {
        fold_some(frames(stream), |frame| {
            let (_, lazy) = Framed::view_lazy(frame).unwrap();
            each_variant!(FramedLazy, lazy, K, v => K::some_lazy(v).unwrap())
        })
    };

    let mut g = c.benchmark_group("framed_feed");
    g.sample_size(20).sampling_mode(SamplingMode::Flat);
    let cells: [Cell<'_>; 7] = [
        ("kind_byte", "unchecked", &kind_bytes, &kind_byte_unchecked),
        ("kind_byte", "lazy", &kind_bytes, &kind_byte_lazy),
        ("header", "unchecked", &headers, &header_unchecked),
        (
            "header",
            "unchecked_with_header",
            &headers,
            &header_checked_unchecked,
        ),
        (
            "header",
            "dispatch_unchecked",
            &headers,
            &header_dispatch_unchecked,
        ),
        ("header", "view", &headers, &header_view),
        ("header", "lazy", &headers, &header_lazy),
    ];
    for (framing, read, stream, run) in cells {
        assert_eq!(run(stream), want, "{framing}/{read}");
        g.bench_function(BenchmarkId::new(framing, read), |b| {
            b.iter(|| run(black_box(stream)))
        });
    }
    g.finish();
}

criterion::criterion_group!(benches, framed_feed);
criterion::criterion_main!(benches);
