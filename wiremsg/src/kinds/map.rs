//! Maps: `BTreeMap<K, V>` and `HashMap<K, V, S>` fields and their views ([`MapView`])
//! (FORMAT.md §6.7).
//!
//! A map has the bytes of a list of 2-tuples `(K, V)` (§6, §4.11), its entries in
//! strictly increasing key order: strided when key and value are fixed-size, a table
//! otherwise. The order is the keys' wire order ([`KeyKind`]): numbers by value, text
//! (`String`, `&str`, `FixedStr`) by its UTF-8 bytes, enums by their wire value.
//! Validation checks the list, then that each key is greater than the one before it,
//! which refuses duplicates and unsorted keys; a lookup is then a binary search over
//! the entries, each found in O(1).

use crate::field::{DecodeField, Element, Field, Kind, ListEncoding, ViewOf, list_element};
use crate::kind::MapOf;
use crate::mode::sealed::INTERNAL;
use crate::primitives_le::{write_u16, write_u32};
use crate::trust::shape::map::WireKey;
pub use crate::trust::shape::map::{KeyKind, MapMut, MapView};
use crate::validated::{check_depth, deeper};
use crate::{Error, ErrorKind, FixedStr, Node, TypeSchema};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// A type that can be the key of a map field: integers, `String`, `&str`,
/// [`FixedStr`], `#[derive(WireEnum)]` enums (the derive implements it).
///
/// Entries are written in the keys' wire order (FORMAT.md §6.7), which is not always
/// the key type's `Ord` (an enum's derived `Ord` follows its declaration order, not its
/// values; a `FixedStr` orders its padded bytes): encoding sorts by this order.
///
/// ```
/// use wiremsg::MapKey;
///
/// assert_eq!(7u32.key_view(), 7);
/// assert_eq!(String::from("ab").key_view(), "ab");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a map key",
    note = "map keys are integers, `String`/`&str`, `FixedStr` or `#[derive(WireEnum)]` enums: floats have no total order, and messages, lists and options have no wire order"
)]
pub trait MapKey: Field<Kind: KeyKind> {
    /// The key as a view reads it back: what its wire order compares.
    fn key_view(&self) -> ViewOf<'_, Self>;
}

impl MapKey for alloc::string::String {
    #[inline(always)]
    fn key_view(&self) -> &str {
        self
    }
}

impl MapKey for &str {
    #[inline(always)]
    fn key_view(&self) -> &str {
        self
    }
}

impl<const N: usize, const PAD: u8> MapKey for FixedStr<N, PAD> {
    #[inline(always)]
    fn key_view(&self) -> &str {
        self.as_str()
    }
}

/// The wire order of an owned key.
#[inline(always)]
fn key_of<K: MapKey>(key: &K) -> WireKey<'_> {
    <K::Kind as KeyKind>::view_key(INTERNAL, key.key_view())
}

/// The entries of a map to encode, in wire key order: the map's own iteration order if
/// it already is (a `BTreeMap` of integer or `String` keys), else sorted references
/// (a `HashMap`, or keys whose `Ord` is not their wire order).
enum Ordered<'m, K, V> {
    AsIs,
    Sorted(Vec<(&'m K, &'m V)>),
}

fn ordered<'m, K: MapKey, V, I>(entries: I, sorted_hint: bool) -> Ordered<'m, K, V>
where
    I: Iterator<Item = (&'m K, &'m V)> + Clone,
{
    if sorted_hint {
        let mut keys = entries.clone().map(|(k, _)| k);
        let in_order = match keys.next() {
            None => true,
            Some(first) => keys
                .try_fold(first, |prev, k| (key_of(prev) < key_of(k)).then_some(k))
                .is_some(),
        };
        if in_order {
            return Ordered::AsIs;
        }
    }
    let mut sorted: Vec<(&K, &V)> = entries.collect();
    sorted.sort_unstable_by(|a, b| key_of(a.0).cmp(&key_of(b.0)));
    Ordered::Sorted(sorted)
}

