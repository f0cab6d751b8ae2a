//! Generic messages (README, supported types): type parameters bounded by the wire
//! traits, views generic the same way, layout constants of each instantiation,
//! instantiations named apart in schemas (`Batch_Tick`), and no bytes of their own:
//! an instantiation has the bytes of the same struct written without parameters.

use wiremsg::{ErrorKind, Field, SchemaSet, WireMsg, WireUnion};

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Tick {
    px: i64,
    qty: u32,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Quote {
    venue: String,
    px: i64,
}

/// The example.
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Batch<T: WireMsg> {
    seq: u64,
    items: Vec<T>,
}

/// Batch<Tick> written out.
#[derive(WireMsg, Debug, PartialEq)]
struct TickBatch {
    seq: u64,
    items: Vec<Tick>,
}

/// Two parameters, a `where` clause, and a parameter used inline.
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Pair<A, B>
where
    A: Clone,
{
    a: A,
    b: Option<B>,
}

/// Borrowed and generic: encodes a batch without allocating.
#[derive(WireMsg, Debug, PartialEq)]
struct BatchRef<'a, T: WireMsg> {
    seq: u64,
    items: &'a [T],
}

/// Generic and recursive.
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Tree<T> {
    value: T,
    children: Vec<Tree<T>>,
}

/// Two instantiations in one message: two schemas in one set.
#[derive(WireMsg, Debug, PartialEq)]
struct Feed {
    ticks: Batch<Tick>,
    quotes: Batch<Quote>,
    pair: Pair<u8, Tick>,
}

fn ticks() -> Batch<Tick> {
    Batch {
        seq: 9,
        items: vec![Tick { px: -1, qty: 2 }, Tick { px: 3, qty: 4 }],
    }
}

#[test]
fn an_instantiation_has_the_bytes_of_the_struct_written_out() {
    let batch = ticks();
    let bytes = batch.to_bytes().unwrap();
    let concrete = TickBatch {
        seq: 9,
        items: batch.items.clone(),
    };
    assert_eq!(bytes, concrete.to_bytes().unwrap());
    assert_eq!(Batch::<Tick>::BLOCK_LENGTH, TickBatch::BLOCK_LENGTH);
    assert_eq!(BatchView::<Tick>::ITEMS_OFFSET, TickBatchView::ITEMS_OFFSET);
    assert_eq!(Batch::<Tick>::decode(&bytes).unwrap(), batch);
    assert_eq!(TickBatch::decode(&bytes).unwrap(), concrete);
    let view: BatchView<'_, Tick> = Batch::view(&bytes).unwrap();
    assert_eq!(view.seq(), 9);
    assert_eq!(view.items().get(1).unwrap().qty(), 4);
    assert_eq!(view.decode(), batch);
    assert_eq!(batch, view);
    assert_eq!(
        format!("{view:?}"),
        "BatchView { seq: 9, items: [TickView { px: -1, qty: 2 }, TickView { px: 3, qty: 4 }] }"
    );
    // The mutable view prints the view's fields under its own name, in both forms.
    let mut copy = bytes.clone();
    let view_mut = Batch::<Tick>::view_mut(&mut copy).unwrap();
    assert_eq!(
        format!("{view_mut:?}"),
        "BatchMut { seq: 9, items: [TickView { px: -1, qty: 2 }, TickView { px: 3, qty: 4 }] }"
    );
    // And with the caller's flags, as the view does (hex, width, precision).
    for (of_view, of_mut) in [
        (format!("{view:#?}"), format!("{view_mut:#?}")),
        (format!("{view:x?}"), format!("{view_mut:x?}")),
        (format!("{view:5?}"), format!("{view_mut:5?}")),
        (format!("{view:+.1?}"), format!("{view_mut:+.1?}")),
    ] {
        assert_eq!(of_view.replacen("BatchView", "BatchMut", 1), of_mut);
    }
    assert!(format!("{view_mut:x?}").contains("px: ffffffffffffffff"));
}

