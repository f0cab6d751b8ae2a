//! Length-prefixed framing over `std::io` (FORMAT.md §10): round trips of mixed
//! message types, the golden frame F1, and hostile streams (truncation at every byte,
//! lengths over the maximum and under a header, garbage, bad headers, failing
//! readers), none of which may panic or allocate more than the maximum frame size.

#[path = "common/golden.rs"]
mod format_golden;
use format_golden::golden;
use std::io::{self, Cursor, Read, Write};
use wiremsg::frame::{DEFAULT_MAX_FRAME_SIZE, LENGTH_PREFIX_LEN, MIN_FRAME_LEN};
use wiremsg::{
    Error, ErrorKind, FixedStr, FrameReader, FrameWriter, MessageHeader, Template, WireDispatch,
    WireEnum, WireMsg,
};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

/// Fixed-size: the header's block length is its only block length.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1, schema_id = 7)]
struct Trade {
    sequence: u64,
    symbol: FixedStr<8>,
    price: i64,
    size: u32,
    side: Side,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2, schema_id = 7)]
struct Heartbeat {
    sequence: u64,
}

/// FORMAT.md F1.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 3, schema_id = 7)]
struct Text {
    body: String,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Level {
    price: i64,
    size: u32,
}

/// Strings, lists of every shape, an option.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 4, schema_id = 7)]
struct Book {
    id: u32,
    venue: String,
    levels: Vec<Level>,
    tags: Vec<String>,
    prices: Vec<i64>,
    note: Option<String>,
}

#[derive(WireDispatch, Debug, Clone, PartialEq)]
enum Feed {
    Trade(Trade),
    Heartbeat(Heartbeat),
    Text(Text),
    Book(Book),
}

fn trade(sequence: u64) -> Trade {
    Trade {
        sequence,
        symbol: FixedStr::new("AAPL").unwrap(),
        price: 2_345_600 + sequence as i64,
        size: 300,
        side: if sequence % 2 == 0 {
            Side::Buy
        } else {
            Side::Sell
        },
    }
}

fn book(id: u32) -> Book {
    Book {
        id,
        venue: "XNAS".into(),
        levels: vec![
            Level {
                price: -1,
                size: 10,
            },
            Level { price: 5, size: 20 },
        ],
        tags: vec!["ab".into(), "é".into(), String::new()],
        prices: vec![i64::MIN, 0, i64::MAX],
        note: Some(format!("book {id}")),
    }
}

/// A mix of every message type, as the dispatch enum.
fn feed() -> Vec<Feed> {
    vec![
        Feed::Trade(trade(1)),
        Feed::Book(book(7)),
        Feed::Heartbeat(Heartbeat { sequence: 2 }),
        Feed::Text(Text {
            body: "halt".into(),
        }),
        Feed::Trade(trade(2)),
        Feed::Text(Text {
            body: String::new(),
        }),
        Feed::Book(Book {
            id: 8,
            venue: String::new(),
            levels: vec![],
            tags: vec![],
            prices: vec![],
            note: None,
        }),
    ]
}

/// Writes every message: the single types through `write`, alternately, and the rest
/// through `write_with` and the dispatch enum.
fn write_feed(messages: &[Feed]) -> Vec<u8> {
    let mut writer = FrameWriter::new(Vec::new());
    for (i, m) in messages.iter().enumerate() {
        // A message, the dispatch enum itself, and bytes a closure appends, in turn.
        let written = match i % 3 {
            0 => match m {
                Feed::Trade(t) => writer.write(t),
                Feed::Heartbeat(h) => writer.write(h),
                Feed::Text(t) => writer.write(t),
                Feed::Book(b) => writer.write(b),
            },
            1 => writer.write(m),
            _ => writer.write_with(|out| m.encode_with_header(out)),
        }
        .unwrap();
        let mut expected = Vec::new();
        m.encode_with_header(&mut expected).unwrap();
        assert_eq!(written, LENGTH_PREFIX_LEN + expected.len());
    }
    writer.flush().unwrap();
    writer.into_inner()
}

/// Where each frame starts and ends in `stream`, from the length prefixes.
fn frame_bounds(stream: &[u8]) -> Vec<(usize, usize)> {
    let mut bounds = Vec::new();
    let mut at = 0;
    while at < stream.len() {
        let len = u32::from_le_bytes(stream[at..at + 4].try_into().unwrap()) as usize;
        bounds.push((at, at + 4 + len));
        at += 4 + len;
    }
    assert_eq!(at, stream.len());
    bounds
}

#[test]
fn mixed_messages_round_trip_through_a_cursor() {
    let messages = feed();
    let stream = write_feed(&messages);
    // The stream is exactly the frames: length prefix, header, message.
    let mut expected = Vec::new();
    for m in &messages {
        let mut frame = Vec::new();
        m.encode_with_header(&mut frame).unwrap();
        expected.extend_from_slice(&(frame.len() as u32).to_le_bytes());
        expected.extend_from_slice(&frame);
    }
    assert_eq!(stream, expected);

    let mut reader = FrameReader::new(Cursor::new(&stream));
    for m in &messages {
        let frame = reader.next_frame().unwrap().expect("a frame");
        assert_eq!(&Feed::decode(frame).unwrap(), m);
        let (header, view) = Feed::view(frame).unwrap();
        assert_eq!(header, m.header());
        match (view, m) {
            (FeedView::Trade(v), Feed::Trade(t)) => {
                assert_eq!(v.sequence(), t.sequence);
                assert_eq!(v.symbol(), "AAPL");
                assert_eq!(v.price(), t.price);
                assert_eq!(v.size(), t.size);
                assert_eq!(v.side(), t.side);
            }
            (FeedView::Heartbeat(v), Feed::Heartbeat(h)) => assert_eq!(v.sequence(), h.sequence),
            (FeedView::Text(v), Feed::Text(t)) => assert_eq!(v.body(), t.body),
            (FeedView::Book(v), Feed::Book(b)) => {
                assert_eq!(v.id(), b.id);
                assert_eq!(v.venue(), b.venue);
                let levels: Vec<_> = v.levels().iter().map(|l| (l.price(), l.size())).collect();
                let want: Vec<_> = b.levels.iter().map(|l| (l.price, l.size)).collect();
                assert_eq!(levels, want);
                let tags: Vec<&str> = v.tags().iter().collect();
                assert_eq!(tags, b.tags);
                let prices: Vec<i64> = v.prices().iter().collect();
                assert_eq!(prices, b.prices);
                assert_eq!(v.note(), b.note.as_deref());
            }
            (v, m) => panic!("{v:?} for {m:?}"),
        }
    }
    // A clean end, and again.
    assert!(reader.next_frame().unwrap().is_none());
    assert!(reader.next_frame().unwrap().is_none());
    assert_eq!(reader.position(), stream.len() as u64);
    assert!(reader.capacity() <= DEFAULT_MAX_FRAME_SIZE);
    assert_eq!(reader.into_inner().position(), stream.len() as u64);
}

#[test]
fn next_view_reads_one_type_and_a_wrong_frame_costs_only_that_frame() {
    let mut writer = FrameWriter::new(Vec::new());
    writer.write(&trade(1)).unwrap();
    writer.write(&Heartbeat { sequence: 5 }).unwrap();
    writer.write(&trade(2)).unwrap();
    let stream = writer.into_inner();

    let mut reader = FrameReader::new(&stream[..]);
    let (header, first) = reader.next_view::<Trade>().unwrap().unwrap();
    assert_eq!(header, trade(1).header());
    assert_eq!(first.sequence(), 1);
    let err = reader.next_view::<Trade>().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnexpectedTemplate {
            template_id: 2,
            schema_id: 7,
            expected: 1
        }
    );
    assert_eq!(err.offset(), 2); // from the start of the frame's header
    let (_, third) = reader.next_view::<Trade>().unwrap().unwrap();
    assert_eq!(third.sequence(), 2);
    assert!(reader.next_view::<Trade>().unwrap().is_none());
}

