//! Protocol Buffers via prost, proto3 semantics, no protoc: the message
//! types below are hand-written `#[derive(prost::Message)]` structs, i.e.
//! what prost-build would generate for this schema:
//!
//! ```proto
//! message LoginRequest { string username = 1; string password = 2; optional string mfa_token = 3; }
//! message Customer { int64 id = 1; string name = 2; string email = 3; }
//! message LineItem { string sku = 1; string name = 2; int32 quantity = 3; double unit_price = 4; double discount = 5; }
//! message Order { int64 id = 1; Customer customer = 2; repeated LineItem items = 3; string note = 4; }
//! message Tick { uint64 sequence = 1; fixed64 timestamp_ns = 2; fixed64 symbol = 3; int64 bid_price = 4;
//!                uint32 bid_size = 5; int64 ask_price = 6; uint32 ask_size = 7; uint32 side = 8; uint32 flags = 9; }
//! ```
//!
//! Tick is given Protobuf's best shot: the symbol's 8 bytes as a
//! little-endian `fixed64` (no allocation on decode, unlike `bytes`), and the
//! timestamp as `fixed64` (a varint of it would take 9 bytes). `side` is a
//! `uint32`; a proto `enum` has the same wire bytes.
//!
//! Encoding goes from the model straight to the wire with prost's encoding
//! primitives, writing exactly what the derived `encode` would (a unit test
//! checks the bytes), because building prost structs from the model first
//! would add a clone of every string that no other column pays. Reading
//! decodes into the prost structs (Protobuf has no in-place access, nor an
//! unchecked path) and folds their fields; `decode` then moves them into the
//! model.

use crate::format::Valid;
use prost::encoding::{WireType, encode_key, encode_varint, encoded_len_varint, key_len};

use crate::checksum::Fold;
use crate::format::Format;
use crate::model::{Customer, LineItem, LoginRequest, Order, Side, Tick};

/// Column name.
pub const NAME: &str = "Protobuf (prost)";

