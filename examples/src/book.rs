//! Per-symbol limit order books built from the feed: price levels with aggregated
//! size, and the top of book.
//!
//! The book is driven by plain values ([`Books::add`], [`Books::execute`], ...), so
//! the same code runs from zero-copy views ([`Books::apply_view`]) and from owned,
//! decoded messages ([`Books::apply`]); the `market_data` test checks that both give
//! identical books.
//!
//! After warm-up nothing here allocates per message: orders live in a hash map sized
//! up front ([`Books::with_capacity`]), and each side's levels in a `Vec` sorted so
//! that the best price is last (most activity is near the top, so inserts and
//! removals move few elements).

use crate::itch::{Feed, FeedView, Side};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use wiremsg::FixedStr;

/// One price level: the orders resting at one price on one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Price, 4 decimal places ([`crate::itch::PRICE_SCALE`]).
    pub price: i64,
    /// Shares of all the orders at this price.
    pub shares: u64,
    /// Orders at this price.
    pub orders: u32,
}

/// The book of one instrument.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SymbolBook {
    /// Symbol, learnt from the first add or trade for this locate.
    pub symbol: FixedStr<8>,
    /// Bid levels, ascending by price: the best bid is the last.
    bids: Vec<Level>,
    /// Ask levels, descending by price: the best ask is the last.
    asks: Vec<Level>,
    /// Price of the last execution or trade (0 before any).
    pub last_price: i64,
    /// Shares executed or traded in the session.
    pub volume: u64,
}

impl SymbolBook {
    /// Highest bid, if any.
    pub fn best_bid(&self) -> Option<Level> {
        self.bids.last().copied()
    }

    /// Lowest ask, if any.
    pub fn best_ask(&self) -> Option<Level> {
        self.asks.last().copied()
    }

    /// Bid levels from the best down.
    pub fn bids(&self) -> impl Iterator<Item = &Level> {
        self.bids.iter().rev()
    }

    /// Ask levels from the best up.
    pub fn asks(&self) -> impl Iterator<Item = &Level> {
        self.asks.iter().rev()
    }

    /// Orders resting on both sides.
    pub fn order_count(&self) -> u64 {
        self.bids
            .iter()
            .chain(&self.asks)
            .map(|l| u64::from(l.orders))
            .sum()
    }

    fn levels(&mut self, side: Side) -> &mut Vec<Level> {
        match side {
            Side::Buy => &mut self.bids,
            Side::Sell => &mut self.asks,
        }
    }

    /// Where `price` is or would go on `side`.
    fn position(levels: &[Level], side: Side, price: i64) -> usize {
        match side {
            Side::Buy => levels.partition_point(|l| l.price < price),
            Side::Sell => levels.partition_point(|l| l.price > price),
        }
    }

    fn insert(&mut self, side: Side, price: i64, shares: u64) {
        let levels = self.levels(side);
        let at = Self::position(levels, side, price);
        match levels.get_mut(at) {
            Some(level) if level.price == price => {
                level.shares += shares;
                level.orders += 1;
            }
            _ => levels.insert(
                at,
                Level {
                    price,
                    shares,
                    orders: 1,
                },
            ),
        }
    }

    /// Takes `shares` off the level at `price`; `gone` if the order left the book.
    fn reduce(&mut self, side: Side, price: i64, shares: u64, gone: bool) {
        let levels = self.levels(side);
        let at = Self::position(levels, side, price);
        let Some(level) = levels.get_mut(at).filter(|l| l.price == price) else {
            debug_assert!(false, "no level at {price} for a known order");
            return;
        };
        level.shares -= shares;
        level.orders -= u32::from(gone);
        if level.orders == 0 {
            levels.remove(at);
        }
    }
}

/// Price levels each side of a new book has room for before it reallocates.
const LEVELS: usize = 128;

/// An order resting on a book, as the handler knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Resting {
    /// Dense instrument index.
    pub locate: u16,
    /// Side.
    pub side: Side,
    /// Limit price.
    pub price: i64,
    /// Shares still resting.
    pub shares: u32,
}

/// A hasher for order reference numbers: one multiply (Fibonacci hashing). Order
/// references are exchange-assigned integers, not attacker-chosen keys, and SipHash
/// would cost more than the whole book update.
#[derive(Debug, Default, Clone, Copy)]
pub struct RefHasher(u64);

impl Hasher for RefHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Every instrument's book, and the resting orders by reference number.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Books {
    books: Vec<SymbolBook>,
    orders: HashMap<u64, Resting, BuildHasherDefault<RefHasher>>,
    /// Executions, cancels and deletes of orders the books did not know (after a
    /// sequence gap, for example).
    pub unknown_refs: u64,
    /// Adds of a reference that was already resting (ignored).
    pub duplicate_refs: u64,
}

impl Books {
    /// Books with room for `symbols` instruments and `orders` resting orders before
    /// anything is reallocated.
    pub fn with_capacity(symbols: usize, orders: usize) -> Self {
        Books {
            books: Vec::with_capacity(symbols),
            orders: HashMap::with_capacity_and_hasher(orders, Default::default()),
            unknown_refs: 0,
            duplicate_refs: 0,
        }
    }

    /// The book of instrument `locate`, if it has seen any message.
    pub fn book(&self, locate: u16) -> Option<&SymbolBook> {
        self.books.get(usize::from(locate))
    }

    /// Every book, by locate.
    pub fn books(&self) -> &[SymbolBook] {
        &self.books
    }