#[test]
fn f1_golden_frame() {
    let bytes = golden("F1");
    let text = Text {
        body: "halt".into(),
    };
    let mut writer = FrameWriter::new(Vec::new());
    assert_eq!(writer.write(&text).unwrap(), 22);
    assert_eq!(writer.get_ref(), &bytes);

    let mut reader = FrameReader::new(&bytes[..]);
    let frame = reader.next_frame().unwrap().unwrap();
    assert_eq!(frame.len(), 18);
    assert_eq!(
        MessageHeader::read(frame).unwrap(),
        MessageHeader {
            block_length: 6,
            template_id: 3,
            schema_id: 7,
            version: 1
        }
    );
    assert_eq!(Feed::decode(frame).unwrap(), Feed::Text(text));
    assert!(reader.next_frame().unwrap().is_none());
}

#[test]
fn truncation_at_every_byte_is_a_clear_error() {
    let messages = feed();
    let stream = write_feed(&messages);
    let bounds = frame_bounds(&stream);
    for cut in 0..stream.len() {
        let mut reader = FrameReader::new(&stream[..cut]);
        // The frames that end before the cut are read whole.
        let whole = bounds.iter().filter(|(_, end)| *end <= cut).count();
        for m in &messages[..whole] {
            let frame = reader.next_frame().unwrap().expect("a whole frame");
            assert_eq!(&Feed::decode(frame).unwrap(), m, "cut at {cut}");
        }
        match bounds.get(whole) {
            // The cut is at a frame boundary: a clean end.
            Some((start, _)) if *start == cut => {
                assert!(reader.next_frame().unwrap().is_none(), "cut at {cut}")
            }
            Some((start, end)) => {
                let err = reader.next_frame().unwrap_err();
                let needed = if cut - start < 4 { 4 } else { end - start };
                assert_eq!(
                    err.kind(),
                    &ErrorKind::UnexpectedEof {
                        needed,
                        available: cut - start
                    },
                    "cut at {cut}"
                );
                assert_eq!(err.offset(), *start, "cut at {cut}");
            }
            None => unreachable!("cut {cut} before the end"),
        }
        assert!(reader.capacity() <= DEFAULT_MAX_FRAME_SIZE);
    }
}

