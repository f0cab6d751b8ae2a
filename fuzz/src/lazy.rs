//! On-demand views against up-front validation: every field read on demand, in
//! field order, builds the owned value; it fails exactly when `view` fails, with the
//! same error, and otherwise equals what `view` decodes.

use crate::{
    Every, EveryLazy, Expr, ExprLazy, Feed, FeedLazy, Fill, Formula, FormulaLazy, Item, ItemLazy,
    Kind, KindLazy, Kinds, KindsLazy, Level, LevelLazy, Maps, MapsLazy, Node, NodeLazy, Tick,
    TickLazy, v2,
};
use std::collections::BTreeMap;
use wiremsg::{Error, FixedStr, LazyMap, MapKey};

fn level(l: LevelLazy<'_>) -> Result<Level, Error> {
    Ok(Level {
        price: l.price()?,
        size: l.size()?,
        live: l.live()?,
    })
}

fn item(i: ItemLazy<'_>) -> Result<Item, Error> {
    Ok(Item {
        sku: i.sku()?.into(),
        qty: i.qty()?,
        venue: i.venue()?,
    })
}

/// Every field of an [`Every`], read on demand in field order.
pub fn every(e: EveryLazy<'_>) -> Result<Every, Error> {
    let a = e.a()?;
    let b = e.b()?;
    let c = e.c()?;
    let big = e.big()?;
    let flag = e.flag()?;
    let side = e.side()?;
    let venue = e.venue()?;
    let opt = e.opt()?;
    let opt_text = e.opt_text()?.map(Into::into);
    let arr = e.arr()?.to_array();
    let sym = FixedStr::new(e.sym()?).expect("a checked FixedStr fits");
    let level_ = level(e.level()?)?;
    let levels = e.levels()?;
    let levels = core::array::from_fn(|i| levels.get(i).expect("two levels").decode());
    let text = e.text()?.into();
    let bytes = e.bytes()?.iter().collect::<Result<_, _>>()?;
    let numbers = e.numbers()?.iter().collect::<Result<_, _>>()?;
    let flags = e.flags()?.iter().collect::<Result<_, _>>()?;
    let sides = e.sides()?.iter().collect::<Result<_, _>>()?;
    let syms = e
        .syms()?
        .iter()
        .map(|s| s.map(|s| FixedStr::new(s).expect("a checked FixedStr fits")))
        .collect::<Result<_, _>>()?;
    let quotes = e
        .quotes()?
        .iter()
        .map(|l| level(l?))
        .collect::<Result<_, _>>()?;
    let items = e
        .items()?
        .iter()
        .map(|i| item(i?))
        .collect::<Result<_, _>>()?;
    let names = e
        .names()?
        .iter()
        .map(|n| n.map(String::from))
        .collect::<Result<_, _>>()?;
    let item_ = item(e.item()?)?;
    let maybe_item = e.maybe_item()?.map(item).transpose()?;
    let pairs = e
        .pairs()?
        .iter()
        .map(|p| p.map(|(n, s)| (n, s.to_string())))
        .collect::<Result<_, _>>()?;
    let groups = e
        .groups()?
        .iter()
        .map(|g| g.map(|(v, items, n)| (v, items.iter().map(|i| i.decode()).collect(), n)))
        .collect::<Result<_, _>>()?;
    Ok(Every {
        a,
        b,
        c,
        big,
        flag,
        side,
        venue,
        opt,
        opt_text,
        arr,
        sym,
        level: level_,
        levels,
        text,
        bytes,
        numbers,
        flags,
        sides,
        syms,
        quotes,
        items,
        names,
        item: item_,
        maybe_item,
        pairs,
        groups,
    })
}

/// Every field of a [`Node`] (a recursive message), read on demand.
pub fn node(n: NodeLazy<'_>) -> Result<Node, Error> {
    Ok(Node {
        id: n.id()?,
        name: n.name()?.into(),
        children: n
            .children()?
            .iter()
            .map(|c| node(c?))
            .collect::<Result<_, _>>()?,
        tags: n
            .tags()?
            .iter()
            .map(|t| t.map(String::from))
            .collect::<Result<_, _>>()?,
    })
}