    /// The book of `symbol`, if any (a linear search: for reports, not the hot path).
    pub fn by_symbol(&self, symbol: &str) -> Option<&SymbolBook> {
        self.books.iter().find(|b| b.symbol == symbol)
    }

    /// Orders resting on all books.
    pub fn resting_orders(&self) -> usize {
        self.orders.len()
    }

    /// Every resting order with its reference, in no particular order: what a
    /// snapshot of the books keeps (with each book's [`restore_book`](Self::restore_book)
    /// state), to be replayed with [`add`](Self::add).
    pub fn orders(&self) -> impl Iterator<Item = (u64, &Resting)> {
        self.orders
            .iter()
            .map(|(order_ref, resting)| (*order_ref, resting))
    }

    /// Restores the book of `locate` from a snapshot: its symbol, last price and
    /// volume (its orders are restored with [`add`](Self::add)). Creates the book,
    /// and every book before it, if needed.
    pub fn restore_book(&mut self, locate: u16, symbol: &str, last_price: i64, volume: u64) {
        let book = self.book_mut(locate, symbol);
        book.last_price = last_price;
        book.volume = volume;
    }

    /// The resting order `order_ref`, if any.
    pub fn order(&self, order_ref: u64) -> Option<&Resting> {
        self.orders.get(&order_ref)
    }

    fn book_mut(&mut self, locate: u16, symbol: &str) -> &mut SymbolBook {
        let at = usize::from(locate);
        if at >= self.books.len() {
            self.books.resize_with(at + 1, || SymbolBook {
                bids: Vec::with_capacity(LEVELS),
                asks: Vec::with_capacity(LEVELS),
                ..SymbolBook::default()
            });
        }
        let book = &mut self.books[at];
        if book.symbol.as_str().is_empty() && !symbol.is_empty() {
            book.symbol = FixedStr::new(symbol).unwrap_or_default();
        }
        book
    }

    /// A new resting order.
    pub fn add(
        &mut self,
        locate: u16,
        order_ref: u64,
        side: Side,
        price: i64,
        shares: u32,
        symbol: &str,
    ) {
        let resting = Resting {
            locate,
            side,
            price,
            shares,
        };
        if self.orders.insert(order_ref, resting).is_some() {
            self.duplicate_refs += 1;
            return;
        }
        self.book_mut(locate, symbol)
            .insert(side, price, u64::from(shares));
    }

    /// `shares` of an order traded at its price.
    pub fn execute(&mut self, order_ref: u64, shares: u32) {
        if let Some((locate, price, taken)) = self.take(order_ref, Some(shares)) {
            let book = &mut self.books[usize::from(locate)];
            book.last_price = price;
            book.volume += u64::from(taken);
        }
    }

    /// `shares` of an order were cancelled.
    pub fn cancel(&mut self, order_ref: u64, shares: u32) {
        self.take(order_ref, Some(shares));
    }

    /// An order left the book.
    pub fn delete(&mut self, order_ref: u64) {
        self.take(order_ref, None);
    }

    /// A trade with a hidden order: only the last price and volume change.
    pub fn trade(&mut self, locate: u16, price: i64, shares: u32, symbol: &str) {
        let book = self.book_mut(locate, symbol);
        book.last_price = price;
        book.volume += u64::from(shares);
    }

    /// Removes `shares` (all if `None`) of an order; returns its locate, price and
    /// the shares removed, or `None` for an unknown order.
    fn take(&mut self, order_ref: u64, shares: Option<u32>) -> Option<(u16, i64, u32)> {
        let found = match shares {
            // A delete: one probe of the map.
            None => self.orders.remove(&order_ref).map(|r| (r, r.shares, true)),
            Some(shares) => self.orders.get_mut(&order_ref).map(|order| {
                let taken = shares.min(order.shares);
                order.shares -= taken;
                (*order, taken, order.shares == 0)
            }),
        };
        let Some((resting, taken, gone)) = found else {
            self.unknown_refs += 1;
            return None;
        };
        if gone && shares.is_some() {
            self.orders.remove(&order_ref);
        }
        self.books[usize::from(resting.locate)].reduce(
            resting.side,
            resting.price,
            u64::from(taken),
            gone,
        );
        Some((resting.locate, resting.price, taken))
    }

    /// Applies one message read in place (the handler's path).
    #[inline]
    pub fn apply_view(&mut self, message: &FeedView<'_>) {
        match message {
            FeedView::System(_) => {}
            FeedView::Add(m) => self.add(
                m.locate(),
                m.order_ref(),
                m.side(),
                m.price(),
                m.shares(),
                m.symbol(),
            ),
            FeedView::Executed(m) => self.execute(m.order_ref(), m.executed_shares()),
            FeedView::Cancel(m) => self.cancel(m.order_ref(), m.cancelled_shares()),
            FeedView::Delete(m) => self.delete(m.order_ref()),
            FeedView::Trade(m) => self.trade(m.locate(), m.price(), m.shares(), m.symbol()),
        }
    }

    /// Applies one owned, decoded message (the reference path of the test).
    pub fn apply(&mut self, message: &Feed) {
        match message {
            Feed::System(_) => {}
            Feed::Add(m) => self.add(
                m.locate,
                m.order_ref,
                m.side,
                m.price,
                m.shares,
                m.symbol.as_str(),
            ),
            Feed::Executed(m) => self.execute(m.order_ref, m.executed_shares),
            Feed::Cancel(m) => self.cancel(m.order_ref, m.cancelled_shares),
            Feed::Delete(m) => self.delete(m.order_ref),
            Feed::Trade(m) => self.trade(m.locate, m.price, m.shares, m.symbol.as_str()),
        }
    }
}