#[test]
fn layout_constants_depend_on_the_type_arguments() {
    // Fixed-size arguments: inline, no block length field.
    assert_eq!(Pair::<u8, u64>::BLOCK_LENGTH, 1 + 9);
    assert_eq!(PairView::<u8, u64>::B_OFFSET, 1);
    const { assert!(!<Pair<u8, u64> as Field>::IN_TAIL) };
    // A string: the block length field, and the string's slot.
    assert_eq!(Pair::<String, u64>::BLOCK_LENGTH, 2 + 4 + 9);
    assert_eq!(PairView::<String, u64>::B_OFFSET, 6);
    const { assert!(<Pair<String, u64> as Field>::IN_TAIL) };
    assert_eq!(Pair::<Tick, u8>::BLOCK_LENGTH, 12 + 2);
    let pair = Pair {
        a: String::from("ab"),
        b: Some(7u64),
    };
    let bytes = pair.to_bytes().unwrap();
    assert_eq!(
        bytes,
        [15, 0, 17, 0, 0, 0, 1, 7, 0, 0, 0, 0, 0, 0, 0, b'a', b'b']
    );
    assert_eq!(Pair::<String, u64>::decode(&bytes).unwrap(), pair);
}

#[test]
fn views_are_generic_the_same_way() {
    fn seq<T: WireMsg + wiremsg::Element>(view: BatchView<'_, T>) -> u64 {
        view.seq()
    }
    let bytes = ticks().to_bytes().unwrap();
    assert_eq!(seq(Batch::<Tick>::view(&bytes).unwrap()), 9);
    let quotes = Batch {
        seq: 4,
        items: vec![Quote {
            venue: "XNAS".into(),
            px: 5,
        }],
    };
    let bytes = quotes.to_bytes().unwrap();
    let view = Batch::<Quote>::view(&bytes).unwrap();
    assert_eq!(seq(view), 4);
    assert_eq!(view.items().get(0).unwrap().venue(), "XNAS");
}

#[test]
fn fixed_parts_are_set_in_place() {
    let mut bytes = ticks().to_bytes().unwrap();
    let mut edit = Batch::<Tick>::view_mut(&mut bytes).unwrap();
    edit.set_seq(10);
    assert!(edit.items_mut().set(1, &Tick { px: 8, qty: 1 }));
    let mut items = edit.items_mut();
    items.get_mut(0).unwrap().set_qty(5);
    let back = Batch::<Tick>::decode(&bytes).unwrap();
    assert_eq!(back.seq, 10);
    assert_eq!(
        back.items,
        [Tick { px: -1, qty: 5 }, Tick { px: 8, qty: 1 }]
    );
    let mut bytes = Pair {
        a: 1u8,
        b: Some(Tick { px: 1, qty: 1 }),
    }
    .to_bytes()
    .unwrap();
    let mut edit = Pair::<u8, Tick>::view_mut(&mut bytes).unwrap();
    edit.set_a(2);
    edit.set_b(None);
    assert_eq!(
        Pair::<u8, Tick>::decode(&bytes).unwrap(),
        Pair { a: 2, b: None }
    );
}

#[test]
fn a_borrowed_instantiation_encodes_the_same_bytes() {
    let batch = ticks();
    let borrowed = BatchRef {
        seq: 9,
        items: &batch.items,
    };
    let mut buf = [0u8; 64];
    let n = borrowed.encode_into(&mut buf).unwrap();
    assert_eq!(buf[..n], batch.to_bytes().unwrap());
    let view = BatchRef::<Tick>::view(&buf[..n]).unwrap();
    assert_eq!(view.items().len(), 2);
}

