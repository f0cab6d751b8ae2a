//! Reads of `bool`: validation accepts only the bytes 0 and 1, and a validated byte is
//! read as `bool`'s memory (the same byte). Every bool slot of a message (a field, an
//! option's value, an array, a packed list, a list of messages) is found by the
//! error a byte of 2 there gives; each must refuse every byte but 0 and 1 at its own
//! offset and read 0 and 1 as `false` and `true` through every view. Run under Miri in
//! CI (`.ci/run`): a read of a byte other than 0 or 1 as `bool` is undefined
//! behaviour, which Miri reports.

use wiremsg::{ErrorKind, WireMsg};

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Flag {
    id: u8,
    on: bool,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Flags {
    live: bool,
    muted: Option<bool>,
    lights: [bool; 3],
    bits: Vec<bool>,
    flags: Vec<Flag>,
}

fn flags() -> Flags {
    Flags {
        live: true,
        muted: Some(false),
        lights: [false, true, true],
        bits: vec![true, false, false, true],
        flags: vec![Flag { id: 7, on: true }, Flag { id: 9, on: false }],
    }
}

/// Every bool, read through the validated and the unchecked view, the on-demand
/// view and `decode`, against `want`.
fn check(bytes: &[u8], want: &Flags) {
    let view = Flags::view(bytes).unwrap();
    // SAFETY: `view` accepted these bytes just above.
    let unchecked = unsafe { Flags::view_unchecked(bytes) };
    for v in [view, unchecked] {
        assert_eq!(v.live(), want.live);
        assert_eq!(v.muted(), want.muted);
        assert_eq!(v.lights().iter().collect::<Vec<_>>(), want.lights);
        assert_eq!(v.bits().iter().collect::<Vec<_>>(), want.bits);
        let ons: Vec<bool> = v.flags().iter().map(|f| f.on()).collect();
        assert_eq!(ons, want.flags.iter().map(|f| f.on).collect::<Vec<_>>());
        assert!(*want == v, "owned == view");
    }
    let lazy = Flags::view_lazy(bytes).unwrap();
    assert_eq!(lazy.live().unwrap(), want.live);
    assert_eq!(lazy.muted().unwrap(), want.muted);
    assert_eq!(Flags::decode(bytes).unwrap(), *want);
}

/// The offsets of every bool slot: where a byte of 2 is refused as a bool at that
/// same offset.
fn bool_slots(bytes: &[u8]) -> Vec<usize> {
    (0..bytes.len())
        .filter(|&at| {
            let mut b = bytes.to_vec();
            b[at] = 2;
            match Flags::view(&b) {
                Err(e) if matches!(e.kind(), ErrorKind::InvalidBool { value: 2 }) => {
                    assert_eq!(e.offset(), at, "{e}");
                    true
                }
                _ => false,
            }
        })
        .collect()
}

#[test]
fn every_bool_slot_refuses_every_byte_but_0_and_1_at_its_offset() {
    let bytes = flags().to_bytes().unwrap();
    let slots = bool_slots(&bytes);
    // live, muted's value, three lights, four bits, two flags' `on`.
    assert_eq!(slots.len(), 11, "{slots:?}");
    assert_eq!(slots[0], FlagsView::LIVE_OFFSET);
    for &at in &slots {
        // Under Miri (slow), the bytes next to 1, the top bit, and the largest.
        let values: Vec<u8> = if cfg!(miri) {
            vec![2, 3, 0x80, 0xFF]
        } else {
            (2..=u8::MAX).collect()
        };
        for value in values {
            let mut b = bytes.clone();
            b[at] = value;
            let e = Flags::view(&b).unwrap_err();
            assert!(
                matches!(e.kind(), ErrorKind::InvalidBool { value: v } if *v == value),
                "{e}"
            );
            assert_eq!(e.offset(), at);
            assert!(Flags::decode(&b).is_err());
            if at == FlagsView::LIVE_OFFSET {
                // The on-demand view checks the field when it is read.
                let e = Flags::view_lazy(&b).unwrap().live().unwrap_err();
                assert_eq!(e.offset(), at, "{e}");
            }
        }
    }
}

#[test]
fn each_bool_slot_reads_0_as_false_and_1_as_true_through_every_view() {
    let bytes = flags().to_bytes().unwrap();
    let slots = bool_slots(&bytes);
    check(&bytes, &flags());
    for &at in &slots {
        let mut b = bytes.clone();
        b[at] ^= 1;
        // The owned value with that one bool flipped, found by decoding, then
        // checked against the original's fields: exactly one differs.
        let flipped = Flags::decode(&b).unwrap();
        let count = |f: &Flags| {
            let mut all = vec![f.live, f.muted.unwrap()];
            all.extend(f.lights);
            all.extend(&f.bits);
            all.extend(f.flags.iter().map(|f| f.on));
            all
        };
        let differ = count(&flipped)
            .iter()
            .zip(count(&flags()))
            .filter(|(a, b)| **a != *b)
            .count();
        assert_eq!(differ, 1, "byte {at}");
        check(&b, &flipped);
    }
}

#[test]
fn a_bool_set_in_place_reads_back() {
    let mut bytes = flags().to_bytes().unwrap();
    let mut view = Flags::view_mut(&mut bytes).unwrap();
    view.set_live(false);
    view.update_muted(|m| m.map(|m| !m));
    assert!(view.bits_mut().set(1, &true));
    let mut want = flags();
    want.live = false;
    want.muted = Some(true);
    want.bits[1] = true;
    check(&bytes, &want);
}
