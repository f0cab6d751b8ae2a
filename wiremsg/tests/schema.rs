//! The schema model: descriptors the derive writes, their set, the canonical encoding
//! (FORMAT.md §11) and JSON form, read back equal; hostile schema bytes refused.
// A list nested dozens deep: Rust 1.85 (the MSRV) proves its auto traits past the
// default limit of 128; later compilers stay under it.
#![recursion_limit = "256"]

#[path = "common/golden.rs"]
mod format_golden;
use format_golden::{FORMAT, golden};
use wiremsg::{
    DefaultValue, ErrorKind, FieldSchema, MessageSchema, SchemaSet, TypeSchema, WireEnum, WireMsg,
};

#[derive(WireEnum, Clone, Copy, Debug, PartialEq)]
#[repr(u16)]
enum Venue {
    Xnas = 1,
    Xnys = 2,
    #[wire(other)]
    Other(u16),
}

#[derive(WireMsg)]
struct Leg {
    qty: u32,
    px: Option<i64>,
}

#[derive(WireMsg)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}

#[derive(WireMsg)]
#[wire(template_id = 9, schema_id = 2, version = 3)]
struct Everything {
    flag: bool,
    small: [u8; 4],
    name: wiremsg::FixedStr<6>,
    venue: Venue,
    legs: Vec<Leg>,
    tags: Vec<String>,
    tree: Option<Tree>,
    #[wire(since = 2, default = 7)]
    lot: u32,
    #[wire(since = 3, default = Venue::Xnys)]
    listing: Venue,
    #[wire(since = 3, default = "n/a")]
    note: String,
}

#[test]
fn derived_schema_has_ids_defaults_and_readable_debug() {
    let schema = Everything::SCHEMA;
    assert_eq!((schema.template_id, schema.schema_id), (Some(9), 2));
    assert!(schema.has_block_length && schema.has_tail);
    let lot = schema.field("lot").unwrap();
    assert_eq!(lot.since, 2);
    assert_eq!(
        lot.default
            .as_ref()
            .and_then(DefaultValue::bytes)
            .as_deref(),
        Some(&[7, 0, 0, 0][..])
    );
    let listing = schema.field("listing").unwrap();
    assert_eq!(
        listing
            .default
            .as_ref()
            .and_then(DefaultValue::bytes)
            .as_deref(),
        Some(&[2, 0][..])
    );
    let note = schema.field("note").unwrap();
    assert_eq!(
        note.default
            .as_ref()
            .and_then(DefaultValue::bytes)
            .as_deref(),
        Some(&b"n/a"[..])
    );
    assert_eq!(
        format!("{:?}", schema.field("legs").unwrap()),
        "legs: List(Message(Leg)) @15+4"
    );
    assert_eq!(
        format!("{:?}", schema.field("lot").unwrap()),
        "lot: U32 @28+4 since 2 default [07, 00, 00, 00]"
    );
    assert_eq!(
        schema.field("tree").unwrap().ty.display().to_string(),
        "Option<Tree>"
    );
    assert_eq!(schema.block_length_of(1), 28);
    assert_eq!(schema.block_length_of(3), schema.block_length);
}

#[test]
fn a_set_holds_every_nested_message_once_even_recursive_ones() {
    let set = SchemaSet::of::<Everything>().unwrap();
    let names: Vec<&str> = set.messages().iter().map(|m| m.name.as_ref()).collect();
    assert_eq!(names, ["Everything", "Leg", "Tree"]);
    assert_eq!(set.message("Tree").unwrap(), Tree::SCHEMA);
    assert_eq!(set.by_template(2, 9).unwrap().name, "Everything");
    assert!(set.by_template(0, 9).is_none());
}

#[test]
fn canonical_encoding_round_trips_with_a_stable_fingerprint() {
    let set = SchemaSet::of::<Everything>().unwrap();
    let bytes = set.to_bytes().unwrap();
    // A header with the reserved ids, then the schema message.
    assert_eq!(&bytes[2..6], &[0xff, 0xff, 0xff, 0xff]);
    let back = SchemaSet::from_bytes(&bytes).unwrap();
    assert_eq!(back, set);
    assert_eq!(back.to_bytes().unwrap(), bytes);
    assert_eq!(back.fingerprint(), set.fingerprint());
    // An owned schema read back prints like the derive's.
    assert_eq!(format!("{back:?}"), format!("{set:?}"));

    // Any change shows in the fingerprint.
    let mut changed: Vec<MessageSchema> = set.messages().to_vec();
    changed[1].fields.to_mut()[0].name = "quantity".into();
    let changed = SchemaSet::from_messages(changed).unwrap();
    assert_ne!(changed.fingerprint(), set.fingerprint());
}

