//! Maps read on demand (`LazyMap`, issue 32): reading the map field checks its
//! header, every key and the keys' order; a lookup checks the entry it finds, whole,
//! and no other. Errors are up-front validation's (kind, offset, path), and a read of
//! every entry fails exactly when `view` fails, over every map layout: fixed-size
//! entries (strided), entries with a tail and a key in the block or in the tail.

use proptest::prelude::*;
use std::collections::BTreeMap;
use wiremsg::{Error, ErrorKind, WireEnum, WireMsg};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
enum Venue {
    Xnas = 1,
    Arcx = 2,
    Bats = 3,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Level {
    px: i64,
    qty: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    venue: String,
    qty: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Book {
    id: u32,
    /// Fixed-size entries: a strided list of `(i64, Level)`.
    by_px: BTreeMap<i64, Level>,
    /// Entries with a tail, the key in it: a split list.
    by_name: BTreeMap<String, Leg>,
    /// Entries with a tail, the key in the block.
    notes: BTreeMap<u16, String>,
    /// An enum key, whose values are checked.
    by_venue: BTreeMap<Venue, u32>,
    after: String,
}

fn parts(err: &Error) -> (String, usize, String) {
    (format!("{:?}", err.kind()), err.offset(), err.path())
}

fn leg(venue: &str, qty: u32) -> Leg {
    Leg {
        venue: venue.into(),
        qty,
    }
}

fn book() -> Book {
    Book {
        id: 7,
        by_px: BTreeMap::from([
            (-3, Level { px: -3, qty: 1 }),
            (100, Level { px: 100, qty: 2 }),
            (0x5151_5151, Level { px: 4, qty: 3 }),
        ]),
        by_name: BTreeMap::from([
            ("ann".into(), leg("AAAA", 1)),
            ("bob".into(), leg("BBBB", 2)),
            ("cyd".into(), leg("CCCC", 3)),
        ]),
        notes: BTreeMap::from([(1, "one".into()), (0x7777, "seven".into())]),
        by_venue: BTreeMap::from([(Venue::Xnas, 10), (Venue::Bats, 30)]),
        after: "end".into(),
    }
}

fn level(v: LevelView<'_>) -> Level {
    Level {
        px: v.px(),
        qty: v.qty(),
    }
}

/// Reads every field and every map entry on demand, in field and key order.
fn read_all(b: BookLazy<'_>) -> Result<Book, Error> {
    let id = b.id()?;
    let by_px = b
        .by_px()?
        .iter()
        .map(|e| e.map(|(k, v)| (k, level(v))))
        .collect::<Result<BTreeMap<_, _>, _>>()?;
    let by_name = b
        .by_name()?
        .iter()
        .map(|e| e.map(|(k, v)| (k.to_string(), leg(v.venue(), v.qty()))))
        .collect::<Result<_, _>>()?;
    let notes = b
        .notes()?
        .iter()
        .map(|e| e.map(|(k, v)| (k, v.to_string())))
        .collect::<Result<_, _>>()?;
    let by_venue = b.by_venue()?.iter().collect::<Result<_, _>>()?;
    let after = b.after()?.into();
    Ok(Book {
        id,
        by_px,
        by_name,
        notes,
        by_venue,
        after,
    })
}

/// Where `needle` first is in `bytes`.
fn find(bytes: &[u8], needle: &[u8]) -> usize {
    bytes
        .windows(needle.len())
        .position(|w| w == needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the bytes"))
}

#[test]
fn every_map_layout_reads_as_the_view_does() {
    let value = book();
    let bytes = value.to_bytes().unwrap();
    let view = Book::view(&bytes).unwrap();
    let lazy = Book::view_lazy(&bytes).unwrap();
    assert_eq!(read_all(lazy.clone()).unwrap(), value);

    let by_px = lazy.by_px().unwrap();
    assert_eq!(by_px.len(), 3);
    assert_eq!(by_px.keys().collect::<Vec<_>>(), [-3, 100, 0x5151_5151]);
    assert_eq!(by_px.get(100).unwrap(), view.by_px().get(100));
    assert_eq!(by_px.get(101).unwrap(), None);
    assert!(by_px.contains_key(-3) && !by_px.contains_key(-4));
    assert_eq!(by_px.to_view().unwrap(), view.by_px());

    let by_name = lazy.by_name().unwrap();
    assert_eq!(by_name.keys().collect::<Vec<_>>(), ["ann", "bob", "cyd"]);
    let index = by_name.position("bob").unwrap();
    let (key, bob) = by_name.entry(index).unwrap().unwrap();
    assert_eq!((index, key, bob.venue(), bob.qty()), (1, "bob", "BBBB", 2));
    assert_eq!(by_name.position("bo"), None);
    assert_eq!(by_name.get("bo").unwrap(), None);
    assert_eq!(by_name.get("zed").unwrap(), None);
    let (k, v) = by_name.entry(2).unwrap().unwrap();
    assert_eq!((k, v.venue()), ("cyd", "CCCC"));
    assert!(by_name.entry(3).is_none());

    let notes = lazy.notes().unwrap();
    assert_eq!(notes.get(0x7777).unwrap(), Some("seven"));
    assert_eq!(notes.keys().collect::<Vec<_>>(), [1, 0x7777]);

    let by_venue = lazy.by_venue().unwrap();
    assert_eq!(by_venue.get(Venue::Bats).unwrap(), Some(30));
    assert_eq!(by_venue.get(Venue::Arcx).unwrap(), None);
    assert_eq!(
        format!("{by_venue:?}"),
        "{Xnas: Ok(10), Bats: Ok(30)}",
        "Debug shows each value as read on demand"
    );
}

#[test]
fn an_empty_map_reads_as_empty() {
    let value = Book {
        by_px: BTreeMap::new(),
        by_name: BTreeMap::new(),
        notes: BTreeMap::new(),
        by_venue: BTreeMap::new(),
        ..book()
    };
    let bytes = value.to_bytes().unwrap();
    let lazy = Book::view_lazy(&bytes).unwrap();
    let by_name = lazy.by_name().unwrap();
    assert!(by_name.is_empty());
    assert_eq!(by_name.get("ann").unwrap(), None);
    assert_eq!(read_all(lazy).unwrap(), value);
}

#[test]
fn a_lookup_checks_its_own_entry_and_no_other() {
    let mut bytes = book().to_bytes().unwrap();
    // "CCCC", the value of the last entry of `by_name`, is no longer UTF-8.
    let at = find(&bytes, b"CCCC");
    bytes[at] = 0xFF;
    let expected = Book::view(&bytes).unwrap_err();
    assert_eq!(
        (expected.path().as_str(), expected.offset()),
        ("by_name[2].1.venue", at)
    );

    let lazy = Book::view_lazy(&bytes).unwrap();
    let by_name = lazy.by_name().unwrap(); // the keys are fine
    assert_eq!(by_name.keys().count(), 3);
    assert_eq!(by_name.get("ann").unwrap().unwrap().venue(), "AAAA");
    assert_eq!(by_name.get("bob").unwrap().unwrap().qty(), 2);
    assert_eq!(parts(&by_name.get("cyd").unwrap_err()), parts(&expected));
    assert_eq!(
        parts(&by_name.entry(2).unwrap().unwrap_err()),
        parts(&expected)
    );
    assert_eq!(parts(&by_name.to_view().unwrap_err()), parts(&expected));
    // Fields after the map read: the broken value is off their path.
    assert_eq!(lazy.after().unwrap(), "end");
    assert_eq!(lazy.notes().unwrap().get(1).unwrap(), Some("one"));
}

#[test]
fn unsorted_or_repeated_keys_fail_the_map_read() {
    let good = book().to_bytes().unwrap();
    // The last key of `by_px` made smaller than the one before it.
    let mut bytes = good.clone();
    let at = find(&bytes, &0x5151_5151i64.to_le_bytes());
    bytes[at..at + 8].copy_from_slice(&(-9i64).to_le_bytes());
    let expected = Book::view(&bytes).unwrap_err();
    assert_eq!(*expected.kind(), ErrorKind::UnsortedKeys);
    let lazy = Book::view_lazy(&bytes).unwrap();
    assert_eq!(parts(&lazy.by_px().unwrap_err()), parts(&expected));
    assert_eq!(lazy.by_name().unwrap().len(), 3, "other maps read");

    // The second key of `by_name` the same as the first.
    let mut bytes = good.clone();
    let at = find(&bytes, b"bob");
    bytes[at..at + 3].copy_from_slice(b"ann");
    let expected = Book::view(&bytes).unwrap_err();
    assert_eq!(*expected.kind(), ErrorKind::DuplicateKey);
    let lazy = Book::view_lazy(&bytes).unwrap();
    assert_eq!(parts(&lazy.by_name().unwrap_err()), parts(&expected));
}

#[test]
fn a_broken_key_fails_the_map_read_with_the_first_error_up_front_validation_meets() {
    let good = book().to_bytes().unwrap();
    // A key that is not UTF-8: the map read fails, as `view` does.
    let mut bytes = good.clone();
    let at = find(&bytes, b"cyd");
    bytes[at + 1] = 0xC3;
    let expected = Book::view(&bytes).unwrap_err();
    assert_eq!(expected.path(), "by_name[2].0");
    let lazy = Book::view_lazy(&bytes).unwrap();
    assert_eq!(parts(&lazy.by_name().unwrap_err()), parts(&expected));

    // And a value before it broken too: up-front validation meets the value first,
    // and so does the map read.
    let at = find(&bytes, b"AAAA");
    bytes[at] = 0xFF;
    let expected = Book::view(&bytes).unwrap_err();
    assert_eq!(expected.path(), "by_name[0].1.venue");
    let lazy = Book::view_lazy(&bytes).unwrap();
    assert_eq!(parts(&lazy.by_name().unwrap_err()), parts(&expected));

    // An enum key with no variant.
    let mut bytes = good;
    let at = find(&bytes, &[3, 30, 0, 0, 0]);
    bytes[at] = 9;
    let expected = Book::view(&bytes).unwrap_err();
    assert_eq!(expected.path(), "by_venue[1].0");
    let lazy = Book::view_lazy(&bytes).unwrap();
    assert_eq!(parts(&lazy.by_venue().unwrap_err()), parts(&expected));
}

fn arb_book() -> impl Strategy<Value = Book> {
    (
        prop::collection::btree_map(any::<i64>(), (any::<i64>(), any::<u32>()), 0..4),
        prop::collection::btree_map("[a-c]{0,3}", ("[a-z]{0,3}", any::<u32>()), 0..4),
        prop::collection::btree_map(any::<u16>(), "[a-z]{0,3}", 0..4),
        prop::collection::btree_map(
            prop::sample::select(vec![Venue::Xnas, Venue::Arcx, Venue::Bats]),
            any::<u32>(),
            0..3,
        ),
    )
        .prop_map(|(px, names, notes, by_venue)| Book {
            id: 1,
            by_px: px
                .into_iter()
                .map(|(k, (px, qty))| (k, Level { px, qty }))
                .collect(),
            by_name: names
                .into_iter()
                .map(|(k, (venue, qty))| (k, Leg { venue, qty }))
                .collect(),
            notes,
            by_venue,
            after: "z".into(),
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn reading_every_entry_on_demand_fails_exactly_as_view_does(
        value in arb_book(),
        changes in prop::collection::vec((any::<usize>(), any::<u8>()), 1..4),
        small in any::<bool>(),
    ) {
        let mut bad = value.to_bytes().unwrap();
        let len = bad.len();
        for (at, v) in changes {
            bad[at % len] = if small { v % 4 } else { v };
        }
        let upfront = Book::view(&bad);
        let on_demand = Book::view_lazy(&bad).and_then(read_all);
        match (upfront, on_demand) {
            (Ok(_), Ok(read)) => prop_assert_eq!(Book::decode(&bad).unwrap(), read),
            (Err(expected), Err(err)) => prop_assert_eq!(parts(&err), parts(&expected)),
            (upfront, on_demand) => {
                prop_assert!(false, "view: {:?}, on demand: {:?}", upfront.err(), on_demand.err())
            }
        }
        // A map that reads has its keys in strictly increasing order, whatever else
        // is wrong: what its lookups rely on.
        if let Ok(lazy) = Book::view_lazy(&bad) {
            if let Ok(names) = lazy.by_name() {
                let keys: Vec<&str> = names.keys().collect();
                prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{:?}", keys);
                for key in &keys {
                    prop_assert!(names.contains_key(key));
                }
            }
            if let Ok(px) = lazy.by_px() {
                let keys: Vec<i64> = px.keys().collect();
                prop_assert!(keys.windows(2).all(|w| w[0] < w[1]), "{:?}", keys);
            }
        }
    }
}
