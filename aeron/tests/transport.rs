//! wiremsg over Aeron in one process (an embedded driver, publisher and subscriber on
//! the test's thread): every message received with equal values over IPC and UDP,
//! no allocation per message on the publish and receive paths, a message longer than
//! one frame, and messages that cannot be viewed.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::{Duration, Instant};
use wiremsg::{FixedStr, MessageHeader, Template, WireMsg};
use wiremsg_aeron::feed::{BookCheck, TopOfBook};
use wiremsg_aeron::process::free_udp_ports;
use wiremsg_aeron::{Error, Node, WirePublisher, WireSubscriber};
use wiremsg_examples::itch::{AddOrder, AddOrderView, Feed, FeedView, Side};
use wiremsg_examples::session::{Session, SessionConfig};

/// Counts the allocations of the current thread (tests run on several threads; the
/// Aeron client's and driver's own threads allocate in C, through `malloc`).
struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged;
// the counter is a const-initialised thread-local `Cell` without a destructor, so
// touching it never allocates or re-enters the allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: forwarded as is; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through `alloc` or `realloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
        // SAFETY: `ptr` came from `System`; the caller upholds `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

const STREAM: i32 = 77;
const TIMEOUT: Duration = Duration::from_secs(20);

/// A node with a publisher and a subscriber on `transport`'s channel, connected.
fn pair(transport: &str) -> (Node, WirePublisher, WireSubscriber) {
    let channel = match transport {
        "ipc" => "aeron:ipc?term-length=1048576".to_string(),
        _ => {
            let port = free_udp_ports(1).unwrap()[0];
            format!("aeron:udp?endpoint=127.0.0.1:{port}|term-length=1048576")
        }
    };
    let node = Node::embedded(&format!("test-{transport}")).unwrap();
    let subscriber = node.subscriber(&channel, STREAM).unwrap();
    let mut publisher = node.publisher(&channel, STREAM).unwrap();
    publisher.set_timeout(TIMEOUT);
    publisher.wait_connected().unwrap();
    let deadline = Instant::now() + TIMEOUT;
    while !subscriber.is_connected() {
        assert!(
            Instant::now() < deadline,
            "the subscription never saw the publication"
        );
        std::thread::yield_now();
    }
    (node, publisher, subscriber)
}

fn session(messages: u64) -> Vec<Feed> {
    Session::new(SessionConfig {
        messages,
        symbols: 20,
        seed: 3,
    })
    .collect()
}

/// Publishes `messages[range]` and polls until the subscriber has handed on as many;
/// each received message is viewed in place, decoded, and compared with the one sent.
fn exchange(
    publisher: &mut WirePublisher,
    subscriber: &mut WireSubscriber,
    messages: &[Feed],
    received: &mut usize,
) {
    const BATCH: usize = 64;
    for chunk in messages[*received..].chunks(BATCH) {
        for message in chunk {
            publisher
                .send_with(message.wire_len(), None, |out| {
                    message.encode_with_header_into(out)
                })
                .unwrap();
        }
        let target = *received + chunk.len();
        let deadline = Instant::now() + TIMEOUT;
        while *received < target {
            subscriber
                .poll(BATCH, |bytes, _frame| {
                    let (header, view) = Feed::view(bytes)?;
                    let expected = &messages[*received];
                    assert_eq!(view.sequence(), expected.sequence());
                    assert_eq!(header.template_id, expected_template(expected));
                    assert_eq!(Feed::decode(bytes)?, *expected);
                    *received += 1;
                    Ok(())
                })
                .unwrap();
            assert!(Instant::now() < deadline, "messages lost at {received}");
        }
    }
}

fn expected_template(message: &Feed) -> u16 {
    let mut bytes = [0u8; 64];
    message.encode_with_header_into(&mut bytes).unwrap();
    MessageHeader::read(&bytes).unwrap().template_id
}

