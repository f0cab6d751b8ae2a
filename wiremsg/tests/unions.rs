//! Tagged unions (FORMAT.md §4.10): the golden vector E11, round trips from owned and
//! borrowed values, the mutable view, decoding, and the errors of bad bytes (unknown
//! tag, cut-short tag, payload past its region, bad payload), with their paths and
//! offsets.

#[path = "common/cases.rs"]
mod cases;
#[path = "common/golden.rs"]
mod format_golden;
#[path = "common/handmade.rs"]
mod handmade;
use format_golden::golden;
use proptest::prelude::*;
use wiremsg::{ErrorKind, WireMsg, WireUnion};

#[path = "common/e11.rs"]
mod e11_types;
use e11_types::{Limit, Order, OrderInstr, OrderInstrMut, OrderInstrStop, OrderInstrView, e11};

/// The same union without a catch-all: an older reader's.
mod strict {
    use super::Limit;
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    pub(super) enum OrderInstr {
        Market = 0,
        Limit(Limit) = 1,
        Stop { trigger: i64, note: String } = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Order {
        pub(super) id: u32,
        pub(super) instr: OrderInstr,
        pub(super) alt: Option<OrderInstr>,
        pub(super) history: Vec<OrderInstr>,
    }
}

#[test]
fn e11_golden_bytes_view_and_decode() {
    let bytes = golden("E11");
    assert_eq!(bytes.len(), 61);
    assert_eq!(e11().to_bytes().unwrap(), bytes);
    assert_eq!(Order::BLOCK_LENGTH, 19);
    let view = Order::view(&bytes).unwrap();
    assert_eq!(view.id(), 7);
    match view.instr() {
        OrderInstrView::Limit(limit) => assert_eq!((limit.price(), limit.qty()), (1000, 5)),
        other => panic!("{other:?}"),
    }
    match view.alt() {
        Some(OrderInstrView::Stop(stop)) => {
            assert_eq!((stop.trigger(), stop.note()), (-1, "hi"));
        }
        other => panic!("{other:?}"),
    }
    let history = view.history();
    assert_eq!(history.len(), 2);
    assert_eq!(history.get(0), Some(OrderInstrView::Market));
    assert_eq!(
        history.get(1),
        Some(OrderInstrView::Other {
            tag: 9,
            bytes: &[0xaa, 0xbb]
        })
    );
    assert_eq!(history.get(2), None);
    assert_eq!(Order::decode(&bytes).unwrap(), e11());
    assert_eq!(view.decode(), e11());
}

#[test]
fn e11_without_the_catch_all_fails_at_the_unknown_tag() {
    let bytes = golden("E11");
    let err = strict::Order::view(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::UnknownVariant {
            union_name: "OrderInstr".into(),
            tag: 9
        }
    );
    assert_eq!((err.offset(), err.path().as_str()), (58, "history[1]"));
    assert_eq!(
        err.to_string(),
        "unknown tag 9 for union OrderInstr at byte 58 in `history[1]`"
    );
}

#[test]
fn every_variant_round_trips_as_a_field_and_alone() {
    let values = [
        OrderInstr::Market,
        OrderInstr::Limit(Limit {
            price: i64::MIN,
            qty: u32::MAX,
        }),
        OrderInstr::Stop {
            trigger: 42,
            note: "é".repeat(40),
        },
        OrderInstr::Other {
            tag: 255,
            bytes: vec![],
        },
    ];
    for value in values {
        let alone = value.to_bytes().unwrap();
        assert_eq!(alone.len(), value.encoded_len());
        assert_eq!(OrderInstr::decode(&alone).unwrap(), value);
        let mut buf = [0u8; 128];
        let n = value.encode_into(&mut buf).unwrap();
        assert_eq!(&buf[..n], alone);
        assert_eq!(OrderInstr::view(&alone).unwrap().decode(), value);

        let order = Order {
            id: 1,
            instr: value.clone(),
            alt: None,
            history: vec![value.clone(), OrderInstr::Market, value.clone()],
        };
        let bytes = order.to_bytes().unwrap();
        assert_eq!(Order::decode(&bytes).unwrap(), order);
        let view = Order::view(&bytes).unwrap();
        // The union's region in the message is exactly its bytes alone.
        assert_eq!(OrderInstr::view(&alone).unwrap(), view.instr());
        assert_eq!(view.history().get(2), Some(view.instr()));
        assert_eq!(view.alt(), None);
    }
}

#[test]
fn the_bytes_of_each_variant_alone() {
    assert_eq!(OrderInstr::Market.to_bytes().unwrap(), [0]);
    let stop = OrderInstr::Stop {
        trigger: 1,
        note: "x".into(),
    };
    assert_eq!(
        stop.to_bytes().unwrap(),
        [2, 14, 0, 1, 0, 0, 0, 0, 0, 0, 0, 15, 0, 0, 0, b'x']
    );
    let other = OrderInstr::Other {
        tag: 7,
        bytes: vec![1, 2, 3],
    };
    assert_eq!(other.to_bytes().unwrap(), [7, 1, 2, 3]);
    // The anonymous message of `Stop` is a message of its own, with the same bytes.
    let anonymous = OrderInstrStop {
        trigger: 1,
        note: "x".into(),
    };
    assert_eq!(anonymous.to_bytes().unwrap(), stop.to_bytes().unwrap()[1..]);
}

#[test]
fn a_catch_all_keeps_an_unknown_variant_and_writes_it_back_byte_for_byte() {
    let bytes = golden("E11");
    let order = Order::decode(&bytes).unwrap();
    assert_eq!(order.to_bytes().unwrap(), bytes);
    // A catch-all holding a known tag would be read back as that variant: refused.
    let forged = OrderInstr::Other {
        tag: 1,
        bytes: vec![0; 3],
    };
    let err = forged.to_bytes().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::CatchAllKnownTag {
            union_name: "OrderInstr".into(),
            tag: 1
        }
    );
    let in_message = Order {
        history: vec![OrderInstr::Market, forged],
        ..e11()
    };
    let err = in_message.to_bytes().unwrap_err();
    assert_eq!(err.path(), "history[1]");
    let mut buf = [0xEEu8; 64];
    assert!(in_message.encode_into(&mut buf).is_err());
    assert_eq!(buf, [0xEE; 64], "nothing written");
}