/// An expression tree (a union whose variants box it), read on demand.
pub fn expr(e: ExprLazy<'_>) -> Result<Expr, Error> {
    Ok(match e {
        ExprLazy::Num(n) => Expr::Num { value: n.value()? },
        ExprLazy::Add(a) => Expr::Add {
            l: Box::new(expr(a.l()?)?),
            r: Box::new(expr(a.r()?)?),
        },
        ExprLazy::Neg(n) => Expr::Neg {
            e: Box::new(expr(n.e()?)?),
        },
    })
}

/// A [`Formula`]: a name and an expression tree, read on demand.
pub fn formula(f: FormulaLazy<'_>) -> Result<Formula, Error> {
    Ok(Formula {
        name: f.name()?.into(),
        expr: expr(f.expr()?)?,
    })
}

/// Every field of a version 2 `Quote` (whose writer may be of version 1), on demand.
pub fn quote(q: v2::QuoteLazy<'_>) -> Result<v2::Quote, Error> {
    Ok(v2::Quote {
        price: q.price()?,
        venue: q.venue()?.into(),
        size: q.size()?,
        levels: match q.try_levels()? {
            Some(levels) => levels.iter().map(|l| level(l?)).collect::<Result<_, _>>()?,
            None => Vec::new(),
        },
        note: q.try_note()?.flatten().map(Into::into),
    })
}

/// `$read` of `$ty`'s on-demand view of `$bytes` agrees with `view`: both fail with
/// the same error (kind, path, offset), or the value read equals the decoded one
/// and `to_view` gives the up-front view.
#[macro_export]
macro_rules! agree_lazy {
    ($ty:ty, $read:path, $bytes:expr) => {{
        use wiremsg::WireMsg as _;
        let bytes: &[u8] = $bytes;
        let key = |e: &wiremsg::Error| (e.kind().clone(), e.path(), e.offset());
        let upfront = <$ty>::view(bytes);
        let on_demand = <$ty>::view_lazy(bytes).and_then($read);
        match (&upfront, &on_demand) {
            (Ok(view), Ok(read)) => {
                assert_eq!(format!("{:?}", view.decode()), format!("{read:?}"));
                let lazy = <$ty>::view_lazy(bytes).expect("read above");
                let again = lazy.to_view().expect("view accepted the bytes");
                assert_eq!(format!("{again:?}"), format!("{view:?}"));
            }
            (Err(expected), Err(err)) => assert_eq!(key(err), key(expected)),
            _ => panic!(
                "view: {:?}, on demand: {:?}",
                upfront.as_ref().err(),
                on_demand.as_ref().err()
            ),
        }
    }};
}

/// A frame of the dispatch enum [`Feed`] read on demand (`Feed::view_lazy`): every
/// field of the message its header names, in field order, against `Feed::view`: the
/// same error (offsets from the header's start), or the value `Feed::decode` gives.
pub fn check_framed(bytes: &[u8]) {
    let key = |e: &Error| (e.kind().clone(), e.path(), e.offset());
    let on_demand = Feed::view_lazy(bytes).and_then(|(_, lazy)| {
        Ok(match lazy {
            FeedLazy::Every(e) => Feed::Every(every(e)?),
            FeedLazy::Node(n) => Feed::Node(node(n)?),
            FeedLazy::Quote(q) => Feed::Quote(quote(q)?),
        })
    });
    match (Feed::view(bytes), on_demand) {
        (Ok(_), Ok(read)) => {
            let decoded = Feed::decode(bytes).expect("decode accepts what view does");
            // Debug, not PartialEq: NaN payloads compare unequal but print alike.
            assert_eq!(format!("{read:?}"), format!("{decoded:?}"));
        }
        (Err(expected), Err(err)) => assert_eq!(key(&err), key(&expected)),
        (upfront, on_demand) => panic!(
            "view: {:?}, on demand: {:?}",
            upfront.err(),
            on_demand.err()
        ),
    }
}

