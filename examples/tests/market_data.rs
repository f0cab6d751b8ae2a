//! The `market_data` example: books from views equal books from decoded messages and
//! the exchange's own books; gaps are detected; the handler does not allocate per
//! message; and a short run over UDP.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::time::Instant;
use wiremsg::{MessageHeader, Template, WireMsg};
use wiremsg_examples::book::{Books, Level};
use wiremsg_examples::itch::{
    AddOrder, Feed, MAX_DATAGRAM, OrderExecuted, PACKET_LEN, Packet, SCHEMA_ID, Side, SystemEvent,
    Trade,
};
use wiremsg_examples::market_data::{Config, Handler, Publisher, reference_books, run};
use wiremsg_examples::session::{Session, SessionConfig};

/// Counts the allocations of the current thread (tests run on several threads).
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

fn small() -> SessionConfig {
    SessionConfig {
        messages: 200_000,
        symbols: 40,
        seed: 7,
    }
}

/// Every datagram of a session, packed as the publisher sends them.
/// The publisher comes back too: its session holds the exchange's books.
fn datagrams(config: SessionConfig) -> (Vec<Vec<u8>>, Publisher) {
    let mut publisher = Publisher::new(Session::new(config), 24);
    let mut out = Vec::new();
    while publisher.next_datagram() > 0 {
        publisher.stamp(0);
        out.push(publisher.datagram().to_vec());
    }
    (out, publisher)
}

#[test]
fn the_session_is_deterministic_and_consistent() {
    let a: Vec<Feed> = Session::new(small()).collect();
    let b: Vec<Feed> = Session::new(small()).collect();
    assert_eq!(a, b);
    assert_eq!(a.len(), 200_000);
    for (i, m) in a.iter().enumerate() {
        assert_eq!(m.sequence(), i as u64 + 1);
    }
    assert!(matches!(a[0], Feed::System(_)));
    assert!(matches!(a.last(), Some(Feed::System(_))));
    let count = |f: fn(&Feed) -> bool| a.iter().filter(|m| f(m)).count() as f64 / a.len() as f64;
    let adds = count(|m| matches!(m, Feed::Add(_)));
    let deletes = count(|m| matches!(m, Feed::Delete(_)));
    let executions = count(|m| matches!(m, Feed::Executed(_)));
    assert!((0.40..0.55).contains(&adds), "adds {adds}");
    assert!((0.35..0.50).contains(&deletes), "deletes {deletes}");
    assert!(
        (0.03..0.10).contains(&executions),
        "executions {executions}"
    );
    // Tiny sessions: nothing below the 6 system events, only them at 6.
    let tiny = |messages| {
        Session::new(SessionConfig {
            messages,
            ..small()
        })
        .collect::<Vec<_>>()
    };
    assert!(tiny(2).is_empty());
    assert_eq!(tiny(6).len(), 6);
    assert!(tiny(6).iter().all(|m| matches!(m, Feed::System(_))));
    assert_eq!(tiny(7).len(), 7);
    // A different seed, a different session.
    let c: Vec<Feed> = Session::new(SessionConfig { seed: 8, ..small() })
        .take(1_000)
        .collect();
    assert_ne!(a[..1_000], c[..]);
}

#[test]
fn books_from_views_equal_books_from_decoded_messages_and_the_exchange() {
    let config = small();
    let (datagrams, publisher) = datagrams(config);
    let session = publisher.session();
    let mut handler = Handler::new(config.symbols, Instant::now());
    for d in &datagrams {
        assert!(d.len() <= MAX_DATAGRAM);
        handler.on_datagram(d);
    }
    assert!(handler.finished());
    let stats = handler.stats();
    assert_eq!(stats.messages, config.messages);
    assert_eq!((stats.gaps, stats.stale, stats.malformed), (0, 0, 0));
    assert_eq!(handler.books().unknown_refs, 0);
    assert_eq!(handler.books().duplicate_refs, 0);

    // The second pass, over owned, decoded messages.
    let reference = reference_books(config);
    assert_eq!(handler.books(), &reference);

    // And what the exchange itself holds, level by level.
    let books = handler.books();
    assert_eq!(books.resting_orders(), session.resting_orders());
    assert!(books.resting_orders() > 500);
    for locate in 0..config.symbols as u16 {
        let book = books.book(locate).expect("every symbol traded");
        assert_eq!(Some(book.symbol.as_str()), session.symbol(locate));
        let bids: Vec<Level> = book.bids().copied().collect();
        let asks: Vec<Level> = book.asks().copied().collect();
        assert_eq!(bids, session.levels(locate, Side::Buy), "bids of {locate}");
        assert_eq!(asks, session.levels(locate, Side::Sell), "asks of {locate}");
        if let (Some(bid), Some(ask)) = (book.best_bid(), book.best_ask()) {
            assert!(bid.price < ask.price, "crossed book for {locate}");
        }
    }
}