/// prost with a reused output buffer.
#[derive(Debug, Default)]
pub struct Protobuf {
    pub(crate) buf: Vec<u8>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct LoginRequestPb {
    #[prost(string, tag = "1")]
    username: String,
    #[prost(string, tag = "2")]
    password: String,
    #[prost(string, optional, tag = "3")]
    mfa_token: Option<String>,
}

#[derive(Clone, PartialEq, prost::Message)]
struct CustomerPb {
    #[prost(int64, tag = "1")]
    id: i64,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(string, tag = "3")]
    email: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct LineItemPb {
    #[prost(string, tag = "1")]
    sku: String,
    #[prost(string, tag = "2")]
    name: String,
    #[prost(int32, tag = "3")]
    quantity: i32,
    #[prost(double, tag = "4")]
    unit_price: f64,
    #[prost(double, tag = "5")]
    discount: f64,
}

#[derive(Clone, PartialEq, prost::Message)]
struct OrderPb {
    #[prost(int64, tag = "1")]
    id: i64,
    #[prost(message, optional, tag = "2")]
    customer: Option<CustomerPb>,
    #[prost(message, repeated, tag = "3")]
    items: Vec<LineItemPb>,
    #[prost(string, tag = "4")]
    note: String,
}

#[derive(Clone, PartialEq, prost::Message)]
struct TickPb {
    #[prost(uint64, tag = "1")]
    sequence: u64,
    #[prost(fixed64, tag = "2")]
    timestamp_ns: u64,
    #[prost(fixed64, tag = "3")]
    symbol: u64,
    #[prost(int64, tag = "4")]
    bid_price: i64,
    #[prost(uint32, tag = "5")]
    bid_size: u32,
    #[prost(int64, tag = "6")]
    ask_price: i64,
    #[prost(uint32, tag = "7")]
    ask_size: u32,
    #[prost(uint32, tag = "8")]
    side: u32,
    #[prost(uint32, tag = "9")]
    flags: u32,
}

// Field writers with proto3 implicit presence: default values are skipped,
// as the derived code does (`if value != default`).

pub(crate) fn str_len(tag: u32, s: &str) -> usize {
    if s.is_empty() {
        0
    } else {
        key_len(tag) + encoded_len_varint(s.len() as u64) + s.len()
    }
}

pub(crate) fn put_str(tag: u32, s: &str, buf: &mut Vec<u8>) {
    if !s.is_empty() {
        put_bytes_field(tag, s.as_bytes(), buf);
    }
}

pub(crate) fn put_bytes_field(tag: u32, bytes: &[u8], buf: &mut Vec<u8>) {
    encode_key(tag, WireType::LengthDelimited, buf);
    encode_varint(bytes.len() as u64, buf);
    buf.extend_from_slice(bytes);
}

/// Varint field; signed int32/int64 are passed sign-extended, as proto does.
pub(crate) fn varint_len(tag: u32, value: u64) -> usize {
    if value == 0 {
        0
    } else {
        key_len(tag) + encoded_len_varint(value)
    }
}

pub(crate) fn put_varint(tag: u32, value: u64, buf: &mut Vec<u8>) {
    if value != 0 {
        encode_key(tag, WireType::Varint, buf);
        encode_varint(value, buf);
    }
}

pub(crate) fn fixed64_len(tag: u32, is_default: bool) -> usize {
    if is_default { 0 } else { key_len(tag) + 8 }
}

pub(crate) fn put_fixed64(tag: u32, bits: u64, is_default: bool, buf: &mut Vec<u8>) {
    if !is_default {
        encode_key(tag, WireType::SixtyFourBit, buf);
        buf.extend_from_slice(&bits.to_le_bytes());
    }
}

pub(crate) fn fixed32_len(tag: u32, is_default: bool) -> usize {
    if is_default { 0 } else { key_len(tag) + 4 }
}

pub(crate) fn put_fixed32(tag: u32, bits: u32, is_default: bool, buf: &mut Vec<u8>) {
    if !is_default {
        encode_key(tag, WireType::ThirtyTwoBit, buf);
        buf.extend_from_slice(&bits.to_le_bytes());
    }
}

fn customer_len(c: &Customer) -> usize {
    varint_len(1, c.id as u64) + str_len(2, &c.name) + str_len(3, &c.email)
}

fn item_len(it: &LineItem) -> usize {
    str_len(1, &it.sku)
        + str_len(2, &it.name)
        + varint_len(3, i64::from(it.quantity) as u64)
        + fixed64_len(4, it.unit_price == 0.0)
        + fixed64_len(5, it.discount == 0.0)
}

pub(crate) fn put_message_header(tag: u32, len: usize, buf: &mut Vec<u8>) {
    encode_key(tag, WireType::LengthDelimited, buf);
    encode_varint(len as u64, buf);
}

fn encode_login(m: &LoginRequest, buf: &mut Vec<u8>) {
    put_str(1, &m.username, buf);
    put_str(2, &m.password, buf);
    // `optional`: explicit presence, so Some("") is written.
    if let Some(token) = &m.mfa_token {
        put_bytes_field(3, token.as_bytes(), buf);
    }
}

fn encode_order(m: &Order, buf: &mut Vec<u8>) {
    put_varint(1, m.id as u64, buf);
    let c = &m.customer;
    put_message_header(2, customer_len(c), buf);
    put_varint(1, c.id as u64, buf);
    put_str(2, &c.name, buf);
    put_str(3, &c.email, buf);
    for it in &m.items {
        put_message_header(3, item_len(it), buf);
        put_str(1, &it.sku, buf);
        put_str(2, &it.name, buf);
        put_varint(3, i64::from(it.quantity) as u64, buf);
        put_fixed64(4, it.unit_price.to_bits(), it.unit_price == 0.0, buf);
        put_fixed64(5, it.discount.to_bits(), it.discount == 0.0, buf);
    }
    put_str(4, &m.note, buf);
}

fn encode_tick(m: &Tick, buf: &mut Vec<u8>) {
    put_varint(1, m.sequence, buf);
    put_fixed64(2, m.timestamp_ns, m.timestamp_ns == 0, buf);
    let symbol = u64::from_le_bytes(m.symbol);
    put_fixed64(3, symbol, symbol == 0, buf);
    put_varint(4, m.bid_price as u64, buf);
    put_varint(5, u64::from(m.bid_size), buf);
    put_varint(6, m.ask_price as u64, buf);
    put_varint(7, u64::from(m.ask_size), buf);
    put_varint(8, m.side as u64, buf);
    put_varint(9, u64::from(m.flags), buf);
}

pub(crate) fn decode_pb<T: prost::Message + Default>(bytes: &[u8]) -> T {
    T::decode(bytes).valid("prost")
}

impl Format<LoginRequest> for Protobuf {
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &LoginRequest) -> &[u8] {
        self.buf.clear();
        encode_login(msg, &mut self.buf);
        &self.buf
    }

    #[inline]
    fn read(&self, bytes: &[u8]) -> u64 {
        let m: LoginRequestPb = decode_pb(bytes);
        let mut f = Fold::new();
        f.str(&m.username);
        f.str(&m.password);
        f.opt_str(m.mfa_token.as_deref());
        f.finish()
    }

    #[inline]
    unsafe fn read_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    #[inline]
    fn decode(&self, bytes: &[u8]) -> LoginRequest {
        let m: LoginRequestPb = decode_pb(bytes);
        LoginRequest {
            username: m.username,
            password: m.password,
            mfa_token: m.mfa_token,
        }
    }
}