#[test]
fn the_present_variant_is_set_in_place() {
    let mut bytes = golden("E11");
    {
        let mut order = Order::view_mut(&mut bytes).unwrap();
        match order.instr_mut() {
            OrderInstrMut::Limit(mut limit) => {
                assert_eq!(limit.qty(), 5);
                limit.set_qty(6);
                limit.set_price(-1000);
            }
            other => panic!("{other:?}"),
        }
    }
    let order = Order::decode(&bytes).unwrap();
    assert_eq!(
        order.instr,
        OrderInstr::Limit(Limit {
            price: -1000,
            qty: 6
        })
    );
    // A union alone, mutably: a struct variant's fixed-size fields, and the
    // catch-all's bytes (which this reader does not check).
    let mut stop = OrderInstr::Stop {
        trigger: 5,
        note: "keep".into(),
    }
    .to_bytes()
    .unwrap();
    match OrderInstr::view_mut(&mut stop).unwrap() {
        OrderInstrMut::Stop(mut s) => s.set_trigger(9),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        OrderInstr::decode(&stop).unwrap(),
        OrderInstr::Stop {
            trigger: 9,
            note: "keep".into()
        }
    );
    let mut other = [9u8, 1, 2];
    match OrderInstr::view_mut(&mut other).unwrap() {
        OrderInstrMut::Other { tag, bytes } => {
            assert_eq!(tag, 9);
            bytes[0] = 7;
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(other, [9, 7, 2]);
}

#[test]
fn list_elements_are_set_in_place_through_their_present_variant() {
    let mut order = e11();
    order.history = vec![
        OrderInstr::Limit(Limit { price: 1, qty: 2 }),
        OrderInstr::Market,
        OrderInstr::Stop {
            trigger: 3,
            note: "n".into(),
        },
        OrderInstr::Other {
            tag: 9,
            bytes: vec![0xaa],
        },
    ];
    let mut bytes = order.to_bytes().unwrap();
    {
        let mut edit = Order::view_mut(&mut bytes).unwrap();
        let mut history = edit.history_mut();
        // O(1) access to one element, then every element in order.
        match history.get_mut(2) {
            Some(OrderInstrMut::Stop(mut stop)) => stop.set_trigger(-3),
            other => panic!("{other:?}"),
        }
        assert!(history.get_mut(4).is_none());
        let mut seen = Vec::new();
        for (i, element) in history.iter_mut().enumerate() {
            match element {
                OrderInstrMut::Limit(mut limit) => limit.set_qty(limit.qty() * 10),
                OrderInstrMut::Other { tag, bytes } => {
                    assert_eq!((tag, &*bytes), (9, &[0xaa][..]));
                    bytes[0] = 0xbb;
                }
                _ => {}
            }
            seen.push(i);
        }
        assert_eq!(seen, [0, 1, 2, 3]);
    }
    let history = Order::decode(&bytes).unwrap().history;
    assert_eq!(
        history,
        [
            OrderInstr::Limit(Limit { price: 1, qty: 20 }),
            OrderInstr::Market,
            OrderInstr::Stop {
                trigger: -3,
                note: "n".into()
            },
            OrderInstr::Other {
                tag: 9,
                bytes: vec![0xbb]
            },
        ]
    );
}

#[test]
fn hostile_bytes_name_the_field_the_variant_and_the_offset() {
    let good = golden("E11");
    let check = |bytes: &[u8], kind: ErrorKind, offset: usize, path: &str| {
        let err = Order::view(bytes).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset(), err.path().as_str()),
            (&kind, offset, path),
            "{err}"
        );
        // The typed view and decoding agree.
        assert!(Order::decode(bytes).is_err());
    };

    // An empty region: no tag (instr's region 19..19).
    let mut bytes = good.clone();
    bytes[6] = 19;
    check(
        &bytes,
        ErrorKind::Truncated {
            needed: 1,
            available: 0,
        },
        19,
        "instr",
    );

    // A payload cut short: `Limit` needs 12 bytes, the region leaves it 11.
    let mut bytes = good.clone();
    bytes[6] = 31;
    check(
        &bytes,
        ErrorKind::Truncated {
            needed: 12,
            available: 11,
        },
        20,
        "instr.Limit",
    );

    // The `Stop` payload's string ends past the payload's region.
    let mut bytes = good.clone();
    bytes[43] = 17;
    check(
        &bytes,
        ErrorKind::OffsetOutOfRange {
            end: 17,
            min: 14,
            max: 16,
        },
        43,
        "alt.Stop.note",
    );

    // Bad UTF-8 inside the `Stop` payload.
    let mut bytes = good.clone();
    bytes[48] = 0xFF;
    check(
        &bytes,
        ErrorKind::InvalidUtf8 { valid_up_to: 1 },
        48,
        "alt.Stop.note",
    );

    // An unknown tag in a field, without a catch-all.
    let mut bytes = good.clone();
    bytes[19] = 3;
    let err = strict::Order::view(&bytes).unwrap_err();
    assert_eq!((err.offset(), err.path().as_str()), (19, "instr"));
    // ... which the catch-all keeps: its bytes are the rest of the region.
    let view = Order::view(&bytes).unwrap();
    assert_eq!(
        view.instr(),
        OrderInstrView::Other {
            tag: 3,
            bytes: &good[20..32]
        }
    );

    // Each prefix of the message fails cleanly (no panic), with an offset inside it.
    for len in 0..good.len() {
        let err = Order::view(&good[..len]).unwrap_err();
        assert!(err.offset() <= len, "{len}: {err}");
    }
}