#[test]
fn a_generic_recursive_message() {
    let leaf = |value: u16| Tree {
        value,
        children: vec![],
    };
    let tree = Tree {
        value: 1u16,
        children: vec![leaf(2), leaf(3)],
    };
    let bytes = tree.to_bytes().unwrap();
    assert_eq!(Tree::<u16>::decode(&bytes).unwrap(), tree);
    let view = Tree::<u16>::view(&bytes).unwrap();
    assert_eq!(view.children().get(1).unwrap().value(), 3);
    let set = SchemaSet::of::<Tree<u16>>().unwrap();
    assert_eq!(set.messages()[0].name, "Tree_u16");
    assert!(wiremsg::dynamic::view(&set, "Tree_u16", &bytes).is_ok());
}

#[test]
fn hostile_bytes_are_refused_with_the_field_and_offset() {
    let bytes = ticks().to_bytes().unwrap();
    let err = Batch::<Tick>::view(&bytes[..5]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::Truncated {
            needed: 14,
            available: 5
        }
    );
    // The list's end offset past the message: a truncated buffer.
    let mut bad = bytes.clone();
    bad[10] = 0xff;
    let err = Batch::<Tick>::view(&bad).unwrap_err();
    assert_eq!((err.path().as_str(), err.offset()), ("items", 10));
    assert!(
        matches!(err.kind(), ErrorKind::Truncated { needed, available }
            if *needed > *available && *available == bad.len()),
        "{err}"
    );
    // Invalid UTF-8 in a quote of a batch.
    let quotes = Batch {
        seq: 1,
        items: vec![Quote {
            venue: "AB".into(),
            px: 0,
        }],
    };
    let mut bad = quotes.to_bytes().unwrap();
    let at = bad.len() - 2;
    bad[at] = 0xff;
    let err = Batch::<Quote>::view(&bad).unwrap_err();
    assert_eq!(err.path(), "items[0].venue");
    assert!(matches!(err.kind(), ErrorKind::InvalidUtf8 { .. }), "{err}");
    let set = SchemaSet::of::<Batch<Quote>>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Batch_Quote", &bad).unwrap_err();
    assert_eq!(
        (dynamic.kind(), dynamic.path(), dynamic.offset()),
        (err.kind(), err.path(), err.offset())
    );
}

#[test]
fn instantiations_are_named_apart_in_a_schema_set() {
    assert_eq!(Batch::<Tick>::SCHEMA.name, "Batch_Tick");
    assert_eq!(Batch::<Quote>::SCHEMA.name, "Batch_Quote");
    assert_eq!(Pair::<u8, Tick>::SCHEMA.name, "Pair_u8_Tick");
    assert_eq!(
        Pair::<Vec<u16>, (u8, String)>::SCHEMA.name,
        "Pair_Vec_u16_Tuple_u8_String"
    );
    assert_eq!(Batch::<Batch<Tick>>::SCHEMA.name, "Batch_Batch_Tick");
    assert_eq!(
        Pair::<std::collections::BTreeMap<u16, String>, u8>::SCHEMA.name,
        "Pair_Map_u16_String_u8"
    );
    let set = SchemaSet::of::<Feed>().unwrap();
    let names: Vec<&str> = set.messages().iter().map(|m| &*m.name).collect();
    assert_eq!(
        names,
        [
            "Batch_Quote",
            "Batch_Tick",
            "Feed",
            "Pair_u8_Tick",
            "Quote",
            "Tick"
        ]
    );
    let feed = Feed {
        ticks: ticks(),
        quotes: Batch {
            seq: 2,
            items: vec![],
        },
        pair: Pair {
            a: 1,
            b: Some(Tick { px: 0, qty: 0 }),
        },
    };
    let bytes = feed.to_bytes().unwrap();
    assert_eq!(Feed::decode(&bytes).unwrap(), feed);
    let dynamic = wiremsg::dynamic::view(&set, "Feed", &bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&dynamic).unwrap(),
        serde_json::to_string(&Feed::view(&bytes).unwrap()).unwrap()
    );
    let back = SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap();
    assert_eq!(back, set);
    assert_ne!(
        SchemaSet::of::<Batch<Tick>>().unwrap().fingerprint(),
        SchemaSet::of::<Batch<Quote>>().unwrap().fingerprint()
    );
    assert!(wiremsg::schema::compat(&set, &set).changes().is_empty());
}

