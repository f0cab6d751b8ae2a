//! Boxes and recursive messages (FORMAT.md §4.12): `Box<T>` has `T`'s bytes, view
//! and schema; a message that holds itself through `Option<Box<Self>>`, a list or a
//! union variant is variable-size, validates to the depth limit and no further, and
//! its schema, fingerprint, compatibility check and schema-driven reader terminate.

#[path = "common/golden.rs"]
mod format_golden;
#[path = "common/handmade.rs"]
mod handmade;
use format_golden::golden;
use handmade::{Part, message, union};
use wiremsg::{ErrorKind, MAX_DEPTH, SchemaSet, WireMsg, WireUnion};

/// A linked list.
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Node {
    value: i64,
    next: Option<Box<Node>>,
}

/// The same, spelled with `Self`.
#[derive(WireMsg, Debug, PartialEq)]
struct SelfNode {
    value: i64,
    next: Option<Box<Self>>,
}

/// An expression tree: a union whose variants hold it.
#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Expr {
    Num { value: i64 } = 0,
    Add { l: Box<Expr>, r: Box<Expr> } = 1,
    Neg { e: Box<Self> } = 2,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Formula {
    name: String,
    expr: Expr,
}

#[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
struct Px {
    mantissa: i64,
    exponent: i8,
}

