//! Depth through dense lists (FORMAT.md §4.10, §6.8): a dense list's payload is one
//! nesting level deeper than the list, as a table list's union payload is; every
//! reader (up front, on demand, schema-driven) stops at the same depth, and a dense
//! list and a table list of a union stop at the same depth.

use wiremsg::{SchemaSet, WireMsg};

mod t {
    use wiremsg::{WireMsg, WireUnion};
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Inner {
        pub(crate) x: u16,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct Fill {
        pub(crate) qty: u32,
        pub(crate) inner: Inner,
    }
    /// Dense.
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub(crate) enum E {
        H = 0,
        F(Fill) = 1,
    }
    /// The same with a catch-all: a table list.
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub(crate) enum T {
        H = 0,
        F(Fill) = 1,
        #[wire(other)]
        Other {
            tag: u8,
            bytes: Vec<u8>,
        },
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct NodeE {
        pub(crate) next: Option<Box<NodeE>>,
        pub(crate) events: Vec<E>,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct NodeT {
        pub(crate) next: Option<Box<NodeT>>,
        pub(crate) events: Vec<T>,
    }
}
use t::*;

/// The writers: the list as raw bytes (`Vec<u8>`, a packed list whose region is
/// the bytes themselves), one nesting level shallower than the union payload, so
/// that they write what the readers refuse: a dense list of `[H, F(1, 2)]`, or the
/// table list of the same elements.
mod w {
    use wiremsg::WireMsg;
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct NodeE {
        pub(crate) next: Option<Box<NodeE>>,
        pub(crate) events: Vec<u8>,
    }
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(crate) struct NodeT {
        pub(crate) next: Option<Box<NodeT>>,
        pub(crate) events: Vec<u8>,
    }
    pub(crate) const DENSE: [u8; 4 + 3 * 2 + 2 * 7] = [
        7, 0, 2, 0, // stride 7, 2 entries
        0, 0, 0, // H, block 0
        1, 6, 0, // F, block 6
        0, 0, 0, 0, 0, 0, 0, // [0] H
        1, 1, 0, 0, 0, 2, 0, // [1] F(qty 1, x 2)
    ];
    pub(crate) const TABLE: [u8; 16] = [8, 0, 0, 0, 9, 0, 0, 0, 0, 1, 1, 0, 0, 0, 2, 0];
    pub(crate) fn chain_e(depth: usize) -> NodeE {
        let mut n = NodeE {
            next: None,
            events: DENSE.to_vec(),
        };
        for _ in 1..depth {
            n = NodeE {
                next: Some(Box::new(n)),
                events: vec![],
            };
        }
        n
    }
    pub(crate) fn chain_t(depth: usize) -> NodeT {
        let mut n = NodeT {
            next: None,
            events: TABLE.to_vec(),
        };
        for _ in 1..depth {
            n = NodeT {
                next: Some(Box::new(n)),
                events: vec![],
            };
        }
        n
    }
}

/// Ok/Err of each reader at a depth: typed view, dynamic view, dynamic annotate.
fn results<M: WireMsg>(
    set: &SchemaSet,
    bytes: &[u8],
) -> (Result<(), String>, Result<(), String>, Result<(), String>) {
    let name = M::SCHEMA.name.as_ref();
    let typed = M::view(bytes).map(|_| ()).map_err(|e| e.to_string());
    let dynamic = wiremsg::dynamic::view(set, name, bytes)
        .map(|_| ())
        .map_err(|e| e.to_string());
    let ann = wiremsg::dynamic::annotate(set, name, bytes, false);
    let ann = ann.error().map_or(Ok(()), |e| Err(e.to_string()));
    (typed, dynamic, ann)
}

/// The deepest node's events, on demand, down the chain.
fn lazy_e(bytes: &[u8]) -> Result<usize, String> {
    let mut node = NodeE::view_lazy(bytes).map_err(|e| e.to_string())?;
    loop {
        match node.next().map_err(|e| e.to_string())? {
            Some(next) => node = next,
            None => {
                let list = node.events().map_err(|e| e.to_string())?;
                let mut n = 0;
                for e in list.iter() {
                    match e.map_err(|e| e.to_string())? {
                        ELazy::F(f) => {
                            f.inner().map_err(|e| e.to_string())?;
                        }
                        ELazy::H => {}
                    }
                    n += 1;
                }
                return Ok(n);
            }
        }
    }
}

#[test]
fn dense_and_table_lists_stop_at_one_depth_in_every_reader() {
    let se = SchemaSet::of::<NodeE>().unwrap();
    let st = SchemaSet::of::<NodeT>().unwrap();
    let mut limit_e = None;
    let mut limit_t = None;
    for depth in 1..70 {
        let (be, bt) = (w::chain_e(depth).to_bytes(), w::chain_t(depth).to_bytes());
        // The writers refuse at one depth, dense or not.
        assert_eq!(
            be.is_ok(),
            bt.is_ok(),
            "writers at {depth}: {be:?} vs {bt:?}"
        );
        let (Ok(be), Ok(bt)) = (be, bt) else { break };
        let (te, de, ae) = results::<NodeE>(&se, &be);
        let (tt, dt, at) = results::<NodeT>(&st, &bt);
        assert_eq!(te, de, "dense typed vs dynamic at {depth}");
        assert_eq!(te, ae, "dense typed vs annotate at {depth}");
        assert_eq!(tt, dt, "table typed vs dynamic at {depth}");
        assert_eq!(tt, at, "table typed vs annotate at {depth}");
        assert_eq!(
            te.is_ok(),
            tt.is_ok(),
            "dense {te:?} vs table {tt:?} at {depth}"
        );
        let lazy = lazy_e(&be);
        assert_eq!(
            lazy.is_ok(),
            te.is_ok(),
            "lazy {lazy:?} vs view {te:?} at {depth}"
        );
        if let (Err(l), Err(t)) = (&lazy, &te) {
            assert_eq!(l, t, "lazy vs view error at {depth}");
        }
        if te.is_err() && limit_e.is_none() {
            eprintln!("dense at {depth}: {te:?}\ntable at {depth}: {tt:?}");
            limit_e = Some(depth);
        }
        if tt.is_err() && limit_t.is_none() {
            limit_t = Some(depth);
        }
        if let Ok(()) = te {
            let mut n = NodeE::decode(&be).unwrap();
            while let Some(next) = n.next {
                n = *next;
            }
            assert_eq!(
                n.events,
                vec![
                    E::H,
                    E::F(Fill {
                        qty: 1,
                        inner: Inner { x: 2 }
                    })
                ]
            );
            let mut n = NodeT::decode(&bt).unwrap();
            while let Some(next) = n.next {
                n = *next;
            }
            assert_eq!(
                n.events,
                vec![
                    T::H,
                    T::F(Fill {
                        qty: 1,
                        inner: Inner { x: 2 }
                    })
                ]
            );
        } else {
            assert!(NodeE::decode(&be).is_err());
        }
    }
    eprintln!("limits: dense {limit_e:?}, table {limit_t:?}");
    assert!(limit_e.is_some(), "no depth limit met");
    assert_eq!(limit_e, limit_t);
}