#[test]
fn a_unit_variant_ignores_bytes_after_its_tag() {
    assert_eq!(
        OrderInstr::view(&[0, 1, 2, 3]).unwrap(),
        OrderInstrView::Market
    );
    assert_eq!(OrderInstr::decode(&[0, 9]).unwrap(), OrderInstr::Market);
}

/// Wider tags, tags by attribute, and a union of borrowed data.
mod wide {
    use wiremsg::{ErrorKind, WireMsg, WireUnion};

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Text<'a> {
        body: &'a str,
    }

    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u16)]
    enum Event<'a> {
        #[wire(tag = 0x0101)]
        Text(Text<'a>),
        #[wire(tag = 0x0202)]
        Blob { id: u32, data: &'a [u8] },
        #[wire(tag = 0x0303)]
        Ping,
        #[wire(other)]
        Unknown { tag: u16, bytes: &'a [u8] },
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct Batch<'a> {
        events: Vec<Event<'a>>,
    }

    #[test]
    fn borrowed_unions_encode_without_owning_and_decode_borrowing() {
        let data = [1u8, 2, 3];
        let batch = Batch {
            events: vec![
                Event::Text(Text { body: "hello" }),
                Event::Blob { id: 4, data: &data },
                Event::Ping,
                Event::Unknown {
                    tag: 0x0404,
                    bytes: &[5, 6],
                },
            ],
        };
        let bytes = batch.to_bytes().unwrap();
        let view = Batch::view(&bytes).unwrap();
        assert_eq!(view.events().len(), 4);
        match view.events().get(1) {
            Some(EventView::Blob(blob)) => assert_eq!((blob.id(), blob.data()), (4, &data[..])),
            other => panic!("{other:?}"),
        }
        let back = Batch::decode(&bytes).unwrap();
        assert_eq!(back, batch);
        // Borrowed from `bytes`, not copied.
        let Event::Text(text) = &back.events[0] else {
            panic!()
        };
        assert!(bytes.as_ptr_range().contains(&text.body.as_ptr()));
        // Tags are two bytes: the `Ping` element is its tag alone.
        assert_eq!(Event::Ping.to_bytes().unwrap(), [3, 3]);
        let err = Event::view(&[1]).unwrap_err();
        assert_eq!(
            err.kind(),
            &ErrorKind::Truncated {
                needed: 2,
                available: 1
            }
        );
    }
}

/// Versions of one union: `v1` before `Stop` was added, `v2` with it.
mod versions {
    use wiremsg::{ErrorKind, WireMsg, WireUnion};

    pub(super) mod v1 {
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Limit {
            pub(crate) price: i64,
        }

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Instr {
            Market = 0,
            Limit(Limit) = 1,
        }

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Relayed {
            Market = 0,
            Limit(Limit) = 1,
            #[wire(other)]
            Other {
                tag: u8,
                bytes: Vec<u8>,
            },
        }
    }

    pub(super) mod v2 {
        use wiremsg::{WireMsg, WireUnion};

        /// `Limit` v2 gains a field: its payload grows, as a root message's block.
        #[derive(WireMsg, Debug, PartialEq)]
        #[wire(version = 2)]
        pub(crate) struct Limit {
            pub(crate) price: i64,
            #[wire(since = 2, default = 100)]
            pub(crate) qty: u32,
        }

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        #[wire(version = 2)]
        pub(crate) enum Instr {
            Market = 0,
            Limit(Limit) = 1,
            #[wire(since = 2)]
            Stop {
                trigger: i64,
            } = 2,
        }
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct Relay {
        instr: v1::Relayed,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct Sent {
        instr: v2::Instr,
    }

    #[test]
    fn an_older_reader_of_a_newer_variant() {
        let stop = v2::Instr::Stop { trigger: 8 }.to_bytes().unwrap();
        let err = v1::Instr::view(&stop).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (
                &ErrorKind::UnknownVariant {
                    union_name: "Instr".into(),
                    tag: 2
                },
                0
            )
        );
        // With a catch-all, a relay keeps it and forwards it byte for byte, also
        // inside a message.
        let relayed = v1::Relayed::decode(&stop).unwrap();
        assert_eq!(
            relayed,
            v1::Relayed::Other {
                tag: 2,
                bytes: stop[1..].to_vec()
            }
        );
        assert_eq!(relayed.to_bytes().unwrap(), stop);
        let sent = Sent {
            instr: v2::Instr::Stop { trigger: 8 },
        }
        .to_bytes()
        .unwrap();
        let relay = Relay::decode(&sent).unwrap();
        assert_eq!(relay.to_bytes().unwrap(), sent);
        assert_eq!(
            Sent::decode(&relay.to_bytes().unwrap()).unwrap().instr,
            v2::Instr::Stop { trigger: 8 }
        );
    }

    #[test]
    fn payloads_evolve_as_root_messages() {
        // A v1 reader of a v2 `Limit`: reads `price`, ignores `qty`.
        let new = v2::Instr::Limit(v2::Limit { price: 5, qty: 7 })
            .to_bytes()
            .unwrap();
        assert_eq!(new.len(), 1 + 12);
        assert_eq!(
            v1::Instr::decode(&new).unwrap(),
            v1::Instr::Limit(v1::Limit { price: 5 })
        );
        // A v2 reader of a v1 `Limit`: `qty` is absent and reads its default.
        let old = v1::Instr::Limit(v1::Limit { price: 5 }).to_bytes().unwrap();
        match v2::Instr::view(&old).unwrap() {
            v2::InstrView::Limit(limit) => {
                assert_eq!((limit.has_qty(), limit.qty()), (false, 100));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(v2::Instr::UNION_SCHEMA.variant(2).unwrap().since, 2);
    }
}

/// A union that nests itself through a list.
mod recursive {
    use wiremsg::{ErrorKind, MAX_DEPTH, WireMsg, WireUnion};

    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    enum Expr {
        Lit { value: i64 } = 1,
        Sum { terms: Vec<Expr> } = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct Program {
        root: Expr,
    }

    #[test]
    fn nesting_counts_against_the_depth_limit() {
        use super::handmade::{Part, message, table};
        // Each union is one level (its payload message): `Lit` inside 63 `Sum`s is
        // the 64th, the last the limit allows.
        let mut expr = Expr::Lit { value: 1 };
        for _ in 0..MAX_DEPTH - 1 {
            expr = Expr::Sum { terms: vec![expr] };
        }
        let ok = Program { root: expr.clone() }.to_bytes().unwrap();
        assert_eq!(Program::decode(&ok).unwrap().root, expr);
        // One `Sum` more: refused by the encoder, and by validation when built by hand
        // (a `Sum` is tag 2 and a payload whose `terms` list holds the union).
        let written = Program {
            root: Expr::Sum { terms: vec![expr] },
        }
        .to_bytes()
        .unwrap_err();
        let root = &ok[6..];
        let sum = super::handmade::union(2, &message(&[Part::Tail(&table(&[root]))]));
        let deep = message(&[Part::Tail(&sum)]);
        let err = Program::view(&deep).unwrap_err();
        assert_eq!((written.kind(), written.path()), (err.kind(), err.path()));
        assert_eq!(
            err.kind(),
            &ErrorKind::DepthLimitExceeded { limit: MAX_DEPTH }
        );
        let path = err.path();
        assert!(
            path.starts_with("root.Sum.terms[0] … ") && path.ends_with("Sum.terms[0].Lit"),
            "{path}"
        );
    }
}

#[test]
fn views_serialize_as_serde_writes_externally_tagged_enums() {
    let bytes = golden("E11");
    let view = Order::view(&bytes).unwrap();
    let json = serde_json::to_value(view).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "id": 7,
            "instr": { "Limit": { "price": 1000, "qty": 5 } },
            "alt": { "Stop": { "trigger": -1, "note": "hi" } },
            "history": ["Market", { "Other": { "tag": 9, "bytes": [170, 187] } }],
        })
    );
}

#[test]
fn the_schema_names_tags_and_payload_messages() {
    use wiremsg::{SchemaSet, TypeSchema};
    let schema = OrderInstr::UNION_SCHEMA;
    assert_eq!(
        format!("{schema:?}"),
        "OrderInstr { version: 1, tag: U8, variants: [Market = 0, Limit = 1 (Limit), Stop = 2 (OrderInstrStop)], catch_all: \"Other\" }"
    );
    assert_eq!(
        *Order::SCHEMA.field("history").unwrap().ty,
        TypeSchema::List(TypeSchema::Union(wiremsg::Node::Static(schema)).into())
    );
    // A set reaches the payload messages through the union.
    let set = SchemaSet::of::<Order>().unwrap();
    let names: Vec<&str> = set.messages().iter().map(|m| m.name.as_ref()).collect();
    assert_eq!(names, ["Limit", "Order", "OrderInstrStop"]);
}

/// `compat` of two versions of a message holding a union (FORMAT.md §5's table).
mod compat {
    use super::versions::{v1, v2};
    use wiremsg::schema::{ChangeKind, Verdict, compat};
    use wiremsg::{SchemaSet, WireMsg};

    mod old {
        use super::v1;
        use wiremsg::WireMsg;

        #[derive(WireMsg)]
        pub(super) struct Holder {
            pub(super) instr: v1::Instr,
        }

        #[derive(WireMsg)]
        pub(super) struct Relay {
            pub(super) instr: v1::Relayed,
        }
    }

    mod new {
        use super::v2;
        use wiremsg::WireMsg;

        #[derive(WireMsg)]
        pub(super) struct Holder {
            pub(super) instr: v2::Instr,
        }
    }

    fn set<T: WireMsg>() -> SchemaSet {
        SchemaSet::of::<T>().unwrap()
    }

    fn verdicts(report: &wiremsg::schema::CompatReport, kind: ChangeKind) -> (Verdict, Verdict) {
        let change = report
            .changes()
            .iter()
            .find(|c| c.kind == kind)
            .unwrap_or_else(|| panic!("no {kind:?} in {report}"));
        (change.old_readers, change.new_readers)
    }

    #[test]
    fn a_variant_added_breaks_old_readers_unless_they_have_a_catch_all() {
        let report = compat(&set::<old::Holder>(), &set::<new::Holder>());
        assert_eq!(
            verdicts(&report, ChangeKind::UnionVariantAdded),
            (Verdict::Breaking, Verdict::Compatible)
        );
        // `Limit` v2 appended a field: compatible both ways, reported under `Limit`.
        assert!(
            report
                .changes()
                .iter()
                .any(|c| c.message == "Limit" && c.kind == ChangeKind::FieldAppended)
        );
        // The other way round, the variant is removed: new readers (here, v1) fail on
        // it in old (v2) bytes.
        let back = compat(&set::<new::Holder>(), &set::<old::Holder>());
        assert_eq!(
            verdicts(&back, ChangeKind::UnionVariantRemoved),
            (Verdict::Compatible, Verdict::Breaking)
        );
        // A reader with a catch-all keeps the new variant: caution, not breaking.
        let report = compat(&set::<relay::Holder>(), &set::<new::Holder>());
        assert_eq!(
            verdicts(&report, ChangeKind::UnionVariantAdded),
            (Verdict::Caution, Verdict::Compatible)
        );
        assert_eq!(
            verdicts(&report, ChangeKind::CatchAllRemoved),
            (Verdict::Compatible, Verdict::Breaking)
        );
        assert!(!report.is_compatible());
    }

    #[test]
    fn a_variant_retagged_or_carrying_another_message_breaks_both_ways() {
        let report = compat(&set::<old::Holder>(), &set::<retagged::Holder>());
        assert_eq!(
            verdicts(&report, ChangeKind::UnionVariantTag),
            (Verdict::Breaking, Verdict::Breaking)
        );
        assert_eq!(
            verdicts(&report, ChangeKind::UnionVariantPayload),
            (Verdict::Breaking, Verdict::Breaking)
        );
        let report = compat(&set::<old::Holder>(), &set::<wider::Holder>());
        assert_eq!(
            verdicts(&report, ChangeKind::UnionTag),
            (Verdict::Breaking, Verdict::Breaking)
        );
        assert!(compat(&set::<old::Holder>(), &set::<old::Holder>()).is_empty());
    }

    /// v1's union with a catch-all, under the same names.
    mod relay {
        use super::v1::Limit;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion)]
        #[repr(u8)]
        pub(super) enum Instr {
            Market = 0,
            Limit(Limit) = 1,
            #[wire(other)]
            Other {
                tag: u8,
                bytes: Vec<u8>,
            },
        }

        #[derive(WireMsg)]
        pub(super) struct Holder {
            pub(super) instr: Instr,
        }
    }

    /// v1's union with `Limit` retagged and `Market` carrying a message.
    mod retagged {
        use super::v1::Limit;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion)]
        #[repr(u8)]
        pub(super) enum Instr {
            Market(Limit) = 0,
            Limit(Limit) = 2,
        }

        #[derive(WireMsg)]
        pub(super) struct Holder {
            pub(super) instr: Instr,
        }
    }

    /// v1's union with a wider tag.
    mod wider {
        use super::v1::Limit;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion)]
        #[repr(u16)]
        pub(super) enum Instr {
            Market = 0,
            Limit(Limit) = 1,
        }

        #[derive(WireMsg)]
        pub(super) struct Holder {
            pub(super) instr: Instr,
        }
    }
}

