//! Memory (issue 4): wiremsg's encode (into a pre-reserved `Vec`, or
//! `encode_into` a slice) and view + reading every field allocate nothing,
//! for the tick (R6), the order (R2) and a log entry, counted by a global
//! allocator.
//!
//! The count is per thread (a const-initialised thread-local), so tests
//! running in parallel do not see each other's allocations.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;

use wiremsg::WireMsg;
use wiremsg_benches::checksum::Fold;
use wiremsg_benches::datasets::log::{LogBatch, LogEntry, LogEntryView};
use wiremsg_benches::datasets::{Codec, Dataset};
use wiremsg_benches::formats::wiremsg::Wiremsg;
use wiremsg_benches::model::{Order, Tick};
use wiremsg_benches::{Format, Message};

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts allocations (and reallocations) of the current thread, then
/// forwards to the system allocator.
struct Counting;

fn count() {
    // `try_with`: the slot may be gone while the thread is torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call forwards to `System` with the caller's arguments, so
// `System`'s guarantees are this allocator's.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded as received.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwarded as received.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: forwarded as received.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded as received.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f`; returns its result and the allocations it made on this thread.
fn allocations<R>(f: impl FnOnce() -> R) -> (R, u64) {
    let before = ALLOCATIONS.with(Cell::get);
    let result = black_box(f());
    (result, ALLOCATIONS.with(Cell::get) - before)
}

/// The counter counts: a `Vec` allocates once.
#[test]
fn the_counter_counts() {
    let (v, n) = allocations(|| vec![1u8; 100]);
    assert_eq!((v.len(), n), (100, 1));
}

/// Encode into a `Vec` with room, then into a slice, then view and read
/// through `read`; each allocates nothing. Returns the encoding.
fn check_encode_view<M: WireMsg>(msg: &M, read: impl Fn(&[u8]) -> u64, want: u64) -> Vec<u8> {
    let mut buf = Vec::with_capacity(msg.encoded_len());
    let (len, n) = allocations(|| msg.encode(&mut buf).unwrap());
    assert_eq!((len, n), (buf.len(), 0), "encode into a reserved Vec");

    let mut slice = vec![0u8; msg.encoded_len()];
    let (written, n) = allocations(|| msg.encode_into(&mut slice).unwrap());
    assert_eq!((written, n), (buf.len(), 0), "encode_into a slice");
    assert_eq!(slice, buf);

    let (sum, n) = allocations(|| read(&buf));
    assert_eq!((sum, n), (want, 0), "view + read every field");
    buf
}

#[test]
fn tick_encode_view_read_and_decode_allocate_nothing() {
    let tick = <Tick as Message>::sample();
    let bytes = check_encode_view(
        &tick,
        |b| Format::<Tick>::read(&Wiremsg::default(), b),
        Message::checksum(&tick),
    );
    // All fixed-size: decoding allocates nothing either.
    let (decoded, n) = allocations(|| Tick::decode(&bytes).unwrap());
    assert_eq!((decoded, n), (tick, 0));
    // In-place update through the mutable view.
    let mut bytes = bytes;
    let ((), n) = allocations(|| Tick::view_mut(&mut bytes).unwrap().set_bid_size(7));
    assert_eq!(n, 0);
}

#[test]
fn order_encode_view_and_read_allocate_nothing() {
    let order = <Order as Message>::sample();
    check_encode_view(
        &order,
        |b| Format::<Order>::read(&Wiremsg::default(), b),
        Message::checksum(&order),
    );
}

fn fold_entry(e: LogEntryView<'_>) -> u64 {
    let mut f = Fold::new();
    f.u64(u64::from(u32::from_le_bytes(e.address().to_array())));
    for s in [e.identity(), e.userid(), e.date(), e.request()] {
        f.str(s);
    }
    f.u64(u64::from(e.code()));
    f.u64(e.size());
    f.finish()
}

fn fold_owned(e: &LogEntry) -> u64 {
    let mut f = Fold::new();
    f.u64(u64::from(u32::from_le_bytes(e.address)));
    for s in [&e.identity, &e.userid, &e.date, &e.request] {
        f.str(s);
    }
    f.u64(u64::from(e.code));
    f.u64(e.size);
    f.finish()
}

#[test]
fn log_entry_encode_view_and_read_allocate_nothing() {
    let batch = LogBatch::generate(100);
    for entry in &batch.entries[..10] {
        check_encode_view(
            entry,
            |b| fold_entry(LogEntry::view(b).unwrap()),
            fold_owned(entry),
        );
    }
    // The whole batch too, through the benches' own read path.
    check_encode_view(
        &batch,
        |b| Codec::<LogBatch>::read(&Wiremsg::default(), b).unwrap(),
        batch.checksum(),
    );
}
