//! `order`: R2 `Order` (`shared/reference.md`), the model's sample: a
//! customer, five line items with multi-byte UTF-8 names, an empty note.
//!
//! `update` overwrites the order id and every item's quantity (the fixed-size
//! fields a gateway amends in place).

use rkyv::munge::munge;
use rkyv::rancor::Error as RkyvError;
use rkyv::vec::ArchivedVec;
use wiremsg::WireMsg;

use super::{CodecVisitor, Dataset, reference_codecs, visit_formats};
use crate::formats::peers_generated::peers as fb;
use crate::model::{ArchivedLineItem, ArchivedOrder, Message, Order};

/// The id `update` writes.
fn new_id(round: u64) -> i64 {
    round as i64
}

/// The quantity `update` writes into item `index`.
fn new_quantity(round: u64, index: usize) -> i32 {
    (round as i32).wrapping_add(index as i32)
}

impl Dataset for Order {
    const NAME: &'static str = "order";
    const LEN: usize = 1;

    fn generate(_len: usize) -> Self {
        <Self as Message>::sample()
    }

    fn checksum(&self) -> u64 {
        <Self as Message>::checksum(self)
    }

    fn apply_update(&mut self, round: u64) {
        self.id = new_id(round);
        for (i, item) in self.items.iter_mut().enumerate() {
            item.quantity = new_quantity(round, i);
        }
    }

    fn codecs<V: CodecVisitor<Self>>(visitor: &mut V) {
        visit_formats!(visitor);
    }
}

#[inline]
fn wiremsg_update(bytes: &mut [u8], round: u64) -> Option<()> {
    let mut order = Order::view_mut(bytes).expect("wiremsg: invalid input");
    order.set_id(new_id(round));
    let mut items = order.items_mut();
    for i in 0..items.len() {
        let mut item = items.get_mut(i).expect("wiremsg: index below len");
        item.set_quantity(new_quantity(round, i));
    }
    Some(())
}

#[inline]
fn rkyv_update(bytes: &mut [u8], round: u64) -> Option<()> {
    let order = rkyv::access_mut::<ArchivedOrder, RkyvError>(bytes)
        .expect("rkyv: invalid or misaligned input");
    munge!(let ArchivedOrder { mut id, items, .. } = order);
    *id = rkyv::Archived::<i64>::from_native(new_id(round));
    let mut items = ArchivedVec::as_slice_seal(items);
    for i in 0..items.len() {
        let item = items.as_mut().index(i);
        munge!(let ArchivedLineItem { mut quantity, .. } = item);
        *quantity = rkyv::Archived::<i32>::from_native(new_quantity(round, i));
    }
    Some(())
}

reference_codecs!(
    Order,
    ArchivedOrder,
    fb::Order<'_>,
    wiremsg_update,
    rkyv_update
);
