//! Dense lists (FORMAT.md §6.8): lists of a fixed-size union. The golden vector
//! E16, every reader of it (view, decode, on demand, mutable), readers of other
//! versions (a payload that gained a field, a union that gained a variant), and the
//! errors of bad headers and elements, with their paths and offsets.

#[path = "common/cases.rs"]
mod cases;
#[path = "common/golden.rs"]
mod format_golden;
use format_golden::golden;
use proptest::prelude::*;
use wiremsg::{ErrorKind, Field, Kind, ListEncoding, WireMsg, WireUnion};

#[path = "common/side.rs"]
mod side;

#[path = "common/e16.rs"]
mod e16_types;
#[path = "common/format_guess.rs"]
mod format_guess;
use e16_types::{Batch, Event, EventMut, EventView, Fill, e16};
use format_guess::format_3_reading;

fn encoding<T: Field>() -> ListEncoding {
    <T::Kind as Kind>::LIST_ENCODING
}

#[test]
fn only_fixed_size_unions_are_dense() {
    #[derive(WireUnion, Debug)]
    #[repr(u8)]
    enum WithText {
        A = 0,
        B { note: String } = 1,
    }
    #[derive(WireUnion, Debug)]
    #[repr(u8)]
    enum WithCatchAll {
        A = 0,
        #[wire(other)]
        Other {
            tag: u8,
            bytes: Vec<u8>,
        },
    }
    assert_eq!(encoding::<Event>(), ListEncoding::Dense);
    assert_eq!(encoding::<WithText>(), ListEncoding::Table);
    assert_eq!(encoding::<WithCatchAll>(), ListEncoding::Table);
}

#[test]
fn e16_golden_bytes_view_decode_and_on_demand() {
    let bytes = golden("E16");
    assert_eq!(bytes.len(), 62);
    assert_eq!(e16().to_bytes().unwrap(), bytes);
    let view = Batch::view(&bytes).unwrap();
    let events = view.events();
    assert_eq!(events.len(), 3);
    match events.get(0).unwrap() {
        EventView::Fill(fill) => assert_eq!((fill.qty(), fill.px()), (3, 100)),
        other => panic!("{other:?}"),
    }
    assert!(matches!(events.get(1), Some(EventView::Heartbeat)));
    match events.get(2).unwrap() {
        EventView::Cancel(cancel) => assert_eq!(cancel.id(), 9),
        other => panic!("{other:?}"),
    }
    assert!(events.get(3).is_none());
    assert_eq!(Batch::decode(&bytes).unwrap(), e16());
    assert_eq!(view.decode(), e16());

    let lazy = Batch::view_lazy(&bytes).unwrap();
    let list = lazy.events().unwrap();
    assert_eq!(list.len(), 3);
    let tags: Vec<&str> = list
        .iter()
        .map(|e| match e.unwrap() {
            e16_types::EventLazy::Fill(_) => "Fill",
            e16_types::EventLazy::Heartbeat => "Heartbeat",
            e16_types::EventLazy::Cancel(_) => "Cancel",
        })
        .collect();
    assert_eq!(tags, ["Fill", "Heartbeat", "Cancel"]);
    assert_eq!(list.to_view().unwrap(), events);
}

#[test]
fn e16_mutable_view_updates_payloads_in_place() {
    let mut bytes = golden("E16");
    let mut batch = Batch::view_mut(&mut bytes).unwrap();
    let mut events = batch.events_mut();
    if let Some(EventMut::Fill(mut fill)) = events.get_mut(0) {
        fill.set_qty(30);
    }
    for event in events.iter_mut() {
        if let EventMut::Cancel(mut cancel) = event {
            cancel.set_id(10);
        }
    }
    assert!(events.get_mut(3).is_none());
    let mut want = e16();
    want.events[0] = Event::Fill(Fill { qty: 30, px: 100 });
    want.events[2] = Event::Cancel { id: 10 };
    assert_eq!(Batch::decode(&bytes).unwrap(), want);
    // Only the payload bytes changed: the padding is still zero.
    assert_eq!(bytes[37..49], [0; 12]);
}