#[test]
fn json_form_round_trips() {
    let set = SchemaSet::of::<Everything>().unwrap();
    let json = serde_json::to_string(&set).unwrap();
    assert!(json.contains(r#""name":"Everything""#), "{json}");
    assert!(
        json.contains(r#""ty":{"List":{"Message":"Leg"}}"#),
        "{json}"
    );
    let back: SchemaSet = serde_json::from_str(&json).unwrap();
    assert_eq!(back, set);
}

#[test]
fn a_set_must_name_every_message_it_uses() {
    let err = SchemaSet::from_messages([Everything::SCHEMA.clone()]).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "the field's type names a message not in the schema"
        }
    );
    assert_eq!(err.path(), "Everything.legs");

    let json = r#"{"messages":[{"name":"A","version":1,"block_length":4,"min_block_length":4,
        "has_block_length":false,"has_tail":false,"template_id":null,"schema_id":0,
        "fields":[{"name":"b","offset":0,"size":4,"ty":{"Message":"B"},"since":1,
        "reserved":false,"default":null}]}]}"#;
    let err = serde_json::from_str::<SchemaSet>(json).unwrap_err();
    assert!(
        err.to_string()
            .contains("names a message not in the schema"),
        "{err}"
    );
}

#[test]
fn two_messages_of_one_name_are_refused() {
    let mut other = Leg::SCHEMA.clone();
    other.fields.to_mut().pop();
    let err = SchemaSet::from_messages([Leg::SCHEMA.clone(), other]).unwrap_err();
    assert_eq!(err.path(), "Leg");
}

/// Flips each byte of a schema file in turn: every result is a schema or an error,
/// never a panic or a hang (type tables that loop are caught).
#[test]
fn corrupted_schema_bytes_are_an_error_not_a_panic() {
    let bytes = SchemaSet::of::<Everything>().unwrap().to_bytes().unwrap();
    for at in 0..bytes.len() {
        for flip in [0x01, 0x80, 0xff] {
            let mut bad = bytes.clone();
            bad[at] ^= flip;
            let _ = SchemaSet::from_bytes(&bad);
        }
    }
    for len in 0..bytes.len() {
        assert!(SchemaSet::from_bytes(&bytes[..len]).is_err());
    }
}

#[test]
fn a_type_table_that_loops_is_refused() {
    // One message whose one field's type is an option of itself: type 0 = Option(0).
    let field = FieldSchema {
        name: "x".into(),
        offset: 0,
        size: 1,
        ty: TypeSchema::U8.into(),
        since: 1,
        reserved: false,
        default: None,
    };
    let message = MessageSchema {
        name: "Loop".into(),
        version: 1,
        block_length: 1,
        min_block_length: 1,
        has_block_length: false,
        has_tail: false,
        template_id: None,
        schema_id: 0,
        fields: vec![field].into(),
    };
    let mut bytes = SchemaSet::from_messages([message])
        .unwrap()
        .to_bytes()
        .unwrap();
    // The one type row is `code u8 = 1`, then `len` and `child`, both 0 (9 bytes,
    // FORMAT.md §11 version 3); make it an option (code 16) whose child is itself.
    let mut entry = [0u8; 9];
    entry[0] = 1;
    let at = bytes
        .windows(entry.len())
        .rposition(|w| w == entry)
        .expect("the type entry");
    bytes[at] = 16;
    let err = SchemaSet::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "a type contains itself"
        }
    );
    assert_eq!(err.path(), "messages[0].fields[0].x");
}

#[derive(WireMsg)]
#[wire(template_id = 1)]
struct Ping {
    seq: u32,
}

#[test]
fn s1_schema_of_one_message() {
    let set = SchemaSet::of::<Ping>().unwrap();
    assert_eq!(set.to_bytes().unwrap(), golden("S1"));
    assert_eq!(SchemaSet::from_bytes(&golden("S1")).unwrap(), set);
    assert_eq!(set.fingerprint().to_string(), "ba99f373cf3947a7");
    assert!(FORMAT.contains("Fingerprint: `ba99f373cf3947a7`."));
}

#[derive(WireEnum, Clone, Copy, Debug, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 1,
    Sell = 2,
}

#[derive(WireMsg)]
struct Leg2 {
    qty: u32,
    #[wire(null = u32::MAX)]
    limit: Option<u32>,
}

#[derive(WireMsg)]
#[wire(template_id = 4, version = 2)]
struct Order2 {
    id: u64,
    side: Side,
    #[wire(max_len = 3)]
    legs: Vec<Leg2>,
    #[wire(since = 2)]
    note: String,
}

