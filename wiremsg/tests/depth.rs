//! Validation of recursive messages uses bounded stack: a wide recursive message
//! nested to the depth limit validates on a 2 MiB thread, in debug builds too, and
//! one level more is `DepthLimitExceeded` (FORMAT.md §4.7).

#[path = "common/handmade.rs"]
mod handmade;
use handmade::{Part, message, split};
use wiremsg::{ErrorKind, MAX_DEPTH, WireMsg};

macro_rules! wide {
    ($($f:ident)*) => {
        /// 90 fields: 89 lists of itself and a number.
        #[derive(WireMsg, Debug, Default, PartialEq)]
        struct Wide {
            id: u32,
            $($f: Vec<Wide>,)*
        }

        fn with_child(id: u32, child: Option<Wide>) -> Wide {
            let mut w = Wide { id, ..Wide::default() };
            if let Some(c) = child {
                w.f88.push(c);
            }
            w
        }
    };
}

wide! {
    f00 f01 f02 f03 f04 f05 f06 f07 f08 f09 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19
    f20 f21 f22 f23 f24 f25 f26 f27 f28 f29 f30 f31 f32 f33 f34 f35 f36 f37 f38 f39
    f40 f41 f42 f43 f44 f45 f46 f47 f48 f49 f50 f51 f52 f53 f54 f55 f56 f57 f58 f59
    f60 f61 f62 f63 f64 f65 f66 f67 f68 f69 f70 f71 f72 f73 f74 f75 f76 f77 f78 f79
    f80 f81 f82 f83 f84 f85 f86 f87 f88
}

/// `levels` nested messages (the root is level 0).
fn nested(levels: u32) -> Wide {
    let mut value = with_child(levels, None);
    for id in (0..levels).rev() {
        value = with_child(id, Some(value));
    }
    value
}

/// The bytes of `with_child(id, child)`, the child given as bytes, built by hand
/// (FORMAT.md §3, §6.3): the encoder refuses values past the depth limit, which
/// hostile writers do not. Block: block length, `id`, 89 end offsets (88 empty
/// lists, then `f88`, a table of the child).
fn wide_bytes(id: u32, child: Option<&[u8]>) -> Vec<u8> {
    let id = id.to_le_bytes();
    let f88 = child.map(|c| split(&[c])).unwrap_or_default();
    let mut parts = vec![Part::Fixed(&id)];
    parts.extend((0..88).map(|_| Part::Tail(&[])));
    parts.push(Part::Tail(&f88));
    message(&parts)
}

/// The bytes of `nested(levels)`, built by hand.
fn nested_bytes(levels: u32) -> Vec<u8> {
    (0..levels)
        .rev()
        .fold(wide_bytes(levels, None), |child, id| {
            wide_bytes(id, Some(&child))
        })
}

#[test]
fn the_hand_built_bytes_are_the_encoders() {
    for levels in [0, 1, 2, MAX_DEPTH] {
        assert_eq!(nested_bytes(levels), nested(levels).to_bytes().unwrap());
    }
}

/// The encoder refuses what validation refuses: one level past the limit is
/// `DepthLimitExceeded` with validation's path, before anything is written.
#[test]
fn the_encoder_refuses_values_past_the_depth_limit() {
    let over = nested(MAX_DEPTH + 1);
    let err = over.to_bytes().unwrap_err();
    let read = Wide::view(&nested_bytes(MAX_DEPTH + 1)).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    assert_eq!(err.path(), read.path());
    let mut buf = vec![0xAA; 1 << 16];
    assert_eq!(over.encode_into(&mut buf).unwrap_err().kind(), err.kind());
    assert!(buf.iter().all(|&b| b == 0xAA), "nothing written");
    let mut out = vec![1, 2, 3];
    assert_eq!(over.encode(&mut out).unwrap_err().kind(), err.kind());
    assert_eq!(out, [1, 2, 3], "nothing appended");
}

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

#[test]
fn the_depth_limit_fits_a_2_mib_stack() {
    let at_limit = nested(MAX_DEPTH).to_bytes().unwrap();
    let over = nested_bytes(MAX_DEPTH + 1);
    let (ok, err) = on_small_stack(move || {
        let ok = Wide::view(&at_limit)
            .map(|v| v.f88().len())
            .map_err(|e| e.to_string());
        let err = Wide::view(&over).unwrap_err();
        (ok, err)
    });
    assert_eq!(ok, Ok(1));
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    // 65 levels of `f88[0]` (130 segments): the path shows the first and last four
    // segments and counts the 122 between.
    assert_eq!(
        err.path(),
        "f88[0].f88[0] \u{2026} 122 segments \u{2026} f88[0].f88[0]"
    );
    assert!(
        err.to_string()
            .ends_with(" in `f88[0].f88[0] \u{2026} 122 segments \u{2026} f88[0].f88[0]`"),
        "{err}"
    );
}

