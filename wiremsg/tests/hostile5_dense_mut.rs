//! Mutable views of hostile dense lists (FORMAT.md §6.8): `get_mut` and `iter_mut`
//! over tables that are not the reader's (permuted, duplicate tags with different
//! block lengths, an older payload version's block, non-zero bytes up to the
//! stride), with every payload setter and updater: a set lands in its element's
//! payload alone, a field the entry's block lacks is refused (nothing written), and
//! the bytes stay valid and read alike by every reader.

use wiremsg::WireMsg;

mod t {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    #[wire(version = 2)]
    pub(crate) struct Fill {
        pub(crate) qty: u32,
        #[wire(since = 2, default = -7)]
        pub(crate) px: i64,
    }
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    pub(crate) enum E {
        H = 0,
        F(Fill) = 1,
        C { id: u16, flag: bool } = 5,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Batch {
        pub(crate) seq: u32,
        pub(crate) events: Vec<E>,
    }
}
use t::{Batch, E, EMut, Fill};

fn batch(region: &[u8]) -> Vec<u8> {
    let mut out = vec![10, 0, 1, 0, 0, 0];
    out.extend_from_slice(&((10 + region.len()) as u32).to_le_bytes());
    out.extend_from_slice(region);
    out
}

/// Stride 16 (tag 2 + 12 + 2 spare), a table in another order than the reader's
/// with `Fill` twice: once with the version-1 block (4, no `px`), once with 12;
/// `C` with a block of 3; `H`. Elements: each entry once, and the spare and
/// padding bytes 0xAA.
fn hostile() -> Vec<u8> {
    let mut r = vec![16, 0, 4, 0];
    for (tag, block) in [(5u16, 3u16), (1, 4), (0, 0), (1, 12)] {
        r.extend_from_slice(&tag.to_le_bytes());
        r.extend_from_slice(&block.to_le_bytes());
    }
    let mut el = |k: u16, payload: &[u8]| {
        let mut e = k.to_le_bytes().to_vec();
        e.extend_from_slice(payload);
        e.resize(16, 0xAA);
        r.extend(e);
    };
    el(1, &[3, 0, 0, 0]); // [0] Fill v1: qty 3
    el(0, &[9, 0, 1]); // [1] C: id 9, flag true
    el(2, &[]); // [2] H
    el(3, &[4, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0]); // [3] Fill v2: qty 4, px 100
    el(1, &[5, 0, 0, 0]); // [4] Fill v1: qty 5
    batch(&r)
}

fn want() -> Vec<E> {
    vec![
        E::F(Fill { qty: 3, px: -7 }),
        E::C { id: 9, flag: true },
        E::H,
        E::F(Fill { qty: 4, px: 100 }),
        E::F(Fill { qty: 5, px: -7 }),
    ]
}

/// Every reader, and the bytes outside the payloads unchanged from `before`.
fn agree(bytes: &[u8], before: &[u8], want: &[E]) {
    let set = wiremsg::SchemaSet::of::<Batch>().unwrap();
    let decoded = Batch::decode(bytes).unwrap();
    assert_eq!(decoded.events, want);
    let view = Batch::view(bytes).unwrap();
    assert_eq!(view.decode(), decoded);
    let lazy = Batch::view_lazy(bytes).unwrap();
    assert_eq!(lazy.events().unwrap().to_view().unwrap(), view.events());
    assert!(wiremsg::dynamic::view(&set, "Batch", bytes).is_ok());
    assert!(
        wiremsg::dynamic::annotate(&set, "Batch", bytes, false)
            .error()
            .is_none()
    );
    // Payloads are at element + 2 for the entry's block; nothing else changed.
    let blocks = [4usize, 3, 0, 12, 4];
    let first = 10 + 4 + 4 * 4;
    for (i, (a, b)) in bytes.iter().zip(before).enumerate() {
        let in_payload = i >= first && {
            let e = (i - first) / 16;
            let o = (i - first) % 16;
            o >= 2 && o < 2 + blocks[e]
        };
        if !in_payload {
            assert_eq!(a, b, "byte {i} outside the payloads changed");
        }
    }
}

#[test]
fn hostile_table_reads_alike_before_any_set() {
    let bytes = hostile();
    agree(&bytes, &bytes, &want());
    // v1 Fill payloads: `has_px` false through every reader.
    let view = Batch::view(&bytes).unwrap();
    let t::EView::F(f) = view.events().get(0).unwrap() else {
        panic!()
    };
    assert!(!f.has_px());
    assert_eq!(f.px(), -7);
}

#[test]
fn get_mut_sets_land_in_their_payloads_and_refuse_absent_fields() {
    let mut bytes = hostile();
    let before = bytes.clone();
    {
        let mut b = Batch::view_mut(&mut bytes).unwrap();
        let mut evs = b.events_mut();
        for i in 0..5 {
            match evs.get_mut(i).unwrap() {
                EMut::F(mut f) => {
                    f.set_qty(100 + i as u32);
                    let had = [false, false, false, true, false][i];
                    assert_eq!(f.set_px(-1000 - i as i64), had, "set_px at {i}");
                    assert_eq!(f.update_px(|p| p + 1), had, "update_px at {i}");
                }
                EMut::C(mut c) => {
                    c.set_id(77);
                    c.set_flag(false);
                }
                EMut::H => {}
            }
        }
        assert!(evs.get_mut(5).is_none());
        assert!(evs.get_mut(usize::MAX).is_none());
    }
    let mut w = want();
    w[0] = E::F(Fill { qty: 100, px: -7 });
    w[1] = E::C {
        id: 77,
        flag: false,
    };
    w[3] = E::F(Fill {
        qty: 103,
        px: -1002,
    });
    w[4] = E::F(Fill { qty: 104, px: -7 });
    agree(&bytes, &before, &w);
}

#[test]
fn iter_mut_sets_land_in_their_payloads_and_refuse_absent_fields() {
    let mut bytes = hostile();
    let before = bytes.clone();
    {
        let mut b = Batch::view_mut(&mut bytes).unwrap();
        let mut evs = b.events_mut();
        let mut n = 0;
        for (i, e) in evs.iter_mut().enumerate() {
            n += 1;
            match e {
                EMut::F(mut f) => {
                    f.update_qty(|q| q * 2);
                    let had = i == 3;
                    assert_eq!(f.set_px(i64::MIN), had, "set_px at {i}");
                }
                EMut::C(mut c) => c.update_id(|x| x + 1),
                EMut::H => {}
            }
        }
        assert_eq!(n, 5);
    }
    let mut w = want();
    w[0] = E::F(Fill { qty: 6, px: -7 });
    w[1] = E::C { id: 10, flag: true };
    w[3] = E::F(Fill {
        qty: 8,
        px: i64::MIN,
    });
    w[4] = E::F(Fill { qty: 10, px: -7 });
    agree(&bytes, &before, &w);
}

/// A table with `Fill`'s entry block of 0 and 2 (under its version-1 block, 4)
/// is refused by every reader, mutable too, even where no element uses the entry
/// (`header` checks only stride room; the payload check is per used element).
#[test]
fn blocks_under_version_1_are_refused_where_used() {
    for block in [0u16, 1, 2, 3, 5, 11] {
        let mut r = vec![14, 0, 2, 0];
        for (tag, b) in [(0u16, 0u16), (1, block)] {
            r.extend_from_slice(&tag.to_le_bytes());
            r.extend_from_slice(&b.to_le_bytes());
        }
        // Element [0] H only: the bad entry is unused, so accepted.
        let mut unused = r.clone();
        unused.extend(vec![0u8; 14]);
        let unused = batch(&unused);
        assert_eq!(
            Batch::decode(&unused).unwrap().events,
            vec![E::H],
            "block {block}"
        );
        // Element [0] uses it: refused everywhere alike.
        let mut used = r.clone();
        let mut el = vec![1u8, 0];
        el.resize(14, 0);
        used.extend(el);
        let used = batch(&used);
        let typed = Batch::view(&used).unwrap_err();
        let set = wiremsg::SchemaSet::of::<Batch>().unwrap();
        let dynamic = wiremsg::dynamic::view(&set, "Batch", &used).unwrap_err();
        assert_eq!(typed.to_string(), dynamic.to_string(), "block {block}");
        let mut copy = used.clone();
        assert!(Batch::view_mut(&mut copy).is_err());
        let lazy = Batch::view_lazy(&used).unwrap();
        let element = lazy.events().unwrap().get(0).unwrap();
        // On demand, a block under version 1's fails at the element; one that ends
        // inside `px` (5..=11) fails at `px` (the on-demand view checks a field
        // when it is read), with the up-front error.
        let err = match element {
            Err(err) => {
                assert!(block < 4, "block {block}");
                err
            }
            Ok(t::ELazy::F(f)) => {
                assert!(block > 4, "block {block}");
                assert_eq!(f.qty().unwrap(), 0);
                f.px().unwrap_err()
            }
            Ok(other) => panic!("{other:?}"),
        };
        assert_eq!(err.to_string(), typed.to_string(), "block {block}");
    }
}

/// A writer that declares the variants in another order (its table is a
/// permutation of the reader's, so reads take the entry's tag, not the fast path),
/// in a list of lists and an option: mutable views through `list_mut`, then
/// `get_mut` and `iter_mut` of the inner dense lists.
mod permuted {
    pub(crate) use super::t::Fill;
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    pub(crate) enum E {
        C { id: u16, flag: bool } = 5,
        F(Fill) = 1,
        H = 0,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Nest {
        pub(crate) lists: Vec<Vec<E>>,
        pub(crate) opt: Option<Vec<E>>,
    }
}

mod reader {
    pub(crate) use super::t::E;
    use wiremsg::WireMsg;
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Nest {
        pub(crate) lists: Vec<Vec<E>>,
        pub(crate) opt: Option<Vec<E>>,
    }
}

#[test]
fn permuted_tables_in_lists_of_lists_mutate_by_their_tags() {
    use permuted::E as P;
    let value = permuted::Nest {
        lists: vec![
            vec![],
            vec![
                P::H,
                P::F(Fill { qty: 1, px: 2 }),
                P::C { id: 3, flag: true },
            ],
            vec![P::C { id: 4, flag: false }],
        ],
        opt: Some(vec![P::F(Fill { qty: 5, px: 6 }), P::H]),
    };
    let mut bytes = value.to_bytes().unwrap();
    let before = reader::Nest::decode(&bytes).unwrap();
    assert_eq!(
        before.lists[1],
        vec![
            E::H,
            E::F(Fill { qty: 1, px: 2 }),
            E::C { id: 3, flag: true }
        ]
    );
    {
        let mut n = reader::Nest::view_mut(&mut bytes).unwrap();
        let mut lists = n.lists_mut();
        assert!(lists.list_mut::<E>(0).unwrap().get_mut(0).is_none());
        let mut inner = lists.list_mut::<E>(1).unwrap();
        let names: Vec<&str> = inner
            .iter_mut()
            .map(|e| match e {
                EMut::H => "H",
                EMut::F(mut f) => {
                    f.set_qty(10);
                    assert!(f.set_px(20));
                    "F"
                }
                EMut::C(mut c) => {
                    c.set_flag(false);
                    "C"
                }
            })
            .collect();
        assert_eq!(names, ["H", "F", "C"]);
        let mut inner = lists.list_mut::<E>(2).unwrap();
        match inner.get_mut(0).unwrap() {
            EMut::C(mut c) => c.set_id(40),
            other => panic!("{other:?}"),
        }
        assert!(lists.list_mut::<E>(3).is_none());
    }
    let after = reader::Nest::decode(&bytes).unwrap();
    assert_eq!(
        after.lists,
        vec![
            vec![],
            vec![
                E::H,
                E::F(Fill { qty: 10, px: 20 }),
                E::C { id: 3, flag: false }
            ],
            vec![E::C {
                id: 40,
                flag: false
            }],
        ]
    );
    assert_eq!(after.opt, Some(vec![E::F(Fill { qty: 5, px: 6 }), E::H]));
    // The writer's own type reads the same values.
    let w = permuted::Nest::decode(&bytes).unwrap();
    assert_eq!(w.lists[1][1], P::F(Fill { qty: 10, px: 20 }));
    let set = wiremsg::SchemaSet::of::<reader::Nest>().unwrap();
    assert!(wiremsg::dynamic::view(&set, "Nest", &bytes).is_ok());
}
