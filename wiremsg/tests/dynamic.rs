//! The schema-driven reader (`wiremsg::dynamic`) against the typed views: on every
//! golden vector of FORMAT.md, on arbitrary values of a message with every kind of
//! field and on corruptions of their bytes, both accept the same bytes, fail with the
//! same error (kind, field path, byte offset) and read the same values; the
//! annotated dump stops at the same error and never panics.

// `pub` for the fuzz crate, which includes it too.
#[allow(unreachable_pub)]
#[path = "common/cases.rs"]
mod cases;
#[path = "common/dynamic_lazy.rs"]
mod dynamic_lazy;
#[path = "common/golden.rs"]
mod format_golden;
#[path = "common/format_guess.rs"]
mod format_guess;
#[path = "common/handmade.rs"]
mod handmade;
use format_golden::golden;
use format_guess::format_3_reading;
use handmade::{Part, message, split};
use proptest::prelude::*;
use wiremsg::dynamic::{self, Value};
use wiremsg::{Error, FixedStr, MAX_DEPTH, SchemaSet, Template, WireEnum, WireMsg};

// -- comparing an owned value (decoded by the typed view) with a dynamic value --

/// Asserts that a dynamic value is this value.
trait Expect {
    fn same_as(&self, value: &Value<'_>, at: &str);
}

macro_rules! expect_number {
    ($variant:ident as $wide:ty: $($ty:ty),*) => {$(
        impl Expect for $ty {
            fn same_as(&self, value: &Value<'_>, at: &str) {
                assert_eq!(value, &Value::$variant(<$wide>::from(*self)), "at `{at}`");
            }
        }
    )*};
}

expect_number!(Unsigned as u128: u8, u16, u32, u64, u128);
expect_number!(Signed as i128: i8, i16, i32, i64, i128);

impl Expect for bool {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        assert_eq!(value, &Value::Bool(*self), "at `{at}`");
    }
}

impl Expect for f32 {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let Value::F32(x) = value else {
            panic!("at `{at}`: {value:?} is not an f32")
        };
        assert_eq!(x.to_bits(), self.to_bits(), "at `{at}`");
    }
}

impl Expect for f64 {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let Value::F64(x) = value else {
            panic!("at `{at}`: {value:?} is not an f64")
        };
        assert_eq!(x.to_bits(), self.to_bits(), "at `{at}`");
    }
}

impl Expect for String {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        assert_eq!(value, &Value::Str(self.as_str().into()), "at `{at}`");
    }
}

impl<const N: usize, const PAD: u8> Expect for FixedStr<N, PAD> {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        assert_eq!(value, &Value::FixedStr(self.as_str().into()), "at `{at}`");
    }
}

impl<M: wiremsg::Mantissa, const SCALE: u32> Expect for wiremsg::Decimal<M, SCALE> {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let Value::Decimal { mantissa, scale } = value else {
            panic!("at `{at}`: {value:?} is not a decimal")
        };
        assert_eq!(
            (*scale, value.to_string()),
            (SCALE, self.to_string()),
            "at `{at}`"
        );
        assert_eq!(*mantissa, self.mantissa().to_i128(), "at `{at}`");
    }
}

impl<T: Expect> Expect for Option<T> {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        match (self, value) {
            (None, Value::Option(None)) => {}
            (Some(mine), Value::Option(Some(theirs))) => mine.same_as(theirs, at),
            _ => panic!("at `{at}`: {value:?} is not {}", self.is_some()),
        }
    }
}

impl<T: Expect, const N: usize> Expect for [T; N] {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let Value::Array(array) = value else {
            panic!("at `{at}`: {value:?} is not an array")
        };
        assert_eq!(array.len(), N, "at `{at}`");
        for (i, item) in self.iter().enumerate() {
            item.same_as(&array.get(i).expect("element"), &format!("{at}[{i}]"));
        }
    }
}

impl<T: Expect> Expect for Vec<T> {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        match value {
            Value::List(list) => {
                assert_eq!(list.len(), self.len(), "at `{at}`");
                for (i, item) in self.iter().enumerate() {
                    // O(1) access by index, as the typed list.
                    item.same_as(&list.get(i).expect("element"), &format!("{at}[{i}]"));
                }
                assert_eq!(list.get(self.len()), None);
            }
            Value::Bytes(bytes) => {
                assert_eq!(bytes.len(), self.len(), "at `{at}`");
                for (item, byte) in self.iter().zip(bytes.iter()) {
                    item.same_as(&Value::Unsigned(u128::from(*byte)), at);
                }
            }
            _ => panic!("at `{at}`: {value:?} is not a list"),
        }
    }
}

/// A map: its entries in key order (a `BTreeMap` of integer, `String` or enum keys
/// declared in value order iterates in the wire order), each a `(key, value)` tuple.
impl<K: Expect, V: Expect> Expect for std::collections::BTreeMap<K, V> {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let Value::Map(entries) = value else {
            panic!("at `{at}`: {value:?} is not a map")
        };
        assert_eq!(entries.len(), self.len(), "at `{at}`");
        for (i, (k, v)) in self.iter().enumerate() {
            let Some(Value::Tuple(entry)) = entries.get(i) else {
                panic!("at `{at}[{i}]`: not an entry")
            };
            k.same_as(&entry.get(0).expect("key"), &format!("{at}[{i}].0"));
            v.same_as(&entry.get(1).expect("value"), &format!("{at}[{i}].1"));
        }
    }
}

macro_rules! expect_enum {
    ($($ty:ty),*) => {$(
        impl Expect for $ty {
            fn same_as(&self, value: &Value<'_>, at: &str) {
                let Value::Enum(e) = value else {
                    panic!("at `{at}`: {value:?} is not an enum")
                };
                assert_eq!(e.raw(), u64::from(self.to_raw()), "at `{at}`");
                assert_eq!(e.type_name(), stringify!($ty), "at `{at}`");
                // A known value has its variant's name; `Debug` of the Rust value
                // starts with it.
                if let Some(name) = e.name() {
                    assert!(format!("{self:?}").starts_with(name), "at `{at}`: {name}");
                }
            }
        }
    )*};
}

/// `Expect` for a message: each readable field by name, and the fields in wire
/// order.
macro_rules! expect_message {
    ($ty:ident { $($field:ident),* $(,)? }) => {
        impl Expect for $ty {
            fn same_as(&self, value: &Value<'_>, at: &str) {
                let Value::Message(view) = value else {
                    panic!("at `{at}`: {value:?} is not a message")
                };
                assert_eq!(view.name(), stringify!($ty), "at `{at}`");
                $(
                    let name = stringify!($field);
                    let value = view.get(name).unwrap_or_else(|| panic!("`{at}.{name}` missing"));
                    self.$field.same_as(&value, &format!("{at}.{name}"));
                )*
                let names: Vec<&str> = view.fields().map(|f| f.name()).collect();
                assert_eq!(names, [$(stringify!($field)),*], "at `{at}`");
            }
        }
    };
}

fn same_error(typed: &Error, dynamic: &Error, what: &str) {
    assert_eq!(
        (typed.kind(), typed.path(), typed.offset()),
        (dynamic.kind(), dynamic.path(), dynamic.offset()),
        "{what}: typed `{typed}`, dynamic `{dynamic}`"
    );
}

/// The annotated dump of `bytes` stops at `error`, covers only the bytes, is in byte
/// order and renders.
fn check_annotation(annotation: &dynamic::Annotation<'_>, error: Option<&Error>) {
    match (annotation.error(), error) {
        (None, None) => {}
        (Some(theirs), Some(mine)) => same_error(mine, theirs, "annotate"),
        (theirs, mine) => panic!("annotate: {theirs:?} where view: {mine:?}"),
    }
    let bytes = annotation.bytes();
    let mut last = 0;
    for row in annotation.rows() {
        assert!(
            row.offset + row.len <= bytes.len(),
            "{row:?} past the bytes"
        );
        assert!(row.offset >= last, "{row:?} out of order");
        last = row.offset;
    }
    let text = annotation.to_string();
    // A line per row (more for long hex), and the error's.
    let lines = annotation.rows().len() + usize::from(annotation.error().is_some());
    assert!(text.lines().count() >= lines, "{text}");
    if let Some(error) = annotation.error() {
        assert!(text.ends_with(&format!("error: {error}\n")), "{text}");
    }
}

/// `T::view` and `dynamic::view` agree on `bytes`: both accept and read the same
/// values, or both fail with the same error. Returns true if they accepted.
fn agree<T>(set: &SchemaSet, bytes: &[u8]) -> bool
where
    T: WireMsg + Expect + for<'v> wiremsg::DecodeField<'v>,
{
    let name = T::SCHEMA.name.as_ref();
    let typed = T::view(bytes);
    let dynamic = dynamic::view(set, name, bytes);
    let annotation = dynamic::annotate(set, name, bytes, false);
    check_annotation(&annotation, typed.as_ref().err());
    dynamic_lazy::agrees(set, name, bytes, &dynamic);
    match (typed, dynamic) {
        (Ok(_), Ok(view)) => {
            let value = T::decode(bytes).expect("a view that decodes");
            value.same_as(&Value::Message(view), name);
            true
        }
        (Err(typed), Err(dynamic)) => {
            same_error(&typed, &dynamic, name);
            false
        }
        (typed, dynamic) => panic!("{name}: typed {typed:?}, dynamic {dynamic:?}"),
    }
}

/// As [`agree`], after a message header (`Template::view_with_header` and
/// `dynamic::view_with_header_as`).
fn agree_with_header<T>(set: &SchemaSet, bytes: &[u8]) -> bool
where
    T: Template + Expect + for<'v> wiremsg::DecodeField<'v>,
{
    let name = T::SCHEMA.name.as_ref();
    let typed = T::view_with_header(bytes);
    let dynamic = dynamic::view_with_header_as(set, name, bytes);
    let annotation = dynamic::annotate(set, name, bytes, true);
    check_annotation(&annotation, typed.as_ref().err());
    match (typed, dynamic) {
        (Ok((typed_header, _)), Ok((header, view))) => {
            assert_eq!(typed_header, header);
            let value = T::decode(&bytes[8..8 + view.as_bytes().len()]).expect("decodes");
            value.same_as(&Value::Message(view), name);
            true
        }
        (Err(typed), Err(dynamic)) => {
            same_error(&typed, &dynamic, name);
            false
        }
        (typed, dynamic) => panic!("{name}: typed {typed:?}, dynamic {dynamic:?}"),
    }
}