/// A map read on demand: its keys (checked with the map) against its entries (each
/// checked as read), each entry's value made owned by `value`.
fn map<'v, K, V, T>(
    m: LazyMap<'v, K, V>,
    key: impl Fn(wiremsg::ViewOf<'v, K>) -> K,
    value: impl Fn(wiremsg::ViewOf<'v, V>) -> T,
) -> Result<BTreeMap<K, T>, Error>
where
    K: MapKey + Ord + 'v,
    V: wiremsg::Field + 'v,
{
    let keys = m.keys().count();
    let out = m
        .iter()
        .map(|e| e.map(|(k, v)| (key(k), value(v))))
        .collect::<Result<BTreeMap<_, _>, _>>()?;
    assert_eq!(keys, out.len(), "a key for every entry");
    Ok(out)
}

/// Every field of a [`Maps`], read on demand in field order.
pub fn maps(m: MapsLazy<'_>) -> Result<Maps, Error> {
    let depth = map(m.depth()?, |k| k, |v| v)?;
    let names = map(m.names()?, String::from, |v| v.decode())?;
    let syms = map(
        m.syms()?,
        |k| FixedStr::new(k).expect("a checked FixedStr fits"),
        |v| v.decode(),
    )?;
    let sides = map(m.sides()?, |k| k, |v| v)?;
    let venues = map(m.venues()?, |k| k, |v| v.iter().collect())?;
    let nested = map(
        m.nested()?,
        |k| k,
        |v| v.iter().map(|(k, v)| (k.to_string(), v)).collect(),
    )?;
    let maybe = match m.maybe()? {
        Some(inner) => Some(map(inner, |k| k, String::from)?),
        None => None,
    };
    let many = m
        .many()?
        .iter()
        .map(|inner| map(inner?, |k| k, |v| v))
        .collect::<Result<_, _>>()?;
    Ok(Maps {
        depth,
        names,
        syms,
        sides,
        venues,
        nested,
        maybe,
        many,
    })
}

/// A [`Kind`] read on demand.
pub fn kind(k: KindLazy<'_>) -> Result<Kind, Error> {
    Ok(match k {
        KindLazy::Add(l) => Kind::Add(level(l)?),
        KindLazy::Note(n) => Kind::Note {
            text: n.text()?.into(),
        },
        KindLazy::Halt => Kind::Halt,
        KindLazy::Fill(f) => Kind::Fill(Fill {
            qty: f.qty()?,
            px: f.px()?,
        }),
    })
}

/// A [`Tick`] (an element of a dense list, FORMAT.md §6.8) read on demand.
pub fn tick(t: TickLazy<'_>) -> Result<Tick, Error> {
    Ok(match t {
        TickLazy::Add(l) => Tick::Add(level(l)?),
        TickLazy::Halt => Tick::Halt,
        TickLazy::Fill(f) => Tick::Fill(Fill {
            qty: f.qty()?,
            px: f.px()?,
        }),
        TickLazy::Cancel(c) => Tick::Cancel {
            id: c.id()?,
            side: c.side()?,
        },
    })
}

/// Every field of a [`Kinds`], read on demand in field order.
pub fn kinds(k: KindsLazy<'_>) -> Result<Kinds, Error> {
    let ticks = |list: wiremsg::LazyList<'_, Tick>| {
        list.iter().map(|t| tick(t?)).collect::<Result<Vec<_>, _>>()
    };
    Ok(Kinds {
        kind: kind(k.kind()?)?,
        kinds: k
            .kinds()?
            .iter()
            .map(|u| kind(u?))
            .collect::<Result<_, _>>()?,
        last: k.last()?.map(kind).transpose()?,
        ticks: ticks(k.ticks()?)?,
        few: ticks(k.few()?)?,
        maybe: k.maybe()?.map(ticks).transpose()?,
        rows: k
            .rows()?
            .iter()
            .map(|row| ticks(row?))
            .collect::<Result<_, _>>()?,
    })
}

/// The checks of the `lazy` fuzz target on one input.
pub fn check(bytes: &[u8]) {
    agree_lazy!(Every, every, bytes);
    agree_lazy!(Node, node, bytes);
    agree_lazy!(v2::Quote, quote, bytes);
    agree_lazy!(Formula, formula, bytes);
    agree_lazy!(Maps, maps, bytes);
    agree_lazy!(Kinds, kinds, bytes);
}