/// Boxes of a fixed-size message, a message with a tail and a tuple: the bytes of
/// the unboxed type.
#[derive(WireMsg, Debug, PartialEq)]
struct Boxed {
    id: u32,
    px: Box<Px>,
    formula: Box<Formula>,
    label: Option<Box<(u8, String)>>,
    ids: Vec<u16>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Unboxed {
    id: u32,
    px: Px,
    formula: Formula,
    label: Option<(u8, String)>,
    ids: Vec<u16>,
}

fn num(value: i64) -> Box<Expr> {
    Box::new(Expr::Num { value })
}

fn list(values: &[i64]) -> Option<Box<Node>> {
    values
        .iter()
        .rev()
        .fold(None, |next, &value| Some(Box::new(Node { value, next })))
}

fn chain(levels: u32) -> Node {
    let mut node = Node {
        value: 0,
        next: None,
    };
    for value in 1..=levels {
        node = Node {
            value: value.into(),
            next: Some(Box::new(node)),
        };
    }
    node
}

/// The bytes of node `value` in front of the bytes `next` of the rest of its list
/// (FORMAT.md §4.12, E15), built by hand: the encoder refuses lists past the depth
/// limit, which hostile writers do not. `next` is a presence byte and an end offset.
fn node_bytes(value: i64, next: Option<&[u8]>) -> Vec<u8> {
    message(&[
        Part::Fixed(&value.to_le_bytes()),
        Part::Fixed(&[u8::from(next.is_some())]),
        Part::Tail(next.unwrap_or_default()),
    ])
}

/// The bytes of `chain(levels)`, built by hand.
fn chain_bytes(levels: u32) -> Vec<u8> {
    (1..=levels).fold(node_bytes(0, None), |next, value| {
        node_bytes(value.into(), Some(&next))
    })
}

/// The bytes of `negations(levels)`, built by hand: each `Neg` is tag 2 and a
/// payload whose `e` is the inner union (E15).
fn negations_bytes(levels: u32) -> Vec<u8> {
    let num = union(0, &7i64.to_le_bytes());
    let expr = (0..levels).fold(num, |e, _| union(2, &message(&[Part::Tail(&e)])));
    message(&[Part::Tail(b""), Part::Tail(&expr)])
}

#[test]
fn the_hand_built_bytes_are_the_encoders() {
    for levels in [0, 1, 2, MAX_DEPTH] {
        assert_eq!(chain_bytes(levels), chain(levels).to_bytes().unwrap());
    }
    for levels in [0, 1, 2, MAX_DEPTH - 1] {
        assert_eq!(
            negations_bytes(levels),
            negations(levels).to_bytes().unwrap()
        );
    }
}

#[test]
fn a_box_has_the_bytes_view_and_schema_of_its_contents() {
    let formula = Formula {
        name: "f".into(),
        expr: Expr::Neg { e: num(1) },
    };
    let boxed = Boxed {
        id: 7,
        px: Box::new(Px {
            mantissa: 5,
            exponent: -2,
        }),
        formula: Box::new(formula.clone()),
        label: Some(Box::new((3, "hi".into()))),
        ids: vec![1, 2],
    };
    let unboxed = Unboxed {
        id: 7,
        px: Px {
            mantissa: 5,
            exponent: -2,
        },
        formula,
        label: Some((3, "hi".into())),
        ids: vec![1, 2],
    };
    let bytes = boxed.to_bytes().unwrap();
    assert_eq!(bytes, unboxed.to_bytes().unwrap());
    assert_eq!(Boxed::BLOCK_LENGTH, Unboxed::BLOCK_LENGTH);
    assert_eq!(Boxed::decode(&bytes).unwrap(), boxed);
    let view = Boxed::view(&bytes).unwrap();
    assert_eq!(view.px().mantissa(), 5);
    assert_eq!(view.formula().name(), "f");
    assert_eq!(
        (view.label(), view.ids().get(1)),
        (Some((3, "hi")), Some(2))
    );
    // The view of a box is its contents' view; so is its schema.
    let _: PxView<'_> = view.px();
    let (a, b) = (Boxed::SCHEMA, Unboxed::SCHEMA);
    for (fa, fb) in a.fields.iter().zip(b.fields.iter()) {
        assert_eq!((fa.offset, fa.size), (fb.offset, fb.size));
        assert_eq!(*fa.ty, *fb.ty);
    }
}

#[test]
fn a_boxed_message_is_changed_in_place() {
    let mut bytes = Boxed {
        id: 1,
        px: Box::new(Px {
            mantissa: 5,
            exponent: -2,
        }),
        formula: Box::new(Formula {
            name: String::new(),
            expr: *num(2),
        }),
        label: None,
        ids: vec![3],
    }
    .to_bytes()
    .unwrap();
    let mut view = Boxed::view_mut(&mut bytes).unwrap();
    view.set_px(Box::new(Px {
        mantissa: 9,
        exponent: 1,
    }));
    view.px_mut().set_exponent(3);
    assert!(view.ids_mut().set(0, &4));
    let view = Boxed::view(&bytes).unwrap();
    assert_eq!((view.px().mantissa(), view.px().exponent()), (9, 3));
    assert_eq!(view.ids().get(0), Some(4));
}

fn formula() -> Formula {
    Formula {
        name: "e".into(),
        expr: Expr::Add {
            l: num(1),
            r: Box::new(Expr::Neg { e: num(2) }),
        },
    }
}

/// E15's two values: the list, then the formula.
fn e15() -> (Vec<u8>, Vec<u8>) {
    let mut bytes = golden("E15");
    let formula = bytes.split_off(30);
    (bytes, formula)
}

#[test]
fn e15_a_linked_list_and_an_expression_tree() {
    let (list_bytes, formula_bytes) = e15();
    let node = Node {
        value: 1,
        next: list(&[2]),
    };
    assert_eq!(node.to_bytes().unwrap(), list_bytes);
    assert_eq!(Node::BLOCK_LENGTH, 15);
    assert_eq!((NodeView::NEXT_OFFSET, NodeView::NEXT_SIZE), (10, 5));
    let view = Node::view(&list_bytes).unwrap();
    let next = view.next().unwrap();
    assert_eq!((view.value(), next.value()), (1, 2));
    assert!(next.next().is_none());
    assert_eq!(Node::decode(&list_bytes).unwrap(), node);
    assert_eq!(view.decode(), node);
    // `Self` spells the same message.
    let same = SelfNode {
        value: 1,
        next: Some(Box::new(SelfNode {
            value: 2,
            next: None,
        })),
    };
    assert_eq!(same.to_bytes().unwrap(), list_bytes);
    assert_eq!(SelfNode::decode(&list_bytes).unwrap(), same);

    assert_eq!(formula().to_bytes().unwrap(), formula_bytes);
    let view = Formula::view(&formula_bytes).unwrap();
    let ExprView::Add(add) = view.expr() else {
        panic!("{view:?}")
    };
    let ExprView::Num(l) = add.l() else { panic!() };
    let ExprView::Neg(neg) = add.r() else {
        panic!()
    };
    let ExprView::Num(e) = neg.e() else { panic!() };
    assert_eq!((l.value(), e.value()), (1, 2));
    assert_eq!(Formula::decode(&formula_bytes).unwrap(), formula());
    assert_eq!(
        format!("{view:?}"),
        "FormulaView { name: \"e\", expr: Add(ExprAddView { l: Num(ExprNumView { value: 1 }), r: Neg(ExprNegView { e: Num(ExprNumView { value: 2 }) }) }) }"
    );
}

#[test]
fn the_fixed_parts_of_a_recursive_message_are_set_in_place() {
    let mut bytes = Node {
        value: 1,
        next: list(&[2]),
    }
    .to_bytes()
    .unwrap();
    let mut view = Node::view_mut(&mut bytes).unwrap();
    view.set_value(-1);
    assert_eq!(view.next().map(|n| n.value()), Some(2));
    assert_eq!(Node::decode(&bytes).unwrap().value, -1);
    let (_, mut formula_bytes) = e15();
    let mut view = Formula::view_mut(&mut formula_bytes).unwrap();
    let ExprMut::Add(mut add) = view.expr_mut() else {
        panic!()
    };
    let ExprMut::Num(mut l) = add.l_mut() else {
        panic!()
    };
    l.set_value(40);
    let mut expected = formula();
    expected.expr = Expr::Add {
        l: num(40),
        r: Box::new(Expr::Neg { e: num(2) }),
    };
    assert_eq!(Formula::decode(&formula_bytes).unwrap(), expected);
}

/// Depth counts the messages with a tail and unions that nest: a list of 65 nodes
/// is at the limit.
#[test]
fn a_recursive_message_validates_to_the_depth_limit_and_no_further() {
    let at_limit = chain(MAX_DEPTH).to_bytes().unwrap();
    let over = chain_bytes(MAX_DEPTH + 1);
    assert_eq!(Node::view(&at_limit).unwrap().value(), 64);
    let err = Node::view(&over).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    // At the 66th node's block.
    assert_eq!(err.offset(), 65 * 15);
    assert_eq!(
        err.path(),
        "next.next.next.next \u{2026} 57 segments \u{2026} next.next.next.next"
    );
    let decoded = Node::decode(&over).unwrap_err();
    assert_eq!(
        (decoded.kind(), decoded.path(), decoded.offset()),
        (err.kind(), err.path(), err.offset())
    );
    let set = SchemaSet::of::<Node>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Node", &over).unwrap_err();
    assert_eq!(
        (dynamic.kind(), dynamic.path(), dynamic.offset()),
        (err.kind(), err.path(), err.offset())
    );
    assert!(wiremsg::dynamic::view(&set, "Node", &at_limit).is_ok());
}

fn negations(levels: u32) -> Formula {
    let mut expr = *num(7);
    for _ in 0..levels {
        expr = Expr::Neg { e: Box::new(expr) };
    }
    Formula {
        name: String::new(),
        expr,
    }
}

#[test]
fn an_expression_tree_validates_to_the_depth_limit_and_no_further() {
    // Each `Neg` is one level: a union and its payload count once (the `Num` at the
    // bottom is fixed-size and does not count).
    let levels = (0..MAX_DEPTH)
        .find(|&n| Formula::view(&negations_bytes(n + 1)).is_err())
        .unwrap();
    assert_eq!(levels, 63);
    let over = negations_bytes(levels + 1);
    let err = Formula::view(&over).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    // At the 65th union: the `Num` under 64 `Neg`s.
    assert_eq!(
        err.path(),
        "expr.Neg.e.Neg \u{2026} 122 segments \u{2026} e.Neg.e.Num"
    );
    let set = SchemaSet::of::<Formula>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Formula", &over).unwrap_err();
    assert_eq!(
        (dynamic.kind(), dynamic.path(), dynamic.offset()),
        (err.kind(), err.path(), err.offset())
    );
}

/// The encoder refuses what validation refuses, at the same place: a list one node
/// past the limit, a formula one `Neg` past it, and a list far deeper than any
/// stack could walk (checked to the limit, not walked further, on a 2 MiB stack).
#[test]
fn the_encoder_refuses_values_past_the_depth_limit() {
    let err = chain(MAX_DEPTH + 1).to_bytes().unwrap_err();
    let read = Node::view(&chain_bytes(MAX_DEPTH + 1)).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    assert_eq!(err.path(), read.path());
    let list_path = err.path().to_string();
    let err = negations(MAX_DEPTH).to_bytes().unwrap_err();
    let read = Formula::view(&negations_bytes(MAX_DEPTH)).unwrap_err();
    assert_eq!((err.kind(), err.path()), (read.kind(), read.path()));
    assert_eq!(
        err.path(),
        "expr.Neg.e.Neg \u{2026} 122 segments \u{2026} e.Neg.e.Num"
    );
    let deep = on_small_stack(|| {
        let mut deep = chain(1_000_000);
        let err = deep.to_bytes().unwrap_err();
        // Unlinked one node at a time: the recursive drop of a million boxes is the
        // caller's to avoid, not the encoder's.
        while let Some(next) = deep.next.take() {
            deep = *next;
        }
        err
    });
    assert_eq!(
        deep.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    assert_eq!(deep.path(), list_path);
}

/// A linked list sent in frames.
#[derive(WireMsg, Debug, PartialEq)]
#[wire(template_id = 1)]
struct Link {
    value: i64,
    next: Option<Box<Link>>,
}

/// Every way of measuring or framing a value checks it first: a million nodes are
/// `DepthLimitExceeded` for the frame writers and `usize::MAX` for the lengths, on a
/// 2 MiB stack (they used to walk the whole list to measure it).
#[test]
fn frames_and_lengths_of_a_value_past_the_depth_limit_are_refused_too() {
    use tokio_util::codec::Encoder;
    use wiremsg::frame::WireCodec;
    use wiremsg::{FrameWriter, Template, WithHeader};
    let errors = on_small_stack(|| {
        let mut deep = Link {
            value: 0,
            next: None,
        };
        for value in 1..1_000_000 {
            deep = Link {
                value,
                next: Some(Box::new(deep)),
            };
        }
        let lengths = [
            deep.encoded_len(),
            deep.encoded_len_with_header(),
            deep.len_with_header(),
        ];
        let mut writer = FrameWriter::new(Vec::new());
        let framed = writer.write(&deep).unwrap_err();
        assert!(writer.into_inner().is_empty(), "nothing written");
        let mut buf = bytes::BytesMut::new();
        let put = wiremsg::frame::put_frame(&mut buf, &deep).unwrap_err();
        let coded = WireCodec::new().encode(&deep, &mut buf).unwrap_err();
        assert!(buf.is_empty(), "nothing written");
        let checked = deep.checked_len_with_header().unwrap_err();
        while let Some(next) = deep.next.take() {
            deep = *next;
        }
        (lengths, [framed, put, coded, checked])
    });
    let (lengths, errors) = errors;
    assert_eq!(lengths, [usize::MAX; 3]);
    for err in errors {
        assert_eq!(
            err.kind(),
            &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
        );
    }
    // Within the limit, the lengths are the bytes.
    let short = Link {
        value: 1,
        next: Some(Box::new(Link {
            value: 2,
            next: None,
        })),
    };
    assert_eq!(short.encoded_len(), short.to_bytes().unwrap().len());
    assert_eq!(short.checked_len_with_header().unwrap(), 8 + 30);
}

fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Everything that walks a recursive value walks it to the depth limit on a 2 MiB
/// stack, in debug builds too.
#[test]
fn values_at_the_depth_limit_fit_a_2_mib_stack() {
    on_small_stack(|| {
        let node = chain(MAX_DEPTH);
        let bytes = node.to_bytes().unwrap();
        let view = Node::view(&bytes).unwrap();
        assert_eq!(Node::decode(&bytes).unwrap(), node);
        assert_eq!(view, Node::view(&bytes).unwrap());
        assert!(format!("{view:?}").len() > 64 * 20);
        let set = SchemaSet::of::<Node>().unwrap();
        let dynamic = wiremsg::dynamic::view(&set, "Node", &bytes).unwrap();
        assert_eq!(dynamic.to_string().matches("Node {").count(), 65);
        let deep = negations(63);
        let bytes = deep.to_bytes().unwrap();
        assert_eq!(Formula::decode(&bytes).unwrap(), deep);
        let view = Formula::view(&bytes).unwrap();
        assert_eq!(view, Formula::view(&bytes).unwrap());
        assert!(format!("{view:?}").contains("value: 7"));
    });
}

#[test]
fn hostile_bytes_are_refused_with_the_field_and_offset() {
    let (list_bytes, formula_bytes) = e15();
    // The inner node's presence byte.
    let mut bad = list_bytes.clone();
    bad[25] = 2;
    let err = Node::view(&bad).unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::InvalidPresence { value: 2 });
    assert_eq!((err.path().as_str(), err.offset()), ("next.next", 25));
    // The inner node's block length cut below its own block.
    let mut bad = list_bytes.clone();
    bad[15] = 10;
    let err = Node::view(&bad).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::BlockLengthTooSmall {
            declared: 10,
            required: 15,
            version: 1
        }
    );
    assert_eq!((err.path().as_str(), err.offset()), ("next", 15));
    // An unknown tag deep in the tree.
    let mut bad = formula_bytes.clone();
    bad[38] = 9;
    let err = Formula::view(&bad).unwrap_err();
    assert_eq!(
        (err.path().as_str(), err.offset()),
        ("expr.Add.r.Neg.e", 38),
        "{err}"
    );
    assert!(matches!(
        err.kind(),
        ErrorKind::UnknownVariant { tag: 9, .. }
    ));
    // Every cut and every flipped byte: an error, the same from the schema-driven
    // reader, never a panic.
    let node_set = SchemaSet::of::<Node>().unwrap();
    let formula_set = SchemaSet::of::<Formula>().unwrap();
    for (bytes, set, name) in [
        (&list_bytes, &node_set, "Node"),
        (&formula_bytes, &formula_set, "Formula"),
    ] {
        // Under Miri, every fifth byte (all of them take minutes there).
        let step = if cfg!(miri) { 5 } else { 1 };
        let mut cases: Vec<Vec<u8>> = (0..bytes.len())
            .step_by(step)
            .map(|n| bytes[..n].to_vec())
            .collect();
        for i in (0..bytes.len()).step_by(step) {
            for flip in [0x01, 0x80, 0xff] {
                let mut m = bytes.clone();
                m[i] ^= flip;
                cases.push(m);
            }
        }
        for m in cases {
            let typed = if name == "Node" {
                Node::view(&m).map(|_| ())
            } else {
                Formula::view(&m).map(|_| ())
            };
            let dynamic = wiremsg::dynamic::view(set, name, &m).map(|_| ());
            match (typed, dynamic) {
                (Ok(()), Ok(())) => {}
                (Err(a), Err(b)) => assert_eq!(
                    (a.kind(), a.path(), a.offset()),
                    (b.kind(), b.path(), b.offset()),
                    "{m:02x?}"
                ),
                (a, b) => panic!("typed {a:?}, dynamic {b:?} on {m:02x?}"),
            }
        }
    }
}