/// Instantiations as union payloads: a variant's message, and a struct variant's
/// field.
#[derive(WireUnion, Debug, PartialEq)]
#[repr(u8)]
enum Update {
    Ticks(Batch<Tick>) = 0,
    Quotes { batch: Batch<Quote> } = 1,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Updates {
    updates: Vec<Update>,
}

#[test]
fn instantiations_are_union_payloads() {
    let value = Updates {
        updates: vec![
            Update::Ticks(ticks()),
            Update::Quotes {
                batch: Batch {
                    seq: 3,
                    items: vec![],
                },
            },
        ],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Updates::decode(&bytes).unwrap(), value);
    let view = Updates::view(&bytes).unwrap();
    let UpdateView::Ticks(batch) = view.updates().get(0).unwrap() else {
        panic!("{view:?}")
    };
    assert_eq!(batch.items().len(), 2);
    let set = SchemaSet::of::<Updates>().unwrap();
    let names: Vec<&str> = set.messages().iter().map(|m| &*m.name).collect();
    assert_eq!(
        names,
        [
            "Batch_Quote",
            "Batch_Tick",
            "Quote",
            "Tick",
            "UpdateQuotes",
            "Updates"
        ]
    );
    assert_eq!(
        SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap(),
        set
    );
    let dynamic = wiremsg::dynamic::view(&set, "Updates", &bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&dynamic).unwrap(),
        serde_json::to_string(&view).unwrap()
    );
}

