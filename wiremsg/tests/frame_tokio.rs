//! Frames over a real TCP connection on 127.0.0.1 with `tokio_util::codec` and
//! [`WireCodec`] (FORMAT.md §10): mixed message types both ways, every value checked,
//! and hostile peers (a length over the maximum, a stream cut inside a frame).
//!
//! Needs the `tokio-util` feature, which the crate's dev-dependency on itself turns
//! on for every test build, so `cargo test --workspace` runs this file.
#![cfg(feature = "tokio-util")]

use bytes::BytesMut;
use futures_util::{SinkExt, StreamExt};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::{Decoder, Encoder, Framed, FramedRead, FramedWrite};
use wiremsg::frame::{WireCodec, encode_with};
use wiremsg::{ErrorKind, FixedStr, Template, WireDispatch, WireEnum, WireMsg};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1, schema_id = 3)]
struct Trade {
    sequence: u64,
    symbol: FixedStr<8>,
    price: i64,
    size: u32,
    side: Side,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Level {
    price: i64,
    size: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2, schema_id = 3)]
struct Book {
    id: u32,
    venue: String,
    levels: Vec<Level>,
    tags: Vec<String>,
    note: Option<String>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 3, schema_id = 3)]
struct Heartbeat {
    sequence: u64,
}

/// The server's answer to each message.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 9, schema_id = 3)]
struct Ack {
    count: u32,
    what: String,
}

#[derive(WireDispatch, Debug, Clone, PartialEq)]
enum Feed {
    Trade(Trade),
    Book(Book),
    Heartbeat(Heartbeat),
}

fn feed() -> Vec<Feed> {
    let mut messages = Vec::new();
    for i in 0..50u32 {
        messages.push(match i % 3 {
            0 => Feed::Trade(Trade {
                sequence: u64::from(i),
                symbol: FixedStr::new(if i % 2 == 0 { "AAPL" } else { "MSFT" }).unwrap(),
                price: 2_345_600 - i64::from(i),
                size: 100 * i,
                side: if i % 2 == 0 { Side::Buy } else { Side::Sell },
            }),
            1 => Feed::Book(Book {
                id: i,
                venue: "é".repeat(i as usize),
                levels: (0..i % 5)
                    .map(|l| Level {
                        price: i64::from(l) * -3,
                        size: l,
                    })
                    .collect(),
                tags: (0..i % 4).map(|t| format!("tag{t}")).collect(),
                note: (i % 2 == 0).then(|| format!("note {i}")),
            }),
            _ => Feed::Heartbeat(Heartbeat {
                sequence: u64::from(i) << 40,
            }),
        });
    }
    // One large enough to span several TCP reads.
    messages.push(Feed::Book(Book {
        id: 1000,
        venue: "v".repeat(300_000),
        levels: vec![],
        tags: vec!["x".repeat(70_000); 3],
        note: None,
    }));
    messages
}

/// Checks a frame against the message it should hold, through the view (every field)
/// and through decoding.
fn check(frame: &[u8], want: &Feed) {
    let (header, view) = Feed::view(frame).unwrap();
    assert_eq!(header, want.header());
    match (view, want) {
        (FeedView::Trade(v), Feed::Trade(t)) => {
            assert_eq!(
                (v.sequence(), v.symbol(), v.price(), v.size(), v.side()),
                (t.sequence, t.symbol.as_str(), t.price, t.size, t.side)
            );
        }
        (FeedView::Book(v), Feed::Book(b)) => {
            assert_eq!((v.id(), v.venue()), (b.id, b.venue.as_str()));
            let levels: Vec<_> = v.levels().iter().map(|l| (l.price(), l.size())).collect();
            let want: Vec<_> = b.levels.iter().map(|l| (l.price, l.size)).collect();
            assert_eq!(levels, want);
            assert_eq!(v.tags().iter().collect::<Vec<_>>(), b.tags);
            assert_eq!(v.note(), b.note.as_deref());
        }
        (FeedView::Heartbeat(v), Feed::Heartbeat(h)) => assert_eq!(v.sequence(), h.sequence),
        (v, m) => panic!("{v:?} for {m:?}"),
    }
    assert_eq!(&Feed::decode(frame).unwrap(), want);
}

