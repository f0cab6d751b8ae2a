//! Bounded dense lists (FORMAT.md §6.5, §6.8): a list over its maximum that also
//! holds a bad element, read up front, on demand and by the schema.

use wiremsg::{SchemaSet, WireMsg};

mod t {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub(crate) enum E {
        H = 0,
        C { id: u16 } = 5,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Capped {
        #[wire(max_len = 2)]
        pub(crate) events: Vec<E>,
        pub(crate) inner: Option<Vec<Vec<E>>>,
    }
}
use t::*;

fn region(indexes: &[u8]) -> Vec<u8> {
    let mut r = vec![3, 0, 2, 0, 0, 0, 0, 5, 2, 0];
    for &k in indexes {
        r.extend_from_slice(&[k, 1, 0]);
    }
    r
}

fn capped(events: &[u8]) -> Vec<u8> {
    // Block: events end offset (u32), inner: option slot (presence + u32 end).
    let region = region(events);
    let block = 2 + 4 + 5;
    let mut out = vec![block as u8, 0];
    let end = block + region.len();
    out.extend_from_slice(&(end as u32).to_le_bytes());
    out.push(0);
    out.extend_from_slice(&(end as u32).to_le_bytes());
    out.extend_from_slice(&region);
    out
}

fn errors(bytes: &[u8]) -> (String, String, String, String) {
    let set = SchemaSet::of::<Capped>().unwrap();
    let typed = Capped::view(bytes).map(|_| ()).unwrap_err().to_string();
    let dynamic = wiremsg::dynamic::view(&set, "Capped", bytes)
        .map(|_| ())
        .unwrap_err()
        .to_string();
    let lazy = Capped::view_lazy(bytes).unwrap();
    let lazy = match lazy.events() {
        Err(e) => e.to_string(),
        Ok(list) => list
            .iter()
            .find_map(|e| e.err())
            .map_or_else(|| "no error".into(), |e| e.to_string()),
    };
    let dl = wiremsg::dynamic::view_lazy(&set, "Capped", bytes).unwrap();
    let dlazy = dl.get("events").map(|_| ()).unwrap_err().to_string();
    (typed, dynamic, lazy, dlazy)
}

#[test]
fn sanity_the_crafted_bytes_read() {
    let bytes = capped(&[0, 1]);
    assert_eq!(
        Capped::decode(&bytes).unwrap(),
        Capped {
            events: vec![E::H, E::C { id: 1 }],
            inner: None
        }
    );
    let (t, d, l, dl) = errors(&capped(&[0, 1, 0]));
    assert!(
        t.contains("longer than its declared maximum of 2 at byte 11"),
        "{t}"
    );
    assert_eq!((&t, &t, &t), (&d, &l, &dl));
}

/// Three elements (max 2), the third with an entry index past the table. Every
/// reader names the bad index: up front and schema-driven validate the elements
/// before the count (FORMAT.md §6.5), and the typed on-demand list, opened over its
/// maximum, validates it whole to find that error first (`BoundedListOf::lazy`).
/// (Before, it said `ListTooLong`: the `lazy` fuzz target's first find.)
#[test]
fn too_long_and_a_bad_element_order_of_errors() {
    let (t, d, l, dl) = errors(&capped(&[0, 1, 7]));
    assert_eq!(t, d, "typed vs dynamic");
    assert_eq!(t, dl, "typed vs dynamic lazy");
    assert_eq!(t, l, "typed up front vs on demand");
    assert!(
        t.contains(
            "variant entry 7 of a dense list whose variant table has 2 entries at byte 27 in `events[2]`"
        ),
        "{t}"
    );
}

/// The same order with a bounded table list of strings (not dense): the third
/// string not UTF-8. Up front and on demand both name the string.
#[test]
fn the_order_is_the_same_for_table_lists() {
    #[derive(WireMsg, Debug, PartialEq)]
    struct Names {
        #[wire(max_len = 2)]
        names: Vec<String>,
    }
    /// The same bytes without the bound (the writer refuses a list over it).
    #[derive(WireMsg, Debug, PartialEq)]
    struct Twin {
        names: Vec<String>,
    }
    let mut bytes = Twin {
        names: vec!["a".into(), "b".into(), "c".into()],
    }
    .to_bytes()
    .unwrap();
    let last = bytes.len() - 1;
    bytes[last] = 0xff;
    let typed = Names::view(&bytes).map(|_| ()).unwrap_err().to_string();
    let lazy = Names::view_lazy(&bytes).unwrap();
    let lazy = lazy.names().map(|_| ()).unwrap_err().to_string();
    assert!(typed.contains("names[2]"), "{typed}");
    assert_eq!(lazy, typed);
}