/// A schema read from JSON (or a file) is refused unless the derive could have
/// written it: every rule, each by one change to a good schema.
#[test]
fn schemas_the_derive_could_not_write_are_refused_when_read() {
    let good = serde_json::to_value(SchemaSet::of::<Order2>().unwrap()).unwrap();
    let read = |value: &serde_json::Value| serde_json::from_value::<SchemaSet>(value.clone());
    assert!(read(&good).is_ok());
    // messages[0] is Leg2, messages[1] is Order2.
    type Change = Box<dyn Fn(&mut serde_json::Value)>;
    let cases: Vec<(&str, Change)> = vec![
        (
            "the field's offset or size is not the one of its type in its place",
            Box::new(|s| {
                // A message reached only through a bounded list is checked too.
                s["messages"][0]["fields"][0]["size"] = 2.into();
            }),
        ),
        (
            "an enum's representation is not u8, u16, u32 or u64",
            Box::new(|s| {
                s["messages"][1]["fields"][1]["ty"]["Enum"]["repr"] = "I8".into();
            }),
        ),
        (
            "an enum variant's value does not fit the representation",
            Box::new(|s| {
                s["messages"][1]["fields"][1]["ty"]["Enum"]["variants"][0]["value"] = 256.into();
            }),
        ),
        (
            "two enum variants have the same value",
            Box::new(|s| {
                s["messages"][1]["fields"][1]["ty"]["Enum"]["variants"][1]["value"] = 1.into();
            }),
        ),
        (
            "the message's version is 0 (versions start at 1)",
            Box::new(|s| {
                s["messages"][1]["version"] = 0.into();
            }),
        ),
        (
            "a field's since version is 0 or newer than the message's version",
            Box::new(|s| {
                s["messages"][1]["fields"][3]["since"] = 3.into();
            }),
        ),
        (
            "two fields have the same name",
            Box::new(|s| {
                s["messages"][1]["fields"][1]["name"] = "id".into();
            }),
        ),
        (
            "a name is not an identifier",
            Box::new(|s| {
                s["messages"][1]["fields"][0]["name"] = "\u{1b}[31mRED".into();
            }),
        ),
        (
            "a null sentinel is outside its type's range",
            Box::new(|s| {
                s["messages"][0]["fields"][1]["ty"]["Nullable"]["null"] = (1i64 << 40).into();
            }),
        ),
        (
            "the message's block lengths or block length field disagree with its fields",
            Box::new(|s| {
                s["messages"][0]["has_tail"] = true.into();
            }),
        ),
        (
            "template id 0xFFFF in schema 0xFFFF is reserved for schema messages",
            Box::new(|s| {
                s["messages"][1]["template_id"] = 0xFFFF.into();
                s["messages"][1]["schema_id"] = 0xFFFF.into();
            }),
        ),
        (
            "two messages have the same template id and schema id",
            Box::new(|s| {
                s["messages"][0]["template_id"] = 4.into();
            }),
        ),
    ];
    for (reason, change) in cases {
        let mut bad = good.clone();
        change(&mut bad);
        let err = read(&bad).expect_err(reason);
        assert!(err.to_string().contains(reason), "{reason}: {err}");
        // The binary form is checked the same way: what `write_file` writes,
        // `read_file` reads.
        let set = SchemaSet::of::<Order2>().unwrap();
        assert!(SchemaSet::from_bytes(&set.to_bytes().unwrap()).is_ok());
    }
}

/// A chain of types as long as the file allows is refused at the nesting limit, on
/// the way in: no deep recursion.
#[test]
fn a_long_chain_of_types_is_refused_without_deep_recursion() {
    let mut ty = TypeSchema::U8;
    for _ in 0..200 {
        ty = TypeSchema::Option(ty.into());
    }
    let field = FieldSchema {
        name: "x".into(),
        offset: 0,
        size: 201,
        ty: ty.into(),
        since: 1,
        reserved: false,
        default: None,
    };
    let message = MessageSchema {
        name: "Deep".into(),
        version: 1,
        block_length: 201,
        min_block_length: 201,
        has_block_length: false,
        has_tail: false,
        template_id: None,
        schema_id: 0,
        fields: vec![field].into(),
    };
    let err = SchemaSet::from_messages([message]).unwrap_err();
    assert!(
        err.to_string().contains("deeper than the nesting limit"),
        "{err}"
    );
    // A schema file whose one field's type is a chain of 10,000 options (made by
    // hand from S1's bytes: its type rows replaced): refused, no stack overflow.
    let s1 = golden("S1");
    let body = &s1[8..];
    let le32 = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().unwrap()) as usize;
    let rows_at = le32(14); // the unions' region ends where the type rows' begins
    let mut table = vec![9, 0];
    let n = 10_000u32;
    for i in 0..n {
        let (code, child) = if i + 1 < n { (16u8, i + 1) } else { (3, 0) };
        table.push(code);
        table.extend_from_slice(&0u32.to_le_bytes());
        table.extend_from_slice(&child.to_le_bytes());
    }
    let mut file = s1[..8 + rows_at].to_vec();
    file.extend_from_slice(&table);
    let end = (rows_at + table.len()) as u32;
    file[8 + 18..8 + 22].copy_from_slice(&end.to_le_bytes());
    file[8 + 22..8 + 26].copy_from_slice(&end.to_le_bytes());
    let err = SchemaSet::from_bytes(&file).unwrap_err();
    assert!(
        err.to_string().contains("deeper than the nesting limit"),
        "{err}"
    );
}

