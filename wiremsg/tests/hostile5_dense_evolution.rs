//! The derive's evolution rule for fixed-size unions (FORMAT.md §4.10, §6.8): a
//! variant added after version 1 must keep a fixed-size union fixed-size, so that
//! its lists keep the dense shape. Cases the rule must catch, and what happens to an
//! older writer's list when it does not.

use wiremsg::{Field, Kind, ListEncoding, WireMsg, WireUnion};

fn encoding<T: Field>() -> ListEncoding {
    <T::Kind as Kind>::LIST_ENCODING
}

mod v1 {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub struct Fill {
        pub qty: u32,
    }
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub struct Batch {
        pub seq: u32,
        pub events: Vec<Event>,
    }
}

/// Version 2 adds a catch-all, `#[wire(since = 2)]`. FORMAT.md §4.10: "A union that
/// will need variants with a tail declares a catch-all from version 1"; §5's table:
/// "a variant with a tail, or a catch-all, added to a fixed-size union (its lists
/// change from dense to table lists): breaking". The derive's rule
/// (`keeps_its_list_shape`) should refuse it, as it refuses a later variant with a
/// tail; `fixed_at_v1` (union.rs) instead counts a later catch-all as "not a
/// version-1 variant that is not fixed-size" and lets the whole check pass.
mod v2_catch_all {
    use wiremsg::{WireMsg, WireUnion};
    pub use super::v1::Fill;
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    #[wire(version = 2)]
    pub enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
        #[wire(other, since = 2)]
        Other { tag: u8, bytes: Vec<u8> },
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub struct Batch {
        pub seq: u32,
        pub events: Vec<Event>,
    }
}

#[test]
#[ignore = "bug: the derive accepts a #[wire(since = 2)] catch-all on a union whose version-1 variants are fixed-size: its lists silently change from dense to table lists, and every older writer's list fails to read"]
fn a_later_catch_all_changes_the_list_shape() {
    assert_eq!(encoding::<v1::Event>(), ListEncoding::Dense);
    let old = v1::Batch {
        seq: 1,
        events: vec![v1::Event::Fill(v1::Fill { qty: 3 }), v1::Event::Heartbeat],
    };
    let bytes = old.to_bytes().unwrap();
    // The rule is that the shape does not change; the newer reader must read the
    // older writer's list.
    assert_eq!(encoding::<v2_catch_all::Event>(), ListEncoding::Dense);
    let new = v2_catch_all::Batch::decode(&bytes).expect("a newer reader reads an older list");
    assert_eq!(new.events.len(), 2);
}

/// What happens today (the regression half of the bug above): the shapes differ and
/// the newer reader refuses the older writer's bytes.
#[test]
fn a_later_catch_all_today_makes_table_lists() {
    assert_eq!(encoding::<v2_catch_all::Event>(), ListEncoding::Table);
    let old = v1::Batch {
        seq: 1,
        events: vec![v1::Event::Fill(v1::Fill { qty: 3 }), v1::Event::Heartbeat],
    };
    let bytes = old.to_bytes().unwrap();
    let err = v2_catch_all::Batch::decode(&bytes).unwrap_err();
    eprintln!("{err:?}");
}
