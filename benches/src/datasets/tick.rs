//! `tick`: R6 market tick (`benches/reference.md`), the model's sample: one
//! 50-byte all-fixed-size message, the case zerocopy is the limit for.
//!
//! `update` (and `update_unchecked`) overwrites the bid and ask prices and
//! sizes. One message has no elements to read sparsely: no `read_some` (nor
//! `read_some_lazy`). `read_lazy` reads every field through the on-demand
//! view.

use crate::format::Valid;
use rkyv::munge::munge;
use zerocopy::little_endian::{I64, U32, U64};
use zerocopy::{FromBytes, Immutable, IntoBytes, KnownLayout, Unaligned};

use super::{
    Codec, CodecVisitor, Dataset, Zerocopy, ids, keep, reference_codecs, rkyv_root_mut,
    visit_formats, wiremsg_mut,
};
use crate::checksum::Fold;
use crate::formats::capnp::{Capnp, capnp_methods, from_enum, message as capnp_message, to_enum};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;
use crate::formats::sbe::{Sbe, SbeMsg};
use crate::model::{ArchivedTick, Message, Side, Tick};

/// Prices and sizes `update` writes: `(bid_price, bid_size, ask_price, ask_size)`.
fn new_quote(round: u64) -> (i64, u32, i64, u32) {
    let r = round as i64;
    (r, round as u32, r + 100, (round as u32).wrapping_add(1))
}

impl Dataset for Tick {
    const NAME: &'static str = "tick";
    const LEN: usize = 1;

    fn generate(_len: usize) -> Self {
        <Self as Message>::sample()
    }

    fn checksum(&self) -> u64 {
        <Self as Message>::checksum(self)
    }

    fn apply_update(&mut self, round: u64) {
        (self.bid_price, self.bid_size, self.ask_price, self.ask_size) = new_quote(round);
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor, Zerocopy);
        visitor.visit::<Sbe>();
    }
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline]
unsafe fn wiremsg_update<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    let (bid_price, bid_size, ask_price, ask_size) = new_quote(round);
    // SAFETY: forwarded from the caller.
    let mut tick = unsafe { wiremsg_mut::<Tick, CHECKED>(bytes) };
    tick.set_bid_price(bid_price);
    tick.set_bid_size(bid_size);
    tick.set_ask_price(ask_price);
    tick.set_ask_size(ask_size);
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline]
unsafe fn rkyv_update<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    let (bp, bs, ap, asz) = new_quote(round);
    // SAFETY: forwarded from the caller.
    let tick = unsafe { rkyv_root_mut::<ArchivedTick, CHECKED>(bytes) };
    munge!(let ArchivedTick { mut bid_price, mut bid_size, mut ask_price, mut ask_size, .. } = tick);
    *bid_price = rkyv::Archived::<i64>::from_native(bp);
    *bid_size = rkyv::Archived::<u32>::from_native(bs);
    *ask_price = rkyv::Archived::<i64>::from_native(ap);
    *ask_size = rkyv::Archived::<u32>::from_native(asz);
}

/// `read_lazy`: the fold of `read` (`FoldView for Tick`), every field checked
/// as it is read.
#[inline]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let m = <Tick as wiremsg::WireMsg>::view_lazy(bytes)?;
    let mut f = Fold::new();
    f.u64(m.sequence()?);
    f.u64(m.timestamp_ns()?);
    f.u64(u64::from_le_bytes(m.symbol()?.to_array()));
    f.i64(m.bid_price()?);
    f.u64(u64::from(m.bid_size()?));
    f.i64(m.ask_price()?);
    f.u64(u64::from(m.ask_size()?));
    f.u64(m.side()? as u64);
    f.u64(u64::from(m.flags()?));
    Ok(f.finish())
}

reference_codecs!(
    Tick,
    ArchivedTick,
    fb::Tick<'_>,
    update: (wiremsg_update, rkyv_update),
    read_lazy: read_lazy_wiremsg,
);

/// The tick as a zerocopy struct: the model's fields in its order,
/// little-endian, no padding (the same 50 bytes as wiremsg's encoding).
#[derive(Debug, FromBytes, IntoBytes, KnownLayout, Immutable, Unaligned)]
#[repr(C)]
pub struct TickZc {
    /// Feed sequence number.
    pub sequence: U64,
    /// Exchange timestamp, ns.
    pub timestamp_ns: U64,
    /// Symbol, space padded.
    pub symbol: [u8; 8],
    /// Best bid, fixed-point.
    pub bid_price: I64,
    /// Size at the bid.
    pub bid_size: U32,
    /// Best ask, fixed-point.
    pub ask_price: I64,
    /// Size at the ask.
    pub ask_size: U32,
    /// [`Side`] as its `u8`.
    pub side: u8,
    /// Event flags.
    pub flags: u8,
}

fn fold_zc(t: &TickZc) -> u64 {
    let mut f = Fold::new();
    f.u64(t.sequence.get());
    f.u64(t.timestamp_ns.get());
    f.u64(u64::from_le_bytes(t.symbol));
    f.i64(t.bid_price.get());
    f.u64(u64::from(t.bid_size.get()));
    f.i64(t.ask_price.get());
    f.u64(u64::from(t.ask_size.get()));
    f.u64(u64::from(t.side));
    f.u64(u64::from(t.flags));
    f.finish()
}