#[test]
fn the_schema_of_a_recursive_message_is_finite() {
    let set = SchemaSet::of::<Node>().unwrap();
    assert_eq!(set.messages().len(), 1);
    let next = Node::SCHEMA.field("next").unwrap();
    assert_eq!(next.ty.display().to_string(), "Option<Node>");
    let bytes = set.to_bytes().unwrap();
    let back = SchemaSet::from_bytes(&bytes).unwrap();
    assert_eq!(back, set);
    assert_eq!(back.fingerprint(), set.fingerprint());
    assert_eq!(
        SchemaSet::of::<SelfNode>()
            .unwrap()
            .message("SelfNode")
            .unwrap()
            .fields
            .len(),
        2
    );
    let formula = SchemaSet::of::<Formula>().unwrap();
    let names: Vec<&str> = formula.messages().iter().map(|m| &*m.name).collect();
    assert_eq!(names, ["ExprAdd", "ExprNeg", "ExprNum", "Formula"]);
    assert_eq!(
        SchemaSet::from_bytes(&formula.to_bytes().unwrap()).unwrap(),
        formula
    );
    assert!(wiremsg::schema::compat(&set, &set).changes().is_empty());
    assert!(
        wiremsg::schema::compat(&formula, &formula)
            .changes()
            .is_empty()
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas/golden/E15.wms");
    let bytes = formula.to_bytes().unwrap();
    let update = std::env::var_os("WIREMSG_UPDATE_SNAPSHOTS").is_some_and(|v| v == "1");
    match std::fs::read(&path) {
        Ok(committed) if !update => {
            assert!(committed == bytes, "{} is out of date", path.display())
        }
        _ => std::fs::write(&path, &bytes).unwrap(),
    }
    assert_eq!(SchemaSet::read_file(&path).unwrap(), formula);
}

#[test]
fn a_recursive_message_reads_alike_through_its_schema() {
    let (list_bytes, formula_bytes) = e15();
    let set = SchemaSet::of::<Node>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Node", &list_bytes).unwrap();
    assert_eq!(
        dynamic.to_string(),
        "Node { value: 1, next: Some(Node { value: 2, next: None }) }"
    );
    let set = SchemaSet::of::<Formula>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Formula", &formula_bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&dynamic).unwrap(),
        serde_json::to_string(&Formula::view(&formula_bytes).unwrap()).unwrap()
    );
}