#[test]
fn a_stream_that_stops_and_resumes_is_read_on() {
    // EOF inside a frame is an error, but the bytes read are kept: when the stream
    // goes on (a file being appended to), the next call finishes the frame.
    let stream = write_feed(&feed());
    let bounds = frame_bounds(&stream);
    let cut = bounds[1].0 + 6; // inside the second frame's header
    let mut growing = Cursor::new(stream[..cut].to_vec());
    let mut reader = FrameReader::new(&mut growing);
    assert!(reader.next_frame().unwrap().is_some());
    assert!(matches!(
        reader.next_frame().unwrap_err().kind(),
        ErrorKind::UnexpectedEof { .. }
    ));
    let cursor = reader.get_mut();
    let at = cursor.position();
    cursor.get_mut().extend_from_slice(&stream[cut..]);
    cursor.set_position(at);
    let mut n = 1;
    while let Some(frame) = reader.next_frame().unwrap() {
        assert_eq!(Feed::decode(frame).unwrap(), feed()[n]);
        n += 1;
    }
    assert_eq!(n, feed().len());
}

fn prefix(len: u32) -> Vec<u8> {
    len.to_le_bytes().to_vec()
}

#[test]
fn a_length_over_the_maximum_is_refused_before_allocating() {
    for (max, len) in [
        (DEFAULT_MAX_FRAME_SIZE, DEFAULT_MAX_FRAME_SIZE as u32 + 1),
        (DEFAULT_MAX_FRAME_SIZE, u32::MAX),
        (100, 101),
        (100, u32::MAX),
    ] {
        // A good frame first: the error comes at the offset of the bad one.
        let mut stream = Vec::new();
        FrameWriter::new(&mut stream)
            .write(&Heartbeat { sequence: 1 })
            .unwrap();
        let bad_at = stream.len();
        stream.extend(prefix(len));
        stream.extend([0u8; 64]);
        let mut reader = FrameReader::with_max_frame_size(&stream[..], max);
        assert_eq!(reader.max_frame_size(), max);
        reader.next_frame().unwrap().unwrap();
        let capacity = reader.capacity();
        let err = reader.next_frame().unwrap_err();
        let kind = ErrorKind::FrameTooLarge {
            len: len as usize,
            max,
        };
        assert_eq!(err.kind(), &kind);
        assert_eq!(err.offset(), bad_at);
        assert_eq!(
            err.to_string(),
            format!(
                "frame of {len} bytes is over the maximum frame size of {max} bytes at byte {bad_at}"
            )
        );
        assert_eq!(reader.capacity(), capacity, "nothing allocated for it");
        // The stream has no known frame boundary any more: the error stays.
        let again = reader.next_frame().unwrap_err();
        assert_eq!((again.kind(), again.offset()), (&kind, bad_at));
    }
    // Exactly the maximum is fine.
    let mut stream = prefix(100);
    stream.extend(Heartbeat { sequence: 3 }.header().to_bytes());
    stream.extend(3u64.to_le_bytes());
    stream.resize(4 + 100, 0xEE); // bytes after the message are ignored
    let mut reader = FrameReader::with_max_frame_size(&stream[..], 100);
    let (_, beat) = reader.next_view::<Heartbeat>().unwrap().unwrap();
    assert_eq!(beat.sequence(), 3);
    assert_eq!(reader.capacity(), 100);
}

