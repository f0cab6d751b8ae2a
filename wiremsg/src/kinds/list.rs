//! Lists as fields: `Vec<T>`, `&[T]` and `Bounded` (`#[wire(max_len)]`), encoded
//! and decoded (FORMAT.md §6); their shape, views and mutable views are in
//! `trust/shape/list.rs`.

use crate::field::{DecodeField, Element, Field, Kind, ListEncoding};
use crate::kind::{BoundedListOf, ListOf};
use crate::mode::sealed::INTERNAL;
use crate::primitives_le::{write_u16, write_u32};
use crate::trust::shape::dense;
pub use crate::trust::shape::list::{List, ListIter, ListIterMut, ListMut};
pub(crate) use crate::trust::shape::list::{
    shape, shape_of, strided_header, table_count, table_element, validate_list,
};
use crate::{Error, ErrorKind, Node, TypeSchema};
use alloc::vec::Vec;
use core::fmt;

/// Bytes of tail data a list of `items` encodes to (FORMAT.md §6).
pub(crate) fn list_tail_len<T: Element>(items: &[T]) -> usize {
    // A list of zero-size elements would have no count on the wire. (Checked here, in
    // the encoder every list goes through, and not in `BLOCK_SIZE`, which recursive
    // messages must be able to compute without looking at their elements.)
    const {
        assert!(
            matches!(
                <T::Kind as Kind>::LIST_ENCODING,
                ListEncoding::Table | ListEncoding::Split
            ) || <T::Kind as Kind>::BLOCK_SIZE > 0,
            "wiremsg: list elements must not be zero-size (a message without fields, FixedStr<0>, [T; 0])"
        );
        // The stride is a `u16` (FORMAT.md §6.2).
        assert!(
            !matches!(<T::Kind as Kind>::LIST_ENCODING, ListEncoding::Strided)
                || <T::Kind as Kind>::BLOCK_SIZE <= 65535,
            "wiremsg: a list element's block is longer than 65535 bytes (the list's u16 stride); move large arrays into a `Vec`"
        );
        // A dense list's stride is a `u16` (FORMAT.md §6.8).
        assert!(
            !matches!(<T::Kind as Kind>::LIST_ENCODING, ListEncoding::Dense)
                || <T::Kind as Kind>::DENSE_STRIDE <= 65535,
            "wiremsg: a fixed-size union's tag and largest payload block are longer than 65535 bytes (a dense list's u16 stride); move large arrays into a `Vec`"
        )
    };
    if items.is_empty() {
        return 0;
    }
    // Saturating, as every size sum: `encode` refuses a result past `u32::MAX`.
    let size = <T::Kind as Kind>::BLOCK_SIZE;
    match <T::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Packed => items.len().saturating_mul(size),
        ListEncoding::Strided => items.len().saturating_mul(size).saturating_add(2),
        ListEncoding::Dense => items
            .len()
            .saturating_mul(<T::Kind as Kind>::DENSE_STRIDE)
            .saturating_add(dense_first::<T>()),
        // A split element is its tail start and its whole encoding (block and tail),
        // as a table element is its start offset and its encoding (FORMAT.md §6.3).
        ListEncoding::Table | ListEncoding::Split => items
            .iter()
            .fold(items.len().saturating_mul(4), |sum, item| {
                sum.saturating_add(item.tail_len())
            }),
    }
}

/// `Field::check_value` of every element, with its index in the error's path (an
/// empty loop, removed by the optimizer, for elements that cannot fail).
#[inline]
pub(crate) fn check_elements<T: Element>(items: &[T], depth: u32) -> Result<(), Error> {
    // Plain values are numbers and bools: nothing to check, and no nesting.
    if crate::plain::same_layout::<T>() {
        return Ok(());
    }
    for (i, item) in items.iter().enumerate() {
        item.check_value(depth).map_err(|e| e.in_element(i))?;
    }
    Ok(())
}

/// Writes a list of `items` into `out`, exactly `list_tail_len(items)` bytes.
pub(crate) fn write_list<T: Element>(items: &[T], out: &mut [u8]) {
    if items.is_empty() {
        return;
    }
    let size = <T::Kind as Kind>::BLOCK_SIZE;
    let plain = crate::plain::same_layout::<T>();
    match <T::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Packed if plain => copy_elements(items, out),
        ListEncoding::Packed => {
            for (item, block) in items.iter().zip(out.chunks_exact_mut(size.max(1))) {
                item.write(block, &mut []);
            }
        }
        ListEncoding::Strided => {
            write_u16(out, 0, size as u16);
            let elements = out.get_mut(2..).unwrap_or_default();
            if plain {
                copy_elements(items, elements);
                return;
            }
            for (item, block) in items.iter().zip(elements.chunks_exact_mut(size.max(1))) {
                item.write(block, &mut []);
            }
        }
        ListEncoding::Split => append_split(items, &mut crate::plain::Out::over(out)),
        ListEncoding::Dense => write_dense(items, out),
        ListEncoding::Table => {
            let mut end = items.len().saturating_mul(4);
            for (i, item) in items.iter().enumerate() {
                let start = end;
                // Saturating: a `Field` whose `tail_len` changed since the list's
                // length was summed must not overflow (its bytes are then cut).
                end = end.saturating_add(item.tail_len());
                write_u32(out, 4 * i, start as u32);
                if let Some(tail) = out.get_mut(start..end) {
                    item.write(&mut [], tail);
                }
            }
        }
    }
}

