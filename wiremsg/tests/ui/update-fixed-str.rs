use wiremsg::{FixedStr, WireMsg};

#[derive(WireMsg)]
struct Quote {
    symbol: FixedStr<8>,
    px: i64,
}

fn main() {
    let mut bytes = Quote { symbol: FixedStr::new("AAPL").unwrap(), px: 1 }.to_bytes().unwrap();
    let mut edit = Quote::view_mut(&mut bytes).unwrap();
    edit.update_px(|px| px + 1);
    edit.update_symbol(|s| s);
}