/// Messages that hold each other without naming themselves: one of them declares
/// its block length field.
mod mutual {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(block_length)]
    pub(super) struct Ping {
        pub(super) n: u32,
        pub(super) pong: Option<Box<Pong>>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Pong {
        pub(super) ping: Option<Box<Ping>>,
    }
}

#[test]
fn mutually_recursive_messages_with_a_declared_block_length() {
    use mutual::{Ping, Pong};
    let value = Ping {
        n: 1,
        pong: Some(Box::new(Pong {
            ping: Some(Box::new(Ping { n: 2, pong: None })),
        })),
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Ping::decode(&bytes).unwrap(), value);
    let set = SchemaSet::of::<Ping>().unwrap();
    assert_eq!(set.messages().len(), 2);
    assert!(wiremsg::dynamic::view(&set, "Ping", &bytes).is_ok());
}

mod props {
    use super::*;
    use proptest::prelude::*;

    fn expr() -> impl Strategy<Value = Expr> {
        any::<i64>()
            .prop_map(|value| Expr::Num { value })
            .prop_recursive(6, 32, 2, |inner| {
                prop_oneof![
                    (inner.clone(), inner.clone()).prop_map(|(l, r)| Expr::Add {
                        l: Box::new(l),
                        r: Box::new(r)
                    }),
                    inner.prop_map(|e| Expr::Neg { e: Box::new(e) }),
                ]
            })
    }