/// Calls `f` with the entries in wire key order.
fn with_ordered<'m, K: MapKey + 'm, V: 'm, I, R>(
    entries: I,
    sorted_hint: bool,
    f: impl FnOnce(&mut dyn Iterator<Item = (&'m K, &'m V)>) -> R,
) -> R
where
    I: Iterator<Item = (&'m K, &'m V)> + Clone,
{
    match ordered(entries.clone(), sorted_hint) {
        Ordered::AsIs => f(&mut entries.clone()),
        Ordered::Sorted(sorted) => f(&mut sorted.into_iter()),
    }
}

/// Bytes of one entry: its `(K, V)` tuple's encoding (FORMAT.md §4.11).
fn entry_len<K: Field, V: Field>(k: &K, v: &V) -> usize {
    if <<(K, V) as Field>::Kind as Kind>::IN_TAIL {
        (2 + <K::Kind as Kind>::BLOCK_SIZE + <V::Kind as Kind>::BLOCK_SIZE)
            .saturating_add(k.tail_len())
            .saturating_add(v.tail_len())
    } else {
        <K::Kind as Kind>::BLOCK_SIZE + <V::Kind as Kind>::BLOCK_SIZE
    }
}

/// Bytes of tail data a map of `len` entries encodes to (FORMAT.md §6.7).
fn map_tail_len<'m, K: Field + 'm, V: Field + 'm>(
    len: usize,
    entries: impl Iterator<Item = (&'m K, &'m V)>,
) -> usize {
    // A zero-size key (`FixedStr<0>`) has one value: no order to keep, and no entry
    // size for a strided map of zero-size values.
    const {
        assert!(
            <K::Kind as Kind>::BLOCK_SIZE > 0,
            "wiremsg: a map's key must not be zero-size (`FixedStr<0>`)"
        );
        // An entry's block length, or the map's stride, is a `u16` (FORMAT.md §6.7).
        let prefix = if <<(K, V) as Field>::Kind as Kind>::IN_TAIL {
            2
        } else {
            0
        };
        assert!(
            prefix + <K::Kind as Kind>::BLOCK_SIZE + <V::Kind as Kind>::BLOCK_SIZE <= 65535,
            "wiremsg: a map entry's block is longer than 65535 bytes (its u16 block length or stride); move large arrays into a `Vec`"
        )
    };
    if len == 0 {
        return 0;
    }
    // Saturating, as every size sum: `encode` refuses a result past `u32::MAX`.
    match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Split => entries.fold(len.saturating_mul(4), |sum, (k, v)| {
            sum.saturating_add(entry_len(k, v))
        }),
        _ => len
            .saturating_mul(<K::Kind as Kind>::BLOCK_SIZE + <V::Kind as Kind>::BLOCK_SIZE)
            .saturating_add(2),
    }
}

/// `check_value` of every key and value (paths `map[i].0`, `map[i].1`), and keys
/// strictly increasing in wire order: two keys with one wire value (an enum's
/// catch-all variant holding a known value) are `DuplicateKey`.
fn check_map<'m, K: MapKey + 'm, V: Field + 'm>(
    entries: &mut dyn Iterator<Item = (&'m K, &'m V)>,
    depth: u32,
) -> Result<(), Error> {
    // An entry is a `(K, V)` tuple, a nesting level of its own when it has a tail
    // (checked at the first entry: an empty map nests nothing).
    let depth = deeper(<<(K, V) as Field>::Kind as Kind>::IN_TAIL, depth);
    let mut prev: Option<&K> = None;
    for (i, (k, v)) in entries.enumerate() {
        if i == 0 {
            check_depth(depth).map_err(|e| e.in_element(0))?;
        }
        if let Some(prev) = prev {
            if key_of(prev) >= key_of(k) {
                return Err(Error::new(ErrorKind::DuplicateKey, 0).in_element(i));
            }
        }
        prev = Some(k);
        k.check_value(depth)
            .map_err(|e| e.in_field(crate::tuple::ELEMENT_NAMES[0]).in_element(i))?;
        v.check_value(depth)
            .map_err(|e| e.in_field(crate::tuple::ELEMENT_NAMES[1]).in_element(i))?;
    }
    Ok(())
}

