//! A deterministic trading session: the exchange side of the `market_data` example.
//!
//! [`Session`] is an iterator of owned [`Feed`] messages. It keeps its own books with
//! every order in time priority (it is the matching engine), so each message it
//! emits is consistent: cancels and deletes name live orders, executions take the
//! oldest order at the best price, new orders never cross the book.
//!
//! The shape of the session, all from one seed:
//! - a few hundred symbols whose activity follows a Zipf-like law (locate 0 is the
//!   busiest), each with a mid price between $5 and $500 that moves by one tick
//!   ($0.01) now and then;
//! - new orders a few ticks from the mid, mostly round lots of 100 shares;
//! - about 47% adds, 41% deletes, 4% partial cancels, 6% executions and 2% trades
//!   with hidden orders (the mix of the default run), each book held between 20 and
//!   120 resting orders;
//! - nanosecond timestamps from 09:30 with exponential inter-arrival times
//!   (5 µs on average), three system events at the start and three at the end.

use crate::book::{Level, RefHasher};
use crate::itch::{
    AddOrder, EventCode, Feed, OrderCancel, OrderDelete, OrderExecuted, Side, SystemEvent, Trade,
};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::hash::BuildHasherDefault;
use wiremsg::FixedStr;

/// A small deterministic random number generator (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Exponentially distributed with mean `mean`.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -(1.0 - self.unit()).ln() * mean
    }
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionConfig {
    /// Messages in the session, system events included (at least 6).
    pub messages: u64,
    /// Instruments.
    pub symbols: usize,
    /// Seed of the random generator: the same seed gives the same session.
    pub seed: u64,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            messages: 2_000_000,
            symbols: 300,
            seed: 1,
        }
    }
}

/// Price of one tick: $0.01 with 4 decimal places.
const TICK: i64 = 100;
/// 09:30:00 in nanoseconds since midnight.
const OPEN_NS: u64 = 34_200 * 1_000_000_000;
/// Mean time between two messages.
const MEAN_GAP_NS: f64 = 5_000.0;
/// A book with fewer resting orders only gets new ones.
const MIN_DEPTH: usize = 20;
/// A book with this many resting orders gets no new ones.
const MAX_DEPTH: usize = 120;

#[derive(Debug)]
struct Instrument {
    symbol: FixedStr<8>,
    mid: i64,
    /// Price -> order references in time priority.
    bids: BTreeMap<i64, VecDeque<u64>>,
    asks: BTreeMap<i64, VecDeque<u64>>,
    /// Every live order, for picking one at random.
    live: Vec<u64>,
}

impl Instrument {
    fn side(&self, side: Side) -> &BTreeMap<i64, VecDeque<u64>> {
        match side {
            Side::Buy => &self.bids,
            Side::Sell => &self.asks,
        }
    }

    fn side_mut(&mut self, side: Side) -> &mut BTreeMap<i64, VecDeque<u64>> {
        match side {
            Side::Buy => &mut self.bids,
            Side::Sell => &mut self.asks,
        }
    }