#[test]
fn an_empty_list_is_an_empty_region() {
    let bytes = Batch {
        seq: 2,
        events: vec![],
    }
    .to_bytes()
    .unwrap();
    assert_eq!(bytes.len(), 10);
    assert_eq!(Batch::view(&bytes).unwrap().events().len(), 0);
}

/// Older and newer readers of E16's union.
mod v {
    pub(super) mod old {
        use wiremsg::{WireMsg, WireUnion};

        /// `Fill` before it had `px`.
        #[derive(WireMsg, Debug, PartialEq, Clone)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
        }

        /// The union before it had `Cancel`.
        #[derive(WireUnion, Debug, PartialEq, Clone)]
        #[repr(u8)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
        }

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        pub(crate) struct Batch {
            pub(crate) seq: u32,
            pub(crate) events: Vec<Event>,
        }
    }

    pub(super) mod new {
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        #[wire(version = 2)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
            #[wire(since = 2, default = -1)]
            pub(crate) px: i64,
        }

        #[derive(WireUnion, Debug, PartialEq, Clone)]
        #[repr(u8)]
        #[wire(version = 2)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
            #[wire(since = 2)]
            Cancel {
                id: u16,
            } = 5,
        }

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        pub(crate) struct Batch {
            pub(crate) seq: u32,
            pub(crate) events: Vec<Event>,
        }
    }
}

#[test]
fn a_newer_reader_reads_an_older_writers_list() {
    let old = v::old::Batch {
        seq: 4,
        events: vec![
            v::old::Event::Fill(v::old::Fill { qty: 7 }),
            v::old::Event::Heartbeat,
        ],
    };
    let bytes = old.to_bytes().unwrap();
    // Stride 5 (tag and the old 4-byte `Fill`), 2 entries.
    assert_eq!(bytes[10..20], [5, 0, 2, 0, 0, 0, 0, 1, 4, 0]);
    let view = v::new::Batch::view(&bytes).unwrap();
    match view.events().get(0).unwrap() {
        v::new::EventView::Fill(fill) => {
            assert_eq!((fill.qty(), fill.px(), fill.has_px()), (7, -1, false))
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        v::new::Batch::decode(&bytes).unwrap().events,
        [
            v::new::Event::Fill(v::new::Fill { qty: 7, px: -1 }),
            v::new::Event::Heartbeat
        ]
    );
}

#[test]
fn an_older_reader_reads_a_newer_writers_list_without_new_variants() {
    let new = v::new::Batch {
        seq: 4,
        events: vec![
            v::new::Event::Heartbeat,
            v::new::Event::Fill(v::new::Fill { qty: 7, px: 9 }),
        ],
    };
    let bytes = new.to_bytes().unwrap();
    // The newer writer's table names `Cancel`, which no element uses.
    assert_eq!(
        v::old::Batch::decode(&bytes).unwrap().events,
        [
            v::old::Event::Heartbeat,
            v::old::Event::Fill(v::old::Fill { qty: 7 })
        ]
    );
    let with_cancel = v::new::Batch {
        seq: 4,
        events: vec![v::new::Event::Heartbeat, v::new::Event::Cancel { id: 1 }],
    };
    let bytes = with_cancel.to_bytes().unwrap();
    let err = v::old::Batch::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownVariant {
            union_name: "Event".into(),
            tag: 5
        }
    );
    // Header 4 + 3 entries of 3; stride 13: element 1 at 10 + 13 + 13.
    assert_eq!((err.offset(), err.path().as_str()), (36, "events[1]"));
}

#[test]
fn e16_without_a_variant_fails_at_the_element_that_uses_it() {
    let bytes = golden("E16");
    let err = v::old::Batch::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownVariant {
            union_name: "Event".into(),
            tag: 5
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (49, "events[2]"));
    let lazy = v::old::Batch::view_lazy(&bytes).unwrap();
    let events = lazy.events().unwrap();
    assert!(events.get(0).unwrap().is_ok());
    let err = events.get(2).unwrap().unwrap_err();
    assert_eq!((err.offset(), err.path().as_str()), (49, "events[2]"));
}