    proptest! {
        #[test]
        fn trees_and_lists_round_trip(expr in expr(), values in proptest::collection::vec(any::<i64>(), 1..8)) {
            let formula = Formula { name: "p".into(), expr };
            let bytes = formula.to_bytes().unwrap();
            prop_assert_eq!(bytes.len(), formula.encoded_len());
            prop_assert_eq!(Formula::decode(&bytes).unwrap(), formula);
            let node = *list(&values).unwrap();
            let bytes = node.to_bytes().unwrap();
            prop_assert_eq!(Node::decode(&bytes).unwrap(), node);
        }

        #[test]
        fn no_input_panics_and_both_readers_agree(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let set = SchemaSet::of::<Formula>().unwrap();
            let typed = Formula::view(&bytes).map(|_| ());
            let dynamic = wiremsg::dynamic::view(&set, "Formula", &bytes).map(|_| ());
            match (typed, dynamic) {
                (Ok(()), Ok(())) => {}
                (Err(a), Err(b)) => prop_assert_eq!(
                    (a.kind(), a.path(), a.offset()),
                    (b.kind(), b.path(), b.offset())
                ),
                (a, b) => prop_assert!(false, "typed {:?}, dynamic {:?}", a, b),
            }
        }
    }
}

/// A tree of named nodes, owned and borrowed: the same bytes.
#[derive(WireMsg, Debug, PartialEq)]
struct Tree {
    name: String,
    children: Vec<Tree>,
    parent: Option<Box<Tree>>,
}