#[test]
fn a_huge_declared_length_does_not_allocate_it() {
    // A frame of the maximum size is announced and 10 bytes follow.
    let mut stream = prefix(DEFAULT_MAX_FRAME_SIZE as u32);
    stream.extend([7u8; 10]);
    let mut reader = FrameReader::new(&stream[..]);
    let err = reader.next_frame().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnexpectedEof {
            needed: 4 + DEFAULT_MAX_FRAME_SIZE,
            available: 14
        }
    );
    assert!(
        reader.capacity() <= 16 * 1024,
        "allocated {} bytes for 10 received",
        reader.capacity()
    );

    // And however many frames of whatever size arrive, the buffer stays within the
    // maximum (it grows exactly, not by doubling past it).
    let max = 50_000;
    let mut writer = FrameWriter::with_max_frame_size(Vec::new(), max);
    for len in [10, 9_000, 17_000, 33_000, max - 8 - 6, 1] {
        writer
            .write(&Text {
                body: "x".repeat(len),
            })
            .unwrap();
    }
    let stream = writer.into_inner();
    let mut reader = FrameReader::with_max_frame_size(&stream[..], max);
    while let Some(frame) = reader.next_frame().unwrap() {
        assert!(Text::view_with_header(frame).is_ok());
        assert!(reader.capacity() <= max, "{}", reader.capacity());
    }
    assert_eq!(reader.capacity(), max);
}

#[test]
fn a_length_under_a_header_is_refused() {
    for len in 0..MIN_FRAME_LEN as u32 {
        let mut stream = prefix(len);
        stream.extend([0u8; 16]);
        let mut reader = FrameReader::new(&stream[..]);
        let err = reader.next_frame().unwrap_err();
        let kind = ErrorKind::FrameTooShort {
            len: len as usize,
            min: 8,
        };
        assert_eq!((err.kind(), err.offset()), (&kind, 0));
        assert_eq!(
            err.to_string(),
            format!("frame of {len} bytes is shorter than the 8-byte message header at byte 0")
        );
        assert_eq!(reader.next_frame().unwrap_err().kind(), &kind);
        assert_eq!(reader.capacity(), 0);
    }
}