// -- the golden vectors' types (as in golden.rs) --

#[derive(WireMsg, Debug, PartialEq)]
struct Padded {
    a: u8,
    b: i32,
    c: u8,
}
expect_message!(Padded { a, b, c });

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Default)]
#[repr(u8)]
enum Side {
    #[default]
    Buy = 0,
    Sell = 1,
}

#[derive(WireMsg, Debug, PartialEq)]
struct Tick {
    sequence: u64,
    timestamp_ns: u64,
    symbol: FixedStr<8>,
    bid_price: i64,
    bid_size: u32,
    ask_price: i64,
    ask_size: u32,
    side: Side,
    flags: u8,
}
expect_message!(Tick {
    sequence,
    timestamp_ns,
    symbol,
    bid_price,
    bid_size,
    ask_price,
    ask_size,
    side,
    flags
});

#[derive(WireMsg, Debug, PartialEq)]
struct LoginRequest {
    username: String,
    password: String,
    mfa_token: Option<String>,
}
expect_message!(LoginRequest {
    username,
    password,
    mfa_token
});

#[derive(WireMsg, Debug, PartialEq, Clone, Copy, Default)]
struct Level {
    price: i32,
    size: u16,
}
expect_message!(Level { price, size });

#[derive(WireMsg, Debug, PartialEq, Clone)]
struct Venue {
    code: u8,
    name: String,
}
expect_message!(Venue { code, name });

#[derive(WireMsg, Debug, PartialEq)]
struct Book {
    id: u16,
    levels: Vec<u16>,
    quotes: Vec<Level>,
    tags: Vec<String>,
    venue: Venue,
}
expect_message!(Book {
    id,
    levels,
    quotes,
    tags,
    venue
});

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Liquidity {
    Added = 1,
    Removed = 2,
    #[wire(other)]
    Other(u8),
}

#[derive(WireMsg, Debug, PartialEq)]
struct Fill {
    qty: Option<u32>,
    price: Option<i64>,
    liquidity: Liquidity,
    last: bool,
}
expect_message!(Fill {
    qty,
    price,
    liquidity,
    last
});

#[derive(WireMsg, Debug, PartialEq)]
struct Sample {
    ratio: f32,
    price: f64,
    big: u128,
    levels: [i16; 2],
    inner: Level,
    bytes: Vec<u8>,
    venues: Vec<Venue>,
}
expect_message!(Sample {
    ratio,
    price,
    big,
    levels,
    inner,
    bytes,
    venues
});

mod v1 {
    use wiremsg::WireMsg;

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) id: u64,
        pub(crate) note: String,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(block_length)]
    pub(crate) struct Alert {
        pub(crate) code: u32,
        pub(crate) level: u16,
    }
}
expect_message!(Quote {
    price,
    size,
    venue,
    flags
});
use v1::{Alert as AlertV1, Order as OrderV1, Quote as QuoteV1};

impl Expect for QuoteV1 {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let view = value.as_message().expect("a message");
        self.price.same_as(&view.get("price").unwrap(), at);
        self.size.same_as(&view.get("size").unwrap(), at);
    }
}

impl Expect for OrderV1 {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let view = value.as_message().expect("a message");
        self.id.same_as(&view.get("id").unwrap(), at);
        self.note.same_as(&view.get("note").unwrap(), at);
    }
}

impl Expect for AlertV1 {
    fn same_as(&self, value: &Value<'_>, at: &str) {
        let view = value.as_message().expect("a message");
        self.code.same_as(&view.get("code").unwrap(), at);
        self.level.same_as(&view.get("level").unwrap(), at);
    }
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(version = 3)]
struct Quote {
    price: i64,
    size: u32,
    #[wire(since = 2)]
    venue: u8,
    #[wire(since = 3, default = 7)]
    flags: u16,
}

#[derive(WireMsg, Debug, PartialEq)]
#[wire(version = 2)]
struct Order {
    id: u64,
    note: String,
    #[wire(since = 2)]
    tags: Vec<String>,
}
expect_message!(Order { id, note, tags });

#[derive(WireMsg, Debug, PartialEq)]
#[wire(template_id = 1, schema_id = 7, version = 2)]
struct AddOrder {
    order: u64,
    symbol: FixedStr<8>,
    price: i64,
    #[wire(since = 2)]
    shares: u32,
}
expect_message!(AddOrder {
    order,
    symbol,
    price,
    shares
});

#[derive(WireMsg, Debug, PartialEq)]
#[wire(block_length, version = 2)]
struct Alert {
    code: u32,
    level: u16,
    #[wire(since = 2)]
    reason: String,
}
expect_message!(Alert {
    code,
    level,
    reason
});

#[derive(WireMsg, Debug, PartialEq)]
#[wire(template_id = 3, schema_id = 7)]
struct Text {
    body: String,
}
expect_message!(Text { body });

expect_enum!(Side, Liquidity);

fn set_of<T: WireMsg>() -> SchemaSet {
    SchemaSet::of::<T>().expect("a schema set")
}

/// Every prefix and every single-byte change of `bytes` (a few values per byte).
fn mutations(bytes: &[u8]) -> impl Iterator<Item = Vec<u8>> + '_ {
    let cuts = (0..bytes.len()).map(|len| bytes[..len].to_vec());
    let flips = (0..bytes.len()).flat_map(move |at| {
        [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff, bytes[at] ^ 0x01]
            .into_iter()
            .map(move |b| {
                let mut out = bytes.to_vec();
                out[at] = b;
                out
            })
    });
    cuts.chain(flips)
}

/// The schema set of `T` as read back from its schema file (owned names, defaults
/// as bytes).
fn file_set_of<T: WireMsg>() -> SchemaSet {
    SchemaSet::from_bytes(&set_of::<T>().to_bytes().unwrap()).expect("a schema file")
}

/// The typed and the dynamic reader agree on `bytes` and on every mutation of them,
/// with the derive's schema and with the one read back from its schema file.
fn agree_everywhere<T>(bytes: &[u8]) -> usize
where
    T: WireMsg + Expect + for<'v> wiremsg::DecodeField<'v>,
{
    let file = file_set_of::<T>();
    mutations(bytes).for_each(|m| {
        agree::<T>(&file, &m);
    });
    let set = set_of::<T>();
    assert!(
        agree::<T>(&set, bytes),
        "{} accepts its golden vector",
        T::SCHEMA.name
    );
    mutations(bytes).filter(|m| agree::<T>(&set, m)).count()
}

#[test]
fn golden_e1_to_e6_read_alike_and_fail_alike() {
    agree_everywhere::<Padded>(&golden("E1"));
    agree_everywhere::<Tick>(&golden("E2"));
    agree_everywhere::<LoginRequest>(&golden("E3"));
    agree_everywhere::<Book>(&golden("E4"));
    agree_everywhere::<Fill>(&golden("E5"));
    agree_everywhere::<Sample>(&golden("E6"));

    // A few values read by name, to be sure what "alike" means.
    let set = set_of::<Book>();
    let bytes = golden("E4");
    let book = dynamic::view(&set, "Book", &bytes).unwrap();
    assert_eq!(book.get("id"), Some(Value::Unsigned(513)));
    assert_eq!(book.get("levels").unwrap().to_string(), "[7, 9]");
    assert_eq!(
        book.get("quotes").unwrap().to_string(),
        "[Level { price: -1, size: 10 }, Level { price: 5, size: 20 }]"
    );
    assert_eq!(
        book.get("venue").unwrap().to_string(),
        r#"Venue { code: 3, name: "XNAS" }"#
    );
    let set = set_of::<Fill>();
    let bytes = golden("E5");
    let fill = dynamic::view(&set, "Fill", &bytes).unwrap();
    assert_eq!(
        fill.to_string(),
        "Fill { qty: Some(500), price: None, liquidity: Other(7), last: true }"
    );
}

/// Every prefix of a message (a short read from a socket, a buffer cut inside the
/// block or the tail) is `Truncated`, with the bytes present and a need between them
/// and the whole message, for the typed view and the schema-driven reader alike: never
/// an offset "out of range" that a reader waiting for the rest could not act on.
fn every_prefix_is_truncated<T>(bytes: &[u8]) -> usize
where
    T: WireMsg + Expect + for<'v> wiremsg::DecodeField<'v>,
{
    let set = set_of::<T>();
    let name = T::SCHEMA.name.as_ref();
    let mut inside_the_tail = 0;
    for len in 0..bytes.len() {
        assert!(!agree::<T>(&set, &bytes[..len]), "{name}: prefix of {len}");
        let err = T::view(&bytes[..len]).unwrap_err();
        match *err.kind() {
            wiremsg::ErrorKind::Truncated { needed, available } => {
                assert_eq!(available, len, "{name}: {err}");
                assert!(needed > len && needed <= bytes.len(), "{name}: {err}");
                inside_the_tail += usize::from(!err.path().is_empty());
            }
            _ => panic!("{name}: prefix of {len}: {err}"),
        }
    }
    inside_the_tail
}

#[test]
fn a_buffer_cut_short_is_truncated_for_both_readers() {
    // E3 is a block of 15 bytes and a tail of 27: each cut inside the tail is found at
    // the slot of the first string it cuts, and says how many bytes that string needs.
    assert_eq!(every_prefix_is_truncated::<LoginRequest>(&golden("E3")), 27);
    let bytes = golden("E3");
    let err = LoginRequest::view(&bytes[..20]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "truncated: needs 23 bytes, has 20 at byte 2 in `username`"
    );
    assert!(every_prefix_is_truncated::<Book>(&golden("E4")) > 0);
    assert!(every_prefix_is_truncated::<Sample>(&golden("E6")) > 0);
}

#[test]
fn golden_e7_and_e9_every_reader_of_every_writer() {
    // v1 and v3 readers of v1 and v3 bytes.
    for name in ["E7a", "E7b"] {
        agree_everywhere::<Quote>(&golden(name));
        agree_everywhere::<QuoteV1>(&golden(name));
    }
    for name in ["E7c", "E7d"] {
        agree_everywhere::<Order>(&golden(name));
        agree_everywhere::<OrderV1>(&golden(name));
    }
    for name in ["E9a", "E9b"] {
        agree_everywhere::<Alert>(&golden(name));
        agree_everywhere::<AlertV1>(&golden(name));
    }

    // The v3 reader of v1 bytes: the declared default, the type's default, and the
    // view says which fields the writer had.
    let set = set_of::<Quote>();
    let old = golden("E7a");
    let view = dynamic::view(&set, "Quote", &old).unwrap();
    let typed = Quote::view(&old).unwrap();
    assert_eq!(
        (view.get("venue"), view.get("flags"), view.version()),
        (
            Some(Value::Unsigned(0)),
            Some(Value::Unsigned(7)),
            typed.version()
        )
    );
    assert_eq!(
        (view.has("flags"), view.try_get("flags")),
        (typed.has_flags(), None)
    );
    let absent: Vec<bool> = view.fields().map(|f| f.is_present()).collect();
    assert_eq!(absent, [true, true, false, false]);
    let set = set_of::<Alert>();
    let old = golden("E9a");
    let view = dynamic::view(&set, "Alert", &old).unwrap();
    assert_eq!(view.get("reason").unwrap().as_str(), Some(""));
    assert!(!view.has("reason"));
}