fn every_message_equal(transport: &str) {
    let messages = session(5_000);
    let (_node, mut publisher, mut subscriber) = pair(transport);
    let mut received = 0;
    exchange(&mut publisher, &mut subscriber, &messages, &mut received);
    assert_eq!(received, 5_000);
    let sent = publisher.stats();
    assert_eq!(
        (sent.messages, sent.claimed, sent.offered),
        (5_000, 5_000, 0)
    );
    let bytes: usize = messages.iter().map(Feed::wire_len).sum();
    assert_eq!(sent.bytes, bytes as u64);
    assert_eq!(
        *subscriber.stats(),
        wiremsg_aeron::ReceiveStats {
            messages: 5_000,
            bytes: bytes as u64,
            bad: 0
        }
    );
}

#[test]
fn every_message_arrives_with_equal_values_over_ipc() {
    every_message_equal("ipc");
}

#[test]
fn every_message_arrives_with_equal_values_over_udp() {
    every_message_equal("udp");
}

/// After a warm-up (the first claims touch new pages of the term buffer and the
/// assembler's state), publishing into a claim and viewing in the fragment handler
/// allocate nothing.
fn no_allocation_per_message(transport: &str) {
    let messages = session(20_000);
    let (_node, mut publisher, mut subscriber) = pair(transport);
    let mut received = 0;
    exchange(
        &mut publisher,
        &mut subscriber,
        &messages[..1_000],
        &mut received,
    );
    let before = allocations();
    exchange(&mut publisher, &mut subscriber, &messages, &mut received);
    let during = allocations() - before;
    assert_eq!(received, 20_000);
    assert_eq!(
        during, 0,
        "{during} allocations for 19,000 messages over {transport}"
    );
}

#[test]
fn no_allocation_per_message_over_ipc() {
    no_allocation_per_message("ipc");
}

#[test]
fn no_allocation_per_message_over_udp() {
    no_allocation_per_message("udp");
}

fn book_check(instruments: u16) -> BookCheck {
    BookCheck {
        last_sequence: 123_456,
        resting_orders: 4_321,
        digest: 0x0123_4567_89ab_cdef,
        books: (0..instruments)
            .map(|locate| TopOfBook {
                locate,
                symbol: FixedStr::new(&format!("S{locate}")).unwrap(),
                bid_price: 1_000_000 + i64::from(locate),
                bid_shares: 100,
                ask_price: 1_000_100 + i64::from(locate),
                ask_shares: 200,
                last_price: 1_000_050,
                volume: u64::from(locate) * 1_000,
                orders: 7,
            })
            .collect(),
    }
}

/// A message longer than one frame is offered (not claimed), travels as fragments,
/// and is handed on whole; the messages around it are claimed as usual.
fn longer_than_a_frame(transport: &str) {
    let (_node, mut publisher, mut subscriber) = pair(transport);
    let check = book_check(1_000);
    let len = check.encoded_len_with_header();
    // The block: its own u16 block length (a message with a tail), three u64s, the
    // tail's u32 end offset; then the list: a u16 stride and 1,000 66-byte elements.
    assert_eq!(
        (BookCheck::BLOCK_LENGTH, TopOfBook::BLOCK_LENGTH),
        (2 + 24 + 4, 66)
    );
    assert_eq!(len, MessageHeader::LEN + 30 + 2 + 1_000 * 66);
    assert!(
        len > 40 * publisher.max_claim(),
        "{len} bytes vs a {}-byte claim",
        publisher.max_claim()
    );
    let small = book_check(3);
    publisher.send(&small).unwrap();
    publisher.send(&check).unwrap();
    publisher.send(&small).unwrap();
    assert_eq!(
        (publisher.stats().claimed, publisher.stats().offered),
        (2, 1)
    );

    let mut got: Vec<(usize, BookCheck)> = Vec::new();
    let deadline = Instant::now() + TIMEOUT;
    while got.len() < 3 {
        subscriber
            .poll(256, |bytes, _frame| {
                let (_, view) = BookCheck::view_with_header(bytes)?;
                assert_eq!(view.books().len(), if got.len() == 1 { 1_000 } else { 3 });
                got.push((bytes.len(), view.decode()));
                Ok(())
            })
            .unwrap();
        assert!(Instant::now() < deadline, "received {} of 3", got.len());
    }
    assert_eq!(got[0], (small.encoded_len_with_header(), small.clone()));
    assert_eq!(got[1], (len, check));
    assert_eq!(got[2], (small.encoded_len_with_header(), small));
    assert_eq!(subscriber.stats().bad, 0);
}

