//! Reads of options in the block: the presence byte alone says whether the value is
//! there. An option of a kind whose every byte pattern is a value (numbers, messages
//! and arrays of numbers) reads its value bytes whether present or not and picks the
//! result after; any other kind reads them only when present. Hostile value bytes
//! behind an absent presence byte must read as `None` through every view, and never
//! reach a read that would misread them (a `bool` or enum of them). Run under Miri in
//! CI (`.ci/run`).

use wiremsg::{ErrorKind, WireEnum, WireMsg};

#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct Point {
    x: f32,
    y: f32,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

/// Lists of options are lists of messages that hold them.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
struct Slot {
    v: Option<u64>,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Maybe {
    count: Option<u32>,
    at: Option<Point>,
    pair: Option<[i16; 2]>,
    on: Option<bool>,
    side: Option<Side>,
    counts: Vec<Slot>,
}

fn all_absent() -> Maybe {
    Maybe {
        count: None,
        at: None,
        pair: None,
        on: None,
        side: None,
        counts: vec![Slot { v: None }, Slot { v: None }],
    }
}

fn all_present() -> Maybe {
    Maybe {
        count: Some(7),
        at: Some(Point { x: 1.5, y: -2.0 }),
        pair: Some([-1, 300]),
        on: Some(true),
        side: Some(Side::Sell),
        counts: vec![Slot { v: Some(u64::MAX) }, Slot { v: Some(0) }],
    }
}

fn check(bytes: &[u8], want: &Maybe) {
    let view = Maybe::view(bytes).unwrap();
    // SAFETY: `view` accepted these bytes just above.
    let unchecked = unsafe { Maybe::view_unchecked(bytes) };
    for v in [view, unchecked] {
        assert_eq!(v.count(), want.count);
        assert_eq!(v.at().map(|p| Point { x: p.x(), y: p.y() }), want.at);
        assert_eq!(
            v.pair().map(|a| [a.get(0).unwrap(), a.get(1).unwrap()]),
            want.pair
        );
        assert_eq!(v.on(), want.on);
        assert_eq!(v.side(), want.side);
        let counts: Vec<Option<u64>> = v.counts().iter().map(|s| s.v()).collect();
        assert_eq!(counts, want.counts.iter().map(|s| s.v).collect::<Vec<_>>());
        assert!(*want == v, "owned == view");
    }
    let lazy = Maybe::view_lazy(bytes).unwrap();
    assert_eq!(lazy.count().unwrap(), want.count);
    assert_eq!(Maybe::decode(bytes).unwrap(), *want);
}

/// Absent options whose value bytes are every byte value: each still reads as
/// `None`, and validation accepts them (readers ignore an absent value's bytes).
#[test]
fn absent_options_read_as_none_whatever_their_value_bytes() {
    let absent = all_absent().to_bytes().unwrap();
    let present = all_present().to_bytes().unwrap();
    assert_eq!(absent.len(), present.len());
    check(&absent, &all_absent());
    check(&present, &all_present());
    // The presence bytes are those a 2 makes invalid as a presence byte; every other
    // byte where the encodings differ is a value byte of an absent option.
    let presence: Vec<usize> = (0..absent.len())
        .filter(|&i| {
            let mut b = absent.clone();
            b[i] = 2;
            matches!(
                Maybe::view(&b).map_err(|e| (e.kind().clone(), e.offset())),
                Err((ErrorKind::InvalidPresence { value: 2 }, at)) if at == i
            )
        })
        .collect();
    // count, at, pair, on, side, and the two list elements.
    assert_eq!(presence.len(), 7, "{presence:?}");
    let fills: &[u8] = if cfg!(miri) {
        &[0xFF, 0x02]
    } else {
        &[0x01, 0x02, 0x7F, 0x80, 0xFF]
    };
    for &fill in fills {
        let mut b = absent.clone();
        for i in 0..b.len() {
            if absent[i] != present[i] && !presence.contains(&i) {
                b[i] = fill;
            }
        }
        assert_ne!(b, absent);
        check(&b, &all_absent());
    }
}

/// Present options read their values, and a value set in place reads back.
#[test]
fn present_options_read_their_values_and_sets_read_back() {
    let mut bytes = all_present().to_bytes().unwrap();
    let mut view = Maybe::view_mut(&mut bytes).unwrap();
    view.set_at(Some(Point { x: -2.0, y: 1.5 }));
    view.update_count(|c| c.map(|c| c + 1));
    view.set_pair(Some([300, -1]));
    view.set_on(Some(false));
    let mut want = all_present();
    want.count = Some(8);
    want.at = Some(Point { x: -2.0, y: 1.5 });
    want.on = Some(false);
    want.pair = Some([300, -1]);
    check(&bytes, &want);
}