#[test]
fn a_bad_header_inside_a_frame_is_that_frame_s_error() {
    let messages = feed();
    let mut stream = write_feed(&messages);
    let bounds = frame_bounds(&stream);
    // Frame 1: an unknown template id. Frame 3: another schema. Frame 4: a header
    // that announces another block than its version has.
    stream[bounds[1].0 + 4 + 2] = 99;
    stream[bounds[3].0 + 4 + 4] = 8;
    stream[bounds[4].0 + 4] = 200;

    let mut reader = FrameReader::new(&stream[..]);
    let mut errors = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let frame = reader.next_frame().unwrap().expect("the framing is intact");
        match Feed::view(frame) {
            Ok(_) => assert_eq!(&Feed::decode(frame).unwrap(), m),
            Err(err) => errors.push((i, err.kind().clone(), err.offset())),
        }
    }
    assert!(reader.next_frame().unwrap().is_none());
    assert_eq!(
        errors,
        [
            (
                1,
                ErrorKind::UnexpectedTemplate {
                    template_id: 99,
                    schema_id: 7,
                    expected: u16::MAX
                },
                2
            ),
            (
                3,
                ErrorKind::SchemaMismatch {
                    schema_id: 8,
                    expected: 7
                },
                4
            ),
            (
                4,
                ErrorKind::HeaderMismatch {
                    block_length: 200,
                    version: 1,
                    expected: Trade::BLOCK_LENGTH
                },
                0
            ),
        ]
    );
}

/// A deterministic byte source (xorshift64*).
struct Noise(u64);

impl Noise {
    fn byte(&mut self) -> u8 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8
    }
}

#[test]
fn garbage_never_panics_and_never_allocates_past_the_maximum() {
    let max = 4096;
    let mut framed = 0;
    for seed in 1..2000u64 {
        let mut noise = Noise(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let len = 1 + usize::from(noise.byte()) * 8;
        let mut stream: Vec<u8> = (0..len).map(|_| noise.byte()).collect();
        if seed % 2 == 0 && len >= 12 {
            // A plausible length, so that garbage reaches the header and the message,
            // and half the time a header that names one of the types.
            let claimed = 8 + u32::from(noise.byte()) % 64;
            stream[..4].copy_from_slice(&claimed.to_le_bytes());
            if seed % 4 == 0 {
                let header = MessageHeader {
                    block_length: u16::from(noise.byte() % 40),
                    template_id: 1 + u16::from(noise.byte() % 4),
                    schema_id: 7,
                    version: 1,
                };
                stream[4..12].copy_from_slice(&header.to_bytes());
            }
        }
        let mut reader = FrameReader::with_max_frame_size(&stream[..], max);
        loop {
            match reader.next_frame() {
                Ok(Some(frame)) => {
                    framed += 1;
                    assert!((8..=max).contains(&frame.len()));
                    // Any outcome but a panic.
                    let _ = Feed::view(frame).map(|(_, v)| format!("{v:?}"));
                    let _ = Feed::decode(frame);
                }
                Ok(None) => break,
                Err(err) => {
                    assert!(matches!(
                        err.kind(),
                        ErrorKind::FrameTooLarge { .. }
                            | ErrorKind::FrameTooShort { .. }
                            | ErrorKind::UnexpectedEof { .. }
                    ));
                    let _ = err.to_string();
                    break;
                }
            }
            assert!(reader.capacity() <= max);
        }
        assert!(reader.capacity() <= max);
    }
    assert!(framed > 100, "only {framed} frames reached the views");
}

/// A reader that hands out one byte at a time and fails on a schedule: interrupted
/// (to be retried), would-block and timed-out (returned; the next call goes on).
struct Flaky<'a> {
    bytes: &'a [u8],
    calls: usize,
}

impl Read for Flaky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.calls += 1;
        match self.calls % 7 {
            3 => return Err(io::ErrorKind::Interrupted.into()),
            5 => return Err(io::ErrorKind::WouldBlock.into()),
            6 => return Err(io::Error::new(io::ErrorKind::TimedOut, "slow peer")),
            _ => {}
        }
        if self.bytes.is_empty() || buf.is_empty() {
            return Ok(0);
        }
        buf[0] = self.bytes[0];
        self.bytes = &self.bytes[1..];
        Ok(1)
    }
}