/// Two enums of one name in different modules: a schema file knows enums by name,
/// so a set holding both would read one's values through the other's variants.
mod clashing {
    pub(super) mod one {
        use wiremsg::{WireEnum, WireMsg, WireUnion};

        #[derive(WireEnum, Clone, Copy, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Side {
            Buy = 0,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Fill {
            pub(crate) side: Side,
        }

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Instr {
            Market,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Ticket {
            pub(crate) instr: Instr,
        }
    }

    pub(super) mod two {
        use wiremsg::{WireEnum, WireMsg, WireUnion};

        #[derive(WireEnum, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
        #[repr(u8)]
        pub(crate) enum Side {
            Bid = 0,
            Ask = 1,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Quote {
            pub(crate) side: Side,
            pub(crate) fill: Option<super::one::Fill>,
        }

        /// The clash reached through a map's keys.
        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct ByMap {
            pub(crate) fill: super::one::Fill,
            pub(crate) by_side: std::collections::BTreeMap<Side, u8>,
        }

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Instr {
            Market,
            Limit { price: i64 },
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Ticket2 {
            pub(crate) old: Vec<super::one::Ticket>,
            pub(crate) instr: (u8, Instr),
        }
    }
}

#[test]
fn two_enums_or_unions_of_one_name_are_refused() {
    let err = SchemaSet::of::<clashing::two::Quote>().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "two different enums have the same name"
        },
        "{err}"
    );
    // Whichever message the set walks first, the path names a field of the clash.
    assert!(
        ["Fill.side", "Quote.side"].contains(&err.path().as_str()),
        "{err}"
    );
    let err = SchemaSet::of::<clashing::two::Ticket2>().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "two different unions have the same name"
        },
        "{err}"
    );
    // Adding the second to a set that holds the first is refused the same way.
    let mut set = SchemaSet::of::<clashing::one::Fill>().unwrap();
    let err = set.add::<clashing::two::Quote>().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "two different enums have the same name"
        }
    );
    // A schema file or its JSON cannot state a clash either: the set as read.
    let one = SchemaSet::of::<clashing::one::Fill>().unwrap();
    let quote = clashing::two::Quote::SCHEMA.clone();
    let err = SchemaSet::from_messages(one.messages().iter().cloned().chain([quote])).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "two different enums have the same name"
        }
    );
    let err = SchemaSet::of::<clashing::two::ByMap>().unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "two different enums have the same name"
        }
    );
    // One enum used by several messages is fine.
    assert!(SchemaSet::of::<clashing::one::Ticket>().is_ok());
}

/// Schema encodings made by hand (FORMAT.md §11), with the shapes no `SchemaSet`
/// writes: the same rows as the runtime's, from the same derive, in version 5 of the
/// encoding (format 3: the only one read).
mod crafted {
    use wiremsg::{Template, WireMsg};

    #[derive(WireMsg)]
    #[wire(version = 5)]
    pub(super) struct SchemaV5 {
        pub(super) messages: Vec<Message>,
        /// Empty from version 3.
        pub(super) types: Vec<Type>,
        pub(super) enums: Vec<EnumDef>,
        /// None here (an empty list has no bytes of its element type).
        #[wire(since = 2)]
        pub(super) unions: Vec<EnumDef>,
        #[wire(since = 3)]
        pub(super) type_rows: Vec<TypeRow>,
        #[wire(since = 3)]
        pub(super) type_values: Vec<TypeValue>,
    }
    impl Template for SchemaV5 {
        const TEMPLATE_ID: u16 = 0xFFFF;
        const SCHEMA_ID: u16 = 0xFFFF;
    }
    #[derive(WireMsg)]
    pub(super) struct TypeRow {
        pub(super) code: u8,
        pub(super) len: u32,
        pub(super) child: u32,
    }
    #[derive(WireMsg)]
    pub(super) struct TypeValue {
        pub(super) ty: u32,
        pub(super) value: i128,
    }