fn zc(bytes: &[u8]) -> &TickZc {
    TickZc::ref_from_bytes(bytes).valid("zerocopy")
}

impl Codec<Tick> for Zerocopy {
    const ID: &'static str = ids::ZEROCOPY;

    fn encode(&mut self, t: &Tick) -> &[u8] {
        let zc = TickZc {
            sequence: t.sequence.into(),
            timestamp_ns: t.timestamp_ns.into(),
            symbol: t.symbol,
            bid_price: t.bid_price.into(),
            bid_size: t.bid_size.into(),
            ask_price: t.ask_price.into(),
            ask_size: t.ask_size.into(),
            side: t.side as u8,
            flags: t.flags,
        };
        self.buf.clear();
        self.buf.extend_from_slice(zc.as_bytes());
        &self.buf
    }

    fn decode(&self, bytes: &[u8]) -> Tick {
        let t = zc(bytes);
        Tick {
            sequence: t.sequence.get(),
            timestamp_ns: t.timestamp_ns.get(),
            symbol: t.symbol,
            bid_price: t.bid_price.get(),
            bid_size: t.bid_size.get(),
            ask_price: t.ask_price.get(),
            ask_size: t.ask_size.get(),
            side: Side::from_u8(t.side).expect("zerocopy: side is not a Side"),
            flags: t.flags,
        }
    }

    fn access(&self, bytes: &[u8]) -> Option<()> {
        keep(zc(bytes))
    }

    fn read(&self, bytes: &[u8]) -> Option<u64> {
        Some(fold_zc(zc(bytes)))
    }

    fn update(&self, bytes: &mut [u8], round: u64) -> Option<()> {
        let (bid_price, bid_size, ask_price, ask_size) = new_quote(round);
        let t = TickZc::mut_from_bytes(bytes).valid("zerocopy");
        t.bid_price.set(bid_price);
        t.bid_size.set(bid_size);
        t.ask_price.set(ask_price);
        t.ask_size.set(ask_size);
        Some(())
    }
}

impl Codec<Tick> for Sbe {
    const ID: &'static str = ids::SBE;

    fn encode(&mut self, data: &Tick) -> &[u8] {
        crate::Format::<Tick>::encode(self, data)
    }

    fn decode(&self, bytes: &[u8]) -> Tick {
        crate::Format::<Tick>::decode(self, bytes)
    }

    fn read(&self, bytes: &[u8]) -> Option<u64> {
        Some(crate::Format::<Tick>::read(self, bytes))
    }

    unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
        let mut f = Fold::new();
        Tick::fold_sbe_unchecked(bytes, &mut f);
        Some(f.finish())
    }
}

// ---- capnp ----

/// capnp's `read`: every field (all in the root's data section: the root
/// pointer is the only check; `side` is checked against the schema).
#[inline]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let m = message.get_root::<pc::tick::Reader<'_>>()?;
    let mut f = Fold::new();
    f.u64(m.get_sequence());
    f.u64(m.get_timestamp_ns());
    f.u64(m.get_symbol());
    f.i64(m.get_bid_price());
    f.u64(u64::from(m.get_bid_size()));
    f.i64(m.get_ask_price());
    f.u64(u64::from(m.get_ask_size()));
    f.u64(u64::from(u16::from(m.get_side()?)));
    f.u64(u64::from(m.get_flags()));
    Ok(f.finish())
}

impl Codec<Tick> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &Tick) -> &[u8] {
        self.encode_root::<pc::tick::Owned>(|mut root| {
            root.set_sequence(data.sequence);
            root.set_timestamp_ns(data.timestamp_ns);
            root.set_symbol(u64::from_le_bytes(data.symbol));
            root.set_bid_price(data.bid_price);
            root.set_bid_size(data.bid_size);
            root.set_ask_price(data.ask_price);
            root.set_ask_size(data.ask_size);
            root.set_side(to_enum(data.side as u8));
            root.set_flags(data.flags);
        })
    }

    fn decode(&self, bytes: &[u8]) -> Tick {
        let decode = || -> capnp::Result<Tick> {
            let message = capnp_message(bytes)?;
            let m = message.get_root::<pc::tick::Reader<'_>>()?;
            Ok(Tick {
                sequence: m.get_sequence(),
                timestamp_ns: m.get_timestamp_ns(),
                symbol: m.get_symbol().to_le_bytes(),
                bid_price: m.get_bid_price(),
                bid_size: m.get_bid_size(),
                ask_price: m.get_ask_price(),
                ask_size: m.get_ask_size(),
                side: from_enum(m.get_side()?),
                flags: m.get_flags(),
            })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::tick::Reader<'_>, read: read_capnp);
}

#[cfg(test)]
mod tests {
    use wiremsg::WireMsg;

    use super::*;
    use crate::formats::wiremsg::Wiremsg;

    #[test]
    fn zerocopy_struct_is_wiremsg_layout() {
        let tick = <Tick as Message>::sample();
        assert_eq!(size_of::<TickZc>(), Tick::BLOCK_LENGTH);
        let zc = Codec::<Tick>::encode(&mut Zerocopy::default(), &tick).to_vec();
        let wm = Codec::<Tick>::encode(&mut Wiremsg::default(), &tick).to_vec();
        assert_eq!(zc, wm);
    }
}
