//! `schema::compat`: one test per rule, each with two real versions of a message
//! (modules `v1` and `v2`), and the report's verdicts cross-checked against actual
//! cross-version reads: bytes of `v2` viewed by `v1` (old readers of new bytes) and
//! the reverse (new readers of old bytes). Where a change breaks, the test shows the
//! error or the misread value. Then the README's advice: schemas of two releases
//! committed under `tests/schemas/`, and the snapshot helper.

use wiremsg::schema::{
    ChangeKind, CompatReport, Snapshot, SnapshotError, Verdict, check_snapshot_set, compat,
    write_snapshot,
};
use wiremsg::{ErrorKind, FixedStr, SchemaSet, Template, WireMsg};

use ChangeKind as K;
use Verdict::{Breaking as B, Caution as C, Compatible as OK};

mod v1 {
    use wiremsg::{FixedStr, WireDispatch, WireEnum, WireMsg};

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Fx {
        pub(crate) rate: u32,
        pub(crate) lot: u16,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Pair {
        pub(crate) a: u32,
        pub(crate) b: u16,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Fill {
        pub(crate) id: u64,
        pub(crate) qty: u32,
        pub(crate) px: i64,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Trade {
        pub(crate) id: u64,
        pub(crate) qty: u32,
        pub(crate) px: i64,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Ack {
        pub(crate) qty: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Tick {
        pub(crate) a: u32,
        #[wire(since = 2)]
        pub(crate) b: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 5)]
    pub(crate) struct Ping {
        pub(crate) seq: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Inner {
        pub(crate) a: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Outer {
        pub(crate) inner: Inner,
        pub(crate) tail: u16,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Alert {
        pub(crate) code: u32,
        pub(crate) level: u16,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(block_length)]
    pub(crate) struct Notice {
        pub(crate) code: u32,
        pub(crate) level: u16,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Flag {
        pub(crate) code: u32,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Side {
        Buy = 0,
        Sell = 1,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) side: Side,
        pub(crate) qty: u32,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Tif {
        Day = 0,
        Ioc = 1,
        Gtc = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Entry {
        pub(crate) tif: Tif,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Kind {
        Add = 0,
        Delete = 1,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Event {
        pub(crate) kind: Kind,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Liq {
        Added = 1,
        Removed = 2,
        #[wire(other)]
        Other(u8),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Exec {
        pub(crate) liq: Liq,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Cap {
        Agency = 1,
        Principal = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Alloc {
        pub(crate) cap: Cap,
        pub(crate) qty: u32,
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Venue {
        Xnas = 1,
        Xnys = 2,
        #[wire(other)]
        Other(u8),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Route {
        pub(crate) venue: Venue,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 1)]
    pub(crate) struct Hello {
        pub(crate) seq: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 3, schema_id = 1)]
    pub(crate) struct Bye {
        pub(crate) seq: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 10)]
    pub(crate) struct Add {
        pub(crate) order: u64,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 11)]
    pub(crate) struct Cancel {
        pub(crate) order: u64,
    }

    #[derive(WireDispatch, Debug, PartialEq)]
    pub(crate) enum Feed {
        Add(Add),
        Cancel(Cancel),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Limit {
        pub(crate) px: i64,
        #[wire(since = 2, default = 1)]
        pub(crate) tif: u8,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Sym {
        pub(crate) symbol: FixedStr<4>,
        pub(crate) qty: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Levels {
        pub(crate) px: [u16; 2],
        pub(crate) n: u8,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Series {
        pub(crate) points: Vec<u16>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Opt {
        pub(crate) qty: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Leg {
        pub(crate) qty: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Basket {
        pub(crate) legs: Vec<Leg>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Level {
        pub(crate) px: i64,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Book {
        pub(crate) levels: Vec<Level>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Ins {
        pub(crate) a: u32,
        pub(crate) c: u32,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Batch {
        pub(crate) kinds: Vec<Kind>,
        pub(crate) last: Option<Kind>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Coin {
        pub(crate) value: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Wallet {
        pub(crate) coin: Coin,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Memo {
        pub(crate) id: u64,
        pub(crate) note: String,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Cut {
        pub(crate) a: u32,
        pub(crate) b: u32,
    }
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Pack {
        pub(crate) best: Option<Inner>,
        pub(crate) pair: [Inner; 2],
    }

    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Class {
        A = 1,
        B = 2,
        C = 3,
        #[wire(other)]
        Other(u8),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Graded {
        pub(crate) class: Class,
    }
}

mod v2 {
    use wiremsg::{FixedStr, WireDispatch, WireEnum, WireMsg};

    /// Appends `venue` in version 2: compatible.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Quote {
        pub(crate) price: i64,
        pub(crate) size: u32,
        #[wire(since = 2)]
        pub(crate) venue: u8,
    }

    /// `rate` was `u32`: same size, other meaning.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Fx {
        pub(crate) rate: f32,
        pub(crate) lot: u16,
    }

    /// Reordered.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Pair {
        pub(crate) b: u16,
        pub(crate) a: u32,
    }

    /// `qty` removed with its slot.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Fill {
        pub(crate) id: u64,
        pub(crate) px: i64,
    }

    /// `qty` retired, its slot kept.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Trade {
        pub(crate) id: u64,
        #[wire(reserved)]
        pub(crate) qty: u32,
        pub(crate) px: i64,
    }

    /// `qty` renamed.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Ack {
        pub(crate) quantity: u32,
    }

    /// `b` was `since = 2`.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Tick {
        pub(crate) a: u32,
        pub(crate) b: u32,
    }

    /// `extra` appended, version left at 1.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 5)]
    pub(crate) struct Ping {
        pub(crate) seq: u32,
        pub(crate) extra: u32,
    }

    /// Grown, although `Outer` nests it inline (the derive cannot see the old `Inner`).
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Inner {
        pub(crate) a: u32,
        pub(crate) b: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Outer {
        pub(crate) inner: Inner,
        pub(crate) tail: u16,
    }

    /// The first variable-size field of an all-fixed-size message: the derive refuses
    /// it with `since = 2`, so a hurried author leaves `since` out.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Alert {
        pub(crate) code: u32,
        pub(crate) level: u16,
        pub(crate) reason: String,
    }

    /// The same change done right (FORMAT.md E9): v1 declared `block_length`.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2, block_length)]
    pub(crate) struct Notice {
        pub(crate) code: u32,
        pub(crate) level: u16,
        #[wire(since = 2)]
        pub(crate) reason: String,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(block_length)]
    pub(crate) struct Flag {
        pub(crate) code: u32,
    }

    /// Values moved up by one.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Side {
        Buy = 1,
        Sell = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Order {
        pub(crate) side: Side,
        pub(crate) qty: u32,
    }

    /// `Gtc` removed.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Tif {
        Day = 0,
        Ioc = 1,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Entry {
        pub(crate) tif: Tif,
    }

    /// `Replace` added; no catch-all.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Kind {
        Add = 0,
        Delete = 1,
        Replace = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Event {
        pub(crate) kind: Kind,
    }

    /// `Routed` added; v1 has a catch-all.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Liq {
        Added = 1,
        Removed = 2,
        Routed = 5,
        #[wire(other)]
        Other(u8),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Exec {
        pub(crate) liq: Liq,
    }

    /// Was `u8`.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u16)]
    pub(crate) enum Cap {
        Agency = 1,
        Principal = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Alloc {
        pub(crate) cap: Cap,
        pub(crate) qty: u32,
    }

    /// Catch-all removed.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Venue {
        Xnas = 1,
        Xnys = 2,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Route {
        pub(crate) venue: Venue,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 2)]
    pub(crate) struct Hello {
        pub(crate) seq: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 3, schema_id = 2)]
    pub(crate) struct Bye {
        pub(crate) seq: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 10)]
    pub(crate) struct Add {
        pub(crate) order: u64,
    }

    /// Replaces `Cancel` (template id 11).
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 12)]
    pub(crate) struct Replace {
        pub(crate) order: u64,
        pub(crate) qty: u32,
    }

    #[derive(WireDispatch, Debug, PartialEq)]
    pub(crate) enum Feed {
        Add(Add),
        Replace(Replace),
    }

    /// The default of `tif` was 1.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Limit {
        pub(crate) px: i64,
        #[wire(since = 2, default = 3)]
        pub(crate) tif: u8,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Sym {
        pub(crate) symbol: FixedStr<8>,
        pub(crate) qty: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Levels {
        pub(crate) px: [u16; 3],
        pub(crate) n: u8,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Series {
        pub(crate) points: Vec<u32>,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Opt {
        pub(crate) qty: Option<u32>,
    }

    /// `qty` was `u32`; `Basket` itself is unchanged.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Leg {
        pub(crate) qty: f32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Basket {
        pub(crate) legs: Vec<Leg>,
    }

    /// A list element may grow: the stride carries its block length (FORMAT.md §6.2).
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Level {
        pub(crate) px: i64,
        #[wire(since = 2)]
        pub(crate) orders: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Book {
        pub(crate) levels: Vec<Level>,
    }

    /// `b` inserted between `a` and `c`.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Ins {
        pub(crate) a: u32,
        pub(crate) b: u16,
        pub(crate) c: u32,
    }
    /// `Kind` gained `Replace`; it is used through a list and an option.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Batch {
        pub(crate) kinds: Vec<Kind>,
        pub(crate) last: Option<Kind>,
    }

    /// `Coin` renamed, same layout.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Token {
        pub(crate) value: u32,
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Wallet {
        pub(crate) coin: Token,
    }

    /// `Cancel` (template id 11) renamed.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(template_id = 11)]
    pub(crate) struct Withdraw {
        pub(crate) order: u64,
    }

    /// FORMAT.md E7: a list appended to a message with a tail.
    #[derive(WireMsg, Debug, PartialEq)]
    #[wire(version = 2)]
    pub(crate) struct Memo {
        pub(crate) id: u64,
        pub(crate) note: String,
        #[wire(since = 2)]
        pub(crate) tags: Vec<String>,
    }

    /// `b`, the last field, removed.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Cut {
        pub(crate) a: u32,
    }
    /// `Inner` grew: through an option and an array too.
    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Pack {
        pub(crate) best: Option<Inner>,
        pub(crate) pair: [Inner; 2],
    }

    /// `C` removed; the catch-all stays.
    #[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
    #[repr(u8)]
    pub(crate) enum Class {
        A = 1,
        B = 2,
        #[wire(other)]
        Other(u8),
    }

    #[derive(WireMsg, Debug, PartialEq)]
    pub(crate) struct Graded {
        pub(crate) class: Class,
    }
}

fn set<T: WireMsg>() -> SchemaSet {
    SchemaSet::of::<T>().unwrap()
}

fn report<Old: WireMsg, New: WireMsg>() -> CompatReport {
    compat(&set::<Old>(), &set::<New>())
}

/// Each change as (message, field, kind, old readers' verdict, new readers' verdict).
fn summary(report: &CompatReport) -> Vec<(&str, Option<&str>, ChangeKind, Verdict, Verdict)> {
    report
        .changes()
        .iter()
        .map(|c| {
            (
                c.message.as_str(),
                c.field.as_deref(),
                c.kind,
                c.old_readers,
                c.new_readers,
            )
        })
        .collect()
}

fn kind(err: wiremsg::Error) -> ErrorKind {
    err.kind().clone()
}

#[test]
fn equal_schemas_have_no_changes() {
    let r = report::<v1::Quote, v1::Quote>();
    assert!(r.is_empty() && r.is_compatible());
    assert_eq!(r.to_string(), "no changes\n");
}

#[test]
fn a_field_appended_in_a_later_version_is_compatible_both_ways() {
    let r = report::<v1::Quote, v2::Quote>();
    assert_eq!(
        summary(&r),
        [("Quote", Some("venue"), K::FieldAppended, OK, OK),]
    );
    assert!(r.is_compatible());

    let new = v2::Quote {
        price: -5,
        size: 10,
        venue: 4,
    }
    .to_bytes()
    .unwrap();
    let view = v1::Quote::view(&new).unwrap();
    assert_eq!((view.price(), view.size()), (-5, 10));
    let old = v1::Quote { price: 7, size: 3 }.to_bytes().unwrap();
    let view = v2::Quote::view(&old).unwrap();
    assert_eq!((view.price(), view.size()), (7, 3));
    assert_eq!((view.venue(), view.has_venue()), (0, false));
}

#[test]
fn report_display_has_one_line_per_change_with_both_verdicts() {
    let r = report::<v1::Quote, v2::Quote>();
    assert_eq!(
        r.to_string(),
        "1 change, 0 breaking (columns: old readers of new bytes, new readers of old bytes)\n\
         \x20 ok        ok        Quote.venue: field appended in version 2 at offset 12, after \
         the old block: old readers skip it, new readers of old bytes read it as absent, with \
         the type's default\n"
    );
    let debug = format!("{r:?}");
    assert!(debug.contains("kind: FieldAppended"), "{debug}");
    assert!(debug.contains("old_readers: Compatible"), "{debug}");
}

#[test]
fn a_type_changed_in_place_is_breaking_and_misreads() {
    let r = report::<v1::Fx, v2::Fx>();
    assert_eq!(summary(&r), [("Fx", Some("rate"), K::FieldType, B, B)]);
    assert!(r.changes()[0].description.contains("type u32 -> f32"));

    let new = v2::Fx { rate: 1.5, lot: 7 }.to_bytes().unwrap();
    let view = v1::Fx::view(&new).unwrap();
    assert_eq!((view.rate(), view.lot()), (0x3fc0_0000, 7)); // 1.5's bits, as a count
    let old = v1::Fx { rate: 3, lot: 7 }.to_bytes().unwrap();
    assert_eq!(v2::Fx::view(&old).unwrap().rate(), f32::from_bits(3));
}

#[test]
fn reordered_fields_are_breaking_and_misread() {
    let r = report::<v1::Pair, v2::Pair>();
    assert_eq!(
        summary(&r),
        [
            ("Pair", Some("b"), K::FieldMoved, B, B),
            ("Pair", Some("a"), K::FieldMoved, B, B),
        ]
    );
    let new = v2::Pair { b: 1, a: 2 }.to_bytes().unwrap();
    let view = v1::Pair::view(&new).unwrap();
    assert_eq!((view.a(), view.b()), (0x0002_0001, 0));
    let old = v1::Pair { a: 2, b: 1 }.to_bytes().unwrap();
    let view = v2::Pair::view(&old).unwrap();
    assert_eq!((view.a(), view.b()), (0x0001_0000, 2));
}

#[test]
fn a_field_removed_with_its_slot_is_breaking() {
    let r = report::<v1::Fill, v2::Fill>();
    assert_eq!(
        summary(&r),
        [
            ("Fill", Some("px"), K::FieldMoved, B, B),
            ("Fill", Some("qty"), K::FieldRemoved, B, B),
        ]
    );
    let new = v2::Fill { id: 1, px: 9 }.to_bytes().unwrap();
    assert_eq!(
        kind(v1::Fill::view(&new).unwrap_err()),
        ErrorKind::Truncated {
            needed: 20,
            available: 16
        }
    );
    let old = v1::Fill {
        id: 1,
        qty: 5,
        px: 9,
    }
    .to_bytes()
    .unwrap();
    // `px` now reads `qty`'s bytes and half of the old `px`.
    assert_eq!(v2::Fill::view(&old).unwrap().px(), (9 << 32) | 5);
}

#[test]
fn a_field_reserved_keeps_its_slot_and_only_its_value_is_lost() {
    let r = report::<v1::Trade, v2::Trade>();
    assert_eq!(
        summary(&r),
        [("Trade", Some("qty"), K::FieldReserved, C, OK)]
    );
    assert!(r.is_compatible());
    let new = v2::Trade {
        id: 1,
        qty: 5,
        px: 9,
    }
    .to_bytes()
    .unwrap();
    let view = v1::Trade::view(&new).unwrap();
    assert_eq!((view.id(), view.qty(), view.px()), (1, 0, 9)); // qty: the default
    let old = v1::Trade {
        id: 1,
        qty: 5,
        px: 9,
    }
    .to_bytes()
    .unwrap();
    let view = v2::Trade::view(&old).unwrap();
    assert_eq!((view.id(), view.px()), (1, 9));

    // The reverse: a reserved field made readable again reads what old writers put.
    let r = report::<v2::Trade, v1::Trade>();
    assert_eq!(
        summary(&r),
        [("Trade", Some("qty"), K::FieldUnreserved, OK, C)]
    );
}

#[test]
fn a_renamed_field_is_compatible_on_the_wire_but_flagged() {
    let r = report::<v1::Ack, v2::Ack>();
    assert_eq!(
        summary(&r),
        [("Ack", Some("quantity"), K::FieldRenamed, C, C)]
    );
    assert!(r.is_compatible());
    assert!(
        r.changes()[0]
            .description
            .contains("`qty` renamed to `quantity`")
    );
    let new = v2::Ack { quantity: 5 }.to_bytes().unwrap();
    assert_eq!(v1::Ack::view(&new).unwrap().qty(), 5);
    let old = v1::Ack { qty: 6 }.to_bytes().unwrap();
    assert_eq!(v2::Ack::view(&old).unwrap().quantity(), 6);
}

#[test]
fn a_since_lowered_breaks_new_readers_of_older_versions() {
    let r = report::<v1::Tick, v2::Tick>();
    assert_eq!(summary(&r), [("Tick", Some("b"), K::Since, OK, B)]);

    // Old readers of new bytes: fine.
    let new = v2::Tick { a: 1, b: 2 }.to_bytes().unwrap();
    let view = v1::Tick::view(&new).unwrap();
    assert_eq!((view.a(), view.b()), (1, 2));
    // Bytes of version 1 by the old schema: `a` only.
    let old = v1::Tick { a: 1, b: 2 }.to_bytes().unwrap();
    let version_1 = &old[..v1::Tick::SCHEMA.block_length_of(1)];
    assert_eq!(v1::Tick::view(version_1).unwrap().try_b(), None);
    assert_eq!(
        kind(v2::Tick::view(version_1).unwrap_err()),
        ErrorKind::Truncated {
            needed: 8,
            available: 4
        }
    );
}

#[test]
fn fields_added_without_raising_the_version_break_behind_a_header() {
    let r = report::<v1::Ping, v2::Ping>();
    assert_eq!(
        summary(&r),
        [
            ("Ping", Some("extra"), K::FieldAddedToOldVersion, OK, B),
            ("Ping", None, K::VersionNotBumped, B, B),
        ]
    );
    let new = v2::Ping { seq: 1, extra: 2 };
    let old = v1::Ping { seq: 1 };
    // Without a header old readers skip `extra`; new readers need it.
    assert_eq!(v1::Ping::view(&new.to_bytes().unwrap()).unwrap().seq(), 1);
    assert_eq!(
        kind(v2::Ping::view(&old.to_bytes().unwrap()).unwrap_err()),
        ErrorKind::Truncated {
            needed: 8,
            available: 4
        }
    );
    // Behind a header, version 1 names two blocks: each side refuses the other's.
    let (mut new_framed, mut old_framed) = (Vec::new(), Vec::new());
    new.encode_with_header(&mut new_framed).unwrap();
    old.encode_with_header(&mut old_framed).unwrap();
    assert_eq!(
        kind(v1::Ping::view_with_header(&new_framed).unwrap_err()),
        ErrorKind::HeaderMismatch {
            block_length: 8,
            version: 1,
            expected: 4
        }
    );
    assert_eq!(
        kind(v2::Ping::view_with_header(&old_framed).unwrap_err()),
        ErrorKind::BlockLengthTooSmall {
            declared: 4,
            required: 8,
            version: 1
        }
    );
}

#[test]
fn an_inline_message_that_grows_breaks_its_parent() {
    let r = report::<v1::Outer, v2::Outer>();
    assert_eq!(
        summary(&r),
        [
            ("Inner", Some("b"), K::FieldAddedToOldVersion, OK, B),
            ("Inner", None, K::VersionNotBumped, B, B),
            ("Outer", Some("inner"), K::InlineBlock, B, B),
            ("Outer", Some("tail"), K::FieldMoved, B, B),
        ]
    );
    let new = v2::Outer {
        inner: v2::Inner { a: 1, b: 2 },
        tail: 3,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Outer::view(&new).unwrap().tail(), 2); // inner.b's bytes
    let old = v1::Outer {
        inner: v1::Inner { a: 1 },
        tail: 3,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        kind(v2::Outer::view(&old).unwrap_err()),
        ErrorKind::Truncated {
            needed: 10,
            available: 6
        }
    );
}

#[test]
fn a_first_variable_size_field_in_an_all_fixed_message_is_breaking() {
    let r = report::<v1::Alert, v2::Alert>();
    assert_eq!(
        summary(&r),
        [
            ("Alert", None, K::FirstTailField, B, B),
            ("Alert", None, K::Version, OK, OK),
            ("Alert", Some("reason"), K::FieldAddedToOldVersion, OK, B),
        ]
    );
    assert!(r.changes()[0].description.contains("`reason`"));
    assert!(v2::Alert::SCHEMA.has_block_length);

    let new = v2::Alert {
        code: 7,
        level: 2,
        reason: "disk".into(),
    }
    .to_bytes()
    .unwrap();
    // The old reader takes the block length (12) and `code`'s low half as `code`.
    let view = v1::Alert::view(&new).unwrap();
    assert_eq!((view.code(), view.level()), ((7 << 16) | 12, 0));
    // The new reader takes `code`'s low half (7) as the block length.
    let old = v1::Alert { code: 7, level: 2 }.to_bytes().unwrap();
    assert_eq!(
        kind(v2::Alert::view(&old).unwrap_err()),
        ErrorKind::BlockLengthTooSmall {
            declared: 7,
            required: 12,
            version: 1
        }
    );
}

#[test]
fn a_tail_field_added_to_a_message_with_block_length_is_compatible() {
    let r = report::<v1::Notice, v2::Notice>();
    assert_eq!(
        summary(&r),
        [("Notice", Some("reason"), K::FieldAppended, OK, OK),]
    );
    let new = v2::Notice {
        code: 7,
        level: 2,
        reason: "disk".into(),
    }
    .to_bytes()
    .unwrap();
    let view = v1::Notice::view(&new).unwrap();
    assert_eq!((view.code(), view.level()), (7, 2));
    let old = v1::Notice { code: 7, level: 2 }.to_bytes().unwrap();
    let view = v2::Notice::view(&old).unwrap();
    assert_eq!(
        (view.code(), view.reason(), view.has_reason()),
        (7, "", false)
    );
}

#[test]
fn a_block_length_field_added_is_breaking() {
    let r = report::<v1::Flag, v2::Flag>();
    assert_eq!(summary(&r), [("Flag", None, K::BlockLengthField, B, B)]);
    let new = v2::Flag { code: 7 }.to_bytes().unwrap();
    assert_eq!(v1::Flag::view(&new).unwrap().code(), (7 << 16) | 6);
    let old = v1::Flag { code: 7 }.to_bytes().unwrap();
    assert_eq!(
        kind(v2::Flag::view(&old).unwrap_err()),
        ErrorKind::Truncated {
            needed: 7,
            available: 4
        }
    );
    // And removed.
    let r = report::<v2::Flag, v1::Flag>();
    assert_eq!(summary(&r), [("Flag", None, K::BlockLengthField, B, B)]);
}

#[test]
fn an_enum_value_changed_is_breaking() {
    let r = report::<v1::Order, v2::Order>();
    assert_eq!(
        summary(&r),
        [
            ("Order", Some("side"), K::EnumVariantValue, B, B),
            ("Order", Some("side"), K::EnumVariantValue, B, B),
        ]
    );
    let buy = v2::Order {
        side: v2::Side::Buy,
        qty: 1,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Order::view(&buy).unwrap().side(), v1::Side::Sell); // misread
    let sell = v2::Order {
        side: v2::Side::Sell,
        qty: 1,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        kind(v1::Order::view(&sell).unwrap_err()),
        ErrorKind::UnknownEnumValue {
            enum_name: "Side".into(),
            value: 2
        }
    );
    let old = v1::Order {
        side: v1::Side::Buy,
        qty: 1,
    }
    .to_bytes()
    .unwrap();
    assert!(matches!(
        kind(v2::Order::view(&old).unwrap_err()),
        ErrorKind::UnknownEnumValue { value: 0, .. }
    ));
}

#[test]
fn an_enum_variant_removed_breaks_new_readers_that_meet_it() {
    let r = report::<v1::Entry, v2::Entry>();
    assert_eq!(
        summary(&r),
        [("Entry", Some("tif"), K::EnumVariantRemoved, OK, B)]
    );
    let old = v1::Entry { tif: v1::Tif::Gtc }.to_bytes().unwrap();
    assert!(matches!(
        kind(v2::Entry::view(&old).unwrap_err()),
        ErrorKind::UnknownEnumValue { value: 2, .. }
    ));
    let new = v2::Entry { tif: v2::Tif::Ioc }.to_bytes().unwrap();
    assert_eq!(v1::Entry::view(&new).unwrap().tif(), v1::Tif::Ioc);
}

#[test]
fn an_enum_variant_added_breaks_old_readers_without_a_catch_all() {
    let r = report::<v1::Event, v2::Event>();
    assert_eq!(
        summary(&r),
        [("Event", Some("kind"), K::EnumVariantAdded, B, OK)]
    );
    let new = v2::Event {
        kind: v2::Kind::Replace,
    }
    .to_bytes()
    .unwrap();
    assert!(matches!(
        kind(v1::Event::view(&new).unwrap_err()),
        ErrorKind::UnknownEnumValue { value: 2, .. }
    ));
    let old = v1::Event {
        kind: v1::Kind::Delete,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v2::Event::view(&old).unwrap().kind(), v2::Kind::Delete);
}

#[test]
fn an_enum_variant_added_reads_as_the_catch_all_in_old_readers() {
    let r = report::<v1::Exec, v2::Exec>();
    assert_eq!(
        summary(&r),
        [("Exec", Some("liq"), K::EnumVariantAdded, C, OK)]
    );
    assert!(r.is_compatible());
    let new = v2::Exec {
        liq: v2::Liq::Routed,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Exec::view(&new).unwrap().liq(), v1::Liq::Other(5));
}

#[test]
fn an_enum_repr_changed_is_breaking() {
    let r = report::<v1::Alloc, v2::Alloc>();
    assert_eq!(
        summary(&r),
        [
            ("Alloc", Some("cap"), K::EnumRepr, B, B),
            ("Alloc", Some("qty"), K::FieldMoved, B, B),
        ]
    );
    let new = v2::Alloc {
        cap: v2::Cap::Principal,
        qty: 5,
    }
    .to_bytes()
    .unwrap();
    let view = v1::Alloc::view(&new).unwrap();
    assert_eq!((view.cap(), view.qty()), (v1::Cap::Principal, 5 << 8));
    let old = v1::Alloc {
        cap: v1::Cap::Principal,
        qty: 5,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        kind(v2::Alloc::view(&old).unwrap_err()),
        ErrorKind::Truncated {
            needed: 6,
            available: 5
        }
    );
}

#[test]
fn a_catch_all_removed_breaks_new_readers_of_unknown_values() {
    let r = report::<v1::Route, v2::Route>();
    assert_eq!(
        summary(&r),
        [("Route", Some("venue"), K::CatchAllRemoved, OK, B)]
    );
    let old = v1::Route {
        venue: v1::Venue::Other(9),
    }
    .to_bytes()
    .unwrap();
    assert!(matches!(
        kind(v2::Route::view(&old).unwrap_err()),
        ErrorKind::UnknownEnumValue { value: 9, .. }
    ));
    let new = v2::Route {
        venue: v2::Venue::Xnys,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Route::view(&new).unwrap().venue(), v1::Venue::Xnys);
}

#[test]
fn a_template_id_changed_is_breaking() {
    let r = report::<v1::Hello, v2::Hello>();
    assert_eq!(summary(&r), [("Hello", None, K::TemplateId, B, B)]);
    let mut new = Vec::new();
    v2::Hello { seq: 1 }.encode_with_header(&mut new).unwrap();
    assert!(matches!(
        kind(v1::Hello::view_with_header(&new).unwrap_err()),
        ErrorKind::UnexpectedTemplate {
            template_id: 2,
            expected: 1,
            ..
        }
    ));
    let mut old = Vec::new();
    v1::Hello { seq: 1 }.encode_with_header(&mut old).unwrap();
    assert!(matches!(
        kind(v2::Hello::view_with_header(&old).unwrap_err()),
        ErrorKind::UnexpectedTemplate {
            template_id: 1,
            expected: 2,
            ..
        }
    ));
}

#[test]
fn a_schema_id_changed_is_breaking() {
    let r = report::<v1::Bye, v2::Bye>();
    assert_eq!(summary(&r), [("Bye", None, K::SchemaId, B, B)]);
    let mut new = Vec::new();
    v2::Bye { seq: 1 }.encode_with_header(&mut new).unwrap();
    assert_eq!(
        kind(v1::Bye::view_with_header(&new).unwrap_err()),
        ErrorKind::SchemaMismatch {
            schema_id: 2,
            expected: 1
        }
    );
    let mut old = Vec::new();
    v1::Bye { seq: 1 }.encode_with_header(&mut old).unwrap();
    assert_eq!(
        kind(v2::Bye::view_with_header(&old).unwrap_err()),
        ErrorKind::SchemaMismatch {
            schema_id: 1,
            expected: 2
        }
    );
}

#[test]
fn messages_removed_and_added_are_found_by_name() {
    let mut old = SchemaSet::of::<v1::Add>().unwrap();
    old.add::<v1::Cancel>().unwrap();
    let mut new = SchemaSet::of::<v2::Add>().unwrap();
    new.add::<v2::Replace>().unwrap();
    let r = compat(&old, &new);
    assert_eq!(
        summary(&r),
        [
            ("Cancel", None, K::MessageRemoved, OK, B),
            ("Replace", None, K::MessageAdded, C, OK),
        ]
    );
    // New readers cannot read what old writers still send; old readers meet a
    // template they do not know (for that message only).
    let mut cancel = Vec::new();
    v1::Cancel { order: 3 }
        .encode_with_header(&mut cancel)
        .unwrap();
    assert!(matches!(
        kind(v2::Feed::view(&cancel).unwrap_err()),
        ErrorKind::UnexpectedTemplate {
            template_id: 11,
            ..
        }
    ));
    let mut replace = Vec::new();
    v2::Replace { order: 3, qty: 1 }
        .encode_with_header(&mut replace)
        .unwrap();
    assert!(matches!(
        kind(v1::Feed::view(&replace).unwrap_err()),
        ErrorKind::UnexpectedTemplate {
            template_id: 12,
            ..
        }
    ));
    // Each side reads its own, and the message both have.
    assert_eq!(
        v2::Feed::decode(&replace).unwrap(),
        v2::Feed::Replace(v2::Replace { order: 3, qty: 1 })
    );
    let mut add = Vec::new();
    v2::Add { order: 4 }.encode_with_header(&mut add).unwrap();
    assert_eq!(
        v1::Feed::decode(&add).unwrap(),
        v1::Feed::Add(v1::Add { order: 4 })
    );
    let mut add = Vec::new();
    v1::Add { order: 5 }.encode_with_header(&mut add).unwrap();
    assert_eq!(
        v2::Feed::decode(&add).unwrap(),
        v2::Feed::Add(v2::Add { order: 5 })
    );
}

#[test]
fn a_default_changed_changes_what_new_readers_see_in_old_bytes() {
    let r = report::<v1::Limit, v2::Limit>();
    assert_eq!(summary(&r), [("Limit", Some("tif"), K::Default, OK, C)]);
    assert!(r.is_compatible());
    assert!(r.changes()[0].description.contains("[01] -> [03]"));
    // Version-1 bytes: `px` only.
    let version_1 = 9i64.to_le_bytes();
    assert_eq!(v1::Limit::view(&version_1).unwrap().tif(), 1);
    assert_eq!(v2::Limit::view(&version_1).unwrap().tif(), 3);
    let new = v2::Limit { px: 9, tif: 2 }.to_bytes().unwrap();
    assert_eq!(v1::Limit::view(&new).unwrap().tif(), 2);
}

#[test]
fn a_fixed_str_width_changed_is_breaking() {
    let r = report::<v1::Sym, v2::Sym>();
    assert_eq!(
        summary(&r),
        [
            ("Sym", Some("symbol"), K::FixedStrWidth, B, B),
            ("Sym", Some("qty"), K::FieldMoved, B, B),
        ]
    );
    let new = v2::Sym {
        symbol: FixedStr::new("MSFT").unwrap(),
        qty: 5,
    }
    .to_bytes()
    .unwrap();
    let view = v1::Sym::view(&new).unwrap();
    assert_eq!((view.symbol(), view.qty()), ("MSFT", 0x2020_2020)); // the padding
    let old = v1::Sym {
        symbol: FixedStr::new("MSFT").unwrap(),
        qty: 5,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        kind(v2::Sym::view(&old).unwrap_err()),
        ErrorKind::Truncated {
            needed: 12,
            available: 8
        }
    );
}

#[test]
fn an_array_length_changed_is_breaking() {
    let r = report::<v1::Levels, v2::Levels>();
    assert_eq!(
        summary(&r),
        [
            ("Levels", Some("px"), K::ArrayLength, B, B),
            ("Levels", Some("n"), K::FieldMoved, B, B),
        ]
    );
    let new = v2::Levels {
        px: [1, 2, 3],
        n: 4,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Levels::view(&new).unwrap().n(), 3); // px[2]'s low byte
    let old = v1::Levels { px: [1, 2], n: 4 }.to_bytes().unwrap();
    assert_eq!(
        kind(v2::Levels::view(&old).unwrap_err()),
        ErrorKind::Truncated {
            needed: 7,
            available: 5
        }
    );
}

#[test]
fn a_list_element_type_changed_is_breaking() {
    let r = report::<v1::Series, v2::Series>();
    assert_eq!(
        summary(&r),
        [("Series", Some("points"), K::ListElement, B, B)]
    );
    assert!(r.changes()[0].description.contains("u16 -> u32"));
    let new = v2::Series { points: vec![1, 2] }.to_bytes().unwrap();
    assert_eq!(v1::Series::decode(&new).unwrap().points, [1, 0, 2, 0]);
    let old = v1::Series { points: vec![1, 2] }.to_bytes().unwrap();
    assert_eq!(v2::Series::decode(&old).unwrap().points, [0x0002_0001]);
}

#[test]
fn an_option_added_or_removed_is_breaking() {
    let r = report::<v1::Opt, v2::Opt>();
    assert_eq!(summary(&r), [("Opt", Some("qty"), K::OptionAdded, B, B)]);
    let r = report::<v2::Opt, v1::Opt>();
    assert_eq!(summary(&r), [("Opt", Some("qty"), K::OptionRemoved, B, B)]);

    let with_option = v2::Opt { qty: Some(5) }.to_bytes().unwrap();
    assert_eq!(v1::Opt::view(&with_option).unwrap().qty(), (5 << 8) | 1);
    let without = v1::Opt { qty: 5 }.to_bytes().unwrap();
    assert_eq!(
        kind(v2::Opt::view(&without).unwrap_err()),
        ErrorKind::Truncated {
            needed: 5,
            available: 4
        }
    );
}

#[test]
fn changes_inside_nested_messages_are_reported_by_name() {
    let r = report::<v1::Basket, v2::Basket>();
    assert_eq!(summary(&r), [("Leg", Some("qty"), K::FieldType, B, B)]);
    let new = v2::Basket {
        legs: vec![v2::Leg { qty: 1.5 }],
    }
    .to_bytes()
    .unwrap();
    let view = v1::Basket::view(&new).unwrap();
    assert_eq!(view.legs().get(0).unwrap().qty(), 0x3fc0_0000);

    // A list element may grow (its stride says how much): compatible.
    let r = report::<v1::Book, v2::Book>();
    assert_eq!(
        summary(&r),
        [("Level", Some("orders"), K::FieldAppended, OK, OK),]
    );
    let new = v2::Book {
        levels: vec![v2::Level { px: 7, orders: 2 }],
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        v1::Book::decode(&new).unwrap().levels,
        [v1::Level { px: 7 }]
    );
    let old = v1::Book {
        levels: vec![v1::Level { px: 7 }],
    }
    .to_bytes()
    .unwrap();
    let view = v2::Book::view(&old).unwrap();
    let level = view.levels().get(0).unwrap();
    assert_eq!((level.px(), level.has_orders()), (7, false));
}

#[test]
fn a_field_inserted_inside_the_old_block_is_breaking() {
    let r = report::<v1::Ins, v2::Ins>();
    assert_eq!(
        summary(&r),
        [
            ("Ins", Some("c"), K::FieldMoved, B, B),
            ("Ins", Some("b"), K::FieldInserted, B, B),
        ]
    );
    let new = v2::Ins { a: 1, b: 2, c: 3 }.to_bytes().unwrap();
    assert_eq!(v1::Ins::view(&new).unwrap().c(), (3 << 16) | 2);
    let old = v1::Ins { a: 1, c: 3 }.to_bytes().unwrap();
    assert_eq!(
        kind(v2::Ins::view(&old).unwrap_err()),
        ErrorKind::Truncated {
            needed: 10,
            available: 8
        }
    );
}

#[test]
fn a_field_appended_to_a_message_with_a_tail_is_compatible() {
    let r = report::<v1::Memo, v2::Memo>();
    assert_eq!(
        summary(&r),
        [("Memo", Some("tags"), K::FieldAppended, OK, OK),]
    );
    let new = v2::Memo {
        id: 9,
        note: "rush".into(),
        tags: vec!["a".into(), "bé".into()],
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        v1::Memo::decode(&new).unwrap(),
        v1::Memo {
            id: 9,
            note: "rush".into()
        }
    );
    let old = v1::Memo {
        id: 9,
        note: "rush".into(),
    }
    .to_bytes()
    .unwrap();
    let view = v2::Memo::view(&old).unwrap();
    assert_eq!((view.note(), view.tags().len()), ("rush", 0));
}

#[test]
fn the_last_field_removed_breaks_old_readers_only() {
    let r = report::<v1::Cut, v2::Cut>();
    assert_eq!(summary(&r), [("Cut", Some("b"), K::FieldRemoved, B, OK)]);
    let new = v2::Cut { a: 1 }.to_bytes().unwrap();
    assert_eq!(
        kind(v1::Cut::view(&new).unwrap_err()),
        ErrorKind::Truncated {
            needed: 8,
            available: 4
        }
    );
    let old = v1::Cut { a: 1, b: 2 }.to_bytes().unwrap();
    assert_eq!(v2::Cut::view(&old).unwrap().a(), 1);
}

#[test]
fn enum_changes_are_found_through_lists_and_options() {
    let r = report::<v1::Batch, v2::Batch>();
    assert_eq!(
        summary(&r),
        [
            ("Batch", Some("kinds"), K::EnumVariantAdded, B, OK),
            ("Batch", Some("last"), K::EnumVariantAdded, B, OK),
        ]
    );
    let new = v2::Batch {
        kinds: vec![v2::Kind::Add, v2::Kind::Replace],
        last: None,
    }
    .to_bytes()
    .unwrap();
    let err = v1::Batch::view(&new).unwrap_err();
    assert!(matches!(
        err.kind(),
        ErrorKind::UnknownEnumValue { value: 2, .. }
    ));
    assert_eq!(err.path(), "kinds[1]");
    let new = v2::Batch {
        kinds: vec![],
        last: Some(v2::Kind::Replace),
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Batch::view(&new).unwrap_err().path(), "last");
}

#[test]
fn renamed_messages_are_matched_and_flagged() {
    // A nested message renamed, same layout: the same bytes.
    let r = report::<v1::Wallet, v2::Wallet>();
    assert_eq!(
        summary(&r),
        [
            ("Coin", None, K::MessageRemoved, OK, OK),
            ("Token", None, K::MessageAdded, OK, OK),
            ("Wallet", Some("coin"), K::TypeRenamed, C, C),
        ]
    );
    assert!(r.is_compatible());
    let new = v2::Wallet {
        coin: v2::Token { value: 5 },
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Wallet::view(&new).unwrap().coin().value(), 5);

    // A message with a template id is matched by it.
    let r = report::<v1::Cancel, v2::Withdraw>();
    assert_eq!(summary(&r), [("Withdraw", None, K::TypeRenamed, C, C)]);
    let mut old = Vec::new();
    v1::Cancel { order: 3 }
        .encode_with_header(&mut old)
        .unwrap();
    assert_eq!(v2::Withdraw::view_with_header(&old).unwrap().1.order(), 3);

    // The one root on each side is matched whatever its name, and compared.
    let r = report::<v1::Ack, v2::Cut>();
    assert_eq!(
        summary(&r),
        [
            ("Cut", None, K::TypeRenamed, C, C),
            ("Cut", Some("a"), K::FieldRenamed, C, C)
        ]
    );
    let r = report::<v1::Fx, v2::Cut>();
    assert!(!r.is_compatible(), "{r}");
}

#[test]
fn a_root_message_removed_breaks_new_readers() {
    let mut old = set::<v1::Quote>();
    old.add::<v1::Ack>().unwrap();
    let r = compat(&old, &set::<v1::Quote>());
    assert_eq!(summary(&r), [("Ack", None, K::MessageRemoved, OK, B)]);
}

#[test]
fn a_version_taken_back_loses_only_the_newer_field() {
    let r = report::<v2::Quote, v1::Quote>();
    assert_eq!(
        summary(&r),
        [
            ("Quote", None, K::Version, C, C),
            ("Quote", Some("venue"), K::FieldRemoved, C, OK),
        ]
    );
    assert!(r.is_compatible());
    // Old (v2) readers of new (v1) bytes: `venue` absent.
    let new = v1::Quote { price: 1, size: 2 }.to_bytes().unwrap();
    let view = v2::Quote::view(&new).unwrap();
    assert_eq!((view.size(), view.has_venue()), (2, false));
    let old = v2::Quote {
        price: 1,
        size: 2,
        venue: 3,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v1::Quote::view(&old).unwrap().size(), 2);
}

#[test]
fn a_since_raised_breaks_new_readers_of_older_versions_too() {
    let r = report::<v2::Tick, v1::Tick>();
    assert_eq!(summary(&r), [("Tick", Some("b"), K::Since, OK, B)]);
    assert!(r.changes()[0].description.contains("since 1 -> 2"));
}

#[test]
fn an_inline_message_grown_inside_an_option_or_an_array_is_breaking() {
    let r = report::<v1::Pack, v2::Pack>();
    assert_eq!(
        summary(&r),
        [
            ("Inner", Some("b"), K::FieldAddedToOldVersion, OK, B),
            ("Inner", None, K::VersionNotBumped, B, B),
            ("Pack", Some("best"), K::InlineBlock, B, B),
            ("Pack", Some("pair"), K::FieldMoved, B, B),
            ("Pack", Some("pair"), K::InlineBlock, B, B),
        ]
    );
    let new = v2::Pack {
        best: Some(v2::Inner { a: 1, b: 2 }),
        pair: [v2::Inner { a: 3, b: 4 }, v2::Inner { a: 5, b: 6 }],
    }
    .to_bytes()
    .unwrap();
    let view = v1::Pack::view(&new).unwrap();
    assert_eq!(view.pair().get(0).unwrap().a(), 2); // best.b's bytes
}

#[test]
fn an_enum_variant_removed_reads_as_the_catch_all_in_new_readers() {
    let r = report::<v1::Graded, v2::Graded>();
    assert_eq!(
        summary(&r),
        [("Graded", Some("class"), K::EnumVariantRemoved, OK, C)]
    );
    let old = v1::Graded {
        class: v1::Class::C,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v2::Graded::view(&old).unwrap().class(), v2::Class::Other(3));
}

/// Two releases of a small protocol, as the README's "Evolving a message" advises:
/// each release's schema committed under `tests/schemas/`.
mod release {
    pub(crate) mod v1 {
        #[derive(wiremsg::WireMsg)]
        #[wire(template_id = 1)]
        pub(crate) struct Quote {
            pub(crate) price: i64,
            pub(crate) size: u32,
        }

        #[derive(wiremsg::WireMsg)]
        #[wire(template_id = 2)]
        pub(crate) struct Alert {
            pub(crate) code: u32,
            pub(crate) level: u16,
        }

        #[derive(wiremsg::WireMsg)]
        #[wire(template_id = 3)]
        pub(crate) struct Order {
            pub(crate) id: u64,
            pub(crate) note: String,
        }
    }

    pub(crate) mod v2 {
        /// Compatible: `venue` appended in version 2.
        #[derive(wiremsg::WireMsg)]
        #[wire(template_id = 1, version = 2)]
        pub(crate) struct Quote {
            pub(crate) price: i64,
            pub(crate) size: u32,
            #[wire(since = 2)]
            pub(crate) venue: u8,
        }

        /// Breaking: a first variable-size field in an all-fixed-size message.
        #[derive(wiremsg::WireMsg)]
        #[wire(template_id = 2, version = 2)]
        pub(crate) struct Alert {
            pub(crate) code: u32,
            pub(crate) level: u16,
            pub(crate) reason: String,
        }

        /// Breaking: `id` narrowed.
        #[derive(wiremsg::WireMsg)]
        #[wire(template_id = 3)]
        pub(crate) struct Order {
            pub(crate) id: u32,
            pub(crate) note: String,
        }
    }

    pub(crate) fn v1_set() -> wiremsg::SchemaSet {
        let mut set = wiremsg::SchemaSet::of::<v1::Quote>().unwrap();
        set.add::<v1::Alert>().unwrap();
        set.add::<v1::Order>().unwrap();
        set
    }

    pub(crate) fn v2_set() -> wiremsg::SchemaSet {
        let mut set = wiremsg::SchemaSet::of::<v2::Quote>().unwrap();
        set.add::<v2::Alert>().unwrap();
        set.add::<v2::Order>().unwrap();
        set
    }
}

/// Under `WIREMSG_UPDATE_SNAPSHOTS=1` the helper rewrites snapshots instead of
/// checking them: the tests that check stand aside (and must not rewrite release 1's
/// file with release 2).
fn updating_snapshots() -> bool {
    std::env::var_os(wiremsg::schema::UPDATE_SNAPSHOTS).is_some_and(|v| v == "1")
}

const RELEASE_V1: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/release-v1.wms");
const RELEASE_V2: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/schemas/release-v2.wms");

#[test]
fn committed_release_schemas_report_the_compatible_and_the_breaking_changes() {
    if updating_snapshots() {
        return;
    }
    // Each release's schema is committed, in the canonical encoding (FORMAT.md §11),
    // and unchanged.
    let (v1, v2) = (release::v1_set(), release::v2_set());
    assert_eq!(
        check_snapshot_set(RELEASE_V1, &v1).unwrap(),
        Snapshot::Unchanged
    );
    assert_eq!(
        check_snapshot_set(RELEASE_V2, &v2).unwrap(),
        Snapshot::Unchanged
    );
    // In version 5 of the encoding (format 3): the releases wrote version 1, which
    // readers of formats 2 and 3 refuse; the files were written again from the
    // releases' types when lists of messages became split lists (version 4), and
    // when lists of fixed-size unions became dense lists (version 5, which changed
    // the header's version alone).
    assert_eq!(std::fs::read(RELEASE_V1).unwrap()[6], 5);
    assert_eq!(v1.to_bytes().unwrap()[6], 5);

    // The committed files alone give the report.
    let old = SchemaSet::from_bytes(&std::fs::read(RELEASE_V1).unwrap()).unwrap();
    let new = SchemaSet::from_bytes(&std::fs::read(RELEASE_V2).unwrap()).unwrap();
    let r = compat(&old, &new);
    assert_eq!(
        summary(&r),
        [
            ("Alert", None, K::FirstTailField, B, B),
            ("Alert", None, K::Version, OK, OK),
            ("Alert", Some("reason"), K::FieldAddedToOldVersion, OK, B),
            ("Order", Some("id"), K::FieldType, B, B),
            ("Order", Some("note"), K::FieldMoved, B, B),
            ("Quote", Some("venue"), K::FieldAppended, OK, OK),
        ]
    );
    assert!(!r.is_compatible());
    assert_eq!(r, compat(&v1, &v2));

    // The snapshot of release 1 refuses release 2, with the report in the message.
    let err = check_snapshot_set(RELEASE_V1, &v2).unwrap_err();
    let message = format!("{err:?}");
    assert!(matches!(&err, SnapshotError::Breaking { report, .. } if *report == r));
    for line in [
        "6 changes, 4 breaking",
        "BREAKING  BREAKING  Alert: first variable-size field `reason` added",
        "ok        BREAKING  Alert.reason: field appended with since 1",
        "BREAKING  BREAKING  Order.id: type u64 -> u32",
        "ok        ok        Quote.venue: field appended in version 2",
        "WIREMSG_UPDATE_SNAPSHOTS=1 cargo test",
    ] {
        assert!(message.contains(line), "{line:?} not in:\n{message}");
    }
}

/// A snapshot in a fresh temporary directory, removed on drop.
struct TempSnapshot(std::path::PathBuf);

impl TempSnapshot {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("wiremsg-compat-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempSnapshot(dir.join("schemas").join("snapshot.wms"))
    }
}

impl Drop for TempSnapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap().parent().unwrap());
    }
}

#[test]
fn a_snapshot_is_written_when_missing_and_passes_compatible_changes() {
    if updating_snapshots() {
        return;
    }
    let snapshot = TempSnapshot::new("compatible");
    let path = &snapshot.0;
    assert_eq!(
        check_snapshot_set(path, &set::<v1::Quote>()).unwrap(),
        Snapshot::Written
    );
    assert_eq!(
        std::fs::read(path).unwrap(),
        set::<v1::Quote>().to_bytes().unwrap()
    );
    match check_snapshot_set(path, &set::<v2::Quote>()).unwrap() {
        Snapshot::Compatible(r) => assert_eq!(r, report::<v1::Quote, v2::Quote>()),
        other => panic!("{other:?}"),
    }
    // The file still holds release 1.
    assert_eq!(
        wiremsg::schema::check_snapshot::<v1::Quote>(path).unwrap(),
        Snapshot::Unchanged
    );
    // Rewriting it (what WIREMSG_UPDATE_SNAPSHOTS=1 does) makes release 2 the base.
    write_snapshot(path, &set::<v2::Quote>()).unwrap();
    assert_eq!(
        wiremsg::schema::check_snapshot::<v2::Quote>(path).unwrap(),
        Snapshot::Unchanged
    );
}

#[test]
fn a_snapshot_that_is_not_a_schema_is_an_error() {
    if updating_snapshots() {
        return;
    }
    let snapshot = TempSnapshot::new("garbage");
    let path = &snapshot.0;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, b"not a schema").unwrap();
    let err = check_snapshot_set(path, &set::<v1::Quote>()).unwrap_err();
    match &err {
        SnapshotError::Unreadable { error, .. } => {
            assert!(matches!(error.kind(), ErrorKind::UnexpectedTemplate { .. }));
        }
        other => panic!("{other}"),
    }
    assert!(err.to_string().contains("is not a schema file"), "{err}");
}

/// The trading field types (FORMAT.md §4.3, §4.8, §4.9, §6.4): same bytes, other
/// meaning or other bounds.
mod trading {
    pub(crate) mod v1 {
        use wiremsg::{Decimal, FixedStr, WireMsg};

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Level {
            #[wire(null = i64::MIN)]
            pub(crate) px: Option<Decimal<i64, 4>>,
            pub(crate) symbol: FixedStr<4, 0>,
            #[wire(max_len = 2)]
            pub(crate) venues: Vec<u16>,
        }
    }

    pub(crate) mod v2 {
        use wiremsg::{Decimal, FixedStr, WireMsg};

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Level {
            #[wire(null = 0)]
            pub(crate) px: Option<Decimal<i64, 2>>,
            pub(crate) symbol: FixedStr<4>,
            #[wire(max_len = 4)]
            pub(crate) venues: Vec<u16>,
        }
    }
}

#[test]
fn sentinel_scale_padding_and_list_bound_changes_are_reported_and_misread() {
    use trading::{v1, v2};
    let r = report::<v1::Level, v2::Level>();
    assert_eq!(
        summary(&r),
        [
            ("Level", Some("px"), K::NullSentinel, B, B),
            ("Level", Some("px"), K::DecimalScale, B, B),
            ("Level", Some("symbol"), K::TextPadding, B, B),
            ("Level", Some("venues"), K::ListBound, B, OK),
        ]
    );
    // Old readers of new bytes: a scale of 2 read with scale 4, NUL padding where
    // spaces are, and a list longer than the old bound.
    let new = v2::Level {
        px: Some("12.50".parse().unwrap()),
        symbol: FixedStr::new("NQ").unwrap(),
        venues: vec![1, 2, 3],
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        kind(v1::Level::view(&new).unwrap_err()),
        ErrorKind::ListTooLong { len: 3, max: 2 }
    );
    let short = v2::Level {
        venues: vec![1],
        ..v2::Level::decode(&new).unwrap()
    }
    .to_bytes()
    .unwrap();
    let old_view = v1::Level::view(&short).unwrap();
    assert_eq!(old_view.px().unwrap().to_string(), "0.1250");
    assert_eq!(old_view.symbol(), "NQ  ");
    // New readers of old bytes: the old "absent" is a present value, and the longer
    // bound accepts every old list.
    let old = v1::Level {
        px: None,
        symbol: FixedStr::new("NQ").unwrap(),
        venues: vec![1, 2],
    }
    .to_bytes()
    .unwrap();
    let new_view = v2::Level::view(&old).unwrap();
    assert!(new_view.px().is_some());
    assert_eq!(new_view.venues().len(), 2);
}

mod catch_all {
    pub(crate) mod v1 {
        #[derive(wiremsg::WireEnum, Clone, Copy, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Side {
            Buy = 1,
            Sell = 2,
        }

        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Ord {
            pub(crate) side: Side,
        }
    }

    pub(crate) mod v2 {
        #[derive(wiremsg::WireEnum, Clone, Copy, Debug, PartialEq)]
        #[repr(u8)]
        pub(crate) enum Side {
            Buy = 1,
            Sell = 2,
            #[wire(other)]
            Other(u8),
        }

        #[derive(wiremsg::WireMsg, Debug, PartialEq)]
        pub(crate) struct Ord {
            pub(crate) side: Side,
        }
    }
}

#[test]
fn a_catch_all_added_breaks_old_readers_of_the_values_it_keeps() {
    use catch_all::{v1, v2};
    let r = report::<v1::Ord, v2::Ord>();
    assert_eq!(
        summary(&r),
        [("Ord", Some("side"), K::CatchAllAdded, B, OK)]
    );
    let kept = v2::Ord {
        side: v2::Side::Other(9),
    }
    .to_bytes()
    .unwrap();
    assert_eq!(
        kind(v1::Ord::view(&kept).unwrap_err()),
        ErrorKind::UnknownEnumValue {
            enum_name: "Side".into(),
            value: 9
        }
    );
    let old = v1::Ord {
        side: v1::Side::Sell,
    }
    .to_bytes()
    .unwrap();
    assert_eq!(v2::Ord::view(&old).unwrap().side(), v2::Side::Sell);
}

/// A fixed-size union (FORMAT.md §4.10) in a list and as a field, and the same union
/// with a variant with a tail, or a catch-all, added: its lists change from dense
/// (§6.8) to table lists (§6.4), which breaks both sides; the field alone keeps its
/// bytes.
mod dense {
    pub(crate) mod v1 {
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireMsg, Debug, PartialEq, Clone)]
        pub(crate) struct Fill {
            pub(crate) qty: u32,
        }

        #[derive(WireUnion, Debug, PartialEq, Clone)]
        #[repr(u8)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Batch {
            pub(crate) last: Event,
            pub(crate) events: Vec<Event>,
        }
    }

    /// `Note` carries a message with a tail (declared as of version 1: the derive
    /// refuses a later variant with a tail in a fixed-size union).
    pub(crate) mod tail {
        use super::v1::Fill;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion, Debug, PartialEq, Clone)]
        #[repr(u8)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
            Note { text: String } = 2,
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Batch {
            pub(crate) last: Event,
            pub(crate) events: Vec<Event>,
        }
    }

    pub(crate) mod relay {
        use super::v1::Fill;
        use wiremsg::{WireMsg, WireUnion};

        #[derive(WireUnion, Debug, PartialEq, Clone)]
        #[repr(u8)]
        pub(crate) enum Event {
            Heartbeat = 0,
            Fill(Fill) = 1,
            #[wire(other)]
            Other {
                tag: u8,
                bytes: Vec<u8>,
            },
        }

        #[derive(WireMsg, Debug, PartialEq)]
        pub(crate) struct Batch {
            pub(crate) last: Event,
            pub(crate) events: Vec<Event>,
        }
    }
}

#[test]
fn a_variant_with_a_tail_or_a_catch_all_added_to_a_fixed_size_union_breaks_its_lists() {
    use dense::{relay, tail, v1};
    let r = report::<v1::Batch, tail::Batch>();
    assert_eq!(
        summary(&r),
        [
            ("Batch", Some("last"), K::UnionVariantAdded, B, OK),
            ("Batch", Some("events"), K::UnionListLayout, B, B),
            ("Batch", Some("events"), K::UnionVariantAdded, B, OK),
            ("EventNote", None, K::MessageAdded, OK, OK),
        ]
    );
    assert!(r.to_string().contains(
        "BREAKING  BREAKING  Batch.events: union `Event` gained a variant with a tail or a \
         catch-all: its lists change from dense lists (FORMAT.md §6.8) to table lists (§6.4)"
    ));
    // And back: the union becomes fixed-size, which breaks its lists as much.
    let back = report::<tail::Batch, v1::Batch>();
    assert!(summary(&back).contains(&("Batch", Some("events"), K::UnionListLayout, B, B)));
    assert!(back.to_string().contains(
        "union `Event` became fixed-size (no catch-all, no variant with a tail): its lists \
         change from table lists (§6.4) to dense lists (FORMAT.md §6.8)"
    ));
    // A catch-all added: the same, beside the catch-all's own change.
    let r = report::<v1::Batch, relay::Batch>();
    assert_eq!(
        summary(&r),
        [
            ("Batch", Some("last"), K::CatchAllAdded, B, OK),
            ("Batch", Some("events"), K::UnionListLayout, B, B),
            ("Batch", Some("events"), K::CatchAllAdded, B, OK),
        ]
    );
    let back = report::<relay::Batch, v1::Batch>();
    assert!(summary(&back).contains(&("Batch", Some("events"), K::UnionListLayout, B, B)));

    // The reads the verdicts stand for: each side's list, even of the variants both
    // have, fails on the other side; the field alone reads.
    let events = vec![v1::Event::Heartbeat, v1::Event::Fill(v1::Fill { qty: 3 })];
    let old = v1::Batch {
        last: v1::Event::Heartbeat,
        events,
    }
    .to_bytes()
    .unwrap();
    let new = tail::Batch {
        last: tail::Event::Heartbeat,
        events: vec![
            tail::Event::Heartbeat,
            tail::Event::Fill(v1::Fill { qty: 3 }),
        ],
    }
    .to_bytes()
    .unwrap();
    // Old readers of new bytes: the table list has the shape of format 2's.
    assert_eq!(
        (kind(v1::Batch::view(&new).unwrap_err())),
        ErrorKind::UnsupportedFormat {
            version: 2,
            supported: wiremsg::FORMAT_VERSION
        }
    );
    // New readers of old bytes: the dense list is no table list.
    assert!(tail::Batch::view(&old).is_err());
    let old_last = v1::Batch::view(&old).unwrap();
    assert_eq!(old_last.last(), v1::EventView::Heartbeat);
    let relayed = relay::Batch {
        last: relay::Event::Heartbeat,
        events: vec![relay::Event::Heartbeat],
    }
    .to_bytes()
    .unwrap();
    assert!(v1::Batch::view(&relayed).is_err());
    assert!(relay::Batch::view(&old).is_err());
}