#[test]
fn golden_e8_and_f1_with_their_headers() {
    let set = set_of::<AddOrder>();
    let bytes = golden("E8");
    assert!(agree_with_header::<AddOrder>(&set, &bytes));
    for m in mutations(&bytes) {
        agree_with_header::<AddOrder>(&set, &m);
    }
    let (header, view) = dynamic::view_with_header(&set, &bytes).unwrap();
    assert_eq!(
        (header.version, view.get("shares")),
        (2, Some(Value::Unsigned(100)))
    );

    let set = set_of::<Text>();
    let frame = golden("F1");
    assert_eq!(frame[..4], [18, 0, 0, 0]);
    let bytes = &frame[4..];
    assert!(agree_with_header::<Text>(&set, bytes));
    for m in mutations(bytes) {
        agree_with_header::<Text>(&set, &m);
    }
    let (_, text) = dynamic::view_with_header(&set, bytes).unwrap();
    assert_eq!(text.get("body").unwrap().as_str(), Some("halt"));
}

#[test]
fn golden_s1_a_schema_file_read_by_the_schema_of_schemas() {
    let bytes = golden("S1");
    let schemas = dynamic::canonical_schema();
    let (_, file) = dynamic::view_with_header(&schemas, &bytes).unwrap();
    let typed = SchemaSet::from_bytes(&bytes).unwrap();
    let messages = file.get("messages").unwrap();
    let messages = messages.as_list().unwrap();
    assert_eq!(messages.len(), typed.messages().len());
    let ping = messages.get(0).unwrap();
    let ping = ping.as_message().unwrap();
    let schema = &typed.messages()[0];
    assert_eq!(
        ping.get("name").unwrap().as_str(),
        Some(schema.name.as_ref())
    );
    assert_eq!(
        ping.get("block_length"),
        Some(Value::Unsigned(schema.block_length as u128))
    );
    assert_eq!(
        ping.get("template_id").unwrap().to_string(),
        format!("Some({})", schema.template_id.unwrap())
    );
    let fields = ping.get("fields").unwrap();
    let seq = fields.as_list().unwrap().get(0).unwrap();
    let seq = seq.as_message().unwrap();
    assert_eq!(seq.get("name").unwrap().as_str(), Some("seq"));
    assert_eq!(seq.get("size"), Some(Value::Unsigned(4)));
    // Version 3: the rows in `type_rows`, `types` empty (FORMAT.md §11).
    assert_eq!(file.get("types").unwrap().to_string(), "[]");
    assert_eq!(
        file.get("type_rows").unwrap().to_string(),
        "[WireTypeRow { code: 3, len: 0, child: 0 }]"
    );

    // On every mutation, the dynamic reader fails exactly where reading the schema
    // file fails to validate (its other errors are about the schema it states).
    for m in mutations(&bytes) {
        let dynamic = dynamic::view_with_header(&schemas, &m);
        match SchemaSet::from_bytes(&m) {
            Err(e) if !matches!(e.kind(), wiremsg::ErrorKind::InvalidSchema { .. }) => {
                same_error(&e, &dynamic.unwrap_err(), "S1")
            }
            _ => assert!(dynamic.is_ok(), "{:?}", dynamic.err()),
        }
    }
}

// -- every kind of field, arbitrary values, random corruptions --

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u16)]
enum Mic {
    Xnas = 1,
    Xnys = 2,
    #[wire(other)]
    Other(u16),
}

#[derive(WireMsg, Debug, Clone, PartialEq, Default)]
struct Point {
    x: i32,
    y: i16,
}
expect_message!(Point { x, y });

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Leg {
    qty: u32,
    px: Option<i64>,
    side: Side,
}
expect_message!(Leg { qty, px, side });

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Tag {
    code: u8,
    label: String,
}
expect_message!(Tag { code, label });

/// A fixed-size message with a block length field.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(block_length)]
struct Stamp {
    at: u64,
    ok: bool,
}
expect_message!(Stamp { at, ok });

/// A fixed-size message that evolved: in a list, its stride says which version.
#[derive(WireMsg, Debug, Clone, PartialEq)]
#[wire(version = 2)]
struct Evo {
    a: u16,
    #[wire(since = 2)]
    b: bool,
}
expect_message!(Evo { a, b });

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Tree {
    label: String,
    children: Vec<Tree>,
}
expect_message!(Tree { label, children });

expect_enum!(Mic);

/// `Rich` at version 1 (`RichV1`) and 2 (`Rich`): the same fields, and in version 2
/// four more.
macro_rules! rich {
    ($name:ident [$($attr:tt)*] { $($later:tt)* } [$($names:ident),*]) => {
        #[derive(WireMsg, Debug, Clone, PartialEq)]
        #[wire(template_id = 5, schema_id = 2, $($attr)*)]
        struct $name {
            flag: bool,
            a_u8: u8,
            a_u16: u16,
            a_u32: u32,
            a_u64: u64,
            a_u128: u128,
            a_i8: i8,
            a_i16: i16,
            a_i32: i32,
            a_i64: i64,
            a_i128: i128,
            a_f32: f32,
            a_f64: f64,
            sym: FixedStr<4>,
            side: Side,
            mic: Mic,
            maybe: Option<u16>,
            maybe_leg: Option<Leg>,
            maybe_text: Option<String>,
            maybe_tag: Option<Tag>,
            arr: [u8; 3],
            sides: [Side; 2],
            points: [Point; 2],
            text: String,
            blob: Vec<u8>,
            nums: Vec<i32>,
            flags: Vec<bool>,
            syms: Vec<FixedStr<3>>,
            mics: Vec<Mic>,
            words: Vec<String>,
            legs: Vec<Leg>,
            evos: Vec<Evo>,
            tags: Vec<Tag>,
            stamps: Vec<Stamp>,
            at: Point,
            tag: Tag,
            stamp: Stamp,
            tree: Tree,
            #[wire(reserved)]
            old: u32,
            $($later)*
        }
        expect_message!($name {
            flag, a_u8, a_u16, a_u32, a_u64, a_u128, a_i8, a_i16, a_i32, a_i64, a_i128,
            a_f32, a_f64, sym, side, mic, maybe, maybe_leg, maybe_text, maybe_tag, arr,
            sides, points, text, blob, nums, flags, syms, mics, words, legs, evos, tags,
            stamps, at, tag, stamp, tree $(, $names)*
        });
    };
}

rich!(RichV1 [] {} []);
rich!(Rich [version = 2] {
    #[wire(since = 2, default = 9)]
    extra: u32,
    #[wire(since = 2)]
    notes: Vec<String>,
    #[wire(since = 2, default = "n/a")]
    note: String,
    #[wire(since = 2)]
    late_side: Side,
} [extra, notes, note, late_side]);

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Buy), Just(Side::Sell)]
}

fn mic() -> impl Strategy<Value = Mic> {
    prop_oneof![
        Just(Mic::Xnas),
        Just(Mic::Xnys),
        any::<u16>().prop_map(Mic::Other)
    ]
}

fn leg() -> impl Strategy<Value = Leg> {
    (any::<u32>(), any::<Option<i64>>(), side()).prop_map(|(qty, px, side)| Leg { qty, px, side })
}

fn point() -> impl Strategy<Value = Point> {
    (any::<i32>(), any::<i16>()).prop_map(|(x, y)| Point { x, y })
}

fn tag() -> impl Strategy<Value = Tag> {
    (any::<u8>(), ".{0,4}").prop_map(|(code, label)| Tag { code, label })
}

fn stamp() -> impl Strategy<Value = Stamp> {
    (any::<u64>(), any::<bool>()).prop_map(|(at, ok)| Stamp { at, ok })
}

fn fixed<const N: usize>() -> impl Strategy<Value = FixedStr<N>> {
    proptest::string::string_regex(&format!("[A-Zé]{{0,{}}}", N / 2))
        .expect("regex")
        .prop_map(|s| FixedStr::new(&s).expect("fits"))
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = "[a-z]{0,3}".prop_map(|label| Tree {
        label,
        children: Vec::new(),
    });
    leaf.prop_recursive(3, 10, 3, |inner| {
        ("[a-z]{0,3}", proptest::collection::vec(inner, 0..3))
            .prop_map(|(label, children)| Tree { label, children })
    })
}

fn rich_v1() -> impl Strategy<Value = RichV1> {
    use proptest::collection::vec;
    (
        (
            any::<bool>(),
            any::<u8>(),
            any::<u16>(),
            any::<u32>(),
            any::<u64>(),
            any::<u128>(),
            any::<i8>(),
            any::<i16>(),
            any::<i32>(),
            any::<i64>(),
            any::<i128>(),
        ),
        (any::<f32>(), any::<f64>(), fixed::<4>(), side(), mic()),
        (
            any::<Option<u16>>(),
            proptest::option::of(leg()),
            proptest::option::of(".{0,4}"),
            proptest::option::of(tag()),
        ),
        (any::<[u8; 3]>(), [side(), side()], [point(), point()]),
        (".{0,6}", vec(any::<u8>(), 0..6), vec(any::<i32>(), 0..4)),
        (
            vec(any::<bool>(), 0..4),
            vec(fixed::<3>(), 0..3),
            vec(mic(), 0..3),
        ),
        (
            vec(".{0,4}", 0..3),
            vec(leg(), 0..3),
            vec(
                (any::<u16>(), any::<bool>()).prop_map(|(a, b)| Evo { a, b }),
                0..3,
            ),
            vec(tag(), 0..3),
            vec(stamp(), 0..3),
        ),
        (point(), tag(), stamp(), tree()),
    )
        .prop_map(
            |(
                (flag, a_u8, a_u16, a_u32, a_u64, a_u128, a_i8, a_i16, a_i32, a_i64, a_i128),
                (a_f32, a_f64, sym, side, mic),
                (maybe, maybe_leg, maybe_text, maybe_tag),
                (arr, sides, points),
                (text, blob, nums),
                (flags, syms, mics),
                (words, legs, evos, tags, stamps),
                (at, tag, stamp, tree),
            )| RichV1 {
                flag,
                a_u8,
                a_u16,
                a_u32,
                a_u64,
                a_u128,
                a_i8,
                a_i16,
                a_i32,
                a_i64,
                a_i128,
                a_f32,
                a_f64,
                sym,
                side,
                mic,
                maybe,
                maybe_leg,
                maybe_text,
                maybe_tag,
                arr,
                sides,
                points,
                text,
                blob,
                nums,
                flags,
                syms,
                mics,
                words,
                legs,
                evos,
                tags,
                stamps,
                at,
                tag,
                stamp,
                tree,
                old: 0,
            },
        )
}