    /// The encoding of a set of `messages` whose types are `types` (rows with their
    /// values inline, as versions 1 and 2 had them) and enums `enums`.
    pub(super) fn encode(messages: Vec<Message>, types: Vec<Type>, enums: Vec<EnumDef>) -> Vec<u8> {
        let type_values = (0..)
            .zip(&types)
            .filter(|(_, t)| t.value != 0)
            .map(|(ty, t)| TypeValue { ty, value: t.value })
            .collect();
        let type_rows = types
            .iter()
            .map(|t| TypeRow {
                code: t.code,
                len: t.len,
                child: t.child,
            })
            .collect();
        let set = SchemaV5 {
            messages,
            types: vec![],
            enums,
            unions: vec![],
            type_rows,
            type_values,
        };
        let mut bytes = Vec::new();
        set.encode_with_header(&mut bytes).unwrap();
        bytes
    }
    #[derive(WireMsg)]
    pub(super) struct Message {
        pub(super) name: String,
        pub(super) schema_version: u16,
        pub(super) block_length: u32,
        pub(super) min_block_length: u32,
        pub(super) has_block_length: bool,
        pub(super) has_tail: bool,
        pub(super) template_id: Option<u16>,
        pub(super) schema_id: u16,
        pub(super) fields: Vec<Field>,
    }
    #[derive(WireMsg)]
    pub(super) struct Field {
        pub(super) name: String,
        pub(super) offset: u32,
        pub(super) size: u32,
        pub(super) ty: u32,
        pub(super) since: u16,
        pub(super) reserved: bool,
        pub(super) default_kind: u8,
        pub(super) default_bytes: Vec<u8>,
    }
    #[derive(WireMsg)]
    pub(super) struct Type {
        pub(super) code: u8,
        pub(super) len: u32,
        pub(super) child: u32,
        pub(super) value: i128,
    }
    #[derive(WireMsg)]
    pub(super) struct EnumDef {
        pub(super) name: String,
        pub(super) repr: u32,
        pub(super) variants: Vec<Variant>,
        pub(super) catch_all: Option<String>,
    }
    #[derive(WireMsg)]
    pub(super) struct Variant {
        pub(super) name: String,
        pub(super) value: u64,
    }

    pub(super) fn field(name: String, offset: u32, size: u32, ty: u32) -> Field {
        Field {
            name,
            offset,
            size,
            ty,
            since: 1,
            reserved: false,
            default_kind: 0,
            default_bytes: vec![],
        }
    }

    pub(super) fn message(block_length: u32, fields: Vec<Field>) -> Message {
        Message {
            name: "M".into(),
            schema_version: 1,
            block_length,
            min_block_length: block_length,
            has_block_length: false,
            has_tail: false,
            template_id: Some(1),
            schema_id: 0,
            fields,
        }
    }

    /// One field whose type is `levels` nested pairs `(T, T)` of `u8`, each pair two
    /// rows naming the pair below twice: 2^levels bytes of `u8`s from 2 rows a level.
    pub(super) fn doubling_tuples(levels: u32) -> Vec<u8> {
        const TUPLE: u8 = 30;
        let row = |code, len, child, value| Type {
            code,
            len,
            child,
            value,
        };
        let mut types = vec![row(1, 0, 0, 0)];
        let mut pair = 0;
        for _ in 0..levels {
            let rest = types.len() as i128;
            types.push(row(TUPLE, 1, pair, 0));
            types.push(row(TUPLE, 2, pair, rest));
            pair = types.len() as u32 - 1;
        }
        // 2^levels bytes; past u32 the stated sizes are wrong, but never reached.
        let size = u32::try_from(1u64 << levels).unwrap_or(u32::MAX);
        encode(
            vec![message(size, vec![field("x".into(), 0, size, pair)])],
            types,
            vec![],
        )
    }
}

#[test]
fn a_type_table_that_doubles_at_each_row_is_refused_before_it_expands() {
    #[derive(WireMsg)]
    #[wire(template_id = 1)]
    struct M {
        x: ((u8, u8), (u8, u8)),
    }
    // The crafted rows are the runtime's own: two levels read as `M`.
    assert_eq!(
        SchemaSet::from_bytes(&crafted::doubling_tuples(2)).unwrap(),
        SchemaSet::of::<M>().unwrap()
    );
    // 40 levels: 2^40 types from 2 KB, refused once the budget is spent.
    let bytes = crafted::doubling_tuples(40);
    assert!(bytes.len() < 2200, "{}", bytes.len());
    let start = std::time::Instant::now();
    let err = SchemaSet::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        err.kind(),
        &ErrorKind::InvalidSchema {
            reason: "the type table expands to more types than the schema's bytes allow"
        }
    );
    assert_eq!(err.path(), "messages[0].fields[0].x");
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

/// 3,000 fields of one enum of 3,000 variants, about 170 KB: copied into each field
/// it was 9 million variants (refused by the expansion budget, after hundreds of MB);
/// shared, it is read once and each field holds a pointer to it.
#[test]
fn an_enum_named_by_every_field_is_shared_not_copied() {
    use crafted::{EnumDef, Type, Variant, encode, field, message};
    let n = 3000u32;
    let bytes = encode(
        vec![message(
            2 * n,
            (0..n)
                .map(|i| field(format!("f{i}"), 2 * i, 2, 1))
                .collect(),
        )],
        vec![
            Type {
                code: 2, // u16
                len: 0,
                child: 0,
                value: 0,
            },
            Type {
                code: 18,
                len: 0,
                child: 0,
                value: 0,
            },
        ],
        vec![EnumDef {
            name: "E".into(),
            repr: 0,
            variants: (0..u64::from(n))
                .map(|value| Variant {
                    name: format!("V{value}"),
                    value,
                })
                .collect(),
            catch_all: None,
        }],
    );
    assert!(bytes.len() < 180_000, "{}", bytes.len());
    let read = SchemaSet::from_bytes(&bytes).unwrap();
    let fields = &read.messages()[0].fields;
    assert_eq!(fields.len(), 3000);
    let (TypeSchema::Enum(first), TypeSchema::Enum(last)) = (&*fields[0].ty, &*fields[2999].ty)
    else {
        panic!("enum fields")
    };
    assert_eq!(first.variants.len(), 3000);
    assert!(std::ptr::eq(&**first, &**last)); // one enum, shared
}