/// E16 with `f` applied to its bytes.
fn e16_with(f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = golden("E16");
    f(&mut bytes);
    bytes
}

/// Every reader's error for `bytes`: up front, on demand (the list's or the
/// element's), and decoding; all must agree.
fn error_of(bytes: &[u8]) -> wiremsg::Error {
    let up_front = Batch::view(bytes).unwrap_err();
    let same = |e: &wiremsg::Error| (e.kind().clone(), e.offset(), e.path().to_string());
    assert_eq!(same(&Batch::decode(bytes).unwrap_err()), same(&up_front));
    let lazy = Batch::view_lazy(bytes)
        .and_then(|l| l.events())
        .and_then(|list| list.iter().collect::<Result<Vec<_>, _>>().map(|_| ()))
        .and_then(|()| Batch::view_lazy(bytes)?.events()?.to_view().map(|_| ()))
        .unwrap_err();
    assert_eq!(
        same(&lazy),
        same(&up_front),
        "on demand and up front disagree"
    );
    up_front
}

#[test]
fn an_entry_index_past_the_table_is_refused() {
    let err = error_of(&e16_with(|b| b[36] = 3));
    assert_eq!(
        err.kind(),
        &ErrorKind::VariantEntryOutOfRange {
            index: 3,
            entries: 3
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (36, "events[1]"));
}

#[test]
fn an_entry_longer_than_the_stride_is_refused() {
    // Fill's block length 13: with its index, 14 bytes in a 13-byte stride.
    let err = error_of(&e16_with(|b| b[18] = 13));
    assert_eq!(
        err.kind(),
        &ErrorKind::StrideTooSmall {
            stride: 13,
            required: 14
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (18, "events"));
}

#[test]
fn a_payload_under_its_messages_block_is_refused() {
    // Fill's entry says 8 bytes: the reader's `Fill` needs 12.
    let err = error_of(&e16_with(|b| b[18] = 8));
    assert!(
        matches!(
            err.kind(),
            ErrorKind::Truncated { .. } | ErrorKind::BlockLengthTooSmall { .. }
        ),
        "{err}"
    );
    assert_eq!(err.path().as_str(), "events[0].Fill");
}

#[test]
fn a_list_that_is_not_whole_strides_is_refused() {
    // The stride 12: 39 bytes of elements are not whole ones; and Fill no longer fits.
    let err = error_of(&e16_with(|b| b[10] = 14));
    assert_eq!(
        err.kind(),
        &ErrorKind::ListLengthMismatch {
            len: 39,
            element_size: 14
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (23, "events"));
}

#[test]
fn a_table_past_the_list_is_truncated() {
    // 40 entries of 3 bytes: 124 bytes of header in a 52-byte list.
    let err = error_of(&e16_with(|b| b[12] = 40));
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 124,
            available: 52
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (10, "events"));
}

#[test]
fn format_2_bytes_are_refused_by_name() {
    // E16's value as format 2 wrote it: a table of start offsets to each element's
    // tag and payload (§6.4).
    let mut list = Vec::new();
    let elements: [&[u8]; 3] = [&[1, 3, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0], &[0], &[5, 9, 0]];
    let mut start = 12u32;
    for e in elements {
        list.extend(start.to_le_bytes());
        start += e.len() as u32;
    }
    for e in elements {
        list.extend_from_slice(e);
    }
    let mut bytes = vec![10, 0, 1, 0, 0, 0];
    bytes.extend(((10 + list.len()) as u32).to_le_bytes());
    bytes.extend(list);
    let err = error_of(&bytes);
    assert_eq!(
        err.kind(),
        &ErrorKind::UnsupportedFormat {
            version: 2,
            supported: 3
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (10, "events"));
    // Told from the shape: the format-3 reading is the `source()` and in the message.
    let current = format_3_reading(&err);
    assert!(current.path().starts_with("events"), "{current}");
}

#[test]
fn a_u16_repr_union_is_dense_with_two_byte_indexes() {
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    enum Wide {
        A { x: u8 } = 0x0100,
        B = 0x0200,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    struct Holder {
        items: Vec<Wide>,
    }
    let value = Holder {
        items: vec![Wide::B, Wide::A { x: 7 }],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(
        bytes[6..],
        [
            3, 0, 2, 0, // stride 3, 2 entries
            0, 1, 1, 0, // A: tag 0x0100, block length 1
            0, 2, 0, 0, // B: tag 0x0200, block length 0
            1, 0, 0, // [0] entry 1 (B), padding
            0, 0, 7, // [1] entry 0 (A), x = 7
        ]
    );
    assert_eq!(Holder::decode(&bytes).unwrap(), value);
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        Just(Event::Heartbeat),
        (any::<u32>(), any::<i64>()).prop_map(|(qty, px)| Event::Fill(Fill { qty, px })),
        any::<u16>().prop_map(|id| Event::Cancel { id }),
    ]
}

proptest! {
    // Few cases under Miri (the CI's Miri step runs this file).
    #![proptest_config(ProptestConfig::with_cases(cases::cases(256)))]

    #[test]
    fn lists_round_trip_and_read_alike_every_way(
        events in proptest::collection::vec(event(), 0..40),
    ) {
        let batch = Batch { seq: 9, events };
        let bytes = batch.to_bytes().unwrap();
        let n = batch.events.len();
        let expected = if n == 0 { 10 } else { 10 + 4 + 9 + 13 * n };
        prop_assert_eq!(bytes.len(), expected);
        prop_assert_eq!(&Batch::decode(&bytes).unwrap(), &batch);
        let view = Batch::view(&bytes).unwrap();
        let lazy = Batch::view_lazy(&bytes).unwrap();
        let list = lazy.events().unwrap();
        prop_assert!(list.iter().all(|e| e.is_ok()));
        prop_assert_eq!(list.to_view().unwrap(), view.events());
        let read: Vec<Event> = view.events().iter().map(|e| e.decode()).collect();
        prop_assert_eq!(&read, &batch.events);
    }

    #[test]
    fn flipped_bytes_never_read_differently_up_front_and_on_demand(
        events in proptest::collection::vec(event(), 1..6),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
    ) {
        let mut bytes = Batch { seq: 9, events }.to_bytes().unwrap();
        let i = at.index(bytes.len() - 10) + 10;
        bytes[i] = byte;
        match Batch::view(&bytes) {
            Ok(view) => {
                let lazy = Batch::view_lazy(&bytes).unwrap().events().unwrap();
                prop_assert_eq!(lazy.to_view().unwrap(), view.events());
            }
            Err(_) => { error_of(&bytes); }
        }
    }
}

/// Format 2's table list of two elements whose first start offset, read as a dense
/// header, is a stride of 8 and no entries: refused by name, not as an index.
#[test]
fn a_small_format_2_list_is_refused_by_name() {
    let list = [8, 0, 0, 0, 9, 0, 0, 0, 0, 5, 9, 0]; // starts 8, 9; Heartbeat; Cancel(9)
    let mut bytes = vec![10, 0, 1, 0, 0, 0];
    bytes.extend(((10 + list.len()) as u32).to_le_bytes());
    bytes.extend(list);
    let err = error_of(&bytes);
    assert_eq!(
        err.kind(),
        &ErrorKind::UnsupportedFormat {
            version: 2,
            supported: 3
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (10, "events"));
}

/// A writer that declares the variants in another order: the same value, its table
/// in that order and its entry indexes after it. Every reader, up front, on demand
/// and mutable, reads by the entries' tags, not by the places of its own variants.
#[test]
fn a_table_in_another_order_reads_by_its_tags() {
    let bytes = e16_with(|b| {
        // Entries 0 and 2 swapped (Heartbeat and Cancel), and the indexes with them.
        b[14..23].copy_from_slice(&[5, 2, 0, 1, 12, 0, 0, 0, 0]);
        b[36] = 2;
        b[49] = 0;
    });
    assert_eq!(Batch::decode(&bytes).unwrap(), e16());
    let view = Batch::view(&bytes).unwrap();
    assert!(matches!(view.events().get(1), Some(EventView::Heartbeat)));
    let lazy = Batch::view_lazy(&bytes).unwrap();
    assert_eq!(lazy.events().unwrap().to_view().unwrap(), view.events());
    let mut bytes = bytes;
    let mut batch = Batch::view_mut(&mut bytes).unwrap();
    let mut events = batch.events_mut();
    let names: Vec<&str> = events
        .iter_mut()
        .map(|e| match e {
            EventMut::Heartbeat => "Heartbeat",
            EventMut::Fill(_) => "Fill",
            EventMut::Cancel(_) => "Cancel",
        })
        .collect();
    assert_eq!(names, ["Fill", "Heartbeat", "Cancel"]);
    assert!(matches!(events.get_mut(2), Some(EventMut::Cancel(_))));
}

/// Up-front validation checks one element per variant-table entry of a variant whose
/// bytes need no check (numbers alone) and skips the others of that entry: every
/// element of a variant with checks is still checked, wherever it is, and the error
/// is at the same element and offset as on demand and in decoding.
mod checked_beside_unchecked {
    use super::*;
    // `Add` is checked: its `side` byte.
    pub(crate) use crate::side::{Add, Side};

    /// Numbers alone: any bytes of its block are a `Del`.
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Del {
        pub(crate) id: u64,
    }

    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub(crate) enum Ev {
        Add(Add) = 0,
        Del(Del) = 1,
        Beat = 2,
    }

    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Evs {
        pub(crate) events: Vec<Ev>,
    }

    /// A marker price: the one element whose bytes a test breaks.
    pub(crate) const MARK: i64 = 0x1122_3344_5566_7788;

    /// 200 events, three kinds in turn, the `Add` at `marked` with price `MARK`.
    pub(crate) fn events(marked: usize) -> Evs {
        let events = (0..200)
            .map(|i| match i % 3 {
                _ if i == marked => Ev::Add(Add {
                    px: MARK,
                    side: Side::Sell,
                }),
                0 => Ev::Add(Add {
                    px: i as i64,
                    side: Side::Buy,
                }),
                1 => Ev::Del(Del { id: i as u64 }),
                _ => Ev::Beat,
            })
            .collect();
        Evs { events }
    }

    /// Where `MARK`'s bytes start.
    pub(crate) fn mark_at(bytes: &[u8]) -> usize {
        let mark = MARK.to_le_bytes();
        bytes.windows(8).position(|w| w == mark).unwrap()
    }
}

#[test]
fn every_element_of_a_checked_variant_is_checked_between_unchecked_ones() {
    use checked_beside_unchecked::{Evs, events, mark_at};
    for marked in [0, 3, 99, 150, 198] {
        let value = events(marked);
        let mut bytes = value.to_bytes().unwrap();
        assert_eq!(Evs::decode(&bytes).unwrap(), value);
        // `side` follows the price in `Add`'s block: 7 is no `Side`.
        let side_at = mark_at(&bytes) + 8;
        assert_eq!(bytes[side_at], 1);
        bytes[side_at] = 7;
        let up_front = Evs::view(&bytes).unwrap_err();
        assert!(
            matches!(
                up_front.kind(),
                ErrorKind::UnknownEnumValue { value: 7, .. }
            ),
            "{up_front}"
        );
        assert_eq!(up_front.offset(), side_at);
        assert_eq!(
            up_front.path().as_str(),
            format!("events[{marked}].Add.side")
        );
        let decoded = Evs::decode(&bytes).unwrap_err();
        assert_eq!(
            (decoded.offset(), decoded.path()),
            (side_at, up_front.path())
        );
        // On demand, the list's `to_view` validates what up-front validation does.
        let lazy = Evs::view_lazy(&bytes)
            .and_then(|l| l.events()?.to_view().map(|_| ()))
            .unwrap_err();
        assert_eq!((lazy.offset(), lazy.path()), (side_at, up_front.path()));
    }
}