fn rich() -> impl Strategy<Value = Rich> {
    (
        rich_v1(),
        any::<u32>(),
        proptest::collection::vec(".{0,3}", 0..3),
        ".{0,4}",
        side(),
    )
        .prop_map(|(v1, extra, notes, note, late_side)| {
            let RichV1 {
                flag,
                a_u8,
                a_u16,
                a_u32,
                a_u64,
                a_u128,
                a_i8,
                a_i16,
                a_i32,
                a_i64,
                a_i128,
                a_f32,
                a_f64,
                sym,
                side,
                mic,
                maybe,
                maybe_leg,
                maybe_text,
                maybe_tag,
                arr,
                sides,
                points,
                text,
                blob,
                nums,
                flags,
                syms,
                mics,
                words,
                legs,
                evos,
                tags,
                stamps,
                at,
                tag,
                stamp,
                tree,
                old,
            } = v1;
            Rich {
                flag,
                a_u8,
                a_u16,
                a_u32,
                a_u64,
                a_u128,
                a_i8,
                a_i16,
                a_i32,
                a_i64,
                a_i128,
                a_f32,
                a_f64,
                sym,
                side,
                mic,
                maybe,
                maybe_leg,
                maybe_text,
                maybe_tag,
                arr,
                sides,
                points,
                text,
                blob,
                nums,
                flags,
                syms,
                mics,
                words,
                legs,
                evos,
                tags,
                stamps,
                at,
                tag,
                stamp,
                tree,
                old,
                extra,
                notes,
                note,
                late_side,
            }
        })
}

/// One change to a buffer.
#[derive(Debug, Clone)]
enum Hit {
    /// The byte at (an index modulo the length) becomes this.
    Byte(usize, u8),
    /// A little-endian `u16` or `u32` there: block lengths, end offsets, strides,
    /// table starts, mostly near the buffer's own size.
    Word(usize, u32, bool),
    /// The buffer is cut to (a length modulo its length).
    Cut(usize),
    /// A byte is inserted there.
    Insert(usize, u8),
}

fn hits() -> impl Strategy<Value = Vec<Hit>> {
    let hit = prop_oneof![
        4 => (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Hit::Byte(at, b)),
        3 => (any::<usize>(), prop_oneof![0u32..400, any::<u32>()], any::<bool>())
            .prop_map(|(at, n, wide)| Hit::Word(at, n, wide)),
        1 => any::<usize>().prop_map(Hit::Cut),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Hit::Insert(at, b)),
    ];
    proptest::collection::vec(hit, 0..4)
}

fn apply(bytes: &mut Vec<u8>, hits: &[Hit]) {
    for hit in hits {
        if bytes.is_empty() {
            return;
        }
        let len = bytes.len();
        match *hit {
            Hit::Byte(at, b) => bytes[at % len] = b,
            Hit::Word(at, n, wide) => {
                let at = at % len;
                let word = n.to_le_bytes();
                let width = if wide { 4 } else { 2 };
                for (i, b) in word.iter().take(width).enumerate() {
                    if let Some(slot) = bytes.get_mut(at + i) {
                        *slot = *b;
                    }
                }
            }
            Hit::Cut(at) => bytes.truncate(at % len),
            Hit::Insert(at, b) => bytes.insert(at % len, b),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(160)))]

    /// Arbitrary values of every kind of field, changed at random: the two readers
    /// accept the same bytes, read the same values, and fail with the same error.
    #[test]
    fn typed_and_dynamic_agree_on_rich_messages(value in rich(), hits in hits()) {
        let set = set_of::<Rich>();
        let mut bytes = value.to_bytes().unwrap();
        prop_assert!(agree::<Rich>(&set, &bytes));
        apply(&mut bytes, &hits);
        agree::<Rich>(&set, &bytes);

        let mut framed = Vec::new();
        value.encode_with_header(&mut framed).unwrap();
        prop_assert!(agree_with_header::<Rich>(&set, &framed));
        apply(&mut framed, &hits);
        agree_with_header::<Rich>(&set, &framed);
    }

    /// Version 1 bytes read by the version 2 schema (the declared defaults, the
    /// types' defaults), and version 2 bytes by the version 1 schema.
    #[test]
    fn typed_and_dynamic_agree_across_versions(old in rich_v1(), new in rich(), hits in hits()) {
        // Schemas as read from schema files: what a tool without the types has.
        let (v1, v2) = (file_set_of::<RichV1>(), file_set_of::<Rich>());
        let old_bytes = old.to_bytes().unwrap();
        let new_bytes = new.to_bytes().unwrap();
        prop_assert!(agree::<Rich>(&v2, &old_bytes));
        prop_assert!(agree::<RichV1>(&v1, &new_bytes));
        let view = dynamic::view(&v2, "Rich", &old_bytes).unwrap();
        prop_assert_eq!(view.get("extra"), Some(Value::Unsigned(9)));
        prop_assert_eq!(view.get("note"), Some(Value::Str("n/a".into())));
        prop_assert_eq!(view.get("notes").unwrap().as_list().map(|l| l.len()), Some(0));
        prop_assert_eq!(view.get("late_side").unwrap().to_string(), "Buy");
        prop_assert_eq!((view.version(), view.has("extra")), (1, false));
        prop_assert_eq!(view.get("old"), None);

        let mut changed = old_bytes.clone();
        apply(&mut changed, &hits);
        agree::<Rich>(&v2, &changed);
        let mut changed = new_bytes;
        apply(&mut changed, &hits);
        agree::<RichV1>(&v1, &changed);
    }
}

#[test]
fn nesting_past_the_depth_limit_fails_alike() {
    let mut tree = Tree {
        label: "leaf".into(),
        children: Vec::new(),
    };
    for depth in 0..MAX_DEPTH {
        tree = Tree {
            label: format!("{depth}"),
            children: vec![tree],
        };
    }
    let deepest = tree.to_bytes().unwrap();
    // The encoder refuses one level more; the bytes of that tree are built by hand.
    let written = Tree {
        label: "over".into(),
        children: vec![tree],
    }
    .to_bytes()
    .unwrap_err();
    let bytes = message(&[Part::Tail(b"over"), Part::Tail(&split(&[&deepest]))]);
    let set = set_of::<Tree>();
    let typed = Tree::view(&bytes).unwrap_err();
    let dynamic = dynamic::view(&set, "Tree", &bytes).unwrap_err();
    assert!(matches!(
        typed.kind(),
        wiremsg::ErrorKind::DepthLimitExceeded { limit: 64 }
    ));
    same_error(&typed, &dynamic, "depth");
    assert_eq!(
        (written.kind(), written.path()),
        (typed.kind(), typed.path())
    );
    let annotation = dynamic::annotate(&set, "Tree", &bytes, false);
    check_annotation(&annotation, Some(&typed));
    assert!(annotation.rows().iter().any(|r| r.depth > 64));
}

#[test]
fn annotation_of_corrupt_bytes_shows_the_parts_before_the_fault() {
    let set = set_of::<Book>();
    let mut bytes = golden("E4");
    // `tags[1]` ("é") made invalid UTF-8.
    bytes[48] = 0xff;
    let dump = dynamic::annotate(&set, "Book", &bytes, false);
    let err = dump.error().expect("an error");
    assert_eq!(err.to_string(), Book::view(&bytes).unwrap_err().to_string());
    assert_eq!((err.path(), err.offset()), ("tags[1]".to_string(), 48));
    let rows: Vec<(usize, usize, &str)> = dump
        .rows()
        .iter()
        .map(|r| (r.offset, r.depth, r.name.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (0, 0, "block length"),
            (2, 0, "id"),
            (4, 0, "levels"),
            (8, 0, "quotes"),
            (12, 0, "tags"),
            (20, 0, "levels (tail)"),
            (20, 1, "[0]"),
            (22, 1, "[1]"),
            (24, 0, "quotes (tail)"),
            (24, 1, "stride"),
            (26, 1, "[0]"),
            (26, 2, "price"),
            (30, 2, "size"),
            (32, 1, "[1]"),
            (32, 2, "price"),
            (36, 2, "size"),
            (38, 0, "tags (tail)"),
            (38, 1, "table"),
            (42, 1, "table"),
            (46, 1, "[0]"),
        ]
    );
    let text = dump.to_string();
    assert!(text.contains("    46  61 62"), "{text}");
    assert!(
        text.ends_with("error: invalid UTF-8 after 0 valid bytes at byte 48 in `tags[1]`\n"),
        "{text}"
    );

    // Truncated anywhere, or garbage: rows and an error, never a panic.
    let bytes = golden("E6");
    let set = set_of::<Sample>();
    for len in 0..bytes.len() {
        let dump = dynamic::annotate(&set, "Sample", &bytes[..len], false);
        check_annotation(&dump, Sample::view(&bytes[..len]).err().as_ref());
    }
}

#[test]
fn schemas_the_derive_could_not_write_are_refused() {
    use std::borrow::Cow;
    use wiremsg::ErrorKind;
    let set = set_of::<Book>();
    let mut messages = set.messages().to_vec();
    let book = messages.iter_mut().find(|m| m.name == "Book").unwrap();
    let mut fields = book.fields.to_vec();
    fields[1].offset += 1;
    book.fields = Cow::Owned(fields);
    // Refused when the set is made (as from a schema file or JSON), before any read.
    let err = SchemaSet::from_messages(messages).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::InvalidSchema { .. }));
    assert_eq!(err.path(), "Book.levels");

    // An inline message that holds itself.
    let mut point = set_of::<Point>().messages()[0].clone();
    let mut fields = point.fields.to_vec();
    fields[1].ty = wiremsg::TypeSchema::Message(wiremsg::MessageRef::named("Point")).into();
    fields[1].size = 6;
    point.fields = Cow::Owned(fields);
    point.block_length = 10;
    point.min_block_length = 10;
    let err = SchemaSet::from_messages([point]).unwrap_err();
    assert!(
        matches!(err.kind(), ErrorKind::InvalidSchema { .. }),
        "{err}"
    );

    let err = dynamic::view(&set, "Nope", &[]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid schema: the schema set has no message of this name at byte 0 in `Nope`"
    );
}