#[test]
fn a_schema_file_round_trips_unions_and_bad_unions_are_refused() {
    use std::borrow::Cow;
    use wiremsg::{Node, SchemaSet, TypeSchema, UnionSchema};
    let set = SchemaSet::of::<Order>().unwrap();
    let bytes = set.to_bytes().unwrap();
    // Version 5 of the schema message (format 3), which reads back equal; so does a
    // set without unions (versions 1 to 4, formats 1 and 2, are refused).
    assert_eq!(&bytes[6..8], [5, 0]);
    assert_eq!(SchemaSet::from_bytes(&bytes).unwrap(), set);
    let plain = SchemaSet::of::<Limit>().unwrap().to_bytes().unwrap();
    assert_eq!(&plain[6..8], [5, 0]);

    // `instr`'s union, changed by `edit`, in a set read "from a file".
    let with = |edit: &dyn Fn(&mut UnionSchema)| {
        let messages = set.messages().iter().cloned().map(|mut m| {
            if m.name == "Order" {
                let mut fields = m.fields.to_vec();
                let mut union = OrderInstr::UNION_SCHEMA.clone();
                edit(&mut union);
                fields[1].ty = TypeSchema::Union(Node::Owned(Box::new(union))).into();
                m.fields = Cow::Owned(fields);
            }
            m
        });
        SchemaSet::from_messages(messages)
    };
    assert!(with(&|_| {}).is_ok());
    let refused = |edit: &dyn Fn(&mut UnionSchema), reason: &'static str| {
        let err = with(edit).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::InvalidSchema { reason }, "{err}");
    };
    refused(
        &|u| u.variants.to_mut()[1].tag = 0,
        "two union variants have the same tag",
    );
    refused(
        &|u| u.variants.to_mut()[1].tag = 256,
        "a union variant's tag does not fit the tag's type",
    );
    refused(
        &|u| u.tag = TypeSchema::I8.into(),
        "a union's tag is not u8, u16, u32 or u64",
    );
    refused(
        &|u| u.variants.to_mut()[1].payload = Some(wiremsg::MessageRef::named("Nowhere")),
        "a union variant's payload names a message not in the schema",
    );
    refused(
        &|u| u.catch_all = Some("Market".into()),
        "a union's variant names are not distinct identifiers",
    );
    refused(
        &|u| u.variants.to_mut()[2].since = 2,
        "a union variant's since version is 0 or newer than the union's version",
    );
}

