//! On-demand views of messages behind a message header (FORMAT.md §8):
//! `Template::view_lazy_with_header` and a dispatch enum's `view_lazy`. The header is
//! checked up front as `view_with_header` checks it; each field read on demand then
//! gives the value the up-front view gives, or, over changed bytes, the error `view`
//! reports (kind, offset counted from the header's start, path), reading every field
//! in field order.

use proptest::prelude::*;
use wiremsg::{Error, ErrorKind, Template, WireDispatch, WireMsg};

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    venue: String,
    qty: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1)]
struct Add {
    order: u64,
    px: i64,
    sym: String,
    legs: Vec<Leg>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2)]
struct Delete {
    order: u64,
    reason: u8,
}

#[derive(WireDispatch, Debug, PartialEq)]
enum Feed {
    Add(Add),
    Delete(Delete),
}

fn parts(err: &Error) -> (String, usize, String) {
    (format!("{:?}", err.kind()), err.offset(), err.path())
}

fn add() -> Add {
    Add {
        order: 7,
        px: -12_500,
        sym: "ÄBC".into(),
        legs: vec![
            Leg {
                venue: "XNAS".into(),
                qty: 3,
            },
            Leg {
                venue: String::new(),
                qty: 9,
            },
        ],
    }
}

fn framed<T: Template>(value: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    value.encode_with_header(&mut bytes).unwrap();
    bytes
}

/// Every field of an `Add`, read on demand in field order.
fn read_add(a: AddLazy<'_>) -> Result<Add, Error> {
    let (order, px, sym) = (a.order()?, a.px()?, a.sym()?.to_owned());
    let mut legs = Vec::new();
    for leg in a.legs()? {
        let leg = leg?;
        legs.push(Leg {
            venue: leg.venue()?.to_owned(),
            qty: leg.qty()?,
        });
    }
    Ok(Add {
        order,
        px,
        sym,
        legs,
    })
}

/// Every field of the frame's message, read on demand through the dispatch enum.
fn read_feed(bytes: &[u8]) -> Result<Feed, Error> {
    Ok(match Feed::view_lazy(bytes)?.1 {
        FeedLazy::Add(a) => Feed::Add(read_add(a)?),
        FeedLazy::Delete(d) => Feed::Delete(Delete {
            order: d.order()?,
            reason: d.reason()?,
        }),
    })
}

/// `read_feed` agrees with `Feed::view` (and `Feed::decode`) over `bytes`.
fn agrees(bytes: &[u8]) -> Result<(), TestCaseError> {
    match (Feed::view(bytes), read_feed(bytes)) {
        (Ok(_), Ok(lazy)) => prop_assert_eq!(lazy, Feed::decode(bytes).unwrap()),
        (Err(e), Err(g)) => prop_assert_eq!(parts(&g), parts(&e)),
        (view, lazy) => prop_assert!(
            false,
            "view {:?}, on demand {:?}",
            view.map(|_| ()).map_err(|e| parts(&e)),
            lazy.map_err(|e| parts(&e))
        ),
    }
    Ok(())
}

#[test]
fn every_field_reads_on_demand_as_the_view_reads_it() {
    let bytes = framed(&add());
    let (header, lazy) = Add::view_lazy_with_header(&bytes).unwrap();
    assert_eq!(header, Add::view_with_header(&bytes).unwrap().0);
    assert_eq!(read_add(lazy.clone()).unwrap(), add());
    assert_eq!(
        lazy.to_view().unwrap(),
        Add::view_with_header(&bytes).unwrap().1
    );
    assert_eq!(read_feed(&bytes).unwrap(), Feed::Add(add()));

    let delete = Delete {
        order: 11,
        reason: 4,
    };
    let bytes = framed(&delete);
    assert_eq!(read_feed(&bytes).unwrap(), Feed::Delete(delete));
    let (header, lazy) = Feed::view_lazy(&bytes).unwrap();
    assert_eq!((header.template_id, header.block_length), (2, 9));
    assert!(matches!(lazy, FeedLazy::Delete(_)));
}

/// Offsets count from the header's start and paths from the message, for errors
/// found when the view is made and when a field is read.
#[test]
fn errors_count_from_the_header_as_view_with_header_does() {
    let good = framed(&add());
    let view = Add::view_with_header(&good).unwrap().1;
    // The frame's last byte, the first leg's venue's 'S' (the second's is empty),
    // made an invalid UTF-8 byte.
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] = 0xFF;
    let expected = Add::view_with_header(&bad).unwrap_err();
    assert_eq!(
        (expected.offset(), expected.path()),
        (last, "legs[0].venue".to_owned()),
        "{expected}"
    );
    let (_, lazy) = Add::view_lazy_with_header(&bad).unwrap();
    // Fields off the broken path still read.
    assert_eq!(lazy.order().unwrap(), view.order());
    assert_eq!(lazy.sym().unwrap(), view.sym());
    let got = read_add(lazy.clone()).unwrap_err();
    assert_eq!(parts(&got), parts(&expected));
    assert_eq!(parts(&lazy.to_view().unwrap_err()), parts(&expected));

    // A header naming another template, and a block length under the message's.
    let mut other = good.clone();
    other[2] = 9;
    assert_eq!(
        parts(&Add::view_lazy_with_header(&other).unwrap_err()),
        parts(&Add::view_with_header(&other).unwrap_err())
    );
    assert!(matches!(
        Feed::view_lazy(&other).unwrap_err().kind(),
        ErrorKind::UnexpectedTemplate { template_id: 9, .. }
    ));
    let mut short = good;
    short[0] = 1;
    assert_eq!(
        parts(&Add::view_lazy_with_header(&short).unwrap_err()),
        parts(&Add::view_with_header(&short).unwrap_err())
    );
    assert!(Add::view_lazy_with_header(&[0; 7]).is_err());
}

/// Every byte of both kinds of frame, changed to each of a few values: reading
/// every field on demand fails exactly where `view` does, with its error.
#[test]
fn every_changed_byte_fails_on_demand_as_view_does() {
    let frames = [
        framed(&add()),
        framed(&Delete {
            order: 1,
            reason: 2,
        }),
    ];
    for good in frames {
        for at in 0..good.len() {
            for value in [0, 1, 0x7F, 0xFF, good[at] ^ 0x80, good[at].wrapping_add(1)] {
                let mut bad = good.clone();
                bad[at] = value;
                agrees(&bad).unwrap();
            }
        }
        for len in 0..good.len() {
            agrees(&good[..len]).unwrap();
        }
    }
}

fn arb_add() -> impl Strategy<Value = Add> {
    let leg = (".{0,6}", any::<u32>()).prop_map(|(venue, qty)| Leg { venue, qty });
    (
        any::<u64>(),
        any::<i64>(),
        ".{0,8}",
        proptest::collection::vec(leg, 0..4),
    )
        .prop_map(|(order, px, sym, legs)| Add {
            order,
            px,
            sym,
            legs,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

    #[test]
    fn changed_frames_read_on_demand_as_view_reads_them(
        value in arb_add(),
        changes in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
    ) {
        let mut bytes = framed(&value);
        agrees(&bytes)?;
        for (at, byte) in changes {
            let at = at.index(bytes.len());
            bytes[at] = byte;
        }
        agrees(&bytes)?;
    }
}
