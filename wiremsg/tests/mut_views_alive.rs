//! Many mutable element views alive at once, each written after the others were
//! made and in reverse order, over every list layout a mutable view walks: split
//! (messages with a tail), dense (a fixed-size union), table (a union with a tail),
//! strided (fixed-size messages) and a list of lists. Each element's view must own
//! its own bytes: under Miri (`.ci/run`), an overlap between two of them is reported
//! as undefined behaviour; natively, the decoded values show every write landed.
//! From the fifteenth session's hostile review.
use wiremsg::{WireMsg, WireUnion};

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Item {
    qty: u32,
    sku: String,
    flag: bool,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Px {
    m: i32,
    live: bool,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Fx {
    Nop = 0,
    P(Px) = 1,
    Q { a: u16 } = 2,
}

#[derive(WireUnion, Debug, Clone, PartialEq)]
#[repr(u8)]
enum Tx {
    I(Item) = 0,
    S { s: String, n: u8 } = 1,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
struct Book {
    items: Vec<Item>,
    fxs: Vec<Fx>,
    txs: Vec<Tx>,
    pxs: Vec<Px>,
    nested: Vec<Vec<Item>>,
}

fn book() -> Book {
    let it = |q, s: &str| Item {
        qty: q,
        sku: s.into(),
        flag: false,
    };
    Book {
        items: vec![it(1, "a"), it(2, ""), it(3, "ccc")],
        fxs: vec![Fx::P(Px { m: 1, live: true }), Fx::Nop, Fx::Q { a: 4 }],
        txs: vec![
            Tx::I(it(5, "x")),
            Tx::S {
                s: "yy".into(),
                n: 6,
            },
        ],
        pxs: vec![Px { m: 7, live: false }, Px { m: 8, live: true }],
        nested: vec![vec![it(9, "n")], vec![], vec![it(10, "m"), it(11, "")]],
    }
}

#[test]
fn all_element_views_alive_at_once() {
    let mut bytes = book().to_bytes().unwrap();
    {
        let mut b = Book::view_mut(&mut bytes).unwrap();
        {
            let mut items = b.items_mut();
            let mut all: Vec<_> = items.iter_mut().collect();
            for (k, m) in all.iter_mut().enumerate().rev() {
                m.set_qty(100 + k as u32);
                m.set_flag(true);
            }
            let skus: Vec<String> = all.iter().map(|m| m.sku().to_string()).collect();
            assert_eq!(skus, ["a", "", "ccc"]);
            for m in all.iter_mut() {
                m.update_qty(|q| q + 1);
            }
        }
        {
            let mut fxs = b.fxs_mut();
            let mut all: Vec<_> = fxs.iter_mut().collect();
            for m in all.iter_mut().rev() {
                match m {
                    FxMut::P(p) => p.set_m(-1),
                    FxMut::Q(q) => q.set_a(9),
                    _ => {}
                }
            }
        }
        {
            let mut txs = b.txs_mut();
            let mut all: Vec<_> = txs.iter_mut().collect();
            for m in all.iter_mut().rev() {
                match m {
                    TxMut::I(i) => i.set_qty(55),
                    TxMut::S(s) => {
                        s.set_n(66);
                        let _ = s.s();
                    }
                }
            }
        }
        {
            let mut pxs = b.pxs_mut();
            let mut all: Vec<_> = pxs.iter_mut().collect();
            for m in all.iter_mut().rev() {
                m.set_live(true);
            }
        }
        {
            let mut nested = b.nested_mut();
            let mut outer = nested.list_mut(2).unwrap();
            let mut all: Vec<_> = outer.iter_mut().collect();
            for m in all.iter_mut().rev() {
                m.set_qty(0);
                let _ = m.sku();
            }
        }
    }
    let d = Book::decode(&bytes).unwrap();
    assert_eq!(
        d.items.iter().map(|i| i.qty).collect::<Vec<_>>(),
        [101, 102, 103]
    );
    assert_eq!(d.fxs[0], Fx::P(Px { m: -1, live: true }));
    assert_eq!(
        d.txs[1],
        Tx::S {
            s: "yy".into(),
            n: 66
        }
    );
    assert_eq!(d.nested[2][1].qty, 0);
}