/// Schema files of format 1 (versions 1 to 3 of the encoding: the golden vectors'
/// files as releases before version 3 wrote them, `tests/schemas/version-2/`, and a
/// version-3 header) and of format 2 (version 4: the golden vectors' files before
/// version 5, which differ from today's in the header's version alone) are refused,
/// not misread: format 1's lists of messages are table lists, where later formats
/// have split lists, and the schemas of format 2 describe lists of fixed-size
/// unions as table lists, where format 3 has dense lists (FORMAT.md "Format
/// versions", §11).
#[test]
fn schema_files_of_formats_1_and_2_are_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/schemas");
    let refused = |bytes: &[u8], version: u16, what: &str| {
        let format = ErrorKind::UnsupportedFormat {
            version,
            supported: wiremsg::FORMAT_VERSION,
        };
        let err = SchemaSet::from_bytes(bytes).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (&format, 6), "{what}");
        // The schema-driven reader and schema frames refuse them alike.
        let schemas = wiremsg::dynamic::canonical_schema();
        let err = wiremsg::dynamic::view_with_header(&schemas, bytes).unwrap_err();
        assert_eq!((err.kind(), err.offset()), (&format, 6), "{what}");
        let err = wiremsg::frame::read_schema_frame(bytes).unwrap_err();
        assert_eq!(err.kind(), &format, "{what}");
    };
    let mut read = 0;
    for entry in std::fs::read_dir(dir.join("version-2")).unwrap() {
        let path = entry.unwrap().path();
        let what = path.display().to_string();
        let old = std::fs::read(&path).unwrap();
        let new = std::fs::read(dir.join("golden").join(path.file_name().unwrap())).unwrap();
        // Header version: 1 without unions, 2 with them; 5 today.
        assert!(matches!(old[6], 1 | 2), "{what}");
        assert_eq!(new[6], 5);
        refused(&old, 1, &what);
        // Today's bytes with version 3 in the header (format 1): still refused.
        let mut three = new.clone();
        three[6] = 3;
        refused(&three, 1, &what);
        // With version 4 (format 2): the bytes of the file before version 5.
        let mut four = new.clone();
        four[6] = 4;
        refused(&four, 2, &what);
        assert!(SchemaSet::from_bytes(&new).is_ok());
        read += 1;
    }
    assert_eq!(read, 17);
}

/// A schema of format 2 (version 4 of the encoding) of a message with a list of a
/// fixed-size union is refused, before a reader of format 3 could read the table
/// lists it describes as dense lists; its bytes but for the version read.
#[test]
fn a_schema_of_format_2_of_a_fixed_size_union_list_is_refused() {
    #[derive(WireMsg)]
    struct Fill {
        qty: u32,
    }
    #[derive(wiremsg::WireUnion)]
    #[repr(u8)]
    enum Event {
        Heartbeat = 0,
        Fill(Fill) = 1,
    }
    #[derive(WireMsg)]
    #[wire(template_id = 3)]
    struct Batch {
        events: Vec<Event>,
    }
    let set = SchemaSet::of::<Batch>().unwrap();
    let mut bytes = set.to_bytes().unwrap();
    assert_eq!(&bytes[6..8], [5, 0]);
    bytes[6] = 4;
    let err = SchemaSet::from_bytes(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (
            &ErrorKind::UnsupportedFormat {
                version: 2,
                supported: 3
            },
            6
        )
    );
    assert_eq!(
        err.to_string(),
        "wire format version 2 is not read by this reader (it reads format version 3; \
         FORMAT.md \"Format versions\" says what changed) at byte 6"
    );
    bytes[6] = 5;
    assert_eq!(SchemaSet::from_bytes(&bytes).unwrap(), set);
    // Newer versions of the encoding read as newer versions of a message do (§5).
    bytes[6] = 6;
    assert_eq!(SchemaSet::from_bytes(&bytes).unwrap(), set);
}

#[derive(WireMsg)]
struct Valued {
    #[wire(null = u32::MAX)]
    limit: Option<u32>,
    pair: (u8, u16, u32),
    venue: wiremsg::FixedStr<4, 0x2D>,
    qty: u32,
}

