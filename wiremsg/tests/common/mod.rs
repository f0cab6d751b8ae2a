//! Message types and sample values shared by the integration tests: the reference
//! messages of `benches/reference.md` (R1 login, R2 order, R6 tick) and a recursive
//! message for the depth limit.
#![allow(dead_code)]

pub(crate) mod handmade;

use wiremsg::{FixedStr, WireEnum, WireMsg};

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct LoginRequest {
    pub(crate) username: String,
    pub(crate) password: String,
    pub(crate) mfa_token: Option<String>,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum LoginStatus {
    Success = 0,
    InvalidCredentials = 1,
    MfaRequired = 2,
    AccountLocked = 3,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct LoginResponse {
    pub(crate) status: LoginStatus,
    pub(crate) access_token: String,
    /// Unix seconds.
    pub(crate) expires_at: i64,
    pub(crate) error_message: String,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct Customer {
    pub(crate) id: i64,
    pub(crate) name: String,
    pub(crate) email: String,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct LineItem {
    pub(crate) sku: String,
    pub(crate) name: String,
    pub(crate) quantity: i32,
    pub(crate) unit_price: f64,
    pub(crate) discount: f64,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct Order {
    pub(crate) id: i64,
    pub(crate) customer: Customer,
    pub(crate) items: Vec<LineItem>,
    pub(crate) note: String,
}

#[derive(WireEnum, Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Side {
    Buy = 0,
    Sell = 1,
}

/// R6: prices are fixed point with 4 decimal places; timestamps in ns since midnight.
#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct Tick {
    pub(crate) sequence: u64,
    pub(crate) timestamp_ns: u64,
    pub(crate) symbol: FixedStr<8>,
    pub(crate) bid_price: i64,
    pub(crate) bid_size: u32,
    pub(crate) ask_price: i64,
    pub(crate) ask_size: u32,
    pub(crate) side: Side,
    pub(crate) flags: u8,
}

#[derive(WireMsg, Debug, Clone, PartialEq)]
pub(crate) struct Node {
    pub(crate) value: u32,
    pub(crate) children: Vec<Node>,
}

pub(crate) fn login() -> LoginRequest {
    LoginRequest {
        username: "hpn_user".into(),
        password: "secure_password_123".into(),
        mfa_token: None,
    }
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

/// The sample order of reference.md R2.
pub(crate) fn order() -> Order {
    Order {
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

pub(crate) fn tick() -> Tick {
    Tick {
        sequence: 1_000_042,
        timestamp_ns: 1_764_000_000_123_456_789,
        symbol: FixedStr::new("AAPL").unwrap(),
        bid_price: 2_345_600,
        bid_size: 300,
        ask_price: 2_345_700,
        ask_size: 200,
        side: Side::Buy,
        flags: 1,
    }
}

/// A chain of `depth` nested nodes.
pub(crate) fn chain(depth: u32) -> Node {
    let mut node = Node {
        value: depth,
        children: Vec::new(),
    };
    for value in (0..depth).rev() {
        node = Node {
            value,
            children: vec![node],
        };
    }
    node
}
