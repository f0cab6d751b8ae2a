//! The evolution rule of fixed-size unions (FORMAT.md §4.10, §6.8): a variant added
//! after version 1 must keep a fixed-size union fixed-size, so that its lists keep
//! the dense shape. Probed by hand (not kept as compile-fail cases, which need
//! trybuild): the derive refuses a `since = 2` variant with a tail, one whose
//! payload is `#[wire(block_length)]` (E0080 from `keeps_its_list_shape`), `since`
//! on the `#[wire(other)]` catch-all ("belongs to no version"), and generic unions
//! at all. What it cannot see (a catch-all added without `since`, which belongs to
//! no version) `schema::compat` must report as breaking. The cases that do compile:
//! a later unit variant, a later variant with a larger block (the stride grows),
//! read both ways.

use wiremsg::schema::compat;
use wiremsg::{Field, Kind, ListEncoding, SchemaSet, WireMsg};

fn encoding<T: Field>() -> ListEncoding {
    <T::Kind as Kind>::LIST_ENCODING
}

mod v1 {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Fill {
        pub(crate) qty: u32,
    }
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    pub(crate) enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) seq: u32,
        pub(crate) events: Vec<Event>,
        pub(crate) more: Option<Vec<Event>>,
        pub(crate) nested: Vec<Vec<Event>>,
    }
}

/// Version 2: a catch-all (no `since`: the derive refuses one on it), and so a
/// table list. The derive cannot tell it is new.
mod v2_catch_all {
    pub(crate) use super::v1::Fill;
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    #[wire(version = 2)]
    pub(crate) enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
        #[wire(other)]
        Other {
            tag: u16,
            bytes: Vec<u8>,
        },
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) seq: u32,
        pub(crate) events: Vec<Event>,
        pub(crate) more: Option<Vec<Event>>,
        pub(crate) nested: Vec<Vec<Event>>,
    }
}

/// Version 2: a later unit variant, and a later variant whose payload block (20)
/// is larger than any of version 1 (4): the stride grows from 6 to 22.
mod v2 {
    pub(crate) use super::v1::Fill;
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Big {
        pub(crate) a: u64,
        pub(crate) b: u64,
        pub(crate) c: u32,
    }
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    #[wire(version = 2)]
    pub(crate) enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
        #[wire(since = 2)]
        Pause = 2,
        #[wire(since = 2)]
        Big(Big) = 3,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) seq: u32,
        pub(crate) events: Vec<Event>,
        pub(crate) more: Option<Vec<Event>>,
        pub(crate) nested: Vec<Vec<Event>>,
    }
}

fn v1_value() -> v1::Batch {
    use v1::{Event, Fill};
    let evs = vec![
        Event::Fill(Fill { qty: 3 }),
        Event::Heartbeat,
        Event::Fill(Fill { qty: 4 }),
    ];
    v1::Batch {
        seq: 1,
        events: evs.clone(),
        more: Some(evs.clone()),
        nested: vec![vec![], evs.clone(), vec![Event::Heartbeat]],
    }
}

/// The derive lets a catch-all appear in version 2 (it has no version), and the
/// lists change shape; `compat` must then say so, as FORMAT.md §5's table does.
#[test]
fn a_catch_all_added_later_is_breaking_by_compat() {
    assert_eq!(encoding::<v1::Event>(), ListEncoding::Dense);
    assert_eq!(encoding::<v2_catch_all::Event>(), ListEncoding::Table);
    let old = SchemaSet::of::<v1::Batch>().unwrap();
    let new = SchemaSet::of::<v2_catch_all::Batch>().unwrap();
    let report = compat(&old, &new);
    assert!(
        report
            .changes()
            .iter()
            .any(|c| c.new_readers == wiremsg::schema::Verdict::Breaking
                && c.old_readers == wiremsg::schema::Verdict::Breaking),
        "{report}"
    );
    eprintln!("{report}");
    // And the older writer's bytes are refused, not misread.
    let bytes = v1_value().to_bytes().unwrap();
    assert!(v2_catch_all::Batch::decode(&bytes).is_err());
    assert!(v2_catch_all::Batch::view(&bytes).is_err());
}

