//! rkyv 0.8: zero-copy access to the archived form of the model types
//! (derives on the model), little-endian, 32-bit relative pointers (rkyv's
//! defaults).
//!
//! Requirements: the archived bytes must be read from an address aligned for
//! the root (8 bytes for these types), so encoding writes into an
//! `AlignedVec` and the harness hands every read an aligned copy. Reads fold
//! the archived fields in place (strings are not copied); `read` validates
//! the whole buffer with bytecheck first, `read_unchecked` trusts it.

use crate::format::Valid;
use rkyv::api::high::{HighDeserializer, HighSerializer, HighValidator};
use rkyv::bytecheck::CheckBytes;
use rkyv::rancor::Error;
use rkyv::ser::allocator::ArenaHandle;
use rkyv::util::AlignedVec;
use rkyv::{Archive, Deserialize, Serialize};

use crate::checksum::Fold;
use crate::format::Format;
use crate::model::{ArchivedLoginRequest, ArchivedOrder, ArchivedSide, ArchivedTick, Message};

/// Column name.
pub const NAME: &str = "rkyv";

/// rkyv with a reused aligned output buffer (serialization scratch space
/// comes from rkyv's reused thread-local arena).
#[derive(Debug, Default)]
pub struct Rkyv {
    pub(crate) buf: AlignedVec<16>,
}

/// Folds an archived message in place, in the model's field order.
pub trait FoldArchived {
    /// Checksum of every field (see [`Message::checksum`]).
    fn fold(&self) -> u64;
}

impl FoldArchived for ArchivedLoginRequest {
    fn fold(&self) -> u64 {
        let mut f = Fold::new();
        f.str(&self.username);
        f.str(&self.password);
        f.opt_str(self.mfa_token.as_ref().map(|s| s.as_str()));
        f.finish()
    }
}

impl FoldArchived for ArchivedOrder {
    fn fold(&self) -> u64 {
        let mut f = Fold::new();
        f.i64(self.id.to_native());
        f.i64(self.customer.id.to_native());
        f.str(&self.customer.name);
        f.str(&self.customer.email);
        f.len(self.items.len());
        for it in self.items.iter() {
            f.str(&it.sku);
            f.str(&it.name);
            f.i64(i64::from(it.quantity.to_native()));
            f.f64(it.unit_price.to_native());
            f.f64(it.discount.to_native());
        }
        f.str(&self.note);
        f.finish()
    }
}

impl FoldArchived for ArchivedTick {
    fn fold(&self) -> u64 {
        let side = match self.side {
            ArchivedSide::Buy => 0,
            ArchivedSide::Sell => 1,
        };
        let mut f = Fold::new();
        f.u64(self.sequence.to_native());
        f.u64(self.timestamp_ns.to_native());
        f.u64(u64::from_le_bytes(self.symbol));
        f.i64(self.bid_price.to_native());
        f.u64(u64::from(self.bid_size.to_native()));
        f.i64(self.ask_price.to_native());
        f.u64(u64::from(self.ask_size.to_native()));
        f.u64(side);
        f.u64(u64::from(self.flags));
        f.finish()
    }
}

impl<M> Format<M> for Rkyv
where
    M: Message
        + Archive
        + for<'a> Serialize<HighSerializer<AlignedVec<16>, ArenaHandle<'a>, Error>>,
    M::Archived: FoldArchived
        + for<'a> CheckBytes<HighValidator<'a, Error>>
        + Deserialize<M, HighDeserializer<Error>>,
{
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &M) -> &[u8] {
        // `to_bytes_in` takes its writer by value: move the buffer through
        // it to keep its capacity.
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.buf = rkyv::api::high::to_bytes_in::<_, Error>(msg, buf)
            .expect("rkyv: serialize into a Vec cannot fail");
        &self.buf
    }

    #[inline]
    fn read(&self, bytes: &[u8]) -> u64 {
        rkyv::access::<M::Archived, Error>(bytes)
            .valid("rkyv")
            .fold()
    }

    #[inline]
    unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
        // SAFETY: the caller guarantees `bytes` is what `encode` wrote for an
        // `M`, at an aligned address: a valid archive of `M` at the root.
        let archived = unsafe { rkyv::access_unchecked::<M::Archived>(bytes) };
        Some(archived.fold())
    }

    #[inline]
    fn decode(&self, bytes: &[u8]) -> M {
        let archived = rkyv::access::<M::Archived, Error>(bytes).valid("rkyv");
        rkyv::deserialize::<M, Error>(archived).expect("rkyv: deserialize")
    }
}