#[derive(WireMsg, Debug, PartialEq)]
struct Lists {
    evos: Vec<Evo>,
    stamps: Vec<Stamp>,
    trees: Vec<Tree>,
}
expect_message!(Lists {
    evos,
    stamps,
    trees
});

#[test]
fn list_shapes_agree_under_every_single_byte_change() {
    let lists = Lists {
        evos: vec![Evo { a: 1, b: true }, Evo { a: 2, b: false }],
        stamps: vec![Stamp { at: 3, ok: true }],
        trees: vec![
            Tree {
                label: "a".into(),
                children: vec![Tree {
                    label: "b".into(),
                    children: Vec::new(),
                }],
            },
            Tree {
                label: String::new(),
                children: Vec::new(),
            },
        ],
    };
    let bytes = lists.to_bytes().unwrap();
    let accepted = agree_everywhere::<Lists>(&bytes);
    assert!(accepted > 0);

    // Read with the stride of a version 1 writer (2 bytes per element), the six
    // bytes `01 00 01 02 00 00` are three elements whose `b` is absent (`false`).
    let mut older = bytes.clone();
    let stride_at = usize::from(u16::from_le_bytes([older[0], older[1]]));
    assert_eq!(older[stride_at], 3);
    older[stride_at] = 2;
    let set = set_of::<Lists>();
    assert!(agree::<Lists>(&set, &older));
    let view = dynamic::view(&set, "Lists", &older).unwrap();
    assert_eq!(
        view.get("evos").unwrap().to_string(),
        "[Evo { a: 1, b: false }, Evo { a: 513, b: false }, Evo { a: 0, b: false }]"
    );
    // Under the block of version 1: refused alike.
    older[stride_at] = 1;
    assert!(!agree::<Lists>(&set, &older));
    assert!(matches!(
        dynamic::view(&set, "Lists", &older).unwrap_err().kind(),
        wiremsg::ErrorKind::StrideTooSmall {
            stride: 1,
            required: 2
        }
    ));
}