#[test]
fn later_variants_keep_the_list_dense_and_read_both_ways() {
    assert_eq!(encoding::<v2::Event>(), ListEncoding::Dense);
    assert_eq!(<<v1::Event as Field>::Kind as Kind>::DENSE_STRIDE, 6);
    assert_eq!(<<v2::Event as Field>::Kind as Kind>::DENSE_STRIDE, 22);
    let old = SchemaSet::of::<v1::Batch>().unwrap();
    let new = SchemaSet::of::<v2::Batch>().unwrap();
    // Variants added: breaking for old readers that meet them (§5), never for new
    // readers of old bytes.
    let report = compat(&old, &new);
    assert!(
        report
            .changes()
            .iter()
            .all(|c| c.new_readers == wiremsg::schema::Verdict::Compatible),
        "{report}"
    );

    // A newer reader of an older writer's lists (stride 6, two entries: a prefix of
    // its own table, so the same-table path).
    let bytes = v1_value().to_bytes().unwrap();
    let n = v2::Batch::decode(&bytes).unwrap();
    assert_eq!(
        n.events,
        vec![
            v2::Event::Fill(v1::Fill { qty: 3 }),
            v2::Event::Heartbeat,
            v2::Event::Fill(v1::Fill { qty: 4 })
        ]
    );
    assert_eq!(n.more.as_ref(), Some(&n.events));
    assert_eq!(n.nested[1], n.events);
    let view = v2::Batch::view(&bytes).unwrap();
    assert_eq!(view.decode(), n);
    let lazy = v2::Batch::view_lazy(&bytes).unwrap();
    assert_eq!(lazy.events().unwrap().to_view().unwrap(), view.events());
    let d = wiremsg::dynamic::view(&new, "Batch", &bytes).unwrap();
    assert!(d.get("events").is_some());

    // An older reader of a newer writer's lists without new variants: stride 22,
    // four entries, the newer ones unused.
    let newer = v2::Batch {
        seq: 2,
        events: n.events.clone(),
        more: None,
        nested: vec![n.events.clone()],
    };
    let bytes = newer.to_bytes().unwrap();
    let o = v1::Batch::decode(&bytes).unwrap();
    assert_eq!(o.events, v1_value().events);
    assert_eq!(o.nested, vec![v1_value().events]);
    let lazy = v1::Batch::view_lazy(&bytes).unwrap();
    assert_eq!(
        lazy.events().unwrap().to_view().unwrap(),
        v1::Batch::view(&bytes).unwrap().events()
    );
    wiremsg::dynamic::view(&old, "Batch", &bytes).unwrap();

    // With a new variant in use: the older reader fails, at the element, alike.
    let newest = v2::Batch {
        seq: 3,
        events: vec![
            v2::Event::Heartbeat,
            v2::Event::Big(v2::Big { a: 1, b: 2, c: 3 }),
        ],
        more: Some(vec![v2::Event::Pause]),
        nested: vec![],
    };
    let bytes = newest.to_bytes().unwrap();
    let typed = v1::Batch::view(&bytes).unwrap_err();
    let dynamic = wiremsg::dynamic::view(&old, "Batch", &bytes).unwrap_err();
    assert_eq!(typed.to_string(), dynamic.to_string());
    assert!(typed.to_string().contains("events[1]"), "{typed}");
    let lazy = v1::Batch::view_lazy(&bytes).unwrap();
    let list = lazy.events().unwrap();
    assert!(list.get(0).unwrap().is_ok());
    assert_eq!(
        list.get(1).unwrap().unwrap_err().to_string(),
        typed.to_string()
    );
}
