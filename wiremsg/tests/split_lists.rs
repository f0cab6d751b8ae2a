//! Lists of messages with a tail are split lists (FORMAT.md §6.3): each element's
//! tail start and block at a stride, the tails after them. Hostile bytes fail with
//! the element's path and the offset of the bad byte; mutable views of elements
//! write inside their own block or tail; older and newer elements read across.

use wiremsg::{ErrorKind, WireMsg};

#[path = "common/format_guess.rs"]
mod format_guess;
use format_guess::format_3_reading;

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Venue {
    code: u8,
    name: String,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Book {
    id: u16,
    venues: Vec<Venue>,
}

/// `Book { id: 1, venues: [(1, "A"), (2, "")] }`: block length 8, the list at 8,
/// as FORMAT.md's E6 lays `venues` out.
fn book() -> (Book, Vec<u8>) {
    let value = Book {
        id: 1,
        venues: vec![
            Venue {
                code: 1,
                name: "A".into(),
            },
            Venue {
                code: 2,
                name: String::new(),
            },
        ],
    };
    let bytes = value.to_bytes().unwrap();
    (value, bytes)
}

#[test]
fn the_bytes_are_blocks_then_tails() {
    let (value, bytes) = book();
    let list = [
        0x16, 0, 0, 0, 7, 0, 1, 8, 0, 0,
        0, // tail at 22; block length 7, code 1, name ends at 8
        0x17, 0, 0, 0, 7, 0, 2, 7, 0, 0, 0, // tail at 23; code 2, name ends at 7 (empty)
        b'A',
    ];
    assert_eq!(&bytes[8..], &list);
    let view = Book::view(&bytes).unwrap();
    let venues = view.venues();
    assert_eq!(venues.len(), 2);
    assert_eq!(venues.get(0).unwrap().name(), "A");
    assert_eq!(venues.get(1).unwrap().code(), 2);
    assert_eq!(venues.get(1).unwrap().name(), "");
    assert!(
        venues.get(0).unwrap().as_bytes().is_none(),
        "block and tail are apart"
    );
    assert_eq!(Book::decode(&bytes).unwrap(), value);
}

/// `(byte offset, new value)` changes of `book()`'s bytes, each with the error,
/// path and offset validation must give.
#[test]
fn hostile_split_lists_name_the_element_and_the_byte() {
    let (_, good) = book();
    type Case<'a> = (&'a [(usize, u8)], ErrorKind, &'a str, usize);
    let cases: [Case<'_>; 6] = [
        // Element 1 states block length 8: the stride is the first element's.
        (
            &[(8 + 15, 8)],
            ErrorKind::StrideMismatch {
                block_length: 8,
                expected: 7,
            },
            "venues[1]",
            8 + 15,
        ),
        // The first tail start is not a multiple of the stride (11).
        (
            &[(8, 21)],
            ErrorKind::ListLengthMismatch {
                len: 21,
                element_size: 11,
            },
            "venues",
            8,
        ),
        // Three elements' blocks (33 bytes) do not fit in the 23-byte list.
        (
            &[(8, 33)],
            ErrorKind::ListCountTooLarge {
                count: 3,
                available: 23,
            },
            "venues",
            8,
        ),
        // Element 1's tail starts before element 0's.
        (
            &[(8 + 11, 21)],
            ErrorKind::OffsetOutOfRange {
                end: 21,
                min: 22,
                max: 23,
            },
            "venues[1]",
            8 + 11,
        ),
        // Element 0's name ends past its tail region (22..23): at origin 15 + 9 = 24.
        (
            &[(8 + 7, 9)],
            ErrorKind::OffsetOutOfRange {
                end: 9,
                min: 7,
                max: 8,
            },
            "venues[0].name",
            8 + 7,
        ),
        // Element 0's block is shorter than the block of version 1.
        (
            &[(8 + 4, 2), (8 + 15, 2)],
            ErrorKind::BlockLengthTooSmall {
                declared: 2,
                required: 7,
                version: 1,
            },
            "venues[0]",
            8 + 4,
        ),
    ];
    for (changes, kind, path, offset) in cases {
        let mut bad = good.clone();
        for &(at, byte) in changes {
            bad[at] = byte;
        }
        let err = Book::view(&bad).unwrap_err();
        assert_eq!(
            (err.kind(), err.path().as_str(), err.offset()),
            (&kind, path, offset),
            "{changes:?}: {err}"
        );
    }
    // Invalid UTF-8 in element 0's tail: at the byte itself.
    let mut bad = good.clone();
    bad[30] = 0xff;
    let err = Book::view(&bad).unwrap_err();
    assert_eq!(
        (err.path().as_str(), err.offset()),
        ("venues[0].name", 30),
        "{err}"
    );
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Fill {
    qty: u32,
    venue: Venue,
    tag: String,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Report {
    fills: Vec<Fill>,
}

#[test]
fn mutable_views_of_split_elements_write_their_own_bytes() {
    let fill = |qty, code, name: &str, tag: &str| Fill {
        qty,
        venue: Venue {
            code,
            name: name.into(),
        },
        tag: tag.into(),
    };
    let mut value = Report {
        fills: vec![
            fill(1, 1, "XNAS", "a"),
            fill(2, 2, "", "bb"),
            fill(3, 3, "ARCA", ""),
        ],
    };
    let mut bytes = value.to_bytes().unwrap();
    {
        let mut report = Report::view_mut(&mut bytes).unwrap();
        let mut fills = report.fills_mut();
        let mut views: Vec<_> = fills.iter_mut().collect();
        // Every element's view at once: each writes its block and its nested tail.
        for (i, view) in views.iter_mut().enumerate() {
            view.set_qty(10 * (i as u32 + 1));
            view.venue_mut().set_code(100 + i as u8);
        }
        drop(views);
        fills.get_mut(2).unwrap().set_qty(7);
    }
    for (i, f) in value.fills.iter_mut().enumerate() {
        f.qty = 10 * (i as u32 + 1);
        f.venue.code = 100 + i as u8;
    }
    value.fills[2].qty = 7;
    assert_eq!(Report::decode(&bytes).unwrap(), value);
    assert_eq!(bytes, value.to_bytes().unwrap());
}

mod v1 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Leg {
        pub(crate) px: i64,
        pub(crate) note: String,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) legs: Vec<Leg>,
    }
}

mod v2 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Leg {
        pub(crate) px: i64,
        pub(crate) note: String,
        #[wire(since = 2)]
        pub(crate) qty: u32,
        #[wire(since = 2)]
        pub(crate) venue: String,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) legs: Vec<Leg>,
    }
}