#[test]
fn a_lost_datagram_is_a_gap_of_exactly_its_messages() {
    let config = SessionConfig {
        messages: 20_000,
        ..small()
    };
    let (datagrams, _) = datagrams(config);
    let lost = &datagrams[10];
    let (_, packet) = Packet::view_with_header(lost).unwrap();
    let mut handler = Handler::new(config.symbols, Instant::now());
    for (i, d) in datagrams.iter().enumerate() {
        if i != 10 {
            handler.on_datagram(d);
        }
    }
    // A duplicate of an earlier datagram is skipped, message by message.
    handler.on_datagram(&datagrams[3]);
    let stats = handler.stats();
    assert_eq!(stats.gaps, 1);
    assert_eq!(stats.missed, u64::from(packet.count()));
    assert_eq!(
        stats.stale,
        u64::from(Packet::view_with_header(&datagrams[3]).unwrap().1.count())
    );
    assert_eq!(stats.messages, config.messages - u64::from(packet.count()));
    assert!(handler.finished());

    // A datagram cut short is counted, not a panic.
    let mut handler = Handler::new(config.symbols, Instant::now());
    let cut = &datagrams[0][..datagrams[0].len() - 3];
    handler.on_datagram(cut);
    assert_eq!(handler.stats().malformed, 1);
    handler.on_datagram(&datagrams[0][..5]);
    assert_eq!(handler.stats().malformed, 2);
}

#[test]
fn a_datagram_is_a_packet_then_messages_each_after_its_header() {
    let (datagrams, _) = datagrams(SessionConfig {
        messages: 100,
        ..small()
    });
    let d = &datagrams[0];
    let (header, packet) = Packet::view_with_header(d).unwrap();
    assert_eq!((header.template_id, header.schema_id), (100, SCHEMA_ID));
    assert_eq!((packet.first_sequence(), packet.count()), (1, 24));
    assert_eq!(PACKET_LEN, 8 + 22);
    let (first, _) = Feed::view(&d[PACKET_LEN..]).unwrap();
    assert_eq!(first.template_id, SystemEvent::TEMPLATE_ID);
    // Fixed sizes, in the header's block length.
    assert_eq!(AddOrder::BLOCK_LENGTH, 47);
    assert_eq!(OrderExecuted::BLOCK_LENGTH, 38);
    assert_eq!(Trade::BLOCK_LENGTH, 55);
    let mut at = PACKET_LEN;
    let mut n = 0;
    while at < d.len() {
        let header = MessageHeader::read(&d[at..]).unwrap();
        assert_eq!(header.schema_id, SCHEMA_ID);
        at += MessageHeader::LEN + usize::from(header.block_length);
        n += 1;
    }
    assert_eq!((at, n), (d.len(), 24));
}

#[test]
fn the_handler_does_not_allocate_per_message() {
    let config = SessionConfig {
        messages: 400_000,
        ..small()
    };
    let (datagrams, _) = datagrams(config);
    let mut handler = Handler::new(config.symbols, Instant::now());
    let (warm, measured) = datagrams.split_at(datagrams.len() / 2);
    for d in warm {
        handler.on_datagram(d);
    }
    let before = allocations();
    for d in measured {
        handler.on_datagram(d);
    }
    let during = allocations() - before;
    let messages = handler.stats().messages;
    assert_eq!(messages, config.messages);
    // Orders and levels live in storage sized up front: after warm-up, nothing.
    assert_eq!(during, 0, "allocations for {} messages", messages / 2);
}

#[test]
fn books_track_levels_and_top_of_book() {
    let mut books = Books::with_capacity(1, 16);
    books.add(0, 1, Side::Buy, 100_0000, 100, "AAPL");
    books.add(0, 2, Side::Buy, 100_0000, 50, "AAPL");
    books.add(0, 3, Side::Buy, 99_9900, 10, "AAPL");
    books.add(0, 4, Side::Sell, 100_0100, 30, "AAPL");
    books.add(0, 5, Side::Sell, 100_0200, 40, "AAPL");
    let book = books.by_symbol("AAPL").unwrap();
    assert_eq!(
        book.best_bid(),
        Some(Level {
            price: 100_0000,
            shares: 150,
            orders: 2
        })
    );
    assert_eq!(book.best_ask().unwrap().price, 100_0100);
    books.execute(4, 30);
    books.cancel(1, 60);
    books.delete(2);
    let book = books.book(0).unwrap();
    assert_eq!(
        book.best_bid(),
        Some(Level {
            price: 100_0000,
            shares: 40,
            orders: 1
        })
    );
    assert_eq!(book.best_ask().unwrap().price, 100_0200);
    assert_eq!((book.last_price, book.volume), (100_0100, 30));
    assert_eq!(books.resting_orders(), 3);
    books.delete(99);
    assert_eq!(books.unknown_refs, 1);
}

#[test]
fn publisher_and_handler_over_udp() {
    let config = Config {
        session: SessionConfig {
            messages: 50_000,
            symbols: 30,
            seed: 3,
        },
        rate: 0,
        ..Config::default()
    };
    let mut report = run(config).unwrap();
    assert_eq!(report.sent.messages, 50_000);
    assert_eq!(
        report.stats.messages, 50_000,
        "the window keeps the run lossless"
    );
    assert_eq!(report.stats.gaps, 0);
    assert!(report.verify());
    assert_eq!(report.handling.count, 50_000);
    assert!(report.handling.p50 <= report.handling.p99);
    assert!(report.handling.p99 <= report.handling.max);
    let text = report.to_string();
    assert!(text.contains("received   50,000 messages"), "{text}");
    assert!(text.contains("identical"), "{text}");
}