async fn listen() -> (TcpListener, std::net::SocketAddr) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    (listener, addr)
}

#[tokio::test]
async fn mixed_messages_round_trip_over_tcp() {
    let (listener, addr) = listen().await;
    let messages = feed();

    // The server reads every frame, checks it, and answers each with an Ack.
    let expected = messages.clone();
    let server = tokio::spawn(async move {
        let (socket, _) = listener.accept().await.unwrap();
        let mut framed = Framed::new(socket, WireCodec::new());
        let mut count = 0u32;
        while let Some(frame) = framed.next().await {
            let frame: BytesMut = frame.unwrap();
            check(&frame, &expected[count as usize]);
            count += 1;
            let what = match Feed::view(&frame).unwrap().1 {
                FeedView::Trade(t) => format!("trade {}", t.sequence()),
                FeedView::Book(b) => format!("book {}", b.id()),
                FeedView::Heartbeat(_) => "heartbeat".to_owned(),
            };
            framed.send(&Ack { count, what }).await.unwrap();
        }
        count
    });

    let socket = TcpStream::connect(addr).await.unwrap();
    let (read_half, write_half) = socket.into_split();
    let mut sink = FramedWrite::new(write_half, WireCodec::new());
    let mut acks = FramedRead::new(read_half, WireCodec::new());
    let reader = tokio::spawn(async move {
        let mut got = Vec::new();
        while let Some(frame) = acks.next().await {
            got.push(Ack::decode(&frame.unwrap()[8..]).unwrap());
        }
        got
    });
    for (i, m) in messages.iter().enumerate() {
        // Template types as `&T`, the dispatch enum as `&Feed` (encoded in place), and
        // bytes a closure appends, in turn.
        match i % 3 {
            0 => match m {
                Feed::Trade(t) => sink.send(t).await,
                Feed::Book(b) => sink.send(b).await,
                Feed::Heartbeat(h) => sink.send(h).await,
            },
            1 => sink.send(m).await,
            _ => {
                sink.send(encode_with(|out| m.encode_with_header(out)))
                    .await
            }
        }
        .unwrap();
    }
    // `send` flushed every frame; shutting the write half down ends the server's stream.
    // (`sink.close()` would need the item type named: the codec encodes several.)
    sink.into_inner().shutdown().await.unwrap();

    assert_eq!(server.await.unwrap() as usize, messages.len());
    let acks = reader.await.unwrap();
    assert_eq!(acks.len(), messages.len());
    for (i, (ack, m)) in acks.iter().zip(&messages).enumerate() {
        assert_eq!(ack.count as usize, i + 1);
        let what = match m {
            Feed::Trade(t) => format!("trade {}", t.sequence),
            Feed::Book(b) => format!("book {}", b.id),
            Feed::Heartbeat(_) => "heartbeat".to_owned(),
        };
        assert_eq!(ack.what, what);
    }
}

/// What a server's `FramedRead` yields for the bytes a raw client sends.
async fn server_reads(bytes: Vec<u8>, max: usize) -> Vec<Result<BytesMut, wiremsg::Error>> {
    let (listener, addr) = listen().await;
    let client = tokio::spawn(async move {
        let mut socket = TcpStream::connect(addr).await.unwrap();
        socket.write_all(&bytes).await.unwrap();
        socket.shutdown().await.unwrap();
    });
    let (socket, _) = listener.accept().await.unwrap();
    let mut frames = FramedRead::new(socket, WireCodec::with_max_frame_size(max));
    let mut out = Vec::new();
    while let Some(item) = frames.next().await {
        out.push(item);
    }
    client.await.unwrap();
    out
}