fn instr() -> impl Strategy<Value = OrderInstr> {
    prop_oneof![
        Just(OrderInstr::Market),
        (any::<i64>(), any::<u32>())
            .prop_map(|(price, qty)| OrderInstr::Limit(Limit { price, qty })),
        (any::<i64>(), ".{0,8}").prop_map(|(trigger, note)| OrderInstr::Stop { trigger, note }),
        (3u8.., proptest::collection::vec(any::<u8>(), 0..6))
            .prop_map(|(tag, bytes)| OrderInstr::Other { tag, bytes }),
    ]
}

fn order() -> impl Strategy<Value = Order> {
    (
        any::<u32>(),
        instr(),
        proptest::option::of(instr()),
        proptest::collection::vec(instr(), 0..5),
    )
        .prop_map(|(id, instr, alt, history)| Order {
            id,
            instr,
            alt,
            history,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(512)))]

    /// Every value round trips, alone and in a message, and a union's bytes in a
    /// message are its bytes alone.
    #[test]
    fn arbitrary_unions_round_trip(value in order()) {
        let bytes = value.to_bytes().unwrap();
        prop_assert_eq!(bytes.len(), value.encoded_len());
        prop_assert_eq!(&Order::decode(&bytes).unwrap(), &value);
        let view = Order::view(&bytes).unwrap();
        let alone = value.instr.to_bytes().unwrap();
        prop_assert_eq!(view.instr(), OrderInstr::view(&alone).unwrap());
        for (i, item) in value.history.iter().enumerate() {
            prop_assert_eq!(view.history().get(i).map(|v| v.decode()), Some(item.clone()));
        }
    }

    /// Changed bytes never panic; when accepted, the checked, unchecked and mutable
    /// views, decoding and re-encoding agree, and the batched check of strings
    /// agrees with the one string at a time.
    #[test]
    fn changed_bytes_never_panic_and_readers_agree(
        value in order(),
        hits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
        cut in any::<prop::sample::Index>(),
    ) {
        let mut bytes = value.to_bytes().unwrap();
        for (at, byte) in &hits {
            let at = at.index(bytes.len());
            bytes[at] = *byte;
        }
        if cut.index(4) == 0 {
            bytes.truncate(cut.index(bytes.len() + 1));
        }
        let checked = Order::view(&bytes);
        let single = wiremsg::__private::validate_per_string::<Order>(&bytes);
        prop_assert_eq!(
            checked.as_ref().err().map(ToString::to_string),
            single.err().map(|e| e.to_string())
        );
        if let Ok(view) = checked {
            // SAFETY: `view` accepted these bytes just above.
            let unchecked = unsafe { Order::view_unchecked(&bytes) };
            prop_assert_eq!(format!("{view:?}"), format!("{unchecked:?}"));
            let decoded = Order::decode(&bytes).unwrap();
            prop_assert_eq!(&decoded, &view.decode());
            let again = decoded.to_bytes().unwrap();
            prop_assert_eq!(Order::view(&again).unwrap(), view);
            let mut copy = bytes.clone();
            let mut edit = Order::view_mut(&mut copy).unwrap();
            let kind = format!("{:?}", edit.instr_mut());
            let read = format!("{:?}", view.instr());
            prop_assert_eq!(kind.split('(').next(), read.split('(').next());
        }
        // A union alone: any bytes.
        let _ = OrderInstr::view(&bytes).map(|v| v.decode());
        let _ = strict::OrderInstr::view(&bytes);
    }
}