/// Offset of element 0 of this writer's dense lists of `T` (FORMAT.md §6.8): after
/// the stride, the entry count and the variant table.
const fn dense_first<T: Element>() -> usize {
    dense::entry_at(
        <T::Kind as Kind>::DENSE_ENTRIES,
        <T::Kind as Kind>::DENSE_TAG,
    )
}

/// Writes a dense list of `items` (FORMAT.md §6.8) into `out`: the header, then each
/// element written as the union it is (its tag, then its payload) and its tag
/// replaced by its entry index, then zeros up to the stride.
fn write_dense<T: Element>(items: &[T], out: &mut [u8]) {
    let tag = <T::Kind as Kind>::DENSE_TAG;
    let stride = <T::Kind as Kind>::DENSE_STRIDE;
    let first = dense_first::<T>();
    write_u16(out, 0, stride as u16);
    write_u16(out, 2, <T::Kind as Kind>::DENSE_ENTRIES as u16);
    <T::Kind as Kind>::write_dense_table(INTERNAL, out.get_mut(4..first).unwrap_or_default());
    let elements = out.get_mut(first..).unwrap_or_default();
    for (item, slot) in items.iter().zip(elements.chunks_exact_mut(stride.max(1))) {
        let (value, padding) = slot.split_at_mut(item.tail_len().min(stride));
        item.write(&mut [], value);
        padding.fill(0);
        let found = dense::read_uint(value, 0, tag).unwrap_or(0);
        let index = <T::Kind as Kind>::dense_index(INTERNAL, found).to_le_bytes();
        let n = tag.min(8).min(value.len());
        value[..n].copy_from_slice(&index[..n]);
    }
}

/// Appends a list of `items` to `out`, `list_tail_len(items)` bytes, the bytes of
/// [`write_list`]. Plain elements are one copy and table elements append their own
/// tails, so that neither is zero-filled first; other elements are written into
/// zeroed element blocks.
pub(crate) fn append_list<T: Element>(items: &[T], out: &mut crate::plain::Out<'_>) {
    if items.is_empty() {
        return;
    }
    let plain = crate::plain::same_layout::<T>();
    match <T::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Packed if plain => out.append(crate::plain::as_bytes(items)),
        ListEncoding::Strided if plain => {
            let size = <T::Kind as Kind>::BLOCK_SIZE as u16;
            out.append(&size.to_le_bytes());
            out.append(crate::plain::as_bytes(items));
        }
        ListEncoding::Table => {
            let table = items.len().saturating_mul(4);
            out.with_block(table, |offsets, elements| {
                for (i, item) in items.iter().enumerate() {
                    write_u32(offsets, 4 * i, (table + elements.len()) as u32);
                    item.append_tail(&mut [], elements);
                }
            });
        }
        ListEncoding::Split => append_split(items, out),
        _ => write_list(items, out.zeroed(list_tail_len(items))),
    }
}

/// Appends a split list of `items` (FORMAT.md §6.3): each element's tail start and
/// block at the stride, then their tails, each element writing its block in place and
/// appending its tail data.
fn append_split<T: Element>(items: &[T], out: &mut crate::plain::Out<'_>) {
    let block_len = <T::Kind as Kind>::SPLIT_BLOCK;
    let stride = block_len + 4;
    let blocks = items.len().saturating_mul(stride);
    out.with_block(blocks, |heads, tails| {
        for (i, item) in items.iter().enumerate() {
            let at = i * stride;
            write_u32(heads, at, (blocks + tails.len()) as u32);
            let Some(block) = heads.get_mut(at + 4..at + stride) else {
                return;
            };
            tails.with_block(0, |_, tail| item.append_split(block, tail));
        }
    });
}

/// Plain elements' memory, copied whole into `out` (exactly their bytes).
#[inline]
fn copy_elements<T: Element>(items: &[T], out: &mut [u8]) {
    let bytes = crate::plain::as_bytes(items);
    if let Some(out) = out.get_mut(..bytes.len()) {
        out.copy_from_slice(bytes);
    }
}