/// Version 3 lists the values of the rows that have one apart, by increasing row;
/// a reader refuses a version-3 schema whose lists break that rule, and one with
/// rows left in `types` (where older readers look).
#[test]
fn version_3_keeps_the_values_apart_and_refuses_them_out_of_order() {
    let set = SchemaSet::of::<Valued>().unwrap();
    let bytes = set.to_bytes().unwrap();
    assert_eq!(SchemaSet::from_bytes(&bytes).unwrap(), set);
    let body = &bytes[8..];
    let le32 = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().unwrap()) as usize;
    // `types` is empty: it ends where `messages` ends.
    assert_eq!(le32(2), le32(6));
    // Rows: u32, the null sentinel row, u8, u16, the tuples (u32), (u16, u32),
    // (u8, u16, u32), the padded FixedStr. Values: the sentinel, the two tuples of
    // more than one element (the row of their rest), the padding byte `-`.
    let (rows_end, values_end) = (le32(18), le32(22));
    let values = &body[rows_end..values_end];
    assert_eq!(u16::from_le_bytes([values[0], values[1]]), 20);
    let entries: Vec<(u32, i128)> = values[2..]
        .chunks(20)
        .map(|c| {
            (
                u32::from_le_bytes(c[..4].try_into().unwrap()),
                i128::from_le_bytes(c[4..].try_into().unwrap()),
            )
        })
        .collect();
    assert_eq!(
        entries,
        [(1, i128::from(u32::MAX)), (5, 4), (6, 5), (7, 0x2D)]
    );

    let refused = |bytes: &[u8], reason: &str| {
        let err = SchemaSet::from_bytes(bytes).unwrap_err();
        assert!(err.to_string().contains(reason), "{err}");
    };
    let entry_at = |i: usize| 8 + rows_end + 2 + 20 * i;
    // Two entries swapped: out of row order.
    let mut swapped = bytes.clone();
    let (a, b) = (entry_at(1), entry_at(2));
    let first: Vec<u8> = swapped[a..a + 20].to_vec();
    swapped.copy_within(b..b + 20, a);
    swapped[b..b + 20].copy_from_slice(&first);
    refused(&swapped, "not in increasing row order");
    // A value of 0 (a row with value 0 is not listed).
    let mut zero = bytes.clone();
    zero[entry_at(3) + 4..entry_at(3) + 20].fill(0);
    refused(&zero, "a type value is 0");
    // A row past the table.
    let mut past = bytes.clone();
    past[entry_at(3)..entry_at(3) + 4].copy_from_slice(&99u32.to_le_bytes());
    refused(&past, "names no row");
    // A value for a row whose type has none (row 0, the `u32`).
    let mut unused = bytes.clone();
    unused[entry_at(0)..entry_at(0) + 4].copy_from_slice(&0u32.to_le_bytes());
    refused(&unused, "a row whose type has no value");
    // S1 with its one type as a version-2 row in `types` (25 bytes), `type_rows`
    // empty: a version-3 schema keeps nothing there.
    let s1 = golden("S1");
    let mut inline = s1[..8 + 94].to_vec();
    inline.extend([25, 0, 3]);
    inline.extend([0; 24]);
    for at in [6, 10, 14, 18, 22] {
        inline[8 + at..8 + at + 4].copy_from_slice(&121u32.to_le_bytes());
    }
    refused(&inline, "a version-3 schema has its types in `type_rows`");
    // S1's `u32` row with a `len` or a `child`, which a `u32` has not: one schema,
    // one encoding.
    for at in [97, 101] {
        let mut unused = s1.clone();
        unused[8 + at] = 5;
        refused(&unused, "a part its type code does not use");
    }
}