/// A union's payload messages belong to the closure of the message that holds it:
/// the schema frame's per-type fingerprint (FORMAT.md §12) covers them, and a frame
/// describing `Order` can be checked against the reader's own `Order`.
#[test]
fn union_payloads_are_in_the_holding_messages_closure() {
    use wiremsg::SchemaSet;
    let set = SchemaSet::of::<Order>().unwrap();
    let names: Vec<&str> = set.messages().iter().map(|m| m.name.as_ref()).collect();
    assert!(names.contains(&"Limit"), "{names:?}");
    let closure = set.closure("Order").unwrap();
    assert_eq!(closure, set);
    assert_eq!(closure.fingerprint(), set.fingerprint());
}

/// Unions and tuples together (merged from two branches): a union as a tuple
/// element, in a list of tuples, round trips through the typed view and the
/// schema-driven reader, whose JSON agrees, and its schema file reads back equal.
#[test]
fn unions_inside_tuples_round_trip_and_read_alike() {
    use wiremsg::{SchemaSet, dynamic};
    #[derive(WireMsg, Debug, PartialEq)]
    struct Mixed {
        pair: (u32, OrderInstr),
        legs: Vec<(u8, OrderInstr)>,
    }
    let value = Mixed {
        pair: (7, OrderInstr::Limit(Limit { price: 5, qty: 6 })),
        legs: vec![
            (1, OrderInstr::Market),
            (
                2,
                OrderInstr::Stop {
                    trigger: 3,
                    note: "x".into(),
                },
            ),
        ],
    };
    let bytes = value.to_bytes().unwrap();
    assert_eq!(Mixed::decode(&bytes).unwrap(), value);
    let view = Mixed::view(&bytes).unwrap();
    assert_eq!(view.pair().0, 7);
    assert!(matches!(view.pair().1, OrderInstrView::Limit(l) if l.qty() == 6));
    let set = SchemaSet::of::<Mixed>().unwrap();
    assert_eq!(
        SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap(),
        set
    );
    assert!(set.message("Limit").is_some());
    let typed = serde_json::to_value(view).unwrap();
    let dynamic = serde_json::to_value(dynamic::view(&set, "Mixed", &bytes).unwrap()).unwrap();
    assert_eq!(typed, dynamic);
    assert_eq!(typed["legs"][1][1]["Stop"]["note"], "x");
}