/// Writes the entries, in wire key order, into `out` (exactly the map's tail length).
fn write_map<'m, K: Field + 'm, V: Field + 'm>(
    len: usize,
    entries: &mut dyn Iterator<Item = (&'m K, &'m V)>,
    out: &mut [u8],
) {
    if len == 0 {
        return;
    }
    let (ks, vs) = (<K::Kind as Kind>::BLOCK_SIZE, <V::Kind as Kind>::BLOCK_SIZE);
    match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Split => {
            // Each entry's tail start and block at the stride, their tails after all
            // the blocks (FORMAT.md §6.3, §6.7).
            let block_len = 2 + ks + vs;
            let stride = block_len + 4;
            let blocks = len.saturating_mul(stride);
            let mut out = crate::plain::Out::over(out);
            out.with_block(blocks, |heads, tails| {
                for (i, (k, v)) in entries.enumerate() {
                    let at = i * stride;
                    write_u32(heads, at, (blocks + tails.len()) as u32);
                    let Some(block) = heads.get_mut(at + 4..at + stride) else {
                        return;
                    };
                    write_u16(block, 0, block_len as u16);
                    tails.with_block(0, |_, tail| {
                        crate::__private::append_field(k, block, 2, tail, block_len);
                        crate::__private::append_field(v, block, 2 + ks, tail, block_len);
                    });
                }
            });
        }
        _ => {
            write_u16(out, 0, (ks + vs) as u16);
            let blocks = out.get_mut(2..).unwrap_or_default();
            for ((k, v), block) in entries.zip(blocks.chunks_exact_mut((ks + vs).max(1))) {
                let (kb, vb) = block.split_at_mut(ks);
                k.write(kb, &mut []);
                v.write(vb, &mut []);
            }
        }
    }
}

/// `Field` for a map type whose entries `iter` walks; `$sorted` says whether they come
/// sorted by the key type's `Ord` (then encoding checks the order and sorts only if
/// the wire order differs).
macro_rules! map_field {
    ([$($head:tt)*], $sorted:expr) => {
        $($head)* {
            type Kind = MapOf<K, V>;
            const TYPE: &'static TypeSchema =
                &TypeSchema::Map(Node::Static(<(K, V) as Field>::TYPE));
            const __NAME_TYPE: &'static TypeSchema =
                &TypeSchema::Map(Node::Static(<(K, V) as Field>::__NAME_TYPE));

            #[inline]
            fn tail_len(&self) -> usize {
                map_tail_len::<K, V>(self.len(), self.iter())
            }

            fn check_value(&self, depth: u32) -> Result<(), Error> {
                with_ordered(self.iter(), $sorted, |entries| check_map::<K, V>(entries, depth))
            }

            fn write(&self, _: &mut [u8], tail: &mut [u8]) {
                with_ordered(self.iter(), $sorted, |entries| {
                    write_map::<K, V>(self.len(), entries, tail)
                })
            }
        }
    };
}

map_field!([impl<K: MapKey, V: Field> Field for BTreeMap<K, V>], true);
map_field!([impl<K: MapKey, V: Field> Field for &BTreeMap<K, V>], true);
#[cfg(feature = "std")]
map_field!([impl<K: MapKey, V: Field, S> Field for std::collections::HashMap<K, V, S>], false);
#[cfg(feature = "std")]
map_field!([impl<K: MapKey, V: Field, S> Field for &std::collections::HashMap<K, V, S>], false);

// Lists of maps: a map is a table element, whose region is the map.
list_element!([impl<K: MapKey, V: Field> Element for BTreeMap<K, V>]);
#[cfg(feature = "std")]
list_element!([impl<K: MapKey, V: Field, S> Element for std::collections::HashMap<K, V, S>]);

/// Heap bytes a decoded map takes: `table` bytes for the collection's own
/// allocation, and what each key and value owns.
fn decoded_map_size<'v, K, V>(view: MapView<'v, K, V>, table: usize) -> usize
where
    K: MapKey + DecodeField<'v> + 'v,
    V: DecodeField<'v> + 'v,
{
    if !core::mem::needs_drop::<(K, V)>() {
        return table;
    }
    view.iter().fold(table, |sum, (k, v)| {
        sum.saturating_add(K::decoded_size(k))
            .saturating_add(V::decoded_size(v))
    })
}