/// `Vec<u8>` nested 1 to 65 deep.
mod nested {
    pub(super) type V1 = Vec<u8>;
    pub(super) type V2 = Vec<V1>;
    pub(super) type V3 = Vec<V2>;
    pub(super) type V4 = Vec<V3>;
    pub(super) type V5 = Vec<V4>;
    pub(super) type V6 = Vec<V5>;
    pub(super) type V7 = Vec<V6>;
    pub(super) type V8 = Vec<V7>;
    pub(super) type V9 = Vec<V8>;
    pub(super) type V10 = Vec<V9>;
    pub(super) type V11 = Vec<V10>;
    pub(super) type V12 = Vec<V11>;
    pub(super) type V13 = Vec<V12>;
    pub(super) type V14 = Vec<V13>;
    pub(super) type V15 = Vec<V14>;
    pub(super) type V16 = Vec<V15>;
    pub(super) type V17 = Vec<V16>;
    pub(super) type V18 = Vec<V17>;
    pub(super) type V19 = Vec<V18>;
    pub(super) type V20 = Vec<V19>;
    pub(super) type V21 = Vec<V20>;
    pub(super) type V22 = Vec<V21>;
    pub(super) type V23 = Vec<V22>;
    pub(super) type V24 = Vec<V23>;
    pub(super) type V25 = Vec<V24>;
    pub(super) type V26 = Vec<V25>;
    pub(super) type V27 = Vec<V26>;
    pub(super) type V28 = Vec<V27>;
    pub(super) type V29 = Vec<V28>;
    pub(super) type V30 = Vec<V29>;
    pub(super) type V31 = Vec<V30>;
    pub(super) type V32 = Vec<V31>;
    pub(super) type V33 = Vec<V32>;
    pub(super) type V34 = Vec<V33>;
    pub(super) type V35 = Vec<V34>;
    pub(super) type V36 = Vec<V35>;
    pub(super) type V37 = Vec<V36>;
    pub(super) type V38 = Vec<V37>;
    pub(super) type V39 = Vec<V38>;
    pub(super) type V40 = Vec<V39>;
    pub(super) type V41 = Vec<V40>;
    pub(super) type V42 = Vec<V41>;
    pub(super) type V43 = Vec<V42>;
    pub(super) type V44 = Vec<V43>;
    pub(super) type V45 = Vec<V44>;
    pub(super) type V46 = Vec<V45>;
    pub(super) type V47 = Vec<V46>;
    pub(super) type V48 = Vec<V47>;
    pub(super) type V49 = Vec<V48>;
    pub(super) type V50 = Vec<V49>;
    pub(super) type V51 = Vec<V50>;
    pub(super) type V52 = Vec<V51>;
    pub(super) type V53 = Vec<V52>;
    pub(super) type V54 = Vec<V53>;
    pub(super) type V55 = Vec<V54>;
    pub(super) type V56 = Vec<V55>;
    pub(super) type V57 = Vec<V56>;
    pub(super) type V58 = Vec<V57>;
    pub(super) type V59 = Vec<V58>;
    pub(super) type V60 = Vec<V59>;
    pub(super) type V61 = Vec<V60>;
    pub(super) type V62 = Vec<V61>;
    pub(super) type V63 = Vec<V62>;
    pub(super) type V64 = Vec<V63>;
    pub(super) type V65 = Vec<V64>;
}

/// Lists add no nesting level to a message's bytes, but a schema's types nest at most
/// 64 deep (its readers walk them recursively). A type nested deeper is refused by
/// the writer of the schema as by its readers, never written for readers to refuse.
#[test]
fn the_writer_of_a_schema_refuses_what_its_readers_refuse() {
    #[derive(WireMsg)]
    #[wire(template_id = 9)]
    struct Deepest {
        v: nested::V64,
    }
    #[derive(WireMsg)]
    #[wire(template_id = 9)]
    struct TooDeep {
        v: nested::V65,
    }
    let set = SchemaSet::of::<Deepest>().unwrap();
    assert_eq!(
        SchemaSet::from_bytes(&set.to_bytes().unwrap()).unwrap(),
        set
    );
    let err = SchemaSet::of::<TooDeep>().unwrap_err();
    assert!(
        err.to_string().contains("deeper than the nesting limit"),
        "{err}"
    );
    // A describing writer refuses its first message, writing nothing.
    let mut writer = wiremsg::FrameWriter::new(Vec::new()).with_schema_frames();
    let value = TooDeep { v: Vec::new() };
    assert_eq!(writer.write(&value).unwrap_err().kind(), err.kind());
    assert!(writer.into_inner().is_empty());
}

/// A set of many messages, each holding a list of the next, is checked in one walk
/// and encoded with indexes of its tables: 20,000 of them (over a megabyte) read and
/// write in n log n time (both were quadratic: a walk of every message reached from
/// each message, a scan of the type table for each type).
#[test]
fn a_schema_of_many_messages_that_nest_each_other_reads_in_linear_time() {
    let n = 20_000;
    let name = |i: usize| format!("M{i:05}");
    let messages = (0..n).map(|i| {
        let next = (i + 1 < n).then(|| FieldSchema {
            name: "next".into(),
            offset: 2,
            size: 4,
            ty: TypeSchema::List(
                TypeSchema::Message(wiremsg::MessageRef::named(name(i + 1))).into(),
            )
            .into(),
            since: 1,
            reserved: false,
            default: None,
        });
        MessageSchema {
            name: name(i).into(),
            version: 1,
            block_length: if next.is_some() { 6 } else { 2 },
            min_block_length: if next.is_some() { 6 } else { 2 },
            has_block_length: true,
            has_tail: next.is_some(),
            template_id: None,
            schema_id: 0,
            fields: next.into_iter().collect::<Vec<_>>().into(),
        }
    });
    let set = SchemaSet::from_messages(messages).unwrap();
    let bytes = set.to_bytes().unwrap();
    assert!(bytes.len() > 1_000_000);
    assert_eq!(SchemaSet::from_bytes(&bytes).unwrap(), set);
}