#[derive(WireMsg, Debug, PartialEq)]
struct TreeRef<'a> {
    name: &'a str,
    children: &'a [TreeRef<'a>],
    parent: Option<Box<TreeRef<'a>>>,
}

#[test]
fn a_recursive_message_encodes_from_borrowed_data_and_decodes_in_place() {
    let owned = Tree {
        name: "root".into(),
        children: vec![Tree {
            name: "a".into(),
            children: vec![],
            parent: None,
        }],
        parent: Some(Box::new(Tree {
            name: "up".into(),
            children: vec![],
            parent: None,
        })),
    };
    let children = [TreeRef {
        name: "a",
        children: &[],
        parent: None,
    }];
    let borrowed = TreeRef {
        name: "root",
        children: &children,
        parent: Some(Box::new(TreeRef {
            name: "up",
            children: &[],
            parent: None,
        })),
    };
    let bytes = owned.to_bytes().unwrap();
    assert_eq!(borrowed.to_bytes().unwrap(), bytes);
    let mut buf = [0u8; 128];
    let n = borrowed.encode_into(&mut buf).unwrap();
    assert_eq!(buf[..n], bytes);
    assert_eq!(Tree::decode(&bytes).unwrap(), owned);
    let view = TreeRef::view(&bytes).unwrap();
    assert_eq!(view.children().get(0).unwrap().name(), "a");
    assert_eq!(view.parent().unwrap().name(), "up");
}