/// A union whose payload is a generic message instantiated with the union itself
/// (a tree of expressions through a generic list message), directly, in a list and
/// in a box: the union's schema and the instantiation's name refer to each other.
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Seq<T> {
    op: u8,
    items: Vec<T>,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Boxed<T> {
    inner: Option<Box<T>>,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Expr {
    Lit { value: i64 } = 1,
    Seq(Seq<Expr>) = 2,
    Nested(Seq<Vec<Expr>>) = 3,
    Boxed(Boxed<Expr>) = 4,
}

#[test]
fn a_union_is_the_type_argument_of_its_own_payload() {
    let lit = |value| Expr::Lit { value };
    let expr = Expr::Seq(Seq {
        op: 7,
        items: vec![
            lit(1),
            Expr::Nested(Seq {
                op: 8,
                items: vec![vec![lit(2), lit(3)], vec![]],
            }),
            Expr::Boxed(Boxed {
                inner: Some(Box::new(lit(4))),
            }),
        ],
    });
    let bytes = expr.to_bytes().unwrap();
    assert_eq!(Expr::decode(&bytes).unwrap(), expr);
    let ExprView::Seq(seq) = Expr::view(&bytes).unwrap() else {
        panic!()
    };
    assert_eq!(seq.op(), 7);
    assert_eq!(seq.items().len(), 3);
    assert_eq!(Seq::<Expr>::SCHEMA.name, "Seq_Expr");
    assert_eq!(Seq::<Vec<Expr>>::SCHEMA.name, "Seq_Vec_Expr");
    assert_eq!(Boxed::<Expr>::SCHEMA.name, "Boxed_Expr");
    let variants = &Expr::UNION_SCHEMA.variants;
    let payloads: Vec<Option<&str>> = variants
        .iter()
        .map(|v| v.payload.as_ref().map(|p| &*p.name))
        .collect();
    assert_eq!(
        payloads,
        [
            Some("ExprLit"),
            Some("Seq_Expr"),
            Some("Seq_Vec_Expr"),
            Some("Boxed_Expr")
        ]
    );
    assert_eq!(
        variants[1]
            .payload
            .as_ref()
            .unwrap()
            .resolve()
            .unwrap()
            .name,
        "Seq_Expr"
    );
    // The payload as a message of its own: its schema set holds every instantiation,
    // and the schema-driven reader reads its bytes as the typed view does.
    let Expr::Seq(seq) = &expr else { panic!() };
    let bytes = seq.to_bytes().unwrap();
    let set = SchemaSet::of::<Seq<Expr>>().unwrap();
    let names: Vec<&str> = set.messages().iter().map(|m| &*m.name).collect();
    assert_eq!(names, ["Boxed_Expr", "ExprLit", "Seq_Expr", "Seq_Vec_Expr"]);
    assert_eq!(
        SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap(),
        set
    );
    let dynamic = wiremsg::dynamic::view(&set, "Seq_Expr", &bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&dynamic).unwrap(),
        serde_json::to_string(&Seq::<Expr>::view(&bytes).unwrap()).unwrap()
    );
    let mut bytes = bytes;
    Seq::<Expr>::view_mut(&mut bytes).unwrap().set_op(9);
    assert_eq!(Seq::<Expr>::view_lazy(&bytes).unwrap().op().unwrap(), 9);
}

/// Mutual recursion through instantiations: two messages that hold each other in
/// `Seq`, a union whose payload holds a message holding the union, and two unions
/// that hold each other. Each views, decodes and round-trips (each was E0275, at
/// the derive or at `decode`).
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Left {
    x: u8,
    right: Seq<Right>,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Right {
    lefts: Seq<Left>,
}

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Holder {
    e: Term,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Term {
    Lit { value: i64 } = 1,
    Held(Seq<Holder>) = 2,
    Other(Box<Seq<Other>>) = 3,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Other {
    Leaf { value: u16 } = 1,
    Terms(Seq<Term>) = 2,
}

#[test]
fn mutual_recursion_through_instantiations() {
    let left = Left {
        x: 1,
        right: Seq {
            op: 2,
            items: vec![Right {
                lefts: Seq {
                    op: 3,
                    items: vec![Left {
                        x: 4,
                        right: Seq {
                            op: 5,
                            items: vec![],
                        },
                    }],
                },
            }],
        },
    };
    let bytes = left.to_bytes().unwrap();
    assert_eq!(Left::decode(&bytes).unwrap(), left);
    let view = Left::view(&bytes).unwrap();
    assert_eq!(view.right().items().get(0).unwrap().lefts().op(), 3);

    let term = Term::Held(Seq {
        op: 6,
        items: vec![Holder {
            e: Term::Other(Box::new(Seq {
                op: 7,
                items: vec![
                    Other::Leaf { value: 8 },
                    Other::Terms(Seq {
                        op: 9,
                        items: vec![Term::Lit { value: -1 }],
                    }),
                ],
            })),
        }],
    });
    let holder = Holder { e: term };
    let bytes = holder.to_bytes().unwrap();
    assert_eq!(Holder::decode(&bytes).unwrap(), holder);
    let set = SchemaSet::of::<Holder>().unwrap();
    let dynamic = wiremsg::dynamic::view(&set, "Holder", &bytes).unwrap();
    assert_eq!(
        serde_json::to_string(&dynamic).unwrap(),
        serde_json::to_string(&Holder::view(&bytes).unwrap()).unwrap()
    );
}

/// A generic message with a name and a list: aliased below with a const parameter.
#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Named<K, T> {
    name: K,
    items: Vec<T>,
}

/// Aliases with const parameters of instantiations that hold their holder: the
/// derive guards `Group<8>` as it guards an instantiation, as a held type (inline it
/// was a trait cycle, E0275, found by a hostile review).
type Group<const N: usize> = Named<wiremsg::FixedStr<N>, Grove>;
type Args<const N: usize> = Named<wiremsg::FixedStr<N>, Call>;

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Grove {
    v: u32,
    kids: Group<8>,
}

#[derive(WireUnion, Debug, PartialEq, Clone)]
#[repr(u8)]
enum Call {
    Lit { v: i64 } = 0,
    Apply { f: u8, args: Args<4> } = 1,
}

#[test]
fn a_const_alias_of_an_instantiation_may_hold_its_holder() {
    fn name<const N: usize>(s: &str) -> wiremsg::FixedStr<N> {
        wiremsg::FixedStr::new(s).unwrap()
    }
    let leaf = Grove {
        v: 2,
        kids: Named {
            name: name("leaf"),
            items: vec![],
        },
    };
    let grove = Grove {
        v: 1,
        kids: Named {
            name: name("root"),
            items: vec![leaf],
        },
    };
    let bytes = grove.to_bytes().unwrap();
    assert_eq!(Grove::decode(&bytes).unwrap(), grove);
    let view = Grove::view(&bytes).unwrap();
    assert_eq!(view.kids().name(), "root");
    assert_eq!(view.kids().items().get(0).unwrap().v(), 2);

    let call = Call::Apply {
        f: 3,
        args: Named {
            name: name("add"),
            items: vec![Call::Lit { v: -1 }, Call::Lit { v: 5 }],
        },
    };
    let bytes = call.to_bytes().unwrap();
    assert_eq!(Call::decode(&bytes).unwrap(), call);
    let CallView::Apply(apply) = Call::view(&bytes).unwrap() else {
        panic!("not Apply");
    };
    assert_eq!(apply.args().name(), "add");
    assert_eq!(apply.args().items().len(), 2);
}

/// A generic message evolves by the same rules: older and newer readers of an
/// instantiation read each other's bytes.
#[test]
fn a_generic_message_evolves() {
    mod v2 {
        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Batch<T: wiremsg::WireMsg> {
            pub(crate) seq: u64,
            pub(crate) items: Vec<T>,
            #[wire(since = 2)]
            pub(crate) last: Option<T>,
        }
    }
    let new = v2::Batch {
        seq: 9,
        items: ticks().items,
        last: Some(Tick { px: 7, qty: 7 }),
    };
    let bytes = new.to_bytes().unwrap();
    assert_eq!(Batch::<Tick>::decode(&bytes).unwrap(), ticks());
    let old = ticks().to_bytes().unwrap();
    let view = v2::Batch::<Tick>::view(&old).unwrap();
    assert_eq!((view.version(), view.try_last()), (1, None));
    assert_eq!(
        v2::Batch::<Tick>::decode(&old).unwrap(),
        v2::Batch {
            seq: 9,
            items: ticks().items,
            last: None
        }
    );
    let report = wiremsg::schema::compat(
        &SchemaSet::of::<Batch<Tick>>().unwrap(),
        &SchemaSet::of::<v2::Batch<Tick>>().unwrap(),
    );
    assert!(!report.changes().is_empty(), "{report}");
    assert!(
        report
            .changes()
            .iter()
            .all(|c| c.old_readers == wiremsg::schema::Verdict::Compatible),
        "{report}"
    );
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn round_trips(seq in any::<u64>(), items in proptest::collection::vec((any::<i64>(), any::<u32>()), 0..6)) {
            let batch = Batch { seq, items: items.into_iter().map(|(px, qty)| Tick { px, qty }).collect() };
            let bytes = batch.to_bytes().unwrap();
            prop_assert_eq!(Batch::<Tick>::decode(&bytes).unwrap(), batch);
        }

        #[test]
        fn no_input_panics_and_both_readers_agree(bytes in proptest::collection::vec(any::<u8>(), 0..48)) {
            let set = SchemaSet::of::<Batch<Quote>>().unwrap();
            let typed = Batch::<Quote>::view(&bytes).map(|_| ());
            let dynamic = wiremsg::dynamic::view(&set, "Batch_Quote", &bytes).map(|_| ());
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
