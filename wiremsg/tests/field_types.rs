//! Field types of trading protocols: NUL-padded text, null sentinels, bounded lists,
//! decimals (FORMAT.md §4.3, §4.8, §4.9, §6.4).

use wiremsg::{ErrorKind, FixedStr, WireMsg};

#[derive(WireMsg, Debug, PartialEq)]
struct Quote {
    symbol: FixedStr<8, 0>,
    #[wire(null = i64::MIN)]
    bid: Option<i64>,
    #[wire(null = u32::MAX)]
    size: Option<u32>,
    #[wire(max_len = 3)]
    venues: Vec<u16>,
}

#[test]
fn smoke() {
    let q = Quote {
        symbol: FixedStr::new("NQ").unwrap(),
        bid: None,
        size: Some(5),
        venues: vec![1, 2],
    };
    let bytes = q.to_bytes().unwrap();
    println!("{bytes:02x?}");
    let v = Quote::view(&bytes).unwrap();
    assert_eq!(v.bid(), None);
    assert_eq!(v.size(), Some(5));
    assert_eq!(Quote::decode(&bytes).unwrap(), q);
    let bad = Quote { bid: Some(i64::MIN), ..q };
    let err = bad.to_bytes().unwrap_err();
    assert_eq!(err.kind(), &ErrorKind::NullSentinel { value: i64::MIN.into() });
    println!("{err}");
}