#[test]
fn annotation_rows_are_in_byte_order_with_absent_fields_after_the_block() {
    let set = set_of::<Order>();
    let bytes = golden("E7c");
    let dump = dynamic::annotate(&set, "Order", &bytes, false);
    let rows: Vec<(usize, usize, &str, &str)> = dump
        .rows()
        .iter()
        .map(|r| (r.offset, r.len, r.name.as_str(), r.meaning.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (0, 2, "block length", "14 (an older version's)"),
            (2, 8, "id", "9"),
            (10, 4, "note", "ends at 18"),
            (14, 0, "tags", "absent (since version 2)"),
            (14, 4, "note (tail)", "\"rush\""),
        ]
    );
    // A v1 reader of v2 bytes: the fields and the tail data it does not know.
    let set = set_of::<OrderV1>();
    let bytes = golden("E7d");
    let dump = dynamic::annotate(&set, "Order", &bytes, false);
    let rows: Vec<(usize, usize, &str)> = dump
        .rows()
        .iter()
        .map(|r| (r.offset, r.len, r.name.as_str()))
        .collect();
    assert_eq!(
        rows,
        [
            (0, 2, "block length"),
            (2, 8, "id"),
            (10, 4, "note"),
            (14, 4, "(newer)"),
            (18, 4, "note (tail)"),
            (22, 12, "(after the message)"),
        ]
    );

    let set = set_of::<Sample>();
    let bytes = golden("E6");
    let dump = dynamic::annotate(&set, "Sample", &bytes, false);
    assert!(dump.error().is_none());
    let text = dump.to_string();
    for line in [
        "    30  fe ff 03 00                                       levels                   [-2, 3]",
        "    34                                                    inner                    Level, 6 bytes",
        "    34  64 00 00 00                                         price                  100",
        "    48  de ad                                             bytes (tail)             2 bytes",
        "    50                                                    venues (tail)            Vec<Venue>, 23 bytes",
        "    50  16 00 00 00                                         [0] tail start         T(0) = 22: [0]'s tail starts at 22; 2 elements of 11 bytes (tail start, block of 7)",
        "    54                                                      [0]                    Venue: block of 7 bytes; tail 22..23 (its end offsets count from T(0) - 7 = 15)",
        "    61  17 00 00 00                                         [1] tail start         T(1) = 23: [1]'s tail starts at 23",
        "    72                                                      [0] (tail)             [0]'s tail, 1 byte",
        "    72  41                                                    name (tail)          \"A\"",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

// -- E10: the trading field types (FORMAT.md §4.3, §4.8, §4.9, §6.4) --

#[derive(WireMsg, Debug, PartialEq)]
struct TopLevel {
    symbol: FixedStr<8, 0>,
    #[wire(null = i64::MIN)]
    bid: Option<wiremsg::Decimal<i64, 4>>,
    ask: wiremsg::Decimal<u32, 4>,
    #[wire(null = u32::MAX)]
    size: Option<u32>,
    #[wire(max_len = 4)]
    venues: Vec<u16>,
}
expect_message!(TopLevel {
    symbol,
    bid,
    ask,
    size,
    venues
});

#[derive(WireMsg, Debug, PartialEq)]
struct Ladder {
    name: String,
    #[wire(max_len = 2)]
    levels: Vec<TopLevel>,
    #[wire(max_len = 3)]
    tags: Vec<String>,
}
expect_message!(Ladder { name, levels, tags });

#[test]
fn golden_e10_and_bounded_lists_read_alike_and_fail_alike() {
    agree_everywhere::<TopLevel>(&golden("E10"));
    let set = set_of::<TopLevel>();
    let bytes = golden("E10");
    let top = dynamic::view(&set, "TopLevel", &bytes).unwrap();
    assert_eq!(
        top.to_string(),
        r#"TopLevel { symbol: "NQ", bid: None, ask: 123.4500, size: Some(300), venues: [1, 2] }"#
    );

    let level = |n: u32| TopLevel {
        symbol: FixedStr::new("ES").unwrap(),
        bid: Some(wiremsg::Decimal::from_mantissa(-5)),
        ask: wiremsg::Decimal::from_mantissa(n),
        size: None,
        venues: vec![7],
    };
    let ladder = Ladder {
        name: "x".into(),
        levels: vec![level(1), level(2)],
        tags: vec!["a".into(), "b".into()],
    };
    agree_everywhere::<Ladder>(&ladder.to_bytes().unwrap());
    // Lists past their bound, written by a reader without the bound: both readers
    // refuse them with ListTooLong, at the same offset.
    #[derive(WireMsg)]
    struct Unbounded {
        name: String,
        levels: Vec<TopLevel>,
        tags: Vec<String>,
    }
    let long = Unbounded {
        name: "x".into(),
        levels: vec![level(1), level(2), level(3)],
        tags: vec!["a".into(); 4],
    };
    let bytes = long.to_bytes().unwrap();
    let typed = Ladder::view(&bytes).unwrap_err();
    let dynamic = dynamic::view(&set_of::<Ladder>(), "Ladder", &bytes).unwrap_err();
    assert_eq!(
        typed.kind(),
        &wiremsg::ErrorKind::ListTooLong { len: 3, max: 2 }
    );
    same_error(&typed, &dynamic, "Ladder");
    assert!(!agree::<Ladder>(&set_of::<Ladder>(), &bytes));
}

mod differences {
    use wiremsg::{WireEnum, WireMsg};

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq, Default)]
    #[repr(u8)]
    pub(crate) enum Tif {
        Day = 0,
        #[default]
        Ioc = 1,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct OrderV1 {
        pub(crate) id: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Order {
        pub(crate) id: u32,
        #[wire(since = 2)]
        pub(crate) tif: Tif,
        #[wire(since = 2, default = Some(5))]
        pub(crate) limit: Option<u16>,
    }
}

/// The values the schema cannot state, read from bytes of an older writer: the only
/// places where the two readers differ (the module docs of `wiremsg::dynamic` say
/// so). Validation and errors are the same.
#[test]
fn documented_differences_absent_fields_whose_default_the_schema_cannot_state() {
    use differences::{Order, OrderV1, Tif};
    let old = OrderV1 { id: 3 }.to_bytes().unwrap();
    let typed = Order::view(&old).unwrap();
    let set = set_of::<Order>();
    let view = dynamic::view(&set, "Order", &old).unwrap();
    // An enum without a declared default: the typed accessor calls the enum's
    // `Default` (here `Ioc`, value 1), which the schema does not hold; the dynamic
    // reader reads value 0.
    assert_eq!(typed.tif(), Tif::Ioc);
    assert_eq!(view.get("tif").unwrap().to_string(), "Day");
    // A declared default of a fixed-size option has a byte form: both read it.
    assert_eq!(typed.limit(), Some(5));
    assert_eq!(
        view.get("limit"),
        Some(Value::Option(Some(Box::new(Value::Unsigned(5)))))
    );
    // Both say the fields are absent, and `try_` reads agree.
    assert_eq!((view.has("tif"), view.try_get("tif")), (false, None));
    assert_eq!((typed.has_tif(), typed.try_tif()), (false, None));
}

#[derive(WireMsg, Debug, PartialEq)]
struct TailThenBool {
    note: String,
    on: bool,
}
expect_message!(TailThenBool { note, on });

#[test]
fn annotation_keeps_the_tail_rows_walked_before_a_fault_in_a_later_slot() {
    let bytes = TailThenBool {
        note: "hi".into(),
        on: true,
    }
    .to_bytes()
    .unwrap();
    let set = set_of::<TailThenBool>();
    agree_everywhere::<TailThenBool>(&bytes);
    let mut bad = bytes.clone();
    bad[6] = 2;
    let dump = dynamic::annotate(&set, "TailThenBool", &bad, false);
    let rows: Vec<(usize, &str)> = dump
        .rows()
        .iter()
        .map(|r| (r.offset, r.name.as_str()))
        .collect();
    assert_eq!(rows, [(0, "block length"), (2, "note"), (7, "note (tail)")]);
    assert_eq!(dump.error().unwrap().path(), "on");
}

#[path = "common/e11.rs"]
mod e11_types;

/// E11's tagged unions (FORMAT.md §4.10), with and without the catch-all.
mod e11 {
    pub(super) use super::e11_types::{Limit, Order, OrderInstr};
    use super::{Expect, Value};

    expect_message!(Limit { price, qty });
    expect_message!(Order {
        id,
        instr,
        alt,
        history
    });

    impl Expect for OrderInstr {
        fn same_as(&self, value: &Value<'_>, at: &str) {
            let Value::Union(u) = value else {
                panic!("at `{at}`: {value:?} is not a union")
            };
            assert_eq!(u.schema().name, "OrderInstr", "at `{at}`");
            let payload = u.payload();
            match self {
                OrderInstr::Market => {
                    assert_eq!((u.tag(), u.name()), (0, Some("Market")), "at `{at}`");
                    assert_eq!(payload, Value::Absent, "at `{at}`");
                }
                OrderInstr::Limit(limit) => {
                    assert_eq!((u.tag(), u.name()), (1, Some("Limit")), "at `{at}`");
                    limit.same_as(&payload, &format!("{at}.Limit"));
                }
                OrderInstr::Stop { trigger, note } => {
                    assert_eq!((u.tag(), u.name()), (2, Some("Stop")), "at `{at}`");
                    let view = payload.as_message().expect("a message");
                    assert_eq!(view.name(), "OrderInstrStop", "at `{at}`");
                    trigger.same_as(&view.get("trigger").unwrap(), at);
                    note.same_as(&view.get("note").unwrap(), at);
                }
                OrderInstr::Other { tag, bytes } => {
                    assert_eq!((u.tag(), u.name()), (u64::from(*tag), None), "at `{at}`");
                    assert_eq!(payload, Value::Bytes(bytes), "at `{at}`");
                }
            }
        }
    }

    pub(super) mod strict {
        use super::super::{Expect, Value};
        use super::Limit;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum OrderInstr {
            Market = 0,
            Limit(Limit) = 1,
            Stop { trigger: i64, note: String } = 2,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Order {
            id: u32,
            instr: OrderInstr,
            alt: Option<OrderInstr>,
            history: Vec<OrderInstr>,
        }

        impl Expect for Order {
            fn same_as(&self, value: &Value<'_>, at: &str) {
                let view = value.as_message().expect("a message");
                self.id.same_as(&view.get("id").unwrap(), at);
                assert_eq!(
                    view.get("history").unwrap().as_list().unwrap().len(),
                    self.history.len()
                );
            }
        }
    }
}

#[test]
fn golden_e11_unions_read_alike_and_fail_alike() {
    let bytes = golden("E11");
    let accepted = agree_everywhere::<e11::Order>(&bytes);
    assert!(accepted > 0);
    // Without the catch-all, every reader fails at the unknown tag, alike.
    let set = set_of::<e11::strict::Order>();
    let file = file_set_of::<e11::strict::Order>();
    assert!(!agree::<e11::strict::Order>(&set, &bytes));
    let mut accepted = 0;
    for m in mutations(&bytes) {
        accepted += usize::from(agree::<e11::strict::Order>(&set, &m));
        agree::<e11::strict::Order>(&file, &m);
    }
    assert!(accepted > 0, "some mutations drop the unknown tag");
    // The JSON of both readers is the same.
    let typed = serde_json::to_value(e11::Order::view(&bytes).unwrap()).unwrap();
    let set = set_of::<e11::Order>();
    let dynamic = serde_json::to_value(dynamic::view(&set, "Order", &bytes).unwrap()).unwrap();
    assert_eq!(typed, dynamic);
    // The annotated dump names each part.
    let text = dynamic::annotate(&set, "Order", &bytes, false).to_string();
    for part in [
        "tag 1: Limit",
        "tag 2: Stop",
        "tag 0: Market",
        "tag 9: kept by Other",
    ] {
        assert!(text.contains(part), "{part}:\n{text}");
    }
}

// -- shapes: tuples (FORMAT.md §4.11) --

macro_rules! expect_tuple {
    ($(($($T:ident $i:tt),+))+) => {$(
        impl<$($T: Expect),+> Expect for ($($T,)+) {
            fn same_as(&self, value: &Value<'_>, at: &str) {
                let Value::Tuple(tuple) = value else {
                    panic!("at `{at}`: {value:?} is not a tuple")
                };
                let len = [$($i),+].len();
                assert_eq!(tuple.len(), len, "at `{at}`");
                $(self.$i.same_as(&tuple.get($i).expect("element"), &format!("{at}.{}", $i));)+
                assert_eq!(tuple.get(len), None, "at `{at}`");
            }
        }
    )+};
}

expect_tuple!((A 0) (A 0, B 1) (A 0, B 1, C 2));

mod shapes {
    use super::*;

    #[derive(WireMsg, Debug, PartialEq, Clone, Copy)]
    pub(super) struct Px {
        pub(super) mantissa: i64,
        pub(super) exponent: i8,
    }
    expect_message!(Px { mantissa, exponent });

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Segment {
        pub(super) id: u16,
        pub(super) at: (i32, i16),
        pub(super) fix: Option<(u8, u8)>,
        pub(super) label: (u8, String),
        pub(super) hops: Vec<(u16, u8)>,
    }
    expect_message!(Segment {
        id,
        at,
        fix,
        label,
        hops
    });

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Tuples {
        pub(super) point: Option<(f64, f64, f64)>,
        pub(super) quote: (Side, Px),
        pub(super) nested: ((u8, u16), String),
        pub(super) one: (u32,),
        pub(super) named: Vec<(u32, String)>,
        pub(super) blobs: Vec<(u8, Vec<u8>)>,
        pub(super) pairs: [(u8, bool); 2],
        pub(super) deep: Option<(Vec<(u8, String)>,)>,
    }
    expect_message!(Tuples {
        point,
        quote,
        nested,
        one,
        named,
        blobs,
        pairs,
        deep
    });
}

#[test]
fn tuples_read_alike_and_fail_alike() {
    use shapes::{Px, Segment, Tuples};
    let accepted = agree_everywhere::<Segment>(&golden("E12"));
    assert!(accepted > 0);
    let value = Tuples {
        point: Some((1.0, -2.5, 3.25)),
        quote: (
            Side::Sell,
            Px {
                mantissa: 5,
                exponent: -1,
            },
        ),
        nested: ((1, 513), "xy".into()),
        one: (9,),
        named: vec![(1, "a".into()), (2, String::new())],
        blobs: vec![(4, vec![1, 2]), (5, vec![])],
        pairs: [(1, true), (0, false)],
        deep: Some((vec![(7, "é".into())],)),
    };
    let bytes = value.to_bytes().unwrap();
    agree_everywhere::<Tuples>(&bytes);
}

// -- shapes: lists of lists (FORMAT.md §6.6) --

mod grids {
    use super::*;

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Grid {
        pub(super) rows: Vec<Vec<u16>>,
        pub(super) words: Vec<Vec<String>>,
    }
    expect_message!(Grid { rows, words });

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Deep {
        pub(super) legs: Vec<Vec<Leg>>,
        pub(super) cube: Vec<Vec<Vec<u8>>>,
        pub(super) pairs: Vec<Vec<(u8, String)>>,
    }
    expect_message!(Deep { legs, cube, pairs });
}

#[test]
fn lists_of_lists_read_alike_and_fail_alike() {
    use grids::{Deep, Grid};
    assert!(agree_everywhere::<Grid>(&golden("E13")) > 0);
    let value = Deep {
        legs: vec![
            vec![],
            vec![Leg {
                qty: 1,
                px: Some(-2),
                side: Side::Sell,
            }],
        ],
        cube: vec![vec![vec![1, 2], vec![]], vec![vec![3]]],
        pairs: vec![vec![(1, "x".into())], vec![]],
    };
    agree_everywhere::<Deep>(&value.to_bytes().unwrap());
}

// -- shapes: maps (FORMAT.md §6.7) --

mod maps {
    use super::*;
    use std::collections::BTreeMap;

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Book {
        pub(super) depth: BTreeMap<u16, u32>,
        pub(super) names: BTreeMap<String, u8>,
    }
    expect_message!(Book { depth, names });

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    #[repr(u16)]
    pub(super) enum Venue {
        Arca = 1,
        Xnas = 7,
    }
    expect_enum!(Venue);

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Maps {
        pub(super) signed: BTreeMap<i64, Vec<u8>>,
        pub(super) symbols: BTreeMap<FixedStr<4, 0>, Leg>,
        pub(super) venues: BTreeMap<Venue, String>,
        pub(super) nested: BTreeMap<String, BTreeMap<u8, Option<u16>>>,
        pub(super) maybe: Option<BTreeMap<u8, (u8, String)>>,
        pub(super) many: Vec<BTreeMap<u32, u32>>,
    }
    expect_message!(Maps {
        signed,
        symbols,
        venues,
        nested,
        maybe,
        many
    });
}

#[test]
fn maps_read_alike_and_fail_alike() {
    use maps::{Book, Maps, Venue};
    use std::collections::BTreeMap;
    assert!(agree_everywhere::<Book>(&golden("E14")) > 0);
    let leg = |qty| Leg {
        qty,
        px: Some(-2),
        side: Side::Sell,
    };
    let value = Maps {
        signed: BTreeMap::from([(-3, vec![1]), (0, vec![]), (9, vec![2, 3])]),
        symbols: BTreeMap::from([
            (FixedStr::new("ES").unwrap(), leg(1)),
            (FixedStr::new("E").unwrap(), leg(2)),
        ]),
        venues: BTreeMap::from([(Venue::Xnas, "x".into()), (Venue::Arca, "a".into())]),
        nested: BTreeMap::from([
            ("x".into(), BTreeMap::from([(1, Some(2)), (3, None)])),
            (String::new(), BTreeMap::new()),
        ]),
        maybe: Some(BTreeMap::from([(5, (6, "é".into()))])),
        many: vec![BTreeMap::from([(1, 2), (3, 4)]), BTreeMap::new()],
    };
    assert!(agree_everywhere::<Maps>(&value.to_bytes().unwrap()) > 0);
}

// -- shapes: dense lists of fixed-size unions (FORMAT.md §6.8) --

#[path = "common/e16.rs"]
mod e16_types;

/// E16's dense list, a union with `u16` tags, and the older and newer writers of
/// its variants.
mod dense {
    pub(super) use super::e16_types::{Batch, Event, Fill, e16};
    use super::{Expect, Side, Value};
    use wiremsg::{FixedStr, WireMsg, WireUnion};

    expect_message!(Fill { qty, px });
    expect_message!(Batch { seq, events });

    /// The union's value, its variant by tag and name, and the payload.
    fn same_union(u: &Value<'_>, at: &str, union: &str) -> (u64, Option<String>, Value<'static>) {
        let Value::Union(u) = u else {
            panic!("at `{at}`: {u:?} is not a union")
        };
        assert_eq!(u.schema().name, union, "at `{at}`");
        // The payload is compared by the caller; `Absent` stands for a unit variant.
        let unit = matches!(u.payload(), Value::Absent);
        let marker = if unit {
            Value::Absent
        } else {
            Value::Bool(true)
        };
        (u.tag(), u.name().map(str::to_string), marker)
    }

    impl Expect for Event {
        fn same_as(&self, value: &Value<'_>, at: &str) {
            let (tag, name, marker) = same_union(value, at, "Event");
            let Value::Union(u) = value else {
                unreachable!()
            };
            match self {
                Event::Heartbeat => {
                    assert_eq!((tag, name.as_deref()), (0, Some("Heartbeat")), "at `{at}`");
                    assert_eq!(marker, Value::Absent, "at `{at}`");
                }
                Event::Fill(fill) => {
                    assert_eq!((tag, name.as_deref()), (1, Some("Fill")), "at `{at}`");
                    fill.same_as(&u.payload(), &format!("{at}.Fill"));
                }
                Event::Cancel { id } => {
                    assert_eq!((tag, name.as_deref()), (5, Some("Cancel")), "at `{at}`");
                    let payload = u.payload();
                    let view = payload.as_message().expect("a message");
                    assert_eq!(view.name(), "EventCancel", "at `{at}`");
                    id.same_as(&view.get("id").unwrap(), &format!("{at}.Cancel.id"));
                }
            }
        }
    }

    /// A fixed-size union with `u16` tags, not in tag order, whose payloads hold an
    /// option, an enum and fixed-width text.
    #[derive(WireUnion, Debug, PartialEq, Clone)]
    #[repr(u16)]
    pub(super) enum Wide {
        Quote(Fill) = 300,
        Idle = 0,
        Trade {
            px: Option<i64>,
            side: Side,
            venue: FixedStr<4>,
        } = 7,
    }

    impl Expect for Wide {
        fn same_as(&self, value: &Value<'_>, at: &str) {
            let (tag, name, marker) = same_union(value, at, "Wide");
            let Value::Union(u) = value else {
                unreachable!()
            };
            match self {
                Wide::Idle => {
                    assert_eq!((tag, name.as_deref()), (0, Some("Idle")), "at `{at}`");
                    assert_eq!(marker, Value::Absent, "at `{at}`");
                }
                Wide::Quote(fill) => {
                    assert_eq!((tag, name.as_deref()), (300, Some("Quote")), "at `{at}`");
                    fill.same_as(&u.payload(), &format!("{at}.Quote"));
                }
                Wide::Trade { px, side, venue } => {
                    assert_eq!((tag, name.as_deref()), (7, Some("Trade")), "at `{at}`");
                    let payload = u.payload();
                    let view = payload.as_message().expect("a message");
                    assert_eq!(view.name(), "WideTrade", "at `{at}`");
                    px.same_as(&view.get("px").unwrap(), at);
                    side.same_as(&view.get("side").unwrap(), at);
                    venue.same_as(&view.get("venue").unwrap(), at);
                }
            }
        }
    }

    /// Dense lists in every place a list goes: a field, an option, a bounded list,
    /// a list of lists, beside a union value of the same type.
    #[derive(WireMsg, Debug, PartialEq, Clone)]
    pub(super) struct Tape {
        pub(super) wide: Vec<Wide>,
        pub(super) one: Event,
        pub(super) maybe: Option<Vec<Event>>,
        #[wire(max_len = 3)]
        pub(super) capped: Vec<Event>,
        pub(super) nested: Vec<Vec<Wide>>,
    }
    expect_message!(Tape {
        wide,
        one,
        maybe,
        capped,
        nested
    });

    /// A union of unit variants alone, with `u32` tags: its dense lists have the
    /// tag's stride and entries of block length 0.
    #[derive(WireUnion, Debug, PartialEq, Clone, Copy)]
    #[repr(u32)]
    pub(super) enum State {
        Open = 70_000,
        Closed = 2,
    }

    impl Expect for State {
        fn same_as(&self, value: &Value<'_>, at: &str) {
            let (tag, name, marker) = same_union(value, at, "State");
            assert_eq!(marker, Value::Absent, "at `{at}`");
            let want = match self {
                State::Open => (70_000, "Open"),
                State::Closed => (2, "Closed"),
            };
            assert_eq!((tag, name.as_deref()), (want.0, Some(want.1)), "at `{at}`");
        }
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct States {
        pub(super) states: Vec<State>,
        pub(super) after: u8,
    }
    expect_message!(States { states, after });

    /// A bounded dense list, and the same bytes without the bound.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Capped {
        #[wire(max_len = 2)]
        pub(super) events: Vec<Event>,
    }
    expect_message!(Capped { events });

    #[derive(WireMsg, Debug, PartialEq)]
    pub(super) struct Uncapped {
        pub(super) events: Vec<Event>,
    }

    /// E16's reader without `Cancel` (tag 5).
    pub(super) mod strict {
        use super::super::{Expect, Value};
        use super::Fill;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Batch {
            seq: u32,
            events: Vec<Event>,
        }

        impl Expect for Batch {
            fn same_as(&self, value: &Value<'_>, at: &str) {
                let view = value.as_message().expect("a message");
                self.seq.same_as(&view.get("seq").unwrap(), at);
                let events = view.get("events").unwrap();
                let events = events.as_list().unwrap();
                assert_eq!(events.len(), self.events.len(), "at `{at}`");
                for (i, event) in events.iter().enumerate() {
                    let Value::Union(u) = event else {
                        panic!("at `{at}`: not a union")
                    };
                    let tag = match self.events[i] {
                        Event::Heartbeat => 0,
                        Event::Fill(_) => 1,
                    };
                    assert_eq!(u.tag(), tag, "at `{at}[{i}]`");
                }
            }
        }
    }

    /// E16's types at a later version: `Fill` gains a field (its block grows from 12
    /// to 14 bytes, so the stride from 13 to 15) and `Event` a unit variant.
    pub(super) mod newer {
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        #[wire(version = 2)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
            pub(crate) px: i64,
            #[wire(since = 2)]
            pub(crate) venue: u16,
        }

        #[derive(WireUnion, Debug, PartialEq, Clone)]
        #[repr(u8)]
        #[wire(version = 2)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
            Cancel {
                id: u16,
            } = 5,
            #[wire(since = 2)]
            Reset = 7,
        }

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        pub(crate) struct Batch {
            pub(crate) seq: u32,
            pub(crate) events: Vec<Event>,
        }
    }
}

#[test]
fn golden_e16_dense_lists_read_alike_and_fail_alike() {
    let bytes = golden("E16");
    assert_eq!(dense::e16().to_bytes().unwrap(), bytes);
    assert!(agree_everywhere::<dense::Batch>(&bytes) > 0);
    assert!(every_prefix_is_truncated::<dense::Batch>(&bytes) > 0);
    let set = set_of::<dense::Batch>();
    let view = dynamic::view(&set, "Batch", &bytes).unwrap();
    assert_eq!(
        view.to_string(),
        "Batch { seq: 1, events: [Fill(Fill { qty: 3, px: 100 }), Heartbeat, \
         Cancel(EventCancel { id: 9 })] }"
    );
    let events = view.get("events").unwrap();
    let events = events.as_list().unwrap();
    assert_eq!((events.len(), events.as_bytes().len()), (3, 52));
    assert_eq!(events.get(3), None);

    // A reader whose `Event` lacks `Cancel` fails at byte 49, alike (FORMAT.md E16).
    let strict = set_of::<dense::strict::Batch>();
    assert!(!agree::<dense::strict::Batch>(&strict, &bytes));
    let err = dynamic::view(&strict, "Batch", &bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset(), err.path().as_str()),
        (
            &wiremsg::ErrorKind::UnknownVariant {
                union_name: "Event".into(),
                tag: 5
            },
            49,
            "events[2]"
        )
    );
    let file = file_set_of::<dense::strict::Batch>();
    let mut accepted = 0;
    for m in mutations(&bytes) {
        accepted += usize::from(agree::<dense::strict::Batch>(&strict, &m));
        agree::<dense::strict::Batch>(&file, &m);
    }
    assert!(accepted > 0, "some mutations drop the unknown tag");

    // The JSON of both readers is the same.
    let typed = serde_json::to_value(dense::Batch::view(&bytes).unwrap()).unwrap();
    let dynamic = serde_json::to_value(dynamic::view(&set, "Batch", &bytes).unwrap()).unwrap();
    assert_eq!(typed, dynamic);

    // The annotated dump names each part of the list, in byte order.
    let text = dynamic::annotate(&set, "Batch", &bytes, false).to_string();
    for part in [
        "stride 13: 3 elements of 13 bytes",
        "3 variant entries of 3 bytes",
        "tag 0 (Heartbeat), block length 0",
        "tag 1 (Fill), block length 12",
        "tag 5 (Cancel), block length 2",
        "entry 1: tag 1, Fill",
        "entry 0: tag 0, Heartbeat",
        "entry 2: tag 5, Cancel",
        "12 bytes up to the stride, not read",
        "10 bytes up to the stride, not read",
    ] {
        assert!(text.contains(part), "{part}:\n{text}");
    }
}

