//! `order`: R2 `Order` (`benches/reference.md`), the model's sample: a
//! customer, five line items with multi-byte UTF-8 names, an empty note.
//!
//! `update` (and `update_unchecked`) overwrites the order id and every
//! item's quantity (the fixed-size fields a gateway amends in place).
//! `read_some` loads every item's `quantity` and `unit_price` (what a
//! pricing check needs), skipping the strings; `read_some_lazy` the same
//! through the on-demand view (the list's header, each item's block), and
//! `read_lazy` every field so.

use crate::format::Valid;
use rkyv::munge::munge;
use rkyv::vec::ArchivedVec;

use super::{
    Codec, CodecVisitor, Dataset, fb_root, fold_some, ids, reference_codecs, rkyv_root,
    rkyv_root_mut, try_fold_some, visit_formats, wiremsg_mut, wiremsg_view,
};
use crate::checksum::Fold;
use crate::formats::capnp::{Capnp, capnp_methods, message as capnp_message, text};
use crate::formats::peers_capnp as pc;
use crate::formats::peers_generated::peers as fb;
use crate::model::{ArchivedLineItem, ArchivedOrder, Customer, LineItem, Message, Order};

/// The id `update` writes.
fn new_id(round: u64) -> i64 {
    round as i64
}

/// The quantity `update` writes into item `index`.
fn new_quantity(round: u64, index: usize) -> i32 {
    (round as i32).wrapping_add(index as i32)
}

/// The fields `read_some` loads from a line item, as folded.
#[inline(always)]
fn some_item(quantity: i32, unit_price: f64) -> [u64; 2] {
    [i64::from(quantity) as u64, unit_price.to_bits()]
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

    fn checksum_some(&self) -> Option<u64> {
        Some(fold_some(&self.items, |it| {
            some_item(it.quantity, it.unit_price)
        }))
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

// ---- wiremsg ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline]
unsafe fn wiremsg_some<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let order = unsafe { wiremsg_view::<Order, CHECKED>(bytes) };
    fold_some(order.items(), |it| {
        some_item(it.quantity(), it.unit_price())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline]
unsafe fn wiremsg_update<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let mut order = unsafe { wiremsg_mut::<Order, CHECKED>(bytes) };
    order.set_id(new_id(round));
    let mut items = order.items_mut();
    for i in 0..items.len() {
        let mut item = items.get_mut(i).expect("wiremsg: index below len");
        item.set_quantity(new_quantity(round, i));
    }
}

/// `read_lazy`: the fold of `read` (`FoldView for Order`), every field
/// checked as it is read.
#[inline]
fn read_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let m = <Order as wiremsg::WireMsg>::view_lazy(bytes)?;
    let mut f = Fold::new();
    f.i64(m.id()?);
    let c = m.customer()?;
    f.i64(c.id()?);
    f.str(c.name()?);
    f.str(c.email()?);
    let items = m.items()?;
    f.len(items.len());
    for it in items {
        let it = it?;
        f.str(it.sku()?);
        f.str(it.name()?);
        f.i64(i64::from(it.quantity()?));
        f.f64(it.unit_price()?);
        f.f64(it.discount()?);
    }
    f.str(m.note()?);
    Ok(f.finish())
}

/// `read_some_lazy`: `read_some`'s fields, each checked as it is read.
#[inline]
fn some_lazy_wiremsg(bytes: &[u8]) -> wiremsg::Result<u64> {
    let order = <Order as wiremsg::WireMsg>::view_lazy(bytes)?;
    try_fold_some(order.items()?, |it| {
        Ok(some_item(it.quantity()?, it.unit_price()?))
    })
}

// ---- rkyv ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline]
unsafe fn rkyv_some<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let order = unsafe { rkyv_root::<ArchivedOrder, CHECKED>(bytes) };
    fold_some(order.items.iter(), |it| {
        some_item(it.quantity.to_native(), it.unit_price.to_native())
    })
}

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output at an aligned address.
#[inline]
unsafe fn rkyv_update<const CHECKED: bool>(bytes: &mut [u8], round: u64) {
    // SAFETY: forwarded from the caller.
    let order = unsafe { rkyv_root_mut::<ArchivedOrder, CHECKED>(bytes) };
    munge!(let ArchivedOrder { mut id, items, .. } = order);
    *id = rkyv::Archived::<i64>::from_native(new_id(round));
    let mut items = ArchivedVec::as_slice_seal(items);
    for i in 0..items.len() {
        let item = items.as_mut().index(i);
        munge!(let ArchivedLineItem { mut quantity, .. } = item);
        *quantity = rkyv::Archived::<i32>::from_native(new_quantity(round, i));
    }
}