/// Most bytes the nodes of a `BTreeMap<K, V>` of `len` entries take when it is built
/// by inserting them one at a time (never by `collect`, which first gathers and sorts
/// the entries in a `Vec`, and so peaks near twice the tree).
///
/// std's B-tree keeps up to 11 entries in a node (a parent pointer, two `u16`s, then
/// the keys and the values; counted here with room for the padding of its fields),
/// and an internal node 12 child pointers more. Insertions split a full node into
/// two of at least 5 entries each, so every node but the root holds at least 5: at
/// most `n = 1 + (len - 1) / 5` nodes. Every internal node but the root has at least
/// 6 children and the root 2, so at most `n / 6 + 1` of them are internal.
fn btree_bytes<K, V>(len: usize) -> usize {
    use core::mem::{align_of, size_of};
    const CAPACITY: usize = 11;
    if len == 0 {
        return 0;
    }
    let align = align_of::<K>()
        .max(align_of::<V>())
        .max(align_of::<usize>());
    let leaf = size_of::<usize>() + 4 + CAPACITY * (size_of::<K>() + size_of::<V>()) + 2 * align;
    let edges = (CAPACITY + 1) * size_of::<usize>();
    let nodes = 1 + (len - 1) / 5;
    nodes
        .saturating_mul(leaf)
        .saturating_add((nodes / 6 + 1).saturating_mul(edges))
}

impl<'v, K, V> DecodeField<'v> for BTreeMap<K, V>
where
    K: MapKey + DecodeField<'v> + Ord + 'v,
    V: DecodeField<'v> + 'v,
{
    fn decode_view(view: MapView<'v, K, V>) -> Self {
        // One entry at a time: nothing is gathered or sorted beside the tree.
        let mut map = BTreeMap::new();
        for (k, v) in view.iter() {
            map.insert(K::decode_view(k), V::decode_view(v));
        }
        map
    }

    /// The nodes ([`btree_bytes`]), and what the keys and values own.
    fn decoded_size(view: MapView<'v, K, V>) -> usize {
        decoded_map_size(view, btree_bytes::<K, V>(view.len()))
    }
}

/// Most bytes the table of a `HashMap<K, V>` reserved for `len` entries takes: its
/// buckets (a power of two with at least 8 buckets per 7 entries, and 16 below 15
/// entries), each an entry and a control byte, 16 control bytes more, and up to 15
/// of alignment (hashbrown's layout, which std's `HashMap` is). None for 0 entries.
#[cfg(feature = "std")]
fn hash_table_bytes<K, V>(len: usize) -> usize {
    const GROUP: usize = 16;
    if len == 0 {
        return 0;
    }
    let buckets = if len < 15 {
        16
    } else {
        (len.saturating_mul(8) / 7)
            .checked_next_power_of_two()
            .unwrap_or(usize::MAX)
    };
    buckets
        .saturating_mul(core::mem::size_of::<(K, V)>() + 1)
        .saturating_add(2 * GROUP - 1)
}

#[cfg(feature = "std")]
impl<'v, K, V, S> DecodeField<'v> for std::collections::HashMap<K, V, S>
where
    K: MapKey + DecodeField<'v> + Eq + core::hash::Hash + 'v,
    V: DecodeField<'v> + 'v,
    S: core::hash::BuildHasher + Default,
{
    fn decode_view(view: MapView<'v, K, V>) -> Self {
        // Reserved once for every entry (keys are distinct on the wire), so the
        // table never grows: what [`hash_table_bytes`] counts.
        let mut map = Self::with_capacity_and_hasher(view.len(), S::default());
        for (k, v) in view.iter() {
            map.insert(K::decode_view(k), V::decode_view(v));
        }
        map
    }

    /// The table ([`hash_table_bytes`]), and what the keys and values own.
    fn decoded_size(view: MapView<'v, K, V>) -> usize {
        decoded_map_size(view, hash_table_bytes::<K, V>(view.len()))
    }
}