/// The hostile dense lists of FORMAT.md §6.8's checks, each made by hand in E16's
/// bytes: the schema-driven reader gives each the typed reader's error (kind, offset,
/// path), up front and on demand (`agree`).
#[test]
fn hostile_dense_lists_fail_alike() {
    use wiremsg::ErrorKind as K;
    let set = set_of::<dense::Batch>();
    let golden = golden("E16");
    // E16 with its list (from byte 10) replaced by `list`, the end offset fixed.
    let with = |list: &[u8]| {
        let mut bytes = golden[..10].to_vec();
        bytes.extend_from_slice(list);
        let end = u32::try_from(bytes.len()).unwrap();
        bytes[6..10].copy_from_slice(&end.to_le_bytes());
        bytes
    };
    let list = golden[10..].to_vec();
    let edit = |at: usize, b: u8| {
        let mut list = list.clone();
        list[at] = b;
        list
    };
    let fails = |bytes: &[u8], kind: K, offset: usize, path: &str| {
        assert!(!agree::<dense::Batch>(&set, bytes), "{kind:?}");
        let err = dynamic::view(&set, "Batch", bytes).unwrap_err();
        assert_eq!(
            (err.kind(), err.offset(), err.path().as_str()),
            (&kind, offset, path),
            "{err}"
        );
    };
    // An entry index past the table: at the index, in the element.
    fails(
        &with(&edit(26, 3)),
        K::VariantEntryOutOfRange {
            index: 3,
            entries: 3,
        },
        36,
        "events[1]",
    );
    // An entry whose block does not leave room for the index in the stride.
    fails(
        &with(&edit(8, 13)),
        K::StrideTooSmall {
            stride: 13,
            required: 14,
        },
        18,
        "events",
    );
    // A stride under the tag's size.
    let mut zero = list.clone();
    zero[0] = 0;
    fails(
        &with(&zero),
        K::StrideTooSmall {
            stride: 0,
            required: 1,
        },
        10,
        "events",
    );
    // More entries than the list holds.
    fails(
        &with(&edit(2, 200)),
        K::Truncated {
            needed: 604,
            available: 52,
        },
        10,
        "events",
    );
    // Elements that are not a whole number of strides, or none.
    fails(
        &with(&list[..list.len() - 1]),
        K::ListLengthMismatch {
            len: 38,
            element_size: 13,
        },
        23,
        "events",
    );
    fails(
        &with(&list[..13]),
        K::ListLengthMismatch {
            len: 0,
            element_size: 13,
        },
        23,
        "events",
    );
    fails(
        &with(&list[..3]),
        K::Truncated {
            needed: 4,
            available: 3,
        },
        10,
        "events",
    );
    // A payload the entry's block cuts short: the payload's own error, in the
    // variant, counted from the element.
    let mut short = list.clone();
    short[8] = 4; // Fill's entry: a block of 4 bytes
    fails(
        &with(&short),
        K::Truncated {
            needed: 12,
            available: 4,
        },
        24,
        "events[0].Fill",
    );
    // Format 2's table list of the same events (§6.4): refused by name.
    let table = [
        12u32.to_le_bytes().as_slice(),
        &25u32.to_le_bytes(),
        &26u32.to_le_bytes(),
        &[1, 3, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0],
        &[0],
        &[5, 9, 0],
    ]
    .concat();
    fails(
        &with(&table),
        K::UnsupportedFormat {
            version: 2,
            supported: wiremsg::FORMAT_VERSION,
        },
        10,
        "events",
    );
    // Told from the shape, as the typed views tell it: the format-3 reading beside it.
    let err = dynamic::view(&set, "Batch", &with(&table)).unwrap_err();
    assert!(format_3_reading(&err).path().starts_with("events"), "{err}");
    // A table entry no element uses is not checked: an unknown tag reads.
    let mut unused = list.clone();
    unused[10] = 77; // entry 2 (Cancel's): tag 77, which no variant has
    unused[39] = 1; // [2] names entry 1 instead: a Fill (qty 9, px 0)
    let bytes = with(&unused);
    assert!(agree::<dense::Batch>(&set, &bytes));
    let view = dynamic::view(&set, "Batch", &bytes).unwrap();
    assert_eq!(
        view.get("events").unwrap().to_string(),
        "[Fill(Fill { qty: 3, px: 100 }), Heartbeat, Fill(Fill { qty: 9, px: 0 })]"
    );
    // Every single-byte change and cut of each of these, alike.
    for bytes in [with(&short), with(&table), with(&unused)] {
        for m in mutations(&bytes) {
            agree::<dense::Batch>(&set, &m);
        }
    }
}