impl Format<Order> for Protobuf {
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &Order) -> &[u8] {
        self.buf.clear();
        encode_order(msg, &mut self.buf);
        &self.buf
    }

    #[inline]
    fn read(&self, bytes: &[u8]) -> u64 {
        let m: OrderPb = decode_pb(bytes);
        // proto3: an absent message field reads as its default.
        let c = m.customer.unwrap_or_default();
        let mut f = Fold::new();
        f.i64(m.id);
        f.i64(c.id);
        f.str(&c.name);
        f.str(&c.email);
        f.len(m.items.len());
        for it in &m.items {
            f.str(&it.sku);
            f.str(&it.name);
            f.i64(i64::from(it.quantity));
            f.f64(it.unit_price);
            f.f64(it.discount);
        }
        f.str(&m.note);
        f.finish()
    }

    #[inline]
    unsafe fn read_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    #[inline]
    fn decode(&self, bytes: &[u8]) -> Order {
        let m: OrderPb = decode_pb(bytes);
        let c = m.customer.unwrap_or_default();
        Order {
            id: m.id,
            customer: Customer {
                id: c.id,
                name: c.name,
                email: c.email,
            },
            items: m
                .items
                .into_iter()
                .map(|it| LineItem {
                    sku: it.sku,
                    name: it.name,
                    quantity: it.quantity,
                    unit_price: it.unit_price,
                    discount: it.discount,
                })
                .collect(),
            note: m.note,
        }
    }
}

impl Format<Tick> for Protobuf {
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &Tick) -> &[u8] {
        self.buf.clear();
        encode_tick(msg, &mut self.buf);
        &self.buf
    }

    #[inline]
    fn read(&self, bytes: &[u8]) -> u64 {
        let m: TickPb = decode_pb(bytes);
        let mut f = Fold::new();
        f.u64(m.sequence);
        f.u64(m.timestamp_ns);
        f.u64(m.symbol);
        f.i64(m.bid_price);
        f.u64(u64::from(m.bid_size));
        f.i64(m.ask_price);
        f.u64(u64::from(m.ask_size));
        f.u64(u64::from(m.side));
        f.u64(u64::from(m.flags));
        f.finish()
    }

    #[inline]
    unsafe fn read_unchecked(&self, _bytes: &[u8]) -> Option<u64> {
        None
    }

    #[inline]
    fn decode(&self, bytes: &[u8]) -> Tick {
        let m: TickPb = decode_pb(bytes);
        let narrow = |v: u32, what: &str| {
            u8::try_from(v).unwrap_or_else(|_| panic!("prost: {what} out of range"))
        };
        Tick {
            sequence: m.sequence,
            timestamp_ns: m.timestamp_ns,
            symbol: m.symbol.to_le_bytes(),
            bid_price: m.bid_price,
            bid_size: m.bid_size,
            ask_price: m.ask_price,
            ask_size: m.ask_size,
            side: Side::from_u8(narrow(m.side, "side")).expect("prost: side is not a Side"),
            flags: narrow(m.flags, "flags"),
        }
    }
}

#[cfg(test)]
mod tests {
    use prost::Message as _;

    use super::*;
    use crate::model::Message;

    /// The hand-written encoders must write what prost's derived `encode`
    /// writes for the same values.
    #[test]
    fn hand_encoding_matches_derived_encoding() {
        let login = LoginRequest::sample();
        let mut with_token = login.clone();
        with_token.mfa_token = Some(String::new());
        for m in [login, with_token] {
            let pb = LoginRequestPb {
                username: m.username.clone(),
                password: m.password.clone(),
                mfa_token: m.mfa_token.clone(),
            };
            let mut buf = Vec::new();
            encode_login(&m, &mut buf);
            assert_eq!(buf, pb.encode_to_vec());
        }

        let o = Order::sample();
        let pb = OrderPb {
            id: o.id,
            customer: Some(CustomerPb {
                id: o.customer.id,
                name: o.customer.name.clone(),
                email: o.customer.email.clone(),
            }),
            items: o
                .items
                .iter()
                .map(|it| LineItemPb {
                    sku: it.sku.clone(),
                    name: it.name.clone(),
                    quantity: it.quantity,
                    unit_price: it.unit_price,
                    discount: it.discount,
                })
                .collect(),
            note: o.note.clone(),
        };
        let mut buf = Vec::new();
        encode_order(&o, &mut buf);
        assert_eq!(buf, pb.encode_to_vec());

        let mut t = Tick::sample();
        for side in [Side::Buy, Side::Sell] {
            t.side = side;
            t.bid_price = -t.bid_price;
            let pb = TickPb {
                sequence: t.sequence,
                timestamp_ns: t.timestamp_ns,
                symbol: u64::from_le_bytes(t.symbol),
                bid_price: t.bid_price,
                bid_size: t.bid_size,
                ask_price: t.ask_price,
                ask_size: t.ask_size,
                side: t.side as u32,
                flags: u32::from(t.flags),
            };
            let mut buf = Vec::new();
            encode_tick(&t, &mut buf);
            assert_eq!(buf, pb.encode_to_vec());
        }
    }
}
