//! Message types and differential checks shared by the fuzz targets.

use std::collections::BTreeMap;
use wiremsg::{Decimal, FixedStr, SchemaSet, WireDispatch, WireEnum, WireMsg, WireUnion};

/// The schema-driven reader's on-demand view against its up-front one (shared with
/// the tests of `wiremsg`).
#[path = "../../wiremsg/tests/common/dynamic_lazy.rs"]
pub mod dynamic_lazy;
pub mod lazy;
pub mod same;

/// An enum with a catch-all variant.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
pub enum Side {
    Buy = 1,
    Sell = 2,
    #[wire(other)]
    Other(u8),
}

/// An enum without one: unknown values are errors.
#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u16)]
pub enum Venue {
    Xnas = 10,
    Xnys = 20,
}

/// A fixed-size message (strided in lists, inline in blocks).
#[derive(WireMsg, Debug, Clone, Copy, PartialEq, Default)]
pub struct Level {
    pub price: i64,
    pub size: u32,
    pub live: bool,
}

/// A message with a tail (a split list element, FORMAT.md §6.3; nested in the tail).
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Item {
    pub sku: String,
    pub qty: i32,
    pub venue: Venue,
}

/// Every field kind.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 1, schema_id = 3)]
pub struct Every {
    pub a: u8,
    pub b: i64,
    pub c: f64,
    pub big: u128,
    pub flag: bool,
    pub side: Side,
    pub venue: Venue,
    pub opt: Option<u32>,
    pub opt_text: Option<String>,
    pub arr: [u16; 3],
    pub sym: FixedStr<4>,
    pub level: Level,
    pub levels: [Level; 2],
    pub text: String,
    pub bytes: Vec<u8>,
    pub numbers: Vec<i16>,
    pub flags: Vec<bool>,
    pub sides: Vec<Side>,
    pub syms: Vec<FixedStr<3>>,
    pub quotes: Vec<Level>,
    pub items: Vec<Item>,
    pub names: Vec<String>,
    pub item: Item,
    pub maybe_item: Option<Item>,
    /// Split lists (FORMAT.md §6.3) of tuples with a tail: one whose tail is a
    /// string, one whose tail holds a split list of messages.
    pub pairs: Vec<(u32, String)>,
    pub groups: Vec<(Venue, Vec<Item>, i8)>,
}

/// The field types of trading protocols: NUL-padded text, decimals, null sentinels
/// (also in a list element), bounded lists of every shape.
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Trading {
    pub symbol: FixedStr<8, 0>,
    pub px: Decimal<i64, 4>,
    #[wire(null = i64::MIN)]
    pub bid: Option<Decimal<i64, 4>>,
    #[wire(null = u32::MAX)]
    pub size: Option<u32>,
    pub opt_px: Option<Decimal<u32, 2>>,
    pub pxs: [Decimal<i32, 2>; 2],
    #[wire(max_len = 3)]
    pub venues: Vec<u16>,
    #[wire(max_len = 2)]
    pub fills: Vec<Fill>,
    #[wire(max_len = 2)]
    pub items: Vec<Item>,
    #[wire(max_len = 2)]
    pub syms: Vec<FixedStr<3, 0>>,
    pub prices: Vec<Decimal<u64, 8>>,
}

/// Maps of every entry shape (FORMAT.md §6.7): strided and table entries, keys of
/// every kind (an enum with a catch-all), message and map values, maps in an option
/// and a list.
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Maps {
    pub depth: BTreeMap<i32, u64>,
    pub names: BTreeMap<String, Item>,
    pub syms: BTreeMap<FixedStr<3>, Level>,
    pub sides: BTreeMap<u8, Side>,
    pub venues: BTreeMap<Venue, Vec<u16>>,
    pub nested: BTreeMap<u16, BTreeMap<String, Option<u32>>>,
    pub maybe: Option<BTreeMap<u8, String>>,
    pub many: Vec<BTreeMap<u8, u8>>,
}