/// One level above any message `M` with a tail: its bytes are a block length of 6,
/// the end offset of `m` and `m`'s bytes (FORMAT.md §3).
#[derive(WireMsg, Debug, PartialEq)]
struct Holder<M: WireMsg> {
    m: M,
}

fn held(m: &[u8]) -> Vec<u8> {
    message(&[Part::Tail(m)])
}

/// A tree through a list of itself: one level per list element.
#[derive(WireMsg, Debug, PartialEq)]
struct ListTree {
    id: u8,
    kids: Vec<ListTree>,
}

/// Through a tuple with a tail: two levels per step (the tuple, then the message).
#[derive(WireMsg, Debug, PartialEq)]
struct TupleTree {
    next: Option<Box<(String, TupleTree)>>,
}

/// Through a map: two levels per step (the entry, then the message).
#[derive(WireMsg, Debug, PartialEq)]
struct MapTree {
    kids: std::collections::BTreeMap<u16, MapTree>,
}

/// Through a list of a union whose variants hold the message: as the payload of a
/// tuple variant (one level), or in a field of a struct variant's payload (two).
#[derive(WireMsg, Debug, PartialEq)]
struct UnionTree {
    items: Vec<Item>,
}

#[derive(wiremsg::WireUnion, Debug, PartialEq)]
#[repr(u8)]
enum Item {
    Leaf = 0,
    Nest(UnionTree) = 1,
    Pair { left: u32, right: Box<UnionTree> } = 2,
}

/// For a shape built `levels` steps deep by `build`: the deepest value the encoder
/// writes is one validation accepts, and one level more — the value held by
/// [`Holder`], or its bytes — is refused by both, with one path.
fn refused_alike<M: WireMsg + wiremsg::Element + std::fmt::Debug + 'static>(
    build: impl Fn(u32) -> M,
) -> u32 {
    let deepest = (0..=MAX_DEPTH + 1)
        .take_while(|&n| build(n).to_bytes().is_ok())
        .last()
        .unwrap();
    assert!(deepest <= MAX_DEPTH, "the shape nests");
    let bytes = build(deepest).to_bytes().unwrap();
    assert!(M::view(&bytes).is_ok());
    let written = Holder { m: build(deepest) }.to_bytes().unwrap_err();
    let read = Holder::<M>::view(&held(&bytes)).unwrap_err();
    assert_eq!(
        written.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    assert_eq!((written.kind(), written.path()), (read.kind(), read.path()));
    let next = build(deepest + 1).to_bytes().unwrap_err();
    assert_eq!(next.kind(), written.kind());
    deepest
}

#[test]
fn every_shape_is_refused_by_the_encoder_where_validation_refuses_it() {
    let list = refused_alike(|n| {
        (0..n).fold(
            ListTree {
                id: 0,
                kids: vec![],
            },
            |kid, _| ListTree {
                id: 1,
                kids: vec![
                    ListTree {
                        id: 2,
                        kids: vec![],
                    },
                    kid,
                ],
            },
        )
    });
    assert_eq!(list, 64); // 65 levels: the root and 64 below it
    let tuple = refused_alike(|n| {
        (0..n).fold(TupleTree { next: None }, |t, _| TupleTree {
            next: Some(Box::new(("t".into(), t))),
        })
    });
    assert_eq!(tuple, 32); // 64 levels below the root
    let map = refused_alike(|n| {
        (0..n).fold(
            MapTree {
                kids: Default::default(),
            },
            |kid, _| MapTree {
                kids: [
                    (
                        1,
                        MapTree {
                            kids: Default::default(),
                        },
                    ),
                    (9, kid),
                ]
                .into(),
            },
        )
    });
    assert_eq!(map, 32);
    let union = refused_alike(|n| {
        (0..n).fold(UnionTree { items: vec![] }, |t, i| UnionTree {
            items: vec![
                Item::Leaf,
                if i % 2 == 0 {
                    Item::Nest(t)
                } else {
                    Item::Pair {
                        left: i,
                        right: Box::new(t),
                    }
                },
            ],
        })
    });
    // A `Nest` is one level (the payload is the message), a `Pair` two (the payload,
    // then the boxed message with a tail): 22 of one and 21 of the other.
    assert_eq!(union, 43);
}