/// A union variant that boxes its message, `Split(Box<Branch>)`, whose message holds
/// the union: the payload is the message's bytes, as for `Split(Branch)`.
#[derive(WireMsg, Debug, PartialEq)]
struct Branch {
    l: Shape,
    r: Shape,
}

#[derive(WireUnion, Debug, PartialEq)]
#[repr(u8)]
enum Shape {
    Dot = 0,
    Split(Box<Branch>) = 1,
}

/// A list of boxes (pointless, as clippy says, but a list of boxes has the bytes of
/// a list of their contents).
#[allow(clippy::vec_box)]
#[derive(WireMsg, Debug, PartialEq)]
struct Branches {
    items: Vec<Box<Branch>>,
}

#[test]
fn a_union_variant_boxes_its_message() {
    let branch = Branch {
        l: Shape::Split(Box::new(Branch {
            l: Shape::Dot,
            r: Shape::Dot,
        })),
        r: Shape::Dot,
    };
    let bytes = branch.to_bytes().unwrap();
    // l: tag 1 then the inner branch (block length 10, two tags); r: tag 0.
    assert_eq!(
        bytes,
        [
            10, 0, 23, 0, 0, 0, 24, 0, 0, 0, // outer block: l ends at 23, r at 24
            1, 10, 0, 11, 0, 0, 0, 12, 0, 0, 0, 0, 0, // l: Split, inner Dot, Dot
            0, // r: Dot
        ]
    );
    assert_eq!(Branch::decode(&bytes).unwrap(), branch);
    let view = Branch::view(&bytes).unwrap();
    let ShapeView::Split(inner) = view.l() else {
        panic!("{view:?}")
    };
    assert_eq!(inner.r(), ShapeView::Dot);
    let list = Branches {
        items: vec![Box::new(branch)],
    };
    let bytes = list.to_bytes().unwrap();
    assert_eq!(Branches::decode(&bytes).unwrap(), list);
    let view = Branches::view(&bytes).unwrap();
    assert_eq!(view.items().get(0).unwrap().r(), ShapeView::Dot);
    let set = SchemaSet::of::<Branches>().unwrap();
    assert!(wiremsg::dynamic::view(&set, "Branches", &bytes).is_ok());
}