/// A fixed-size list element with a null sentinel.
#[derive(WireMsg, Debug, Clone, Copy, PartialEq)]
pub struct Fill {
    #[wire(null = 0)]
    pub qty: Option<u16>,
    pub px: Decimal<u32, 4>,
}

/// A recursive message.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(template_id = 2, schema_id = 3)]
pub struct Node {
    pub id: u32,
    pub name: String,
    pub children: Vec<Node>,
    pub tags: Vec<String>,
}

/// A linked list through a box (FORMAT.md §4.12).
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Chain {
    pub value: i64,
    pub label: String,
    pub next: Option<Box<Chain>>,
}

/// An expression tree: a union whose variants box it.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
pub enum Expr {
    Num { value: i64 } = 0,
    Add { l: Box<Expr>, r: Box<Expr> } = 1,
    Neg { e: Box<Self> } = 2,
}

/// A protocol's own kind bytes as a union's tags (ITCH's letters): its on-demand
/// read checks the payload by the table of the 64 tags from the least, `b'A'`.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
pub enum Kind {
    Add(Level) = b'A',
    Note { text: String } = b'N',
    Halt = b'H',
    Fill(Fill) = b'h',
}

/// A fixed-size union (FORMAT.md §4.10: every variant a unit or a message without a
/// tail, no catch-all): its lists are dense (§6.8). Tags out of declaration order
/// (an element's entry index is its variant's place, not its tag), a `u16` repr,
/// payloads of different block lengths with `bool`, null sentinel and catch-all enum
/// fields to check.
#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u16)]
pub enum Tick {
    Add(Level) = 3,
    Halt = 0,
    Fill(Fill) = 9,
    Cancel { id: u32, side: Side } = 4,
}

/// Kind-byte unions as a field, a list and an option; dense lists of a fixed-size
/// union (FORMAT.md §6.8) as a field, bounded, in an option and in a list of lists.
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Kinds {
    pub kind: Kind,
    pub kinds: Vec<Kind>,
    pub last: Option<Kind>,
    pub ticks: Vec<Tick>,
    #[wire(max_len = 2)]
    pub few: Vec<Tick>,
    pub maybe: Option<Vec<Tick>>,
    pub rows: Vec<Vec<Tick>>,
}

/// A named expression.
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub struct Formula {
    pub name: String,
    pub expr: Expr,
}

/// Version 1 of `Quote`.
pub mod v1 {
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 3, schema_id = 3)]
    pub struct Quote {
        pub price: i64,
        pub venue: String,
    }
}

/// Version 2 of `Quote`: a number, a list and an option appended.
pub mod v2 {
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    #[wire(template_id = 3, schema_id = 3, version = 2)]
    pub struct Quote {
        pub price: i64,
        pub venue: String,
        #[wire(since = 2)]
        pub size: u32,
        #[wire(since = 2)]
        pub levels: Vec<super::Level>,
        #[wire(since = 2)]
        pub note: Option<String>,
    }
}

/// A split list (FORMAT.md §6.3) of version 1 `Quote`s.
pub mod book_v1 {
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    pub struct Book {
        pub quotes: Vec<super::v1::Quote>,
    }
}

/// The same list of version 2 `Quote`s: its elements' blocks and tails are longer.
pub mod book_v2 {
    #[derive(wiremsg::WireMsg, Debug, Clone, PartialEq)]
    pub struct Book {
        pub quotes: Vec<super::v2::Quote>,
    }
}

/// Version 1 of a dense list (FORMAT.md §6.8) of a fixed-size union.
pub mod ticks_v1 {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub struct Px {
        pub px: i64,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u8)]
    pub enum Tick {
        Halt = 0,
        Trade(Px) = 1,
        Cancel { id: u32 } = 2,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub struct Ticks {
        pub seq: u32,
        pub ticks: Vec<Tick>,
    }
}