/// A union of unit variants alone (a later version may add data variants): its
/// views hold no borrow, and a `match` needs no arm beyond the variants.
mod unit_only {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u8)]
    pub(super) enum Status {
        Open,
        Closed = 5,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Book {
        pub(super) states: Vec<Status>,
    }
}

#[test]
fn a_union_of_unit_variants_alone_views_and_round_trips() {
    use unit_only::{Book, Status, StatusView};
    let bytes = Status::Closed.to_bytes().unwrap();
    assert_eq!(bytes, [5]);
    let closed = match Status::view(&bytes).unwrap() {
        StatusView::Open => false,
        StatusView::Closed => true,
    };
    assert!(closed);
    let book = Book {
        states: vec![Status::Open, Status::Closed],
    };
    let bytes = book.to_bytes().unwrap();
    // Block length 6, the list's end offset 18; the list, dense (FORMAT.md §6.8): a
    // stride of 1 (the tag alone), two entries (tag 0 and tag 5, each a block length
    // of 0), then each element's entry index.
    assert_eq!(
        bytes,
        [6, 0, 18, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 5, 0, 0, 0, 1]
    );
    assert_eq!(Book::decode(&bytes).unwrap(), book);
    assert_eq!(
        Status::view(&[7]).unwrap_err().kind(),
        &ErrorKind::UnknownVariant {
            union_name: "Status".into(),
            tag: 7
        }
    );
}

