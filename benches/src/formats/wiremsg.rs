//! wiremsg: zero-copy views over the encoding of the model types (derives on
//! the model, like rkyv), little-endian, no padding, no alignment.
//!
//! Requirements: none on alignment (views read unaligned little-endian
//! fields), so the aligned buffer the harness reads from is not needed, only
//! tolerated. Encoding appends to a reused `Vec<u8>` (cleared first) with
//! [`WireMsg::encode`]. `read` validates once with [`WireMsg::view`] (bounds,
//! offsets, UTF-8, enum values, list shapes), `read_unchecked` skips that
//! with [`::wiremsg::view_unchecked`]; both fold every field through the
//! view's accessors, in place (strings are `&str` into the buffer, lists are
//! iterated, nested messages are their own views). `decode` is
//! [`WireMsg::decode`] into the owned model.

use crate::format::Valid;
use ::wiremsg::{DecodeField, WireMsg};

use crate::checksum::Fold;
use crate::format::Format;
use crate::model::{
    CustomerView, LineItemView, LoginRequest, LoginRequestView, Message, Order, OrderView, Tick,
    TickView,
};

/// Column name.
pub const NAME: &str = "wiremsg";

/// wiremsg with a reused output buffer.
#[derive(Debug, Default)]
pub struct Wiremsg {
    pub(crate) buf: Vec<u8>,
}

/// Folds a message's view in place, in the model's field order (the same
/// [`Fold`] calls as [`Message::checksum`] on the owned value).
pub trait FoldView: WireMsg {
    /// Checksum of every field, read through `view`.
    fn fold_view(view: Self::View<'_>) -> u64;
}

impl FoldView for LoginRequest {
    fn fold_view(m: LoginRequestView<'_>) -> u64 {
        let mut f = Fold::new();
        f.str(m.username());
        f.str(m.password());
        f.opt_str(m.mfa_token());
        f.finish()
    }
}

fn fold_customer(f: &mut Fold, c: CustomerView<'_>) {
    f.i64(c.id());
    f.str(c.name());
    f.str(c.email());
}

fn fold_line_item(f: &mut Fold, it: LineItemView<'_>) {
    f.str(it.sku());
    f.str(it.name());
    f.i64(i64::from(it.quantity()));
    f.f64(it.unit_price());
    f.f64(it.discount());
}

impl FoldView for Order {
    fn fold_view(m: OrderView<'_>) -> u64 {
        let items = m.items();
        let mut f = Fold::new();
        f.i64(m.id());
        fold_customer(&mut f, m.customer());
        f.len(items.len());
        for it in items {
            fold_line_item(&mut f, it);
        }
        f.str(m.note());
        f.finish()
    }
}

impl FoldView for Tick {
    fn fold_view(m: TickView<'_>) -> u64 {
        let mut f = Fold::new();
        f.u64(m.sequence());
        f.u64(m.timestamp_ns());
        f.u64(u64::from_le_bytes(m.symbol().to_array()));
        f.i64(m.bid_price());
        f.u64(u64::from(m.bid_size()));
        f.i64(m.ask_price());
        f.u64(u64::from(m.ask_size()));
        f.u64(m.side() as u64);
        f.u64(u64::from(m.flags()));
        f.finish()
    }
}

impl<M> Format<M> for Wiremsg
where
    M: Message + FoldView + for<'v> DecodeField<'v>,
{
    fn name(&self) -> &'static str {
        NAME
    }

    #[inline]
    fn encode(&mut self, msg: &M) -> &[u8] {
        self.buf.clear();
        msg.encode(&mut self.buf)
            .expect("wiremsg: the samples are far below the 4 GiB limit");
        &self.buf
    }

    #[inline]
    fn read(&self, bytes: &[u8]) -> u64 {
        M::fold_view(M::view(bytes).valid("wiremsg"))
    }

    #[inline]
    unsafe fn read_unchecked(&self, bytes: &[u8]) -> Option<u64> {
        // SAFETY: the caller guarantees `bytes` is what `encode` wrote for an
        // `M`, and `M::view` accepts every encoding of an `M`.
        let view = unsafe { ::wiremsg::view_unchecked::<M>(bytes) };
        Some(M::fold_view(view))
    }

    #[inline]
    fn decode(&self, bytes: &[u8]) -> M {
        M::decode(bytes).valid("wiremsg")
    }
}