#[test]
fn io_errors_are_errors_and_a_retry_goes_on() {
    let messages = feed();
    let stream = write_feed(&messages);
    let mut reader = FrameReader::new(Flaky {
        bytes: &stream,
        calls: 0,
    });
    let mut got = Vec::new();
    let mut io_errors = 0;
    loop {
        match reader.next_frame() {
            Ok(Some(frame)) => got.push(Feed::decode(frame).unwrap()),
            Ok(None) => break,
            Err(err) => {
                io_errors += 1;
                assert!(
                    matches!(
                        err.kind(),
                        ErrorKind::Io(io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut)
                    ),
                    "{err}"
                );
            }
        }
    }
    assert_eq!(got, messages);
    assert!(io_errors > 100);

    // A reader that fails outright.
    struct Broken;
    impl Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
            Err(io::ErrorKind::ConnectionReset.into())
        }
    }
    let err = FrameReader::new(Broken).next_frame().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::Io(io::ErrorKind::ConnectionReset));
    assert_eq!(err.to_string(), "I/O error: connection reset at byte 0");
    let err: Error = io::Error::other("boom").into();
    assert_eq!(err.kind(), &ErrorKind::Io(io::ErrorKind::Other));
    assert_eq!(err.to_string(), "I/O error: boom at byte 0");
}

/// The I/O error is kept: its text is in the message, and it is the `source()`, with
/// its own kind, message and OS code, after the frames read before it.
#[test]
fn io_errors_keep_their_source() {
    use std::error::Error as _;

    /// One whole frame, then the peer resets the connection in the middle of the next.
    struct Reset<'a>(&'a [u8]);
    impl Read for Reset<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::from_raw_os_error(104)); // ECONNRESET on Linux
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let stream = write_feed(&feed());
    let first = 4 + u32::from_le_bytes(stream[..4].try_into().unwrap()) as usize;
    let mut reader = FrameReader::new(Reset(&stream[..first + 6]));
    assert!(reader.next_frame().unwrap().is_some());
    let err = reader.next_frame().unwrap_err();
    let os = io::Error::from_raw_os_error(104);
    assert_eq!(err.kind(), &ErrorKind::Io(os.kind()));
    assert_eq!(err.offset(), first, "the offset of the frame it cut");
    assert_eq!(err.to_string(), format!("I/O error: {os} at byte {first}"));
    let source = err.source().expect("the I/O error is the source");
    let io_err = source.downcast_ref::<io::Error>().expect("an io::Error");
    assert_eq!(io_err.raw_os_error(), Some(104));
    assert_eq!(err.io_error().and_then(io::Error::raw_os_error), Some(104));

    // A writer's error, with a message of its own.
    struct Refusing;
    impl Write for Refusing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "read-only pipe",
            ))
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let err = FrameWriter::new(Refusing)
        .write(&Heartbeat { sequence: 1 })
        .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::Io(io::ErrorKind::PermissionDenied));
    assert_eq!(err.to_string(), "I/O error: read-only pipe at byte 0");
    assert_eq!(err.source().unwrap().to_string(), "read-only pipe");
    assert!(format!("{err:?}").contains("read-only pipe"), "{err:?}");

    // Errors of validation have no source.
    let err = Heartbeat::view(&[1]).unwrap_err();
    assert!(err.source().is_none());
    assert!(err.io_error().is_none());
}