/// A recursive union and a recursive message with lifetimes, through boxes and lists
/// of themselves, decode borrowing. Their decoding bounded the owned list and the box
/// by the element's `DecodeField`, a cycle: E0275 at `decode`, or rustc running for
/// over ten minutes once a program also viewed and encoded them. The bound stays
/// where the list or box names another type (`ListsOfWords`).
mod recursive_with_lifetimes {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireUnion, Debug, PartialEq)]
    #[repr(u8)]
    enum Expr<'a> {
        Lit { v: i64 },
        Name { n: &'a str },
        Add { l: Box<Expr<'a>>, r: Box<Expr<'a>> },
        List { items: Vec<Expr<'a>> },
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct Node<'a> {
        name: &'a str,
        next: Option<Box<Node<'a>>>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct Doc<'a> {
        e: Expr<'a>,
        all: Vec<Expr<'a>>,
        n: Node<'a>,
    }

    /// A borrowed `&'a [u32]` cannot decode (alignment): a list or box of it, or of a
    /// message holding one, leaves `decode` unavailable and the rest of the message
    /// compiles, recursive types with lifetimes beside them or not.
    #[derive(WireMsg, Debug, PartialEq)]
    struct Words<'a> {
        xs: &'a [u32],
    }

    #[derive(WireMsg, Debug, PartialEq)]
    struct ListsOfWords<'a> {
        lists: Vec<&'a [u32]>,
        words: Vec<Words<'a>>,
        boxed: Option<Box<Words<'a>>>,
    }

    #[test]
    fn lists_of_what_cannot_decode_still_view() {
        let value = ListsOfWords {
            lists: vec![&[1, 2], &[3]],
            words: vec![Words { xs: &[4] }],
            boxed: Some(Box::new(Words { xs: &[5, 6] })),
        };
        let bytes = value.to_bytes().unwrap();
        let view = ListsOfWords::view(&bytes).unwrap();
        assert_eq!(view.lists().len(), 2);
        assert_eq!(view.words().get(0).unwrap().xs().get(0), Some(4));
        assert_eq!(view.boxed().unwrap().xs().len(), 2);
    }

    #[test]
    fn decode_borrowing_and_view() {
        let doc = Doc {
            e: Expr::Add {
                l: Box::new(Expr::Lit { v: 1 }),
                r: Box::new(Expr::Name { n: "x" }),
            },
            all: vec![Expr::List {
                items: vec![Expr::Lit { v: 2 }, Expr::Name { n: "yz" }],
            }],
            n: Node {
                name: "a",
                next: Some(Box::new(Node {
                    name: "b",
                    next: None,
                })),
            },
        };
        let bytes = doc.to_bytes().unwrap();
        let decoded = Doc::decode(&bytes).unwrap();
        assert_eq!(decoded, doc);
        // Borrowed from the bytes, not copied.
        let Expr::Add { r, .. } = &decoded.e else {
            panic!("{:?}", decoded.e)
        };
        let Expr::Name { n } = **r else {
            panic!("{r:?}")
        };
        assert!(bytes.as_ptr_range().contains(&n.as_ptr()));
        let view = Doc::view(&bytes).unwrap();
        assert_eq!(view.n().next().unwrap().name(), "b");
        assert_eq!(view.decode(), doc);
    }
}