/// Newer writers of E16's union (a variant added, a payload grown by a field) read
/// by E16's reader, and E16's bytes by the newer reader: alike.
#[test]
fn dense_lists_of_other_versions_read_alike() {
    use dense::newer;
    let set = set_of::<dense::Batch>();
    let newer_bytes = newer::Batch {
        seq: 2,
        events: vec![
            newer::Event::Cancel { id: 4 },
            newer::Event::Fill(newer::Fill {
                qty: 1,
                px: -5,
                venue: 300,
            }),
            newer::Event::Heartbeat,
        ],
    }
    .to_bytes()
    .unwrap();
    // Stride 15, 4 entries: E16's reader ignores `venue` and the `Reset` entry.
    assert_eq!(&newer_bytes[10..14], [15, 0, 4, 0]);
    assert!(agree::<dense::Batch>(&set, &newer_bytes));
    assert!(agree::<dense::Batch>(
        &file_set_of::<dense::Batch>(),
        &newer_bytes
    ));
    let view = dynamic::view(&set, "Batch", &newer_bytes).unwrap();
    assert_eq!(
        view.get("events").unwrap().to_string(),
        "[Cancel(EventCancel { id: 4 }), Fill(Fill { qty: 1, px: -5 }), Heartbeat]"
    );
    for m in mutations(&newer_bytes) {
        agree::<dense::Batch>(&set, &m);
    }
    // An element of the new variant: unknown to the older reader, alike.
    let reset = newer::Batch {
        seq: 3,
        events: vec![newer::Event::Heartbeat, newer::Event::Reset],
    }
    .to_bytes()
    .unwrap();
    assert!(!agree::<dense::Batch>(&set, &reset));
    let err = dynamic::view(&set, "Batch", &reset).unwrap_err();
    assert_eq!(err.path(), "events[1]");
    // The newer reader of E16's bytes: `venue` absent, as the typed view has it.
    let newer_set = set_of::<newer::Batch>();
    let e16 = golden("E16");
    assert!(agree::<dense::Batch>(&set, &e16));
    let view = dynamic::view(&newer_set, "Batch", &e16).unwrap();
    let events = view.get("events").unwrap();
    let fill = events.as_list().unwrap().get(0).unwrap();
    let Value::Union(fill) = fill else {
        panic!("{fill:?}")
    };
    let payload = fill.payload();
    let fill = payload.as_message().unwrap();
    let typed = newer::Batch::view(&e16).unwrap();
    let typed_fill = match typed.events().get(0).unwrap() {
        newer::EventView::Fill(fill) => fill,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        (fill.get("venue"), fill.has("venue")),
        (
            Some(Value::Unsigned(u128::from(typed_fill.venue()))),
            typed_fill.has_venue()
        )
    );
}

#[test]
fn dense_lists_in_every_place_read_alike_and_fail_alike() {
    use dense::{Event, Fill, Tape, Wide};
    let trade = |px, venue| Wide::Trade {
        px,
        side: Side::Sell,
        venue: FixedStr::new(venue).unwrap(),
    };
    let value = Tape {
        wide: vec![
            Wide::Quote(Fill { qty: 1, px: 2 }),
            Wide::Idle,
            trade(Some(-3), "XN"),
            trade(None, ""),
        ],
        one: Event::Cancel { id: 2 },
        maybe: Some(vec![Event::Heartbeat]),
        capped: vec![Event::Fill(Fill { qty: 7, px: 8 }), Event::Heartbeat],
        nested: vec![vec![], vec![Wide::Idle, trade(Some(1), "A")]],
    };
    let bytes = value.to_bytes().unwrap();
    assert!(agree_everywhere::<Tape>(&bytes) > 0);
    // Over the bound: `ListTooLong` at the list, after the list's checks, alike.
    let three = dense::Uncapped {
        events: vec![Event::Heartbeat; 3],
    }
    .to_bytes()
    .unwrap();
    let set = set_of::<dense::Capped>();
    assert!(!agree::<dense::Capped>(&set, &three));
    let err = dynamic::view(&set, "Capped", &three).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (&wiremsg::ErrorKind::ListTooLong { len: 3, max: 2 }, 6)
    );
    for m in mutations(&three) {
        agree::<dense::Capped>(&set, &m);
    }
}

#[test]
fn dense_lists_of_unit_variants_read_alike_and_fail_alike() {
    use dense::{State, States};
    let value = States {
        states: vec![State::Closed, State::Open, State::Open],
        after: 9,
    };
    let bytes = value.to_bytes().unwrap();
    // Stride 4 (the tag), 2 entries of 6 bytes, 3 elements: 28 bytes of list.
    assert_eq!(bytes.len(), 7 + 28);
    assert_eq!(&bytes[7..11], [4, 0, 2, 0]);
    assert!(agree_everywhere::<States>(&bytes) > 0);
    let set = set_of::<States>();
    let view = dynamic::view(&set, "States", &bytes).unwrap();
    assert_eq!(
        view.get("states").unwrap().to_string(),
        "[Closed, Open, Open]"
    );
}

fn tape_event() -> impl Strategy<Value = dense::Event> {
    use dense::{Event, Fill};
    prop_oneof![
        Just(Event::Heartbeat),
        (any::<u32>(), any::<i64>()).prop_map(|(qty, px)| Event::Fill(Fill { qty, px })),
        any::<u16>().prop_map(|id| Event::Cancel { id }),
    ]
}

fn tape_wide() -> impl Strategy<Value = dense::Wide> {
    use dense::{Fill, Wide};
    prop_oneof![
        Just(Wide::Idle),
        (any::<u32>(), any::<i64>()).prop_map(|(qty, px)| Wide::Quote(Fill { qty, px })),
        (any::<Option<i64>>(), side(), fixed::<4>()).prop_map(|(px, side, venue)| Wide::Trade {
            px,
            side,
            venue
        }),
    ]
}

fn tape() -> impl Strategy<Value = dense::Tape> {
    use proptest::collection::vec;
    (
        vec(tape_wide(), 0..5),
        tape_event(),
        proptest::option::of(vec(tape_event(), 0..4)),
        vec(tape_event(), 0..=3),
        vec(vec(tape_wide(), 0..3), 0..3),
    )
        .prop_map(|(wide, one, maybe, capped, nested)| dense::Tape {
            wide,
            one,
            maybe,
            capped,
            nested,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases::cases(160)))]

    /// Arbitrary dense lists, changed at random: the two readers accept the same
    /// bytes, read the same values and fail with the same error.
    #[test]
    fn typed_and_dynamic_agree_on_dense_lists(value in tape(), hits in hits()) {
        let set = set_of::<dense::Tape>();
        let mut bytes = value.to_bytes().unwrap();
        prop_assert!(agree::<dense::Tape>(&set, &bytes));
        apply(&mut bytes, &hits);
        agree::<dense::Tape>(&set, &bytes);
    }
}