/// The compatibility check walks two versions of a recursive message to an end.
#[test]
fn compat_of_two_versions_of_a_recursive_message_terminates() {
    use wiremsg::schema::{Verdict, compat};
    mod v1 {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Node {
            pub(crate) value: i64,
            pub(crate) next: Option<Box<Node>>,
        }
    }
    mod v2 {
        #[derive(wiremsg::WireMsg)]
        #[wire(version = 2)]
        pub(crate) struct Node {
            pub(crate) value: i64,
            pub(crate) next: Option<Box<Node>>,
            #[wire(since = 2)]
            pub(crate) label: String,
        }
    }
    mod changed {
        #[derive(wiremsg::WireMsg)]
        pub(crate) struct Node {
            pub(crate) value: u64,
            pub(crate) next: Option<Box<Node>>,
        }
    }
    let old = SchemaSet::of::<v1::Node>().unwrap();
    let new = SchemaSet::of::<v2::Node>().unwrap();
    let report = compat(&old, &new);
    assert!(
        report
            .changes()
            .iter()
            .all(|c| c.old_readers == Verdict::Compatible && c.new_readers == Verdict::Compatible),
        "{report}"
    );
    assert!(!report.changes().is_empty(), "{report}");
    let report = compat(&old, &SchemaSet::of::<changed::Node>().unwrap());
    assert_eq!(report.changes().len(), 1, "{report}");
    assert_eq!(report.changes()[0].new_readers, Verdict::Breaking);
    // A v2 node list read by a v1 reader, and the other way round.
    let bytes = v2::Node {
        value: 1,
        next: Some(Box::new(v2::Node {
            value: 2,
            next: None,
            label: "x".into(),
        })),
        label: "y".into(),
    }
    .to_bytes()
    .unwrap();
    let view = v1::Node::view(&bytes).unwrap();
    assert_eq!(view.next().unwrap().value(), 2);
    let bytes = v1::Node {
        value: 1,
        next: Some(Box::new(v1::Node {
            value: 2,
            next: None,
        })),
    }
    .to_bytes()
    .unwrap();
    let view = v2::Node::view(&bytes).unwrap();
    assert_eq!((view.label(), view.next().unwrap().try_label()), ("", None));
}

/// The annotated dump of a recursive message: every node's fields, and the error of
/// a too-deep one after the rows before it.
#[test]
fn the_annotated_dump_of_a_recursive_message() {
    let (list_bytes, _) = e15();
    let set = SchemaSet::of::<Node>().unwrap();
    let dump = wiremsg::dynamic::annotate(&set, "Node", &list_bytes, false);
    assert!(dump.error().is_none(), "{dump}");
    let text = dump.to_string();
    let rows: Vec<&str> = text.lines().map(str::trim_end).collect();
    assert_eq!(
        rows,
        [
            "     0  0f 00                                             block length             15",
            "     2  01 00 00 00 00 00 00 00                           value                    1",
            "    10  01 1e 00 00 00                                    next                     present, ends at 30",
            "    15                                                    next (tail)              Node, 15 bytes",
            "    15  0f 00                                               block length           15",
            "    17  02 00 00 00 00 00 00 00                             value                  2",
            "    25  00 0f 00 00 00                                      next                   absent; its region ends at 15 (empty)",
        ]
    );
    let over = chain_bytes(MAX_DEPTH + 1);
    let dump = wiremsg::dynamic::annotate(&set, "Node", &over, false);
    let err = dump.error().unwrap();
    assert_eq!(
        err.kind(),
        &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
    );
    assert_eq!(err.offset(), 65 * 15);
}