macro_rules! list_field {
    ($($impl_head:tt)*) => {
        $($impl_head)* {
            type Kind = ListOf<T>;
            const TYPE: &'static TypeSchema = &TypeSchema::List(Node::Static(T::TYPE));
            const __NAME_TYPE: &'static TypeSchema =
                &TypeSchema::List(Node::Static(T::__NAME_TYPE));

            #[inline]
            fn tail_len(&self) -> usize {
                mir_inline_barrier!(T);
                list_tail_len::<T>(self)
            }

            #[inline]
            fn check_value(&self, depth: u32) -> Result<(), Error> {
                mir_inline_barrier!(T);
                check_elements::<T>(self, depth)
            }

            #[inline]
            fn write(&self, _: &mut [u8], tail: &mut [u8]) {
                mir_inline_barrier!(T);
                write_list::<T>(self, tail)
            }

            #[inline]
            fn append_tail(&self, _: &mut [u8], tail: &mut crate::plain::Out<'_>) {
                mir_inline_barrier!(T);
                append_list::<T>(self, tail)
            }
        }
    };
}

list_field!(impl<T: Element> Field for Vec<T>);
list_field!(impl<'a, T: Element> Field for &'a [T]);

// Lists of lists (FORMAT.md §6.6): a list is a table element, whose region is the
// inner list; its view is a `List` of lists.
crate::field::list_element!([impl<T: Element> Element for Vec<T>]);

/// A list of `&'a [T]` is viewed as a list of `Vec<T>`, whatever `'a`: the view does
/// not depend on it, and lists are invariant in their element type.
impl<T: Element> Element for &[T] {
    type ListView<'v> = List<'v, Vec<T>>;

    #[inline(always)]
    fn list_view<'v>(list: List<'v, Self>) -> List<'v, Vec<T>> {
        list.same_kind()
    }

    #[inline(always)]
    fn list_of<'v>(view: List<'v, Vec<T>>) -> List<'v, Self>
    where
        Self: 'v,
    {
        view.same_kind()
    }
}

impl<'v, T: Element + DecodeField<'v> + 'v> DecodeField<'v> for Vec<T> {
    fn decode_view(view: T::ListView<'v>) -> Vec<T> {
        mir_inline_barrier!(T);
        let list = T::list_of(view);
        if let Some(elements) = list.plain_vec() {
            return elements;
        }
        list.iter().map(T::decode_view).collect()
    }

    fn decoded_size(view: T::ListView<'v>) -> usize {
        mir_inline_barrier!(T);
        let list = T::list_of(view);
        let own = list.len().saturating_mul(core::mem::size_of::<T>());
        // Only elements that own heap memory can allocate more (a type without drop
        // glue owns none).
        if !core::mem::needs_drop::<T>() {
            return own;
        }
        list.iter().fold(own, |sum, element| {
            sum.saturating_add(T::decoded_size(element))
        })
    }
}

impl<'v> DecodeField<'v> for &'v [u8] {
    #[inline]
    fn decode_view(view: &'v [u8]) -> &'v [u8] {
        view
    }
}

/// A list field with a declared maximum length, as encoding sees it: the wire type
/// that `#[wire(max_len = MAX)]` gives a `Vec<T>` or `&[T]` field (FORMAT.md §6.5).
/// Generated code builds it; it is not meant to be written by hand.
pub struct Bounded<'a, T, const MAX: usize>(pub &'a [T]);

impl<T, const MAX: usize> fmt::Debug for Bounded<'_, T, MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Bounded")
            .field("len", &self.0.len())
            .field("max", &MAX)
            .finish()
    }
}

impl<T: Element, const MAX: usize> Field for Bounded<'_, T, MAX> {
    type Kind = BoundedListOf<T, MAX>;
    const TYPE: &'static TypeSchema = &TypeSchema::BoundedList {
        element: Node::Static(T::TYPE),
        max_len: MAX,
    };
    const __NAME_TYPE: &'static TypeSchema = &TypeSchema::BoundedList {
        element: Node::Static(T::__NAME_TYPE),
        max_len: MAX,
    };

    #[inline]
    fn tail_len(&self) -> usize {
        list_tail_len::<T>(self.0)
    }

    #[inline]
    fn check_value(&self, depth: u32) -> Result<(), Error> {
        let len = self.0.len();
        if len > MAX {
            return Err(Error::new(ErrorKind::ListTooLong { len, max: MAX }, 0));
        }
        check_elements::<T>(self.0, depth)
    }

    #[inline]
    fn write(&self, _: &mut [u8], tail: &mut [u8]) {
        write_list::<T>(self.0, tail)
    }

    #[inline]
    fn append_tail(&self, _: &mut [u8], tail: &mut crate::plain::Out<'_>) {
        append_list::<T>(self.0, tail)
    }
}