#[test]
fn older_and_newer_elements_read_across_versions() {
    let new = v2::Order {
        legs: vec![
            v2::Leg {
                px: 5,
                note: "n1".into(),
                qty: 9,
                venue: "X".into(),
            },
            v2::Leg {
                px: -1,
                note: "".into(),
                qty: 1,
                venue: "YY".into(),
            },
        ],
    };
    let bytes = new.to_bytes().unwrap();
    // An older reader: the stride is the newer block, its tail regions come first.
    let old = v1::Order::decode(&bytes).unwrap();
    assert_eq!(
        old,
        v1::Order {
            legs: vec![
                v1::Leg {
                    px: 5,
                    note: "n1".into()
                },
                v1::Leg {
                    px: -1,
                    note: "".into()
                },
            ]
        }
    );
    // A newer reader of older bytes: the fields of version 2 are absent.
    let bytes = old.to_bytes().unwrap();
    let view = v2::Order::view(&bytes).unwrap();
    let leg = view.legs().get(0).unwrap();
    assert_eq!(
        (leg.px(), leg.note(), leg.try_qty(), leg.try_venue()),
        (5, "n1", None, None)
    );
    assert_eq!(view.legs().get(1).unwrap().version(), 1);
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
#[wire(version = 2)]
struct Player {
    name: String,
    score: u32,
    alive: bool,
    #[wire(since = 2)]
    kills: u16,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Update {
    players: Vec<Player>,
}

/// mk48's `score *= 2` over every player: one read and one store per element,
/// through the element's block at its stride.
#[test]
fn update_in_one_step_through_every_element() {
    let player = |name: &str, score, alive, kills| Player {
        name: name.into(),
        score,
        alive,
        kills,
    };
    let mut value = Update {
        players: vec![
            player("a", 1, true, 3),
            player("", 5, false, 0),
            player("ccc", 7, true, 9),
        ],
    };
    let mut bytes = value.to_bytes().unwrap();
    {
        let mut update = Update::view_mut(&mut bytes).unwrap();
        let mut players = update.players_mut();
        for i in 0..players.len() {
            let mut p = players.get_mut(i).unwrap();
            p.update_score(|s| s * 2);
            p.update_alive(|a| !a);
            assert!(p.update_kills(|k| k + 1), "version 2 bytes have `kills`");
        }
    }
    for p in &mut value.players {
        p.score *= 2;
        p.alive = !p.alive;
        p.kills += 1;
    }
    assert_eq!(Update::decode(&bytes).unwrap(), value);
}

/// The bytes format 1 gave `book()`'s list (a table of start offsets to whole
/// elements) are refused with the format version, not misread.
#[test]
fn a_format_1_list_is_refused_with_its_format_version() {
    let (_, good) = book();
    let mut old = good[..8].to_vec();
    old.extend([8, 0, 0, 0, 16, 0, 0, 0]); // starts 8, 16
    old.extend([7, 0, 1, 8, 0, 0, 0, b'A']); // (1, "A"): its own block length and tail
    old.extend([7, 0, 2, 7, 0, 0, 0]); // (2, "")
    assert_eq!(old.len(), good.len());
    let err = Book::view(&old).unwrap_err();
    assert_eq!(
        (err.kind(), err.path().as_str(), err.offset()),
        (
            &ErrorKind::UnsupportedFormat {
                version: 1,
                supported: 3
            },
            "venues",
            8
        )
    );
    assert!(err.to_string().contains("format version 1"), "{err}");
    // A guess from a shape: the message and `source()` also give what the bytes fail
    // with as format 3, in case they are corrupt rather than old.
    assert_eq!(format_3_reading(&err).path(), "venues");
    // One element: the table's start offset 4, then the element.
    let one = Book {
        id: 1,
        venues: vec![Venue {
            code: 3,
            name: "XY".into(),
        }],
    };
    let bytes = one.to_bytes().unwrap();
    let mut old = bytes[..8].to_vec();
    old.extend([4, 0, 0, 0, 7, 0, 3, 9, 0, 0, 0, b'X', b'Y']);
    assert_eq!(
        Book::view(&old).unwrap_err().kind(),
        &ErrorKind::UnsupportedFormat {
            version: 1,
            supported: 3
        }
    );
}

/// One corrupt byte can give a valid list the shape of format 1's: the error says
/// both readings, and the format-3 one is its `source()`, at the broken header.
#[test]
fn a_corrupt_split_list_with_format_1_shape_says_both() {
    #[derive(WireMsg, Debug)]
    struct Fill {
        venue: String,
        qty: u32,
    }
    #[derive(WireMsg, Debug)]
    struct Order {
        id: u64,
        fills: Vec<Fill>,
    }
    let fill = |venue: &str, qty| Fill {
        venue: venue.into(),
        qty,
    };
    let mut bytes = Order {
        id: 1,
        fills: vec![fill("XNAS", 1), fill("ARCX", 2)],
    }
    .to_bytes()
    .unwrap();
    assert_eq!(bytes[14], 0x1c, "element 0's tail start");
    bytes[14] = 4;
    let err = Order::view(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset(), err.path().as_str()),
        (
            &ErrorKind::UnsupportedFormat {
                version: 1,
                supported: 3
            },
            14,
            "fills"
        )
    );
    let current = format_3_reading(&err);
    assert_eq!(
        (current.kind(), current.offset(), current.path().as_str()),
        (
            &ErrorKind::ListLengthMismatch {
                len: 4,
                element_size: 14
            },
            14,
            "fills"
        )
    );
    assert_eq!(
        err.to_string(),
        format!(
            "{} at byte 14 in `fills`; or the bytes are corrupt: read as format version 3, {current}",
            err.kind()
        )
    );
    // Every other reader of the bytes reports the same two readings.
    let others = [
        Order::decode(&bytes).unwrap_err(),
        Order::view_mut(&mut bytes.clone()).unwrap_err(),
        Order::view_lazy(&bytes).unwrap().fills().unwrap_err(),
    ];
    for other in others {
        assert_eq!(other.to_string(), err.to_string());
        assert_eq!(format_3_reading(&other).to_string(), current.to_string());
    }
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Flagged {
    name: String,
    flags: [bool; 4],
    note: Option<u8>,
    code: wiremsg::FixedStr<4>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Flags {
    all: Vec<Flagged>,
}

/// A split element's block lies before the origin its errors count from: the
/// offsets of errors inside its block (an array element, a presence byte, text of
/// fixed width) wrap below that origin and come out at the byte itself, in builds
/// with overflow checks too (found by `cargo fuzz`, `fuzz/artifacts/README.md`).
/// Element 0's tail of `n` bytes puts element 1's origin (its tail start `40 + n`
/// minus its block length 16) `n` bytes after its block's start: every `n` from 0
/// to 20 moves the origin across each field.
#[test]
fn errors_in_a_split_elements_block_are_at_the_byte() {
    let flagged = |name: &str| Flagged {
        name: name.into(),
        flags: [true, false, true, false],
        note: Some(1),
        code: wiremsg::FixedStr::new("AB").unwrap(),
    };
    for n in 0..=20 {
        let value = Flags {
            all: vec![flagged(&"x".repeat(n)), flagged("")],
        };
        let good = value.to_bytes().unwrap();
        // The elements' block: block length 2, `name`'s end offset 4, `flags` 4,
        // `note` 2, `code` 4: 16 bytes, stride 20. Element 1's block is after the
        // message's block (6), element 0 (20) and its own tail start (4).
        let block = 6 + 20 + 4;
        let cases = [
            (block + 2 + 4 + 2, 7, "all[1].flags[2]"),
            (block + 2 + 4 + 4, 9, "all[1].note"),
            (block + 2 + 4 + 4 + 2 + 1, 0xff, "all[1].code"),
        ];
        for (at, byte, path) in cases {
            let mut bad = good.clone();
            bad[at] = byte;
            let err = Flags::view(&bad).unwrap_err();
            assert_eq!(
                (err.path().as_str(), err.offset()),
                (path, at),
                "n = {n}: {err}"
            );
        }
    }
}

/// The views' pointers have no niche, so that an `Option` of a view (what
/// `get`, `get_mut` and the iterators return) has a tag of its own: the optimizer
/// then folds the `None` test of a view made in a loop, which it could not when the
/// tag was the pointer's nullness (benches/README.md, "Fixed this round").
#[test]
fn an_option_of_a_view_has_a_tag_of_its_own() {
    use core::mem::size_of;
    type View<'v> = <Venue as WireMsg>::View<'v>;
    type Mut<'v> = <Venue as WireMsg>::Mut<'v>;
    assert_eq!(size_of::<View<'_>>(), 2 * size_of::<usize>());
    assert_eq!(size_of::<Mut<'_>>(), 2 * size_of::<usize>());
    assert!(size_of::<Option<View<'_>>>() > size_of::<View<'_>>());
    assert!(size_of::<Option<Mut<'_>>>() > size_of::<Mut<'_>>());
}