    fn best(&self, side: Side) -> Option<i64> {
        match side {
            Side::Buy => self.bids.keys().next_back().copied(),
            Side::Sell => self.asks.keys().next().copied(),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct LiveOrder {
    locate: u16,
    side: Side,
    price: i64,
    shares: u32,
    /// Index in its instrument's `live`.
    slot: usize,
}

/// The phase of the session: opening events, trading, closing events, done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Opening(usize),
    Trading,
    Closing(usize),
    Done,
}

const OPENING: [EventCode; 3] = [
    EventCode::StartOfMessages,
    EventCode::StartOfSystemHours,
    EventCode::StartOfMarketHours,
];
const CLOSING: [EventCode; 3] = [
    EventCode::EndOfMarketHours,
    EventCode::EndOfSystemHours,
    EventCode::EndOfMessages,
];

/// A deterministic session of [`Feed`] messages; see the [module docs](self).
#[derive(Debug)]
pub struct Session {
    config: SessionConfig,
    rng: Rng,
    instruments: Vec<Instrument>,
    /// Cumulative activity weights of the instruments.
    cumulative: Vec<f64>,
    orders: HashMap<u64, LiveOrder, BuildHasherDefault<RefHasher>>,
    next_ref: u64,
    next_match: u64,
    sequence: u64,
    clock_ns: u64,
    phase: Phase,
}

impl Session {
    /// A new session; the same config gives the same messages.
    pub fn new(config: SessionConfig) -> Self {
        let symbols = config.symbols.clamp(1, usize::from(u16::MAX));
        let mut rng = Rng::new(config.seed);
        let mut seen = HashSet::new();
        let mut instruments = Vec::with_capacity(symbols);
        while instruments.len() < symbols {
            // Mostly 3- and 4-letter tickers, some of 1, 2 or 5 letters.
            let len = [1, 2, 3, 3, 3, 4, 4, 4, 4, 5][rng.below(10) as usize];
            let text: String = (0..len)
                .map(|_| char::from(b'A' + rng.below(26) as u8))
                .collect();
            if !seen.insert(text.clone()) {
                continue;
            }
            // Log-uniform between $5 and $500, on the tick.
            let dollars = (5f64.ln() + rng.unit() * (100f64).ln()).exp();
            let mid = (dollars * 100.0).round() as i64 * TICK;
            instruments.push(Instrument {
                symbol: FixedStr::new(&text).expect("ticker fits 8 bytes"),
                mid,
                bids: BTreeMap::new(),
                asks: BTreeMap::new(),
                live: Vec::new(),
            });
        }
        let mut total = 0.0;
        let cumulative = (0..symbols)
            .map(|i| {
                total += 1.0 / ((i + 1) as f64).powf(0.8);
                total
            })
            .collect();
        Session {
            config,
            rng,
            instruments,
            cumulative,
            orders: HashMap::with_capacity_and_hasher(symbols * MAX_DEPTH, Default::default()),
            next_ref: 1,
            next_match: 1,
            sequence: 0,
            clock_ns: OPEN_NS,
            phase: if config.messages >= 6 {
                Phase::Opening(0)
            } else {
                Phase::Done
            },
        }
    }

    /// The config the session was made from.
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// The symbol of instrument `locate`.
    pub fn symbol(&self, locate: u16) -> Option<&str> {
        self.instruments
            .get(usize::from(locate))
            .map(|i| i.symbol.as_str())
    }

    /// The exchange's own price levels of instrument `locate` on `side`, best first:
    /// what a correct feed handler must rebuild.
    pub fn levels(&self, locate: u16, side: Side) -> Vec<Level> {
        let Some(instrument) = self.instruments.get(usize::from(locate)) else {
            return Vec::new();
        };
        let level = |(&price, queue): (&i64, &VecDeque<u64>)| Level {
            price,
            shares: queue.iter().map(|r| u64::from(self.orders[r].shares)).sum(),
            orders: queue.len() as u32,
        };
        let levels = instrument.side(side).iter().map(level);
        match side {
            Side::Buy => levels.rev().collect(),
            Side::Sell => levels.collect(),
        }
    }

    /// Orders resting on all the exchange's books.
    pub fn resting_orders(&self) -> usize {
        self.orders.len()
    }

    fn next_header(&mut self) -> (u64, u64) {
        self.sequence += 1;
        self.clock_ns += self.rng.exponential(MEAN_GAP_NS) as u64 + 1;
        (self.sequence, self.clock_ns)
    }

    fn system(&mut self, event: EventCode) -> Feed {
        let (sequence, timestamp_ns) = self.next_header();
        Feed::System(SystemEvent {
            sequence,
            timestamp_ns,
            event,
        })
    }

    fn pick_instrument(&mut self) -> usize {
        let total = *self.cumulative.last().expect("at least one symbol");
        let x = self.rng.unit() * total;
        self.cumulative
            .partition_point(|&c| c <= x)
            .min(self.instruments.len() - 1)
    }

    fn shares(&mut self) -> u32 {
        if self.rng.chance(0.1) {
            1 + self.rng.below(99) as u32
        } else {
            100 * (1 + (self.rng.exponential(2.0) as u32).min(49))
        }
    }

    fn trading(&mut self) -> Feed {
        let at = self.pick_instrument();
        if self.rng.chance(0.04) {
            let step = if self.rng.chance(0.5) { TICK } else { -TICK };
            let mid = &mut self.instruments[at].mid;
            *mid = (*mid + step).max(10 * TICK);
        }
        let live = self.instruments[at].live.len();
        let r = self.rng.unit();
        if live < MIN_DEPTH || (r < 0.49 && live < MAX_DEPTH) {
            self.add(at)
        } else if r < 0.88 {
            self.delete(at)
        } else if r < 0.92 {
            self.cancel(at)
        } else if r < 0.98 {
            self.execute(at)
        } else {
            self.hidden_trade(at)
        }
    }

    fn add(&mut self, at: usize) -> Feed {
        let side = if self.rng.chance(0.5) {
            Side::Buy
        } else {
            Side::Sell
        };
        let ticks = 1 + (self.rng.exponential(3.0) as i64).min(50);
        let instrument = &self.instruments[at];
        let price = match side {
            Side::Buy => {
                let price = instrument.mid - ticks * TICK;
                let below_ask = instrument.best(Side::Sell).map_or(price, |a| a - TICK);
                price.min(below_ask).max(TICK)
            }
            Side::Sell => {
                let price = instrument.mid + ticks * TICK;
                let above_bid = instrument.best(Side::Buy).map_or(price, |b| b + TICK);
                price.max(above_bid)
            }
        };
        let shares = self.shares();
        let order_ref = self.next_ref;
        self.next_ref += 1;
        let locate = at as u16;
        let instrument = &mut self.instruments[at];
        instrument
            .side_mut(side)
            .entry(price)
            .or_default()
            .push_back(order_ref);
        instrument.live.push(order_ref);
        let symbol = instrument.symbol;
        self.orders.insert(
            order_ref,
            LiveOrder {
                locate,
                side,
                price,
                shares,
                slot: instrument.live.len() - 1,
            },
        );
        let (sequence, timestamp_ns) = self.next_header();
        Feed::Add(AddOrder {
            sequence,
            timestamp_ns,
            locate,
            order_ref,
            side,
            shares,
            symbol,
            price,
        })
    }

    fn random_live(&mut self, at: usize) -> u64 {
        let live = &self.instruments[at].live;
        live[self.rng.below(live.len() as u64) as usize]
    }

    /// Takes an order off the exchange's book.
    fn remove(&mut self, order_ref: u64) {
        let order = self.orders.remove(&order_ref).expect("live order");
        let instrument = &mut self.instruments[usize::from(order.locate)];
        let book = instrument.side_mut(order.side);
        let queue = book.get_mut(&order.price).expect("level of a live order");
        let pos = queue
            .iter()
            .position(|&r| r == order_ref)
            .expect("order in its level");
        queue.remove(pos);
        if queue.is_empty() {
            book.remove(&order.price);
        }
        instrument.live.swap_remove(order.slot);
        if let Some(&moved) = instrument.live.get(order.slot) {
            self.orders.get_mut(&moved).expect("live order").slot = order.slot;
        }
    }

    fn delete(&mut self, at: usize) -> Feed {
        let order_ref = self.random_live(at);
        self.remove(order_ref);
        let (sequence, timestamp_ns) = self.next_header();
        Feed::Delete(OrderDelete {
            sequence,
            timestamp_ns,
            locate: at as u16,
            order_ref,
        })
    }

    fn cancel(&mut self, at: usize) -> Feed {
        let order_ref = self.random_live(at);
        let order = self.orders.get_mut(&order_ref).expect("live order");
        if order.shares < 2 {
            return self.delete(at);
        }
        // Cancel part of the order, in round lots when it has them.
        let cancelled_shares = if order.shares > 100 && order.shares.is_multiple_of(100) {
            100 * (1 + self.rng.below(u64::from(order.shares / 100 - 1)) as u32)
        } else {
            1 + self.rng.below(u64::from(order.shares - 1)) as u32
        };
        order.shares -= cancelled_shares;
        let (sequence, timestamp_ns) = self.next_header();
        Feed::Cancel(OrderCancel {
            sequence,
            timestamp_ns,
            locate: at as u16,
            order_ref,
            cancelled_shares,
        })
    }

    fn execute(&mut self, at: usize) -> Feed {
        // An incoming marketable order takes the oldest order at the best price.
        let mut side = if self.rng.chance(0.5) {
            Side::Buy
        } else {
            Side::Sell
        };
        if self.instruments[at].side(side).is_empty() {
            side = match side {
                Side::Buy => Side::Sell,
                Side::Sell => Side::Buy,
            };
        }
        let instrument = &self.instruments[at];
        let best = instrument.best(side).expect("a book with orders");
        let order_ref = instrument.side(side)[&best][0];
        let remaining = self.orders[&order_ref].shares;
        let executed_shares = if remaining < 2 || self.rng.chance(0.6) {
            remaining
        } else {
            1 + self.rng.below(u64::from(remaining - 1)) as u32
        };
        if executed_shares == remaining {
            self.remove(order_ref);
        } else if let Some(order) = self.orders.get_mut(&order_ref) {
            order.shares -= executed_shares;
        }
        let match_number = self.next_match;
        self.next_match += 1;
        let (sequence, timestamp_ns) = self.next_header();
        Feed::Executed(OrderExecuted {
            sequence,
            timestamp_ns,
            locate: at as u16,
            order_ref,
            executed_shares,
            match_number,
        })
    }

    fn hidden_trade(&mut self, at: usize) -> Feed {
        let side = if self.rng.chance(0.5) {
            Side::Buy
        } else {
            Side::Sell
        };
        let shares = self.shares();
        let instrument = &self.instruments[at];
        let (symbol, price) = (instrument.symbol, instrument.mid);
        let match_number = self.next_match;
        self.next_match += 1;
        let (sequence, timestamp_ns) = self.next_header();
        Feed::Trade(Trade {
            sequence,
            timestamp_ns,
            locate: at as u16,
            // ITCH sends 0 here: hidden orders are not identified.
            order_ref: 0,
            side,
            shares,
            symbol,
            price,
            match_number,
        })
    }
}

impl Iterator for Session {
    type Item = Feed;

    fn next(&mut self) -> Option<Feed> {
        let message = match self.phase {
            Phase::Done => return None,
            Phase::Opening(i) => {
                self.phase = if i + 1 < OPENING.len() {
                    Phase::Opening(i + 1)
                } else if self.config.messages > 6 {
                    Phase::Trading
                } else {
                    Phase::Closing(0)
                };
                self.system(OPENING[i])
            }
            Phase::Trading => {
                let message = self.trading();
                if self.sequence + CLOSING.len() as u64 >= self.config.messages {
                    self.phase = Phase::Closing(0);
                }
                message
            }
            Phase::Closing(i) => {
                self.phase = if i + 1 < CLOSING.len() {
                    Phase::Closing(i + 1)
                } else {
                    Phase::Done
                };
                self.system(CLOSING[i])
            }
        };
        Some(message)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = match self.phase {
            Phase::Done => 0,
            _ => (self.config.messages - self.sequence) as usize,
        };
        (left, Some(left))
    }
}
