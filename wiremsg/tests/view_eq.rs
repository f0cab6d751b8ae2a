//! `PartialEq` and `Debug` of views: view == view field by field (not byte by byte),
//! owned == view and view == owned, dispatch views, and what `Debug` shows.

use wiremsg::{FixedStr, Template, WireDispatch, WireEnum, WireMsg};

/// No `PartialEq`: views compare enums by their wire value.
#[derive(WireEnum, Debug, Clone, Copy)]
#[repr(u16)]
enum Venue {
    Xnas = 1,
    Xnys = 2,
    #[wire(other)]
    Other(u16),
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Level {
    price: i64,
    size: u32,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Tag {
    key: String,
}

#[derive(WireMsg, Debug, Clone)]
#[wire(template_id = 1, version = 2)]
struct Quote {
    symbol: FixedStr<8>,
    venue: Venue,
    ratio: f64,
    best: Level,
    stop: Option<u32>,
    grid: [u16; 2],
    levels: Vec<Level>,
    tags: Vec<Tag>,
    names: Vec<String>,
    raw: Vec<u8>,
    note: String,
    #[wire(since = 2, default = 7)]
    lot: u8,
}

#[derive(WireMsg, Debug, Clone)]
#[wire(template_id = 2)]
struct Ping {
    sequence: u64,
}

#[derive(WireDispatch, Debug)]
#[allow(dead_code)] // only viewed
enum Feed {
    Quote(Quote),
    Ping(Ping),
}

fn quote() -> Quote {
    Quote {
        symbol: FixedStr::new("AAPL").unwrap(),
        venue: Venue::Xnas,
        ratio: 0.5,
        best: Level { price: 10, size: 1 },
        stop: None,
        grid: [1, 2],
        levels: vec![Level { price: 1, size: 2 }, Level { price: 3, size: 4 }],
        tags: vec![Tag { key: "a".into() }],
        names: vec!["x".into(), "".into()],
        raw: vec![0xde, 0xad],
        note: "n".into(),
        lot: 3,
    }
}

#[test]
fn views_of_equal_values_are_equal_and_each_field_counts() {
    let a = quote().to_bytes().unwrap();
    let b = quote().to_bytes().unwrap();
    assert_eq!(Quote::view(&a).unwrap(), Quote::view(&b).unwrap());

    type Change = Box<dyn Fn(&mut Quote)>;
    let changes: Vec<(&str, Change)> = vec![
        (
            "symbol",
            Box::new(|q| q.symbol = FixedStr::new("MSFT").unwrap()),
        ),
        ("venue", Box::new(|q| q.venue = Venue::Xnys)),
        ("venue other", Box::new(|q| q.venue = Venue::Other(9))),
        ("ratio", Box::new(|q| q.ratio = 0.25)),
        ("best", Box::new(|q| q.best.size = 2)),
        ("stop", Box::new(|q| q.stop = Some(0))),
        ("grid", Box::new(|q| q.grid[1] = 3)),
        ("levels element", Box::new(|q| q.levels[1].price = 5)),
        ("levels length", Box::new(|q| q.levels.truncate(1))),
        ("tags", Box::new(|q| q.tags[0].key.push('b'))),
        ("names", Box::new(|q| q.names[1] = "y".into())),
        ("raw", Box::new(|q| q.raw.push(0))),
        ("note", Box::new(|q| q.note.clear())),
        ("lot", Box::new(|q| q.lot = 4)),
    ];
    for (what, change) in &changes {
        let mut other = quote();
        change(&mut other);
        let c = other.to_bytes().unwrap();
        assert_ne!(Quote::view(&a).unwrap(), Quote::view(&c).unwrap(), "{what}");
        assert!(other != Quote::view(&a).unwrap(), "{what}");
        assert!(Quote::view(&c).unwrap() == other, "{what}");
    }
}

#[test]
fn views_compare_values_not_bytes() {
    // An absent option's payload is ignored by readers (FORMAT.md §4.5): other bytes
    // there, same value.
    let a = quote().to_bytes().unwrap();
    let mut b = a.clone();
    let stop = QuoteView::STOP_OFFSET;
    assert_eq!(b[stop], 0, "absent");
    b[stop + 1] = 0xAA;
    assert_ne!(a, b);
    assert_eq!(Quote::view(&a).unwrap(), Quote::view(&b).unwrap());
    assert!(quote() == Quote::view(&b).unwrap());

    // A catch-all holding a known value reads as the known variant: equal.
    let mut known = quote();
    known.venue = Venue::Other(2);
    let mut xnys = quote();
    xnys.venue = Venue::Xnys;
    let (k, x) = (known.to_bytes().unwrap(), xnys.to_bytes().unwrap());
    assert_eq!(Quote::view(&k).unwrap(), Quote::view(&x).unwrap());

    // Floats as `==` on f64: -0.0 equals 0.0, NaN equals nothing.
    let mut zero = quote();
    zero.ratio = 0.0;
    let mut minus = quote();
    minus.ratio = -0.0;
    let (z, m) = (zero.to_bytes().unwrap(), minus.to_bytes().unwrap());
    assert_eq!(Quote::view(&z).unwrap(), Quote::view(&m).unwrap());
    let mut nan = quote();
    nan.ratio = f64::NAN;
    let n = nan.to_bytes().unwrap();
    assert_ne!(Quote::view(&n).unwrap(), Quote::view(&n).unwrap());
}

#[test]
fn a_field_the_writer_did_not_have_is_not_its_default() {
    mod v1 {
        #[derive(wiremsg::WireMsg, Debug)]
        pub(crate) struct Quote {
            pub(crate) symbol: wiremsg::FixedStr<8>,
            pub(crate) venue: super::Venue,
            pub(crate) ratio: f64,
            pub(crate) best: super::Level,
            pub(crate) stop: Option<u32>,
            pub(crate) grid: [u16; 2],
            pub(crate) levels: Vec<super::Level>,
            pub(crate) tags: Vec<super::Tag>,
            pub(crate) names: Vec<String>,
            pub(crate) raw: Vec<u8>,
            pub(crate) note: String,
        }
    }
    let q = quote();
    let old = v1::Quote {
        symbol: q.symbol,
        venue: q.venue,
        ratio: q.ratio,
        best: q.best.clone(),
        stop: q.stop,
        grid: q.grid,
        levels: q.levels.clone(),
        tags: q.tags.clone(),
        names: q.names.clone(),
        raw: q.raw.clone(),
        note: q.note.clone(),
    }
    .to_bytes()
    .unwrap();
    let new = Quote { lot: 7, ..quote() }.to_bytes().unwrap();
    let (old_view, new_view) = (Quote::view(&old).unwrap(), Quote::view(&new).unwrap());
    assert_eq!((old_view.lot(), new_view.lot()), (7, 7));
    assert_ne!(old_view, new_view, "`lot` absent vs present");
    // A version-1 reader sees the same fields in both.
    assert_eq!(
        v1::Quote::view(&old).unwrap(),
        v1::Quote::view(&new).unwrap()
    );
}

#[test]
fn dispatch_views_compare_by_variant_and_message() {
    let mut a = Vec::new();
    quote().encode_with_header(&mut a).unwrap();
    let mut p = Vec::new();
    Ping { sequence: 1 }.encode_with_header(&mut p).unwrap();
    assert_eq!(Feed::view(&a).unwrap(), Feed::view(&a.clone()).unwrap());
    assert_ne!(Feed::view(&a).unwrap().1, Feed::view(&p).unwrap().1);
    let FeedView::Ping(ping) = Feed::view(&p).unwrap().1 else {
        panic!("a ping")
    };
    assert!(ping == Ping { sequence: 1 });
    assert!(Ping { sequence: 2 } != ping);
}

/// Version 1 of `Account` below: `old` was removed in version 2 (its slot kept).
mod account_v1 {
    #[derive(wiremsg::WireMsg, Debug)]
    pub(crate) struct Account {
        pub(crate) id: u32,
        pub(crate) old: u16,
        pub(crate) name: String,
    }
}

#[derive(WireMsg, Debug)]
#[wire(version = 3)]
#[allow(dead_code)] // `old` is written, never read
struct Account {
    id: u32,
    #[wire(reserved)]
    old: u16,
    name: String,
    #[wire(since = 3)]
    limit: Option<u32>,
    #[wire(since = 3)]
    tags: Vec<String>,
}

fn account_v1(old: u16) -> Vec<u8> {
    account_v1::Account {
        id: 7,
        old,
        name: "ann".into(),
    }
    .to_bytes()
    .unwrap()
}

fn account_v3(limit: Option<u32>, tags: &[&str]) -> Vec<u8> {
    Account {
        id: 7,
        old: 0,
        name: "ann".into(),
        limit,
        tags: tags.iter().map(|t| t.to_string()).collect(),
    }
    .to_bytes()
    .unwrap()
}

#[test]
fn debug_shows_every_field_but_reserved_ones_and_later_ones_as_options() {
    let new = account_v3(Some(5), &["a"]);
    assert_eq!(
        format!("{:?}", Account::view(&new).unwrap()),
        r#"AccountView { id: 7, name: "ann", limit: Some(Some(5)), tags: Some(["a"]) }"#
    );
    let old = account_v1(9);
    assert_eq!(
        format!("{:?}", Account::view(&old).unwrap()),
        r#"AccountView { id: 7, name: "ann", limit: None, tags: None }"#
    );
    let mut bytes = old.clone();
    assert_eq!(
        format!("{:?}", Account::view_mut(&mut bytes).unwrap()),
        r#"AccountMut { id: 7, name: "ann", limit: None, tags: None }"#
    );
    // The formatter's flags reach the fields.
    assert_eq!(
        format!("{:#?}", Account::view(&old).unwrap()),
        "AccountView {\n    id: 7,\n    name: \"ann\",\n    limit: None,\n    tags: None,\n}"
    );
    // A version-1 reader has no reserved field: it shows `old`.
    assert_eq!(
        format!("{:?}", account_v1::Account::view(&old).unwrap()),
        r#"AccountView { id: 7, old: 9, name: "ann" }"#
    );
}

#[test]
fn equality_skips_reserved_fields_and_counts_each_later_one() {
    let (a, b) = (account_v1(1), account_v1(2));
    assert_eq!(Account::view(&a).unwrap(), Account::view(&b).unwrap());
    assert_ne!(
        account_v1::Account::view(&a).unwrap(),
        account_v1::Account::view(&b).unwrap()
    );
    let with = account_v3;
    let same = |x: &[u8], y: &[u8]| Account::view(x).unwrap() == Account::view(y).unwrap();
    let base = with(Some(5), &["a"]);
    assert!(same(&base, &with(Some(5), &["a"])));
    assert!(!same(&base, &with(None, &["a"])));
    assert!(!same(&base, &with(Some(5), &["b"])));
    // Present with its default value is not absent.
    assert!(!same(&with(None, &[]), &a));
    assert!(same(&a, &account_v1(3)));
}

#[test]
fn debug_of_an_on_demand_view_shows_each_read() {
    let new = account_v3(Some(5), &["a"]);
    let shown = |bytes: &[u8]| format!("{:?}", Account::view_lazy(bytes).unwrap());
    assert_eq!(
        shown(&new),
        r#"AccountLazy { id: Ok(7), name: Ok("ann"), limit: Ok(Some(Some(5))), tags: Ok(Some([Ok("a")])) }"#
    );
    assert_eq!(
        shown(&account_v1(9)),
        r#"AccountLazy { id: Ok(7), name: Ok("ann"), limit: Ok(None), tags: Ok(None) }"#
    );
    // A bad field is its error; the others still read.
    let mut bad = new.clone();
    let at = bad.windows(3).position(|w| w == b"ann").unwrap();
    bad[at] = 0xff;
    assert_eq!(
        shown(&bad),
        r#"AccountLazy { id: Ok(7), name: Err(invalid UTF-8 after 0 valid bytes at byte 21 in `name` (InvalidUtf8 { valid_up_to: 0 })), limit: Ok(Some(Some(5))), tags: Ok(Some([Ok("a")])) }"#
    );
}
