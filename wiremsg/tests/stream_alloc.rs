//! Self-describing streams (FORMAT.md §12) cost no allocation per message: after the
//! first message of each type (its schema built, encoded and written once), writing
//! with `FrameWriter::with_schema_frames` or `WireCodec::with_schema_frames` and
//! reading with a checking `FrameReader` allocate nothing, counted by a global
//! allocator (per thread, as in `benches/tests/alloc.rs`).

use bytes::BytesMut;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use tokio_util::codec::Encoder;
use wiremsg::frame::WireCodec;
use wiremsg::{FrameReader, FrameWriter, SchemaSet, WireDispatch, WireMsg};

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts allocations (and reallocations) of the current thread, then forwards to the
/// system allocator.
struct Counting;

fn count() {
    // `try_with`: the slot may be gone while the thread is torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call forwards to `System` with the caller's arguments, so `System`'s
// guarantees are this allocator's.
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

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1)]
struct Tick {
    sequence: u64,
    price: i64,
    size: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2)]
struct Note {
    sequence: u64,
    text: String,
}

#[derive(WireDispatch, Debug, PartialEq)]
enum Feed {
    Tick(Tick),
    Note(Note),
}

const MESSAGES: u64 = 1_000;

#[test]
fn the_counter_counts() {
    let (v, n) = allocations(|| vec![1u8; 100]);
    assert_eq!((v.len(), n), (100, 1));
}

#[test]
fn a_describing_writer_allocates_only_for_each_type_s_first_message() {
    let mut writer = FrameWriter::new(Vec::with_capacity(1 << 20)).with_schema_frames();
    let tick = |sequence| Tick {
        sequence,
        price: 2_345_600,
        size: 300,
    };
    let mut note = Note {
        sequence: 0,
        text: "halt".into(),
    };
    let mut event = Feed::Tick(tick(0));
    let note_event = Feed::Note(note.clone());
    // The first of each type: its schema set is built and encoded.
    let (_, first) = allocations(|| {
        writer.write(&tick(0)).unwrap();
        writer.write(&note).unwrap();
    });
    assert!(first > 0);
    let (_, after) = allocations(|| {
        for i in 1..MESSAGES {
            note.sequence = i;
            event = Feed::Tick(tick(i));
            writer.write(&tick(i)).unwrap();
            writer.write(&note).unwrap();
            writer.write(&event).unwrap();
            writer.write(&note_event).unwrap();
        }
    });
    assert_eq!(after, 0);

    // The codec, into a buffer with room.
    let mut codec = WireCodec::new().with_schema_frames();
    let mut wire = BytesMut::with_capacity(1 << 20);
    codec.encode(&tick(0), &mut wire).unwrap();
    let (_, after) = allocations(|| {
        for i in 1..MESSAGES {
            codec.encode(&tick(i), &mut wire).unwrap();
        }
    });
    assert_eq!(after, 0);

    // A checking reader: one allocation per schema frame (it is decoded), none per
    // message once its buffer has grown.
    let stream = writer.into_inner();
    let mut reader = FrameReader::new(&stream[..]).check_schema_frames(Feed::schema_set().unwrap());
    reader.next_frame().unwrap().unwrap(); // the Tick schema frame, then a tick
    reader.next_frame().unwrap().unwrap(); // the Note schema frame, then a note
    let (read, after) = allocations(|| {
        let mut read = 0;
        while let Some(frame) = reader.next_frame().unwrap() {
            match Feed::view(frame).unwrap().1 {
                FeedView::Tick(t) => read += t.sequence(),
                FeedView::Note(n) => read += n.sequence(),
            }
        }
        read
    });
    assert_eq!(after, 0);
    assert_eq!(read, 3 * (1..MESSAGES).sum::<u64>()); // note_event's sequence is 0
    assert_eq!(
        SchemaSet::of::<Tick>()
            .unwrap()
            .describe(0, 1)
            .unwrap()
            .name,
        "Tick"
    );
}