fn frame_of<T: Template>(msg: &T) -> Vec<u8> {
    let mut bytes = BytesMut::new();
    WireCodec::new().encode(msg, &mut bytes).unwrap();
    bytes.to_vec()
}

#[tokio::test]
async fn a_length_over_the_maximum_ends_the_stream_with_an_error() {
    let good = frame_of(&Heartbeat { sequence: 1 });
    for bad_len in [4097u32, u32::MAX] {
        let mut bytes = good.clone();
        bytes.extend(bad_len.to_le_bytes());
        bytes.extend([0u8; 32]);
        let items = server_reads(bytes, 4096).await;
        assert_eq!(items.len(), 2);
        check(
            items[0].as_ref().unwrap(),
            &Feed::Heartbeat(Heartbeat { sequence: 1 }),
        );
        let err = items[1].as_ref().unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::FrameTooLarge {
                len: bad_len as usize,
                max: 4096
            }
        );
        assert_eq!(err.offset(), good.len());
    }
    // A length under a header.
    let items = server_reads(vec![3, 0, 0, 0, 1, 2, 3], 4096).await;
    assert_eq!(
        items[0].as_ref().unwrap_err().kind(),
        &ErrorKind::FrameTooShort { len: 3, min: 8 }
    );
}

#[tokio::test]
async fn a_stream_cut_inside_a_frame_is_unexpected_eof() {
    let good = frame_of(&Heartbeat { sequence: 1 });
    let book = frame_of(&Book {
        id: 1,
        venue: "XNAS".into(),
        levels: vec![],
        tags: vec!["a".into()],
        note: None,
    });
    for cut in [1, 3, 4, 11, book.len() - 1] {
        let mut bytes = good.clone();
        bytes.extend(&book[..cut]);
        let items = server_reads(bytes, 4096).await;
        assert_eq!(items.len(), 2, "cut {cut}");
        assert!(items[0].is_ok());
        let err = items[1].as_ref().unwrap_err();
        let needed = if cut < 4 { 4 } else { book.len() };
        assert_eq!(
            err.kind(),
            &ErrorKind::UnexpectedEof {
                needed,
                available: cut
            },
            "cut {cut}"
        );
        assert_eq!(err.offset(), good.len());
    }
}

#[test]
fn the_decoder_waits_for_whole_frames_and_the_encoder_refuses_large_ones() {
    let messages = feed();
    let mut codec = WireCodec::new();
    let mut wire = BytesMut::new();
    for m in &messages[..10] {
        codec
            .encode(encode_with(|out| m.encode_with_header(out)), &mut wire)
            .unwrap();
    }
    // Byte by byte: nothing until a frame is whole, then exactly that frame.
    let mut src = BytesMut::new();
    let mut got = 0;
    for byte in wire.iter() {
        src.extend_from_slice(&[*byte]);
        if let Some(frame) = codec.decode(&mut src).unwrap() {
            check(&frame, &messages[got]);
            got += 1;
            assert!(src.is_empty());
        }
    }
    assert_eq!(got, 10);
    assert!(codec.decode_eof(&mut src).unwrap().is_none());

    // Over the maximum: an error and nothing written, for both kinds of item.
    let mut small = WireCodec::with_max_frame_size(20);
    let mut dst = BytesMut::from(&b"kept"[..]);
    let big = Book {
        id: 1,
        venue: "too long for twenty".into(),
        levels: vec![],
        tags: vec![],
        note: None,
    };
    let err = small.encode(&big, &mut dst).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLarge { max: 20, .. }
    ));
    let feed_big = Feed::Book(big);
    let err = small
        .encode(
            encode_with(|out| feed_big.encode_with_header(out)),
            &mut dst,
        )
        .unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::FrameTooLarge { max: 20, .. }
    ));
    assert_eq!(&dst[..], b"kept");
    small.encode(&Heartbeat { sequence: 2 }, &mut dst).unwrap();
    assert_eq!(dst.len(), 4 + 20);
    assert_eq!(small.max_frame_size(), 20);
}