// ---- FlatBuffers ----

/// # Safety
///
/// Unless `CHECKED`, `bytes` is `encode`'s output.
#[inline]
unsafe fn fb_some<const CHECKED: bool>(bytes: &[u8]) -> u64 {
    // SAFETY: forwarded from the caller.
    let order = unsafe { fb_root::<fb::Order<'_>, CHECKED>(bytes) };
    fold_some(order.items(), |it| {
        some_item(it.quantity(), it.unit_price())
    })
}

// ---- capnp ----

/// `read`: the fold of `read`, each pointer and text checked as it is read.
#[inline]
fn read_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let m = message.get_root::<pc::order::Reader<'_>>()?;
    let mut f = Fold::new();
    f.i64(m.get_id());
    let c = m.get_customer()?;
    f.i64(c.get_id());
    f.str(text(c.get_name()?)?);
    f.str(text(c.get_email()?)?);
    let items = m.get_items()?;
    f.len(items.len() as usize);
    for it in items {
        f.str(text(it.get_sku()?)?);
        f.str(text(it.get_name()?)?);
        f.i64(i64::from(it.get_quantity()));
        f.f64(it.get_unit_price());
        f.f64(it.get_discount());
    }
    f.str(text(m.get_note()?)?);
    Ok(f.finish())
}

/// `read_some`: every item's `quantity` and `unit_price` (the list's pointer
/// checked).
#[inline]
fn some_capnp(bytes: &[u8]) -> capnp::Result<u64> {
    let message = capnp_message(bytes)?;
    let items = message.get_root::<pc::order::Reader<'_>>()?.get_items()?;
    Ok(fold_some(items, |it| {
        some_item(it.get_quantity(), it.get_unit_price())
    }))
}

impl Codec<Order> for Capnp {
    const ID: &'static str = ids::CAPNP;

    fn encode(&mut self, data: &Order) -> &[u8] {
        self.encode_root::<pc::order::Owned>(|mut root| {
            root.set_id(data.id);
            let mut c = root.reborrow().init_customer();
            c.set_id(data.customer.id);
            c.set_name(&data.customer.name);
            c.set_email(&data.customer.email);
            let mut items = root.reborrow().init_items(data.items.len() as u32);
            for (i, it) in data.items.iter().enumerate() {
                let mut out = items.reborrow().get(i as u32);
                out.set_sku(&it.sku);
                out.set_name(&it.name);
                out.set_quantity(it.quantity);
                out.set_unit_price(it.unit_price);
                out.set_discount(it.discount);
            }
            root.set_note(&data.note);
        })
    }

    fn decode(&self, bytes: &[u8]) -> Order {
        let decode = || -> capnp::Result<Order> {
            let message = capnp_message(bytes)?;
            let m = message.get_root::<pc::order::Reader<'_>>()?;
            let c = m.get_customer()?;
            let mut items = Vec::new();
            for it in m.get_items()? {
                items.push(LineItem {
                    sku: text(it.get_sku()?)?.to_owned(),
                    name: text(it.get_name()?)?.to_owned(),
                    quantity: it.get_quantity(),
                    unit_price: it.get_unit_price(),
                    discount: it.get_discount(),
                });
            }
            Ok(Order {
                id: m.get_id(),
                customer: Customer {
                    id: c.get_id(),
                    name: text(c.get_name()?)?.to_owned(),
                    email: text(c.get_email()?)?.to_owned(),
                },
                items,
                note: text(m.get_note()?)?.to_owned(),
            })
        };
        decode().valid("capnp")
    }

    capnp_methods!(pc::order::Reader<'_>, read: read_capnp, read_some: some_capnp);
}

reference_codecs!(
    Order,
    ArchivedOrder,
    fb::Order<'_>,
    update: (wiremsg_update, rkyv_update),
    read_some: (wiremsg_some, rkyv_some, fb_some),
    read_lazy: read_lazy_wiremsg,
    read_some_lazy: some_lazy_wiremsg,
);
