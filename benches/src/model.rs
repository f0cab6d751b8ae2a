//! The canonical model of the reference messages (R1, R2, R6 of
//! `benches/reference.md`), their samples and checksums.
//!
//! The serde, rkyv and wiremsg derives sit on the model itself because that
//! is how users of those crates use them (wiremsg's also generate the
//! `*View` types, e.g. [`OrderView`], that `formats::wiremsg` reads through);
//! prost and FlatBuffers need their own types (see `formats`). The one serde exception is R1 in JSON (see
//! `formats::json`).

use crate::checksum::Fold;

/// A reference message: its sample value and the checksum every format's
/// read path must reproduce.
pub trait Message: std::fmt::Debug + Clone + PartialEq + 'static {
    /// Table heading, e.g. `R1 LoginRequest`.
    const NAME: &'static str;
    /// The sample value from the reference.
    fn sample() -> Self;
    /// Checksum of every field (see [`Fold`]).
    fn checksum(&self) -> u64;
}

/// R1: login request (C++ article, Protobuf vs JSON).
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct LoginRequest {
    /// User name.
    pub username: String,
    /// Password, in clear as in the article.
    pub password: String,
    /// One-time MFA token, absent in the sample.
    pub mfa_token: Option<String>,
}

impl Message for LoginRequest {
    const NAME: &'static str = "R1 LoginRequest";

    fn sample() -> Self {
        Self {
            username: "hpn_user".into(),
            password: "secure_password_123".into(),
            mfa_token: None,
        }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.str(&self.username);
        f.str(&self.password);
        f.opt_str(self.mfa_token.as_deref());
        f.finish()
    }
}

/// R2: customer of an [`Order`].
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct Customer {
    /// Customer id.
    pub id: i64,
    /// Display name (multi-byte UTF-8 in the sample).
    pub name: String,
    /// E-mail address.
    pub email: String,
}

/// R2: one line of an [`Order`].
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct LineItem {
    /// Stock-keeping unit.
    pub sku: String,
    /// Product name.
    pub name: String,
    /// Units ordered.
    pub quantity: i32,
    /// Price of one unit.
    pub unit_price: f64,
    /// Discount on the line (often 0).
    pub discount: f64,
}

/// R2: order with line items (Go article, encoding/json).
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
pub struct Order {
    /// Order id.
    pub id: i64,
    /// Who ordered.
    pub customer: Customer,
    /// What was ordered (5 lines in the sample).
    pub items: Vec<LineItem>,
    /// Free text (often empty).
    pub note: String,
}

fn item(sku: &str, name: &str, quantity: i32, unit_price: f64, discount: f64) -> LineItem {
    LineItem {
        sku: sku.into(),
        name: name.into(),
        quantity,
        unit_price,
        discount,
    }
}

impl Message for Order {
    const NAME: &'static str = "R2 Order";

    fn sample() -> Self {
        Self {
            id: 20_261_129_001,
            customer: Customer {
                id: 42,
                name: "Trần Thị Bích".into(),
                email: "tran.thi.bich@example.com".into(),
            },
            items: vec![
                item("SKU-0001", "Cà phê sữa đá 500ml", 2, 35000.0, 0.0),
                item("SKU-0002", "Bánh mì thịt nướng", 1, 25000.0, 2000.0),
                item("SKU-0003", "Trà đào cam sả", 3, 45000.0, 0.0),
                item("SKU-0004", "Nước suối 350ml", 6, 5000.0, 0.0),
                item("SKU-0005", "Bánh flan caramel", 2, 18000.0, 1500.0),
            ],
            note: String::new(),
        }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.i64(self.id);
        f.i64(self.customer.id);
        f.str(&self.customer.name);
        f.str(&self.customer.email);
        f.len(self.items.len());
        for it in &self.items {
            f.str(&it.sku);
            f.str(&it.name);
            f.i64(i64::from(it.quantity));
            f.f64(it.unit_price);
            f.f64(it.discount);
        }
        f.str(&self.note);
        f.finish()
    }
}

/// R6: side of the book.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireEnum,
)]
#[rkyv(derive(Debug))]
#[repr(u8)]
pub enum Side {
    /// Bid side.
    Buy = 0,
    /// Ask side.
    Sell = 1,
}

impl Side {
    /// The side for a wire value, if it is one.
    pub const fn from_u8(value: u8) -> Option<Self> {
        match value {
            0 => Some(Self::Buy),
            1 => Some(Self::Sell),
            _ => None,
        }
    }
}

/// R6: a top-of-book tick, fixed-size (HFT market data).
///
/// Prices are fixed-point with 4 decimal places (`1` = 0.0001). Template id 1 of
/// schema 6: the ids of its message in the SBE peer's schema (`schema/sbe.xml`, made
/// from these types), so that its header is SBE's too; no bench writes a header.
#[derive(
    Debug,
    Clone,
    PartialEq,
    serde::Serialize,
    serde::Deserialize,
    rkyv::Archive,
    rkyv::Serialize,
    rkyv::Deserialize,
    wiremsg::WireMsg,
)]
#[rkyv(derive(Debug))]
#[wire(template_id = 1, schema_id = 6)]
pub struct Tick {
    /// Feed sequence number.
    pub sequence: u64,
    /// Exchange timestamp, nanoseconds since the Unix epoch.
    pub timestamp_ns: u64,
    /// Symbol, ASCII, space padded.
    pub symbol: [u8; 8],
    /// Best bid, fixed-point 4 decimals.
    pub bid_price: i64,
    /// Size at the best bid.
    pub bid_size: u32,
    /// Best ask, fixed-point 4 decimals.
    pub ask_price: i64,
    /// Size at the best ask.
    pub ask_size: u32,
    /// Side of the event.
    pub side: Side,
    /// Event flags (bit 0 in the sample).
    pub flags: u8,
}

impl Message for Tick {
    const NAME: &'static str = "R6 Tick";

    fn sample() -> Self {
        Self {
            sequence: 1_000_042,
            timestamp_ns: 1_764_000_000_123_456_789,
            symbol: *b"AAPL    ",
            bid_price: 2_345_600,
            bid_size: 300,
            ask_price: 2_345_700,
            ask_size: 200,
            side: Side::Buy,
            flags: 0b0000_0001,
        }
    }

    fn checksum(&self) -> u64 {
        let mut f = Fold::new();
        f.u64(self.sequence);
        f.u64(self.timestamp_ns);
        f.u64(u64::from_le_bytes(self.symbol));
        f.i64(self.bid_price);
        f.u64(u64::from(self.bid_size));
        f.i64(self.ask_price);
        f.u64(u64::from(self.ask_size));
        f.u64(self.side as u64);
        f.u64(u64::from(self.flags));
        f.finish()
    }
}