#[test]
fn the_writer_refuses_what_a_reader_would_refuse() {
    // Over the maximum: nothing written, for a Template and through write_with.
    let mut writer = FrameWriter::with_max_frame_size(Vec::new(), 30);
    let long = Text {
        body: "x".repeat(13), // 8 + 6 + 13 = 27 bytes: fits
    };
    assert_eq!(writer.write(&long).unwrap(), 31);
    let too_long = Text {
        body: "x".repeat(17),
    };
    let err = writer.write(&too_long).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::FrameTooLarge { len: 31, max: 30 });
    let err = writer
        .write_with(|out| Feed::Text(too_long.clone()).encode_with_header(out))
        .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::FrameTooLarge { len: 31, max: 30 });
    // Under a header, through write_with and write_frame.
    let err = writer
        .write_with(|out| {
            out.extend_from_slice(&[1, 2, 3]);
            Ok(3)
        })
        .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::FrameTooShort { len: 3, min: 8 });
    let err = writer.write_frame(&[0; 7]).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::FrameTooShort { len: 7, min: 8 });
    // The encoder's own error passes through.
    let err = writer
        .write_with(|_| Err(Error::new(ErrorKind::FixedStrTrailingSpace, 0)))
        .unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::FixedStrTrailingSpace);
    assert_eq!(writer.get_ref().len(), 31, "only the frame that fits");
    assert_eq!(writer.max_frame_size(), 30);

    // write_frame forwards what a reader returned, byte for byte.
    let stream = write_feed(&feed());
    let mut reader = FrameReader::new(&stream[..]);
    let mut relay = FrameWriter::new(Vec::new());
    while let Some(frame) = reader.next_frame().unwrap() {
        relay.write_frame(frame).unwrap();
    }
    assert_eq!(relay.into_inner(), stream);

    // A failing writer.
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Ok(0)
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }
    let mut writer = FrameWriter::new(Full);
    assert_eq!(
        writer.write(&Heartbeat { sequence: 1 }).unwrap_err().kind(),
        &ErrorKind::Io(io::ErrorKind::WriteZero)
    );
    assert_eq!(
        writer.flush().unwrap_err().kind(),
        &ErrorKind::Io(io::ErrorKind::BrokenPipe)
    );
}

#[test]
fn unexpected_eof_reads_well() {
    let err = FrameReader::new(&[5u8, 0][..]).next_frame().unwrap_err();
    assert_eq!(
        err.to_string(),
        "stream ended inside a frame: needs 4 bytes, has 2 at byte 0"
    );
}

#[cfg(feature = "bytes")]
#[test]
fn put_frame_writes_the_same_bytes_as_the_writer() {
    use bytes::BytesMut;
    use wiremsg::frame::put_frame;

    let big = Text {
        body: "y".repeat(2000), // staged through a Vec, not the stack
    };
    let mut buf = BytesMut::new();
    let mut writer = FrameWriter::new(Vec::new());
    for m in [&Text { body: "a".into() }, &big] {
        assert_eq!(
            put_frame(&mut buf, m).unwrap(),
            writer.write(m).unwrap(),
            "bytes appended"
        );
    }
    put_frame(&mut buf, &trade(3)).unwrap();
    writer.write(&trade(3)).unwrap();
    // A dispatch enum, as it is: the bytes of its variant's frame.
    let big_feed = Feed::Text(big.clone());
    assert_eq!(
        put_frame(&mut buf, &Feed::Trade(trade(4))).unwrap(),
        4 + 8 + 29
    );
    assert_eq!(put_frame(&mut buf, &big_feed).unwrap(), 4 + 8 + 6 + 2000);
    writer.write(&trade(4)).unwrap();
    writer.write(&big).unwrap();
    assert_eq!(&buf[..], &writer.get_ref()[..]);

    let mut vec = Vec::new();
    put_frame(&mut vec, &book(1)).unwrap();
    let mut reader = FrameReader::new(&vec[..]);
    assert_eq!(
        Book::decode(&reader.next_frame().unwrap().unwrap()[8..]).unwrap(),
        book(1)
    );

    // Too little room: nothing written.
    let mut small = [0xAAu8; 40];
    let err = put_frame(&mut &mut small[..], &big).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BufferTooSmall {
            needed: 4 + 8 + 6 + 2000,
            available: 40
        }
    );
    assert_eq!(small, [0xAA; 40]);
}