#[test]
fn a_message_longer_than_a_frame_is_reassembled_over_ipc() {
    longer_than_a_frame("ipc");
}

#[test]
fn a_message_longer_than_a_frame_is_reassembled_over_udp() {
    longer_than_a_frame("udp");
}

#[test]
fn a_message_longer_than_the_publication_takes_is_an_error() {
    let node = Node::embedded("test-too-long").unwrap();
    let _subscriber = node
        .subscriber("aeron:ipc?term-length=65536", STREAM)
        .unwrap();
    let mut publisher = node
        .publisher("aeron:ipc?term-length=65536", STREAM)
        .unwrap();
    assert_eq!(publisher.max_message(), 8_192); // an eighth of the term
    let err = publisher.send(&book_check(200)).unwrap_err();
    assert!(matches!(err, Error::Offer(_)), "{err:?}");
    assert_eq!(
        err.to_string(),
        "publication refused the message: 13240 bytes is longer than the publication's 8192-byte maximum message"
    );
    assert_eq!(publisher.stats().messages, 0);
}

fn add_order() -> AddOrder {
    AddOrder {
        sequence: 9,
        timestamp_ns: 34_200_000_000_000,
        locate: 4,
        order_ref: 77,
        side: Side::Sell,
        shares: 300,
        symbol: FixedStr::new("MSFT").unwrap(),
        price: 4_123_400,
    }
}

/// Bytes that are not a feed message reach the handler, which refuses each with
/// wiremsg's error; each is counted, and the messages after them still arrive.
fn undecodable(transport: &str) {
    let (_node, publisher, mut subscriber) = pair(transport);
    let mut good = Vec::new();
    add_order().encode_with_header(&mut good).unwrap();
    let mut unknown_template = good.clone();
    unknown_template[2] = 99; // template id 99: not in the feed
    let mut bad_side = good.clone();
    bad_side[8 + AddOrderView::SIDE_OFFSET] = b'X'; // neither 'B' nor 'S'
    let cut_short = &good[..20];
    let long_garbage = vec![0xFF; 5_000]; // fragments, reassembled, then refused
    let sent: [&[u8]; 6] = [
        &[1, 2, 3],
        &unknown_template,
        &bad_side,
        cut_short,
        &long_garbage,
        &good,
    ];
    for bytes in sent {
        publisher.publication().offer(bytes).unwrap();
    }
    let mut errors = Vec::new();
    let mut views = Vec::new();
    let deadline = Instant::now() + TIMEOUT;
    while subscriber.stats().messages < 6 {
        subscriber
            .poll(256, |bytes, _frame| match Feed::view(bytes) {
                Ok((_, FeedView::Add(add))) => {
                    views.push(add.decode());
                    Ok(())
                }
                Ok((_, other)) => panic!("unexpected {other:?}"),
                Err(e) => {
                    errors.push(e.to_string());
                    Err(e)
                }
            })
            .unwrap();
        assert!(
            Instant::now() < deadline,
            "received {:?}",
            subscriber.stats()
        );
    }
    assert_eq!(views, [add_order()]);
    assert_eq!(subscriber.stats().bad, 5);
    assert_eq!(
        errors,
        [
            "truncated: needs 8 bytes, has 3 at byte 0",
            "unknown template id 99 (schema 1) at byte 2",
            "unknown value 88 for enum Side at byte 34 in `side`", // 8 + the field's offset 26
            "truncated: needs 55 bytes, has 20 at byte 0",
            "unknown template id 65535 (schema 65535) at byte 2",
        ]
    );
    assert_eq!(
        subscriber.first_bad().map(ToString::to_string).as_deref(),
        Some(errors[0].as_str())
    );
}

#[test]
fn undecodable_messages_are_counted_over_ipc() {
    undecodable("ipc");
}

#[test]
fn undecodable_messages_are_counted_over_udp() {
    undecodable("udp");
}