/// Version 2: the payload `Px` gains a field (its block is longer), and the union a
/// variant that a version 1 reader refuses where an element uses it.
pub mod ticks_v2 {
    use wiremsg::{WireMsg, WireUnion};

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    #[wire(version = 2)]
    pub struct Px {
        pub px: i64,
        #[wire(since = 2)]
        pub live: bool,
    }

    #[derive(WireUnion, Debug, Clone, PartialEq)]
    #[repr(u8)]
    #[wire(version = 2)]
    pub enum Tick {
        Halt = 0,
        Trade(Px) = 1,
        Cancel {
            id: u32,
        } = 2,
        #[wire(since = 2)]
        Stop(Px) = 7,
    }

    #[derive(WireMsg, Debug, Clone, PartialEq)]
    pub struct Ticks {
        pub seq: u32,
        pub ticks: Vec<Tick>,
    }
}

/// The messages of a stream.
// By value, as a dispatch enum decodes: the size of `Every` is the point.
#[allow(clippy::large_enum_variant)]
#[derive(WireDispatch, Debug, Clone, PartialEq)]
pub enum Feed {
    Every(Every),
    Node(Node),
    Quote(v2::Quote),
}

/// The typed view of `$ty` and the schema-driven reader agree on `$bytes`: both
/// accept and read the same values, or both fail with the same error (kind, path,
/// offset); the annotated dump stops at that error. Returns whether they accepted.
#[macro_export]
macro_rules! agree_dynamic {
    ($ty:ty, $set:expr, $bytes:expr) => {{
        use wiremsg::WireMsg as _;
        let bytes: &[u8] = $bytes;
        let set: &wiremsg::SchemaSet = $set;
        let name = <$ty as wiremsg::WireMsg>::SCHEMA.name.as_ref();
        let typed = <$ty>::view(bytes);
        let dynamic = wiremsg::dynamic::view(set, name, bytes);
        let annotation = wiremsg::dynamic::annotate(set, name, bytes, false);
        $crate::same_outcome(
            typed.as_ref().err(),
            dynamic.as_ref().err(),
            annotation.error(),
        );
        let _ = annotation.to_string();
        $crate::dynamic_lazy::agrees(set, name, bytes, &dynamic);
        match (typed, dynamic) {
            (Ok(view), Ok(dynamic)) => {
                $crate::same::Same::same(
                    &view.decode(),
                    &wiremsg::dynamic::Value::Message(dynamic),
                    name,
                );
                true
            }
            _ => false,
        }
    }};
}

/// Both readers failed alike or accepted alike, and the annotation carries the
/// same error.
pub fn same_outcome(
    typed: Option<&wiremsg::Error>,
    dynamic: Option<&wiremsg::Error>,
    annotation: Option<&wiremsg::Error>,
) {
    let key = |e: Option<&wiremsg::Error>| e.map(|e| (e.kind().clone(), e.path(), e.offset()));
    assert_eq!(
        key(typed),
        key(dynamic),
        "typed {typed:?}, dynamic {dynamic:?}"
    );
    assert_eq!(key(typed), key(annotation), "annotation {annotation:?}");
}

/// Over bytes that `view` accepts, every way of reading agrees: the checked view,
/// the unchecked view, the mutable views, and the view of the decoded value
/// re-encoded. Returns whether `view` accepted the bytes.
#[macro_export]
macro_rules! agree {
    ($ty:ty, $bytes:expr) => {{
        use wiremsg::WireMsg as _;
        let bytes: &[u8] = $bytes;
        match <$ty>::view(bytes) {
            Ok(view) => {
                let checked = format!("{view:?}");
                // SAFETY: `view` accepted these bytes just above.
                let unchecked = format!("{:?}", unsafe { <$ty>::view_unchecked(bytes) });
                assert_eq!(checked, unchecked);
                let mut copy = bytes.to_vec();
                let edit = <$ty>::view_mut(&mut copy).expect("view_mut accepts what view does");
                assert_eq!(format!("{:?}", edit.as_view()), checked);
                // SAFETY: as above.
                let edit = unsafe { <$ty>::view_mut_unchecked(&mut copy) };
                assert_eq!(format!("{:?}", edit.as_view()), checked);
                // Decoding fills absent fields with their defaults and encoding writes
                // this version: the decoded values, not the views, must survive.
                let decoded = view.decode();
                let again = decoded.to_bytes().expect("a decoded value encodes");
                let reread = <$ty>::view(&again).expect("an encoded value views");
                assert_eq!(format!("{:?}", reread.decode()), format!("{decoded:?}"));
                true
            }
            Err(err) => {
                // Errors point inside the input.
                assert!(err.offset() <= bytes.len(), "{err}");
                false
            }
        }
    }};
}

/// Valid messages of every target, for the seed corpus (`cargo test --
/// --ignored write_seeds` in `fuzz/` writes them to `corpus/<target>/`).
pub fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    use wiremsg::Template;
    let item = |sku: &str, qty| Item {
        sku: sku.into(),
        qty,
        venue: Venue::Xnys,
    };
    let level = |price, size| Level {
        price,
        size,
        live: size % 2 == 0,
    };
    let every = Every {
        a: 7,
        b: -5,
        c: 1.5,
        big: 1 << 100,
        flag: true,
        side: Side::Other(9),
        venue: Venue::Xnas,
        opt: Some(3),
        opt_text: Some("opt".into()),
        arr: [1, 2, 3],
        sym: FixedStr::new("AB").unwrap(),
        level: level(10, 2),
        levels: [level(11, 3), level(12, 4)],
        text: "Trần Thị Bích".into(),
        bytes: vec![0xde, 0xad],
        numbers: vec![-1, 2],
        flags: vec![true, false],
        sides: vec![Side::Buy, Side::Sell],
        syms: vec![FixedStr::new("X").unwrap()],
        quotes: vec![level(1, 1), level(2, 2)],
        items: vec![item("SKU-1", 2), item("é", -1)],
        names: vec!["a".into(), "".into(), "bé".into()],
        item: item("in", 5),
        maybe_item: None,
        pairs: vec![(1, "one".into()), (2, String::new()), (3, "três".into())],
        groups: vec![
            (Venue::Xnys, vec![item("g", 1), item("", 0)], -1),
            (Venue::Xnas, vec![], 2),
        ],
    };
    let node = Node {
        id: 1,
        name: "root".into(),
        children: vec![
            Node {
                id: 2,
                name: "leaf".into(),
                children: vec![],
                tags: vec!["t".into()],
            },
            Node {
                id: 3,
                name: "".into(),
                children: vec![],
                tags: vec![],
            },
        ],
        tags: vec!["x".into(), "y".into()],
    };
    let old = v1::Quote {
        price: 100,
        venue: "XNAS".into(),
    };
    let new = v2::Quote {
        price: 101,
        venue: "XNYS".into(),
        size: 7,
        levels: vec![level(5, 6)],
        note: Some("n".into()),
    };
    let with_header = |f: &dyn Fn(&mut Vec<u8>)| {
        let mut out = Vec::new();
        f(&mut out);
        out
    };
    let framed = |messages: &[Vec<u8>]| {
        let mut out = Vec::new();
        for m in messages {
            out.extend((m.len() as u32).to_le_bytes());
            out.extend(m);
        }
        out
    };
    let headed = [
        with_header(&|o| {
            every.encode_with_header(o).unwrap();
        }),
        with_header(&|o| {
            node.encode_with_header(o).unwrap();
        }),
        with_header(&|o| {
            new.encode_with_header(o).unwrap();
        }),
        with_header(&|o| {
            old.encode_with_header(o).unwrap();
        }),
    ];
    let stream = framed(&headed);
    let mut chunked = vec![3u8];
    chunked.extend(&stream);
    let mut out = vec![
        ("view_all_kinds", every.to_bytes().unwrap()),
        ("view_all_kinds", item("i", 1).to_bytes().unwrap()),
        ("recursive", node.to_bytes().unwrap()),
        ("versions", old.to_bytes().unwrap()),
        ("versions", new.to_bytes().unwrap()),
        ("frame_reader", stream.clone()),
        ("codec", chunked),
    ];
    out.extend(headed.iter().cloned().map(|h| ("dispatch", h)));
    // The schema-driven reader: a message of every field kind, with and without its
    // header, and a recursive one.
    out.push(("dynamic", every.to_bytes().unwrap()));
    out.push(("dynamic", headed[0].clone()));
    out.push(("dynamic", node.to_bytes().unwrap()));
    let trading = Trading {
        symbol: FixedStr::new("NQ").unwrap(),
        px: "123.45".parse().unwrap(),
        bid: None,
        size: Some(300),
        opt_px: Some(Decimal::from_mantissa(5)),
        pxs: [Decimal::from_mantissa(-1), Decimal::from_mantissa(2)],
        venues: vec![1, 2],
        fills: vec![Fill {
            qty: None,
            px: Decimal::from_mantissa(7),
        }],
        items: vec![item("t", 1)],
        syms: vec![FixedStr::new("ES").unwrap()],
        prices: vec![Decimal::from_mantissa(u64::MAX)],
    };
    out.push(("view_all_kinds", trading.to_bytes().unwrap()));
    let maps = Maps {
        depth: BTreeMap::from([(-1, 2), (3, 4)]),
        names: BTreeMap::from([("b".into(), item("x", 1)), ("a".into(), item("y", 2))]),
        syms: BTreeMap::from([(FixedStr::new("ES").unwrap(), level(1, 2))]),
        sides: BTreeMap::from([(1, Side::Buy), (2, Side::Other(7))]),
        venues: BTreeMap::from([(Venue::Xnys, vec![1]), (Venue::Xnas, vec![])]),
        nested: BTreeMap::from([(5, BTreeMap::from([("k".into(), Some(6))]))]),
        maybe: Some(BTreeMap::from([(1, "v".into())])),
        many: vec![BTreeMap::from([(1, 1)]), BTreeMap::new()],
    };
    out.push(("view_all_kinds", maps.to_bytes().unwrap()));
    out.push(("dynamic", maps.to_bytes().unwrap()));
    // Recursion through boxes, after the others (so that their seed numbers stay).
    let chain = Chain {
        value: 1,
        label: "a".into(),
        next: Some(Box::new(Chain {
            value: 2,
            label: String::new(),
            next: None,
        })),
    };
    let formula = Formula {
        name: "f".into(),
        expr: Expr::Add {
            l: Box::new(Expr::Num { value: 1 }),
            r: Box::new(Expr::Neg {
                e: Box::new(Expr::Num { value: -2 }),
            }),
        },
    };
    out.push(("recursive", chain.to_bytes().unwrap()));
    out.push(("recursive", formula.to_bytes().unwrap()));
    // Split lists across versions: the newer reader over the older elements, and
    // the older reader over the newer ones.
    let old_book = book_v1::Book {
        quotes: vec![
            old.clone(),
            v1::Quote {
                price: -1,
                venue: String::new(),
            },
        ],
    };
    let new_book = book_v2::Book {
        quotes: vec![
            new.clone(),
            v2::Quote {
                price: 3,
                venue: "é".into(),
                size: 0,
                levels: vec![],
                note: None,
            },
        ],
    };
    out.push(("versions", old_book.to_bytes().unwrap()));
    out.push(("versions", new_book.to_bytes().unwrap()));
    out.push(("dynamic", new_book.to_bytes().unwrap()));
    // On-demand views against `view` (after the others, as above).
    out.push(("lazy", every.to_bytes().unwrap()));
    out.push(("lazy", node.to_bytes().unwrap()));
    out.push(("lazy", old.to_bytes().unwrap()));
    out.push(("lazy", new.to_bytes().unwrap()));
    out.push(("lazy", formula.to_bytes().unwrap()));
    out.push(("lazy", maps.to_bytes().unwrap()));
    let kinds = Kinds {
        kind: Kind::Note { text: "é".into() },
        kinds: vec![
            Kind::Add(level(7, 8)),
            Kind::Halt,
            Kind::Fill(Fill {
                qty: Some(3),
                px: Decimal::from_mantissa(12),
            }),
        ],
        last: Some(Kind::Halt),
        ticks: vec![
            Tick::Fill(Fill {
                qty: None,
                px: Decimal::from_mantissa(5),
            }),
            Tick::Halt,
            Tick::Add(level(-1, 2)),
            Tick::Cancel {
                id: 9,
                side: Side::Other(4),
            },
        ],
        few: vec![Tick::Halt],
        maybe: Some(vec![Tick::Cancel {
            id: 1,
            side: Side::Sell,
        }]),
        rows: vec![
            vec![Tick::Add(level(3, 3))],
            vec![],
            vec![Tick::Halt, Tick::Halt],
        ],
    };
    out.push(("lazy", kinds.to_bytes().unwrap()));
    // Dense lists (FORMAT.md §6.8), after the others (as above): every kind of
    // reading, and across versions of the union and of a payload.
    out.push(("view_all_kinds", kinds.to_bytes().unwrap()));
    let old_ticks = ticks_v1::Ticks {
        seq: 1,
        ticks: vec![
            ticks_v1::Tick::Trade(ticks_v1::Px { px: -3 }),
            ticks_v1::Tick::Halt,
            ticks_v1::Tick::Cancel { id: 4 },
        ],
    };
    let new_ticks = ticks_v2::Ticks {
        seq: 2,
        ticks: vec![
            ticks_v2::Tick::Cancel { id: 5 },
            ticks_v2::Tick::Trade(ticks_v2::Px { px: 6, live: true }),
            ticks_v2::Tick::Halt,
        ],
    };
    out.push(("versions", old_ticks.to_bytes().unwrap()));
    out.push(("versions", new_ticks.to_bytes().unwrap()));
    // The schema-driven reader of the same dense lists (after the others, as above).
    out.push(("dynamic", kinds.to_bytes().unwrap()));
    out.push(("dynamic", old_ticks.to_bytes().unwrap()));
    out.push(("dynamic", new_ticks.to_bytes().unwrap()));
    // Schemas read from bytes (after the others, as above): each set's schema file
    // with a message of it, as the `schema` target splits its input.
    let with_schema = |set: SchemaSet, message: Vec<u8>| {
        let schema = set.to_bytes().unwrap();
        let mut input = u16::try_from(schema.len()).unwrap().to_le_bytes().to_vec();
        input.extend(schema);
        input.extend(message);
        input
    };
    let mut all = SchemaSet::of::<Every>().unwrap();
    all.add::<Node>().unwrap();
    all.add::<Maps>().unwrap();
    all.add::<Kinds>().unwrap();
    out.push((
        "schema",
        with_schema(all.clone(), every.to_bytes().unwrap()),
    ));
    out.push(("schema", with_schema(all, headed[1].clone())));
    out.push((
        "schema",
        with_schema(SchemaSet::of::<Node>().unwrap(), node.to_bytes().unwrap()),
    ));
    out.push((
        "schema",
        with_schema(SchemaSet::of::<Maps>().unwrap(), maps.to_bytes().unwrap()),
    ));
    out.push((
        "schema",
        with_schema(SchemaSet::of::<Kinds>().unwrap(), kinds.to_bytes().unwrap()),
    ));
    out.push((
        "schema",
        with_schema(
            SchemaSet::of::<book_v2::Book>().unwrap(),
            new_book.to_bytes().unwrap(),
        ),
    ));
    out.push((
        "schema",
        with_schema(
            SchemaSet::of::<ticks_v2::Ticks>().unwrap(),
            old_ticks.to_bytes().unwrap(),
        ),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use wiremsg::{FrameReader, SchemaSet, dynamic};

    fn corpus() -> String {
        format!("{}/corpus", env!("CARGO_MANIFEST_DIR"))
    }

    /// Whether any of the readers `target` runs accepts `bytes` (as a whole: for the
    /// stream targets, every frame of the stream).
    fn accepted(target: &str, bytes: &[u8]) -> bool {
        let frames = |stream: &[u8]| {
            let mut reader = FrameReader::new(stream);
            let mut n = 0;
            while let Ok(Some(frame)) = reader.next_frame() {
                if Feed::view(frame).is_err() {
                    return false;
                }
                n += 1;
            }
            n > 0 && reader.next_frame().is_ok()
        };
        let dynamic = |bytes: &[u8]| {
            let every = SchemaSet::of::<Every>().unwrap();
            [
                (every.clone(), "Every"),
                (SchemaSet::of::<Node>().unwrap(), "Node"),
                (SchemaSet::of::<Maps>().unwrap(), "Maps"),
                (SchemaSet::of::<book_v2::Book>().unwrap(), "Book"),
                (SchemaSet::of::<Kinds>().unwrap(), "Kinds"),
                (SchemaSet::of::<ticks_v2::Ticks>().unwrap(), "Ticks"),
            ]
            .iter()
            .any(|(set, name)| dynamic::view(set, name, bytes).is_ok())
                || dynamic::view_with_header_as(&every, "Every", bytes).is_ok()
        };
        match target {
            "view_all_kinds" => {
                Every::view(bytes).is_ok()
                    || Item::view(bytes).is_ok()
                    || Trading::view(bytes).is_ok()
                    || Maps::view(bytes).is_ok()
                    || Kinds::view(bytes).is_ok()
            }
            "recursive" => {
                Node::view(bytes).is_ok()
                    || Chain::view(bytes).is_ok()
                    || Formula::view(bytes).is_ok()
            }
            "versions" => {
                // Each seed is read by both versions' readers.
                (v1::Quote::view(bytes).is_ok() && v2::Quote::view(bytes).is_ok())
                    || (book_v1::Book::view(bytes).is_ok() && book_v2::Book::view(bytes).is_ok())
                    || (ticks_v1::Ticks::view(bytes).is_ok()
                        && ticks_v2::Ticks::view(bytes).is_ok())
            }
            "dispatch" => Feed::view(bytes).is_ok(),
            "lazy" => {
                Every::view(bytes).is_ok()
                    || Node::view(bytes).is_ok()
                    || v2::Quote::view(bytes).is_ok()
                    || Formula::view(bytes).is_ok()
                    || Maps::view(bytes).is_ok()
                    || Kinds::view(bytes).is_ok()
            }
            "frame_reader" => frames(bytes),
            "codec" => frames(&bytes[1..]),
            "dynamic" => dynamic(bytes),
            "schema" => {
                let (len, rest) = bytes.split_first_chunk::<2>().unwrap();
                let (schema, message) = rest.split_at(usize::from(u16::from_le_bytes(*len)));
                SchemaSet::from_bytes(schema).is_ok_and(|set| {
                    set.messages()
                        .iter()
                        .any(|m| dynamic::view(&set, &m.name, message).is_ok())
                        || dynamic::view_with_header(&set, message).is_ok()
                })
            }
            _ => panic!("no target {target}"),
        }
    }

    /// The committed seeds: `(target, file name, bytes)`, sorted.
    fn committed() -> Vec<(String, String, Vec<u8>)> {
        let mut found = Vec::new();
        for dir in std::fs::read_dir(corpus()).unwrap() {
            let dir = dir.unwrap();
            let target = dir.file_name().into_string().unwrap();
            for file in std::fs::read_dir(dir.path()).unwrap() {
                let file = file.unwrap();
                let name = file.file_name().into_string().unwrap();
                if name.starts_with("seed-") {
                    let bytes = std::fs::read(file.path()).unwrap();
                    found.push((target.clone(), name, bytes));
                }
            }
        }
        found.sort();
        found
    }

    /// Each committed seed is a valid input of its target (so that fuzzing starts
    /// past the validation, on deep paths).
    #[test]
    fn seeds_are_accepted() {
        let refused: Vec<_> = committed()
            .into_iter()
            .filter(|(target, _, bytes)| !accepted(target, bytes))
            .map(|(target, name, _)| format!("{target}/{name}"))
            .collect();
        assert!(refused.is_empty(), "seeds refused: {refused:?}");
    }

    /// The `lazy` target's checks hold on its seeds and on every one-byte change of
    /// them to 0, 1, 2 and 0xFF (offsets, counts, presence and `bool` bytes, text).
    #[test]
    fn on_demand_views_agree_with_view_on_changed_seeds() {
        for (target, bytes) in seeds() {
            if target != "lazy" {
                continue;
            }
            lazy::check(&bytes);
            for at in 0..bytes.len() {
                for value in [0, 1, 2, 0xFF] {
                    let mut changed = bytes.clone();
                    changed[at] = value;
                    lazy::check(&changed);
                }
            }
        }
    }

    /// The committed corpus is what [`seeds`] writes: regenerate it after a change
    /// of the wire format or of the fuzzed types.
    #[test]
    fn corpus_is_current() {
        let mut expected: Vec<_> = seeds()
            .into_iter()
            .enumerate()
            .map(|(i, (target, bytes))| (target.to_owned(), format!("seed-{i}"), bytes))
            .collect();
        expected.sort();
        assert!(
            committed() == expected,
            "the seed corpus is stale: run `cargo test -- --ignored write_seeds` in fuzz/"
        );
    }

    /// An element of a split list whose slot sits just before its origin: the
    /// element's byte positions from its origin wrap below zero.
    #[derive(WireMsg, Debug)]
    struct Flags {
        name: String,
        flags: [bool; 8],
    }

    #[derive(WireMsg, Debug)]
    struct ListOfFlags {
        list: Vec<Flags>,
    }

    #[derive(WireMsg, Debug)]
    struct Code {
        name: String,
        code: FixedStr<8>,
    }

    #[derive(WireMsg, Debug)]
    struct ListOfCodes {
        list: Vec<Code>,
    }

    /// The reproducers under `artifacts/` of the overflow in wiremsg/src/trust (an
    /// option's, an array's and a `FixedStr`'s offsets added to a split element's
    /// wrapped block position without wrapping): each view returns, Ok or Err,
    /// without a panic (fixed: the offsets wrap, as the walk's do).
    #[test]
    fn split_block_at_reproducers() {
        let read = |path: &str| std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR")));
        type Case = (&'static str, fn(&[u8]));
        let cases: [Case; 3] = [
            (
                "artifacts/versions/crash-split-option-presence-before-origin",
                |b| {
                    let _ = book_v2::Book::view(b);
                },
            ),
            ("artifacts/split_block_at/array-bool-8", |b| {
                let _ = ListOfFlags::view(b);
            }),
            ("artifacts/split_block_at/fixed-str-8-invalid-utf8", |b| {
                let _ = ListOfCodes::view(b);
            }),
        ];
        let panicked: Vec<_> = cases
            .iter()
            .filter(|(path, view)| {
                let bytes = read(path).unwrap();
                std::panic::catch_unwind(|| view(&bytes)).is_err()
            })
            .map(|(path, _)| *path)
            .collect();
        assert!(panicked.is_empty(), "views panicked on {panicked:?}");
    }

    /// Writes the seed corpus, removing the seeds of an earlier version of it.
    #[test]
    #[ignore = "writes the seed corpus"]
    fn write_seeds() {
        for dir in std::fs::read_dir(corpus()).unwrap() {
            for file in std::fs::read_dir(dir.unwrap().path()).unwrap() {
                let file = file.unwrap();
                if file.file_name().to_string_lossy().starts_with("seed-") {
                    std::fs::remove_file(file.path()).unwrap();
                }
            }
        }
        for (i, (target, bytes)) in seeds().into_iter().enumerate() {
            let dir = format!("{}/{target}", corpus());
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(format!("{dir}/seed-{i}"), bytes).unwrap();
        }
    }
}
