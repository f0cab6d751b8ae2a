//! Maps: `BTreeMap<K, V>` and `HashMap<K, V, S>` fields and their views ([`MapView`])
//! (FORMAT.md §6.6).
//!
//! A map has the bytes of a list of 2-tuples `(K, V)` (§6, §4.11), its entries in
//! strictly increasing key order: strided when key and value are fixed-size, a table
//! otherwise. The order is the keys' wire order ([`KeyKind`]): numbers by value, text
//! (`String`, `&str`, `FixedStr`) by its UTF-8 bytes, enums by their wire value.
//! Validation checks the list, then that each key is greater than the one before it,
//! which refuses duplicates and unsorted keys; a lookup is then a binary search over
//! the entries, each found in O(1).

use crate::field::{DecodeField, Element, Field, Kind, ListEncoding, ViewOf, list_element};
use crate::kind::{EnumOf, MapOf, Text};
use crate::list::{List, shape, validate_list};
use crate::message::EnumRepr;
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::primitives_le::{read_u16, read_u32, write_u16, write_u32};
use crate::validated::{check_depth, deeper};
use crate::{Error, ErrorKind, FixedStr, Mode, Node, TypeSchema, WireEnum};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;
use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;

/// A kind whose views can be map keys, compared in wire order (FORMAT.md §6.6):
/// integers by value, text by its UTF-8 bytes, enums by their wire value.
///
/// Sealed, as [`Kind`] is. Floats (no total order), `bool`, options, arrays, tuples,
/// lists and messages are not keys.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a map key kind",
    note = "map keys are integers, `String`/`&str`, `FixedStr` or `#[derive(WireEnum)]` enums"
)]
pub trait KeyKind: Kind {
    /// The key's place in the wire order, from its block bytes and region. Read from
    /// bytes without relying on validation (text is compared as bytes): validation
    /// orders keys before every string has been proven UTF-8 (see `batch`).
    fn wire_key<'b>(_: Internal, block: &'b [u8], region: &'b [u8]) -> WireKey<'b>;
    /// The place in the wire order of a key given as its view.
    fn view_key<'b>(_: Internal, view: Self::View<'b>) -> WireKey<'b>;
}

/// A key's place in the wire order (FORMAT.md §6.6): keys of one kind are always the
/// same variant, compared as numbers or as bytes.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum WireKey<'b> {
    /// An unsigned integer or an enum's wire value.
    Unsigned(u128),
    /// A signed integer.
    Signed(i128),
    /// Text, without its padding.
    Bytes(&'b [u8]),
}

macro_rules! integer_keys {
    ($($ty:ty => $variant:ident),*) => {$(
        impl KeyKind for $ty {
            #[inline(always)]
            fn wire_key<'b>(_: Internal, block: &'b [u8], _: &'b [u8]) -> WireKey<'b> {
                let value = block.first_chunk().map_or(0, |b| <$ty>::from_le_bytes(*b));
                WireKey::$variant(value.into())
            }

            #[inline(always)]
            fn view_key<'b>(_: Internal, view: $ty) -> WireKey<'b> {
                WireKey::$variant(view.into())
            }
        }

        impl MapKey for $ty {
            #[inline(always)]
            fn key_view(&self) -> $ty {
                *self
            }
        }
    )*};
}

integer_keys!(
    u8 => Unsigned, u16 => Unsigned, u32 => Unsigned, u64 => Unsigned, u128 => Unsigned,
    i8 => Signed, i16 => Signed, i32 => Signed, i64 => Signed, i128 => Signed
);

impl KeyKind for Text {
    #[inline(always)]
    fn wire_key<'b>(_: Internal, _: &'b [u8], region: &'b [u8]) -> WireKey<'b> {
        WireKey::Bytes(region)
    }

    #[inline(always)]
    fn view_key<'b>(_: Internal, view: <Self as Kind>::View<'b>) -> WireKey<'b> {
        WireKey::Bytes(view.as_bytes())
    }
}

/// Fixed-width text compares as its text, without the padding (so that `"A"` sorts
/// before `"AB"` whatever the padding byte).
impl<const N: usize, const PAD: u8> KeyKind for FixedStr<N, PAD> {
    #[inline(always)]
    fn wire_key<'b>(_: Internal, block: &'b [u8], _: &'b [u8]) -> WireKey<'b> {
        let text = block.get(..N).unwrap_or_default();
        let end = text.iter().rposition(|&b| b != PAD).map_or(0, |i| i + 1);
        WireKey::Bytes(&text[..end])
    }

    #[inline(always)]
    fn view_key<'b>(_: Internal, view: <Self as Kind>::View<'b>) -> WireKey<'b> {
        WireKey::Bytes(view.as_bytes())
    }
}

impl<E: WireEnum> KeyKind for EnumOf<E> {
    #[inline(always)]
    fn wire_key<'b>(_: Internal, block: &'b [u8], _: &'b [u8]) -> WireKey<'b> {
        let raw: u64 = E::Repr::read(block).into();
        WireKey::Unsigned(raw.into())
    }

    #[inline(always)]
    fn view_key<'b>(_: Internal, view: E) -> WireKey<'b> {
        let raw: u64 = view.to_raw().into();
        WireKey::Unsigned(raw.into())
    }
}

/// A type that can be the key of a map field: integers, `String`, `&str`,
/// [`FixedStr`], `#[derive(WireEnum)]` enums (the derive implements it).
///
/// Entries are written in the keys' wire order (FORMAT.md §6.6), which is not always
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

/// The key of entry `index` of a map region of `len` entries (strided with `stride`,
/// or a table), read from its bytes without relying on validation: out-of-range
/// parts read as empty.
fn entry_key<K: MapKey, V: Field>(
    bytes: &[u8],
    len: usize,
    stride: usize,
    index: usize,
) -> WireKey<'_> {
    let ks = <K::Kind as Kind>::BLOCK_SIZE;
    let (block, region) = match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Table => {
            let at = |i: usize| read_u32(bytes, 4 * i).map_or(0, |at| at as usize);
            let end = if index + 1 < len {
                at(index + 1)
            } else {
                bytes.len()
            };
            // A tuple with a tail (FORMAT.md §4.11): block length, the key's slot
            // (ending in its end offset if it has a tail), the value's, the tails.
            let entry = bytes.get(at(index)..end).unwrap_or_default();
            let block = entry.get(2..2 + ks).unwrap_or_default();
            let region = if <K::Kind as Kind>::IN_TAIL {
                let start = read_u16(entry, 0).map_or(0, usize::from);
                let key_end = read_u32(block, ks.saturating_sub(4)).map_or(0, |e| e as usize);
                entry.get(start..key_end).unwrap_or_default()
            } else {
                &[]
            };
            (block, region)
        }
        _ => {
            let start = 2 + index * stride;
            (bytes.get(start..start + ks).unwrap_or_default(), &[][..])
        }
    };
    <K::Kind as KeyKind>::wire_key(INTERNAL, block, region)
}

/// The validated view of a map field: `len` and the `i`-th entry in O(1), a lookup by
/// key in O(log n) (a binary search over the entries, decoding nothing), iteration in
/// key order.
///
/// Invariant in `K` and `V`, as every type that carries a proof about its parameters
/// (`tests/variance.rs`): two types related by higher-ranked subtyping may name
/// different kinds, so a covariant view could read bytes validated as one kind as
/// another. A map of borrowed keys (`BTreeMap<&str, u32>`) decodes through
/// [`same_kinds`](Self::same_kinds), which changes the types only where their kinds
/// are the same.
///
/// # Examples
///
/// ```
/// use std::collections::BTreeMap;
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Book { depth: BTreeMap<i64, u32> }
///
/// let depth = BTreeMap::from([(101, 5), (99, 7), (100, 1)]);
/// let bytes = Book { depth }.to_bytes().unwrap();
/// let view = Book::view(&bytes).unwrap();
/// let depth = view.depth();
/// assert_eq!((depth.len(), depth.get(100), depth.get(98)), (3, Some(1), None));
/// assert_eq!(depth.keys().collect::<Vec<_>>(), [99, 100, 101]); // key order
/// assert_eq!(depth.entry(2), Some((101, 5)));
/// ```
pub struct MapView<'v, K, V> {
    /// The map's region, which passed validation as a map of `K` to `V` (only this
    /// crate makes a `MapView`, and only from such bytes).
    bytes: &'v [u8],
    len: usize,
    /// Entry size for a strided map.
    stride: usize,
    _entries: crate::kind::Invariant<(K, V)>,
}

impl<K, V> Clone for MapView<'_, K, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, V> Copy for MapView<'_, K, V> {}

impl<K, V> Default for MapView<'_, K, V> {
    /// The empty map (what a map field added in a later version reads as on older
    /// bytes).
    fn default() -> Self {
        MapView {
            bytes: &[],
            len: 0,
            stride: 0,
            _entries: PhantomData,
        }
    }
}

impl<'v, K: MapKey, V: Field> MapView<'v, K, V> {
    /// The same map viewed as a map of `K2` to `V2`, types of the same kinds as `K`
    /// and `V` (`&'static str` and `&'v str`): validation and every read go by the
    /// kinds alone, so the bytes are as valid for one as for the other. What the
    /// decoding of a message with a map of borrowed keys or values calls.
    #[doc(hidden)]
    #[inline(always)]
    pub fn same_kinds<K2, V2>(self) -> MapView<'v, K2, V2>
    where
        K2: MapKey<Kind = K::Kind>,
        V2: Field<Kind = V::Kind>,
    {
        MapView {
            bytes: self.bytes,
            len: self.len,
            stride: self.stride,
            _entries: PhantomData,
        }
    }

    /// The view over a region that passed validation as a map: O(1).
    ///
    /// # Safety
    ///
    /// `bytes` passed validation as a map of `K` to `V` (FORMAT.md §6.6).
    #[inline(always)]
    unsafe fn from_validated(bytes: &'v [u8]) -> Self {
        let (len, stride) = shape::<(K, V)>(bytes);
        MapView {
            bytes,
            len,
            stride,
            _entries: PhantomData,
        }
    }

    /// The entries, as the list of `(K, V)` they are on the wire.
    #[inline(always)]
    pub fn entries(&self) -> List<'v, (K, V)> {
        // SAFETY: the region passed validation as a map, which is validation as a list
        // of `(K, V)` and more; `len` and `stride` are that list's shape.
        unsafe { List::from_parts(self.bytes, self.len, self.stride) }
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The map's bytes as they are on the wire (its whole tail region).
    #[inline]
    pub fn as_bytes(&self) -> &'v [u8] {
        self.bytes
    }

    /// Entry `index` in key order, or `None` if `index >= len()`: O(1).
    #[inline]
    pub fn entry(&self, index: usize) -> Option<(ViewOf<'v, K>, ViewOf<'v, V>)> {
        self.entries().get(index)
    }

    /// The index of the entry with `key`, or the index where it would be inserted:
    /// a binary search over the keys.
    fn search(&self, key: ViewOf<'_, K>) -> Result<usize, usize> {
        let key = <K::Kind as KeyKind>::view_key(INTERNAL, key);
        let (mut lo, mut hi) = (0, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match entry_key::<K, V>(self.bytes, self.len, self.stride, mid).cmp(&key) {
                Ordering::Less => lo = mid + 1,
                Ordering::Greater => hi = mid,
                Ordering::Equal => return Ok(mid),
            }
        }
        Err(lo)
    }

    /// The value of `key` (given as a view reads it: `&str` for text keys, the enum for
    /// an enum key), or `None`: O(log n) reads of keys, nothing decoded.
    ///
    /// ```
    /// use std::collections::HashMap;
    /// use wiremsg::WireMsg;
    ///
    /// #[derive(WireMsg, Debug)]
    /// struct Limits { by_user: HashMap<String, u64> }
    ///
    /// let by_user = HashMap::from([("ann".to_string(), 500), ("bob".to_string(), 20)]);
    /// let bytes = Limits { by_user }.to_bytes().unwrap();
    /// let view = Limits::view(&bytes).unwrap();
    /// assert_eq!(view.by_user().get("bob"), Some(20));
    /// assert_eq!(view.by_user().get("eve"), None);
    /// assert_eq!(view.by_user().get_entry("bob"), Some((1, "bob", 20))); // sorted: index 1
    /// ```
    #[inline]
    pub fn get(&self, key: ViewOf<'_, K>) -> Option<ViewOf<'v, V>> {
        let index = self.search(key).ok()?;
        self.entry(index).map(|(_, v)| v)
    }

    /// The index, key and value of the entry with `key`, or `None`.
    #[inline]
    pub fn get_entry(&self, key: ViewOf<'_, K>) -> Option<(usize, ViewOf<'v, K>, ViewOf<'v, V>)> {
        let index = self.search(key).ok()?;
        self.entry(index).map(|(k, v)| (index, k, v))
    }

    /// True if the map has an entry with `key`.
    #[inline]
    pub fn contains_key(&self, key: ViewOf<'_, K>) -> bool {
        self.search(key).is_ok()
    }

    /// The entries in key order, as `(key, value)` views.
    #[inline]
    pub fn iter(&self) -> crate::ListIter<'v, (K, V)> {
        self.entries().iter()
    }

    /// The keys in order.
    #[inline]
    pub fn keys(&self) -> impl ExactSizeIterator<Item = ViewOf<'v, K>> + 'v
    where
        K: 'v,
        V: 'v,
    {
        self.entries().iter().map(|(k, _)| k)
    }

    /// The values, in the order of their keys.
    #[inline]
    pub fn values(&self) -> impl ExactSizeIterator<Item = ViewOf<'v, V>> + 'v
    where
        K: 'v,
        V: 'v,
    {
        self.entries().iter().map(|(_, v)| v)
    }
}

impl<'v, K: MapKey, V: Field> IntoIterator for MapView<'v, K, V> {
    type Item = (ViewOf<'v, K>, ViewOf<'v, V>);
    type IntoIter = crate::ListIter<'v, (K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K: MapKey, V: Field> fmt::Debug for MapView<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Two maps are equal if they have the same entries (keys and values compared as
/// the list views compare them).
impl<'v, K: MapKey + 'v, V: Field + 'v> PartialEq for MapView<'v, K, V> {
    fn eq(&self, other: &Self) -> bool {
        self.entries() == other.entries()
    }
}

/// A mutable view of a map field, from a message's mutable view (`<field>_mut()`):
/// entries keep their keys and places; fixed-size values (numbers, `bool`, enums,
/// `FixedStr`, fixed-size messages) can be overwritten in place, found by key in
/// O(log n).
///
/// # Examples
///
/// ```
/// use std::collections::BTreeMap;
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Book { depth: BTreeMap<i64, u32>, names: BTreeMap<String, u8> }
///
/// let book = Book { depth: BTreeMap::from([(100, 5), (101, 7)]), names: BTreeMap::from([("a".into(), 1)]) };
/// let mut bytes = book.to_bytes().unwrap();
/// let mut edit = Book::view_mut(&mut bytes).unwrap();
/// assert!(edit.depth_mut().set(101, &9));
/// assert!(!edit.depth_mut().set(102, &1)); // no such key: nothing written
/// assert!(edit.names_mut().set("a", &2));
/// let book = Book::decode(&bytes).unwrap();
/// assert_eq!((book.depth[&101], book.names["a"]), (9, 2));
/// ```
pub struct MapMut<'m, K, V> {
    /// The map's region, which passed validation as a map of `K` to `V`.
    bytes: &'m mut [u8],
    len: usize,
    stride: usize,
    _entries: crate::kind::Invariant<(K, V)>,
}

impl<K, V> fmt::Debug for MapMut<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MapMut")
            .field("len", &self.len)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl<'m, K: MapKey, V: Field> MapMut<'m, K, V> {
    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The map, read-only.
    #[inline]
    pub fn as_view(&self) -> MapView<'_, K, V> {
        MapView {
            bytes: self.bytes,
            len: self.len,
            stride: self.stride,
            _entries: PhantomData,
        }
    }

    /// Overwrites the value of entry `index` (in key order) with `value`; false (and
    /// nothing written) if `index >= len()`.
    #[inline]
    #[must_use = "nothing is written when the index is out of range"]
    pub fn set_at(&mut self, index: usize, value: &V) -> bool
    where
        V: crate::Scalar<'m>,
    {
        if index >= self.len {
            return false;
        }
        let (ks, vs) = (<K::Kind as Kind>::BLOCK_SIZE, <V::Kind as Kind>::BLOCK_SIZE);
        // The value's slot follows the key's in the entry (FORMAT.md §4.11): after
        // the entry's block length when the entry has a tail.
        let start = match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
            ListEncoding::Table => read_u32(self.bytes, 4 * index).map_or(0, |at| at as usize) + 2,
            _ => 2 + index * self.stride,
        } + ks;
        match self.bytes.get_mut(start..start + vs) {
            Some(block) => value.write_scalar(INTERNAL, block),
            None => false,
        }
    }

    /// Overwrites the value of `key` with `value`; false (and nothing written) if the
    /// map has no such key.
    #[inline]
    #[must_use = "nothing is written when the map has no such key"]
    pub fn set(&mut self, key: ViewOf<'_, K>, value: &V) -> bool
    where
        V: crate::Scalar<'m>,
    {
        match self.as_view().search(key) {
            Ok(index) => self.set_at(index, value),
            Err(_) => false,
        }
    }
}

/// A map field's mutable view is a [`MapMut`].
impl<K: MapKey, V: Field> crate::validated::NestedKind for MapOf<K, V> {
    type Mut<'m> = MapMut<'m, K, V>;

    #[inline(always)]
    unsafe fn read_mut(_: Internal, bytes: &mut [u8]) -> MapMut<'_, K, V> {
        let (len, stride) = shape::<(K, V)>(bytes);
        MapMut {
            bytes,
            len,
            stride,
            _entries: PhantomData,
        }
    }
}

/// Offset, in a validated map region, of entry `index`'s first byte.
fn entry_at<K: Field, V: Field>(bytes: &[u8], stride: usize, index: usize) -> usize {
    match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Table => read_u32(bytes, 4 * index).map_or(0, |at| at as usize),
        _ => 2 + index * stride,
    }
}

/// Validates a map region (FORMAT.md §6.6): a list of `(K, V)`, then each key greater
/// than the one before it (`DuplicateKey`, `UnsortedKeys`, at the later entry).
fn validate_map<K: MapKey, V: Field, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(), Error> {
    validate_list::<(K, V), M>(bytes, at, mode, depth)?;
    // The list's shape is known (it is valid), its text perhaps not yet proven UTF-8:
    // keys are compared from their bytes.
    let (len, stride) = shape::<(K, V)>(bytes);
    for i in 1..len {
        let kind = match entry_key::<K, V>(bytes, len, stride, i - 1)
            .cmp(&entry_key::<K, V>(bytes, len, stride, i))
        {
            Ordering::Less => continue,
            Ordering::Equal => ErrorKind::DuplicateKey,
            Ordering::Greater => ErrorKind::UnsortedKeys,
        };
        let offset = at + entry_at::<K, V>(bytes, stride, i);
        return Err(Error::new(kind, offset).in_element(i));
    }
    Ok(())
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

/// Bytes of tail data a map of `len` entries encodes to (FORMAT.md §6.6).
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
        // An entry's block length, or the map's stride, is a `u16` (FORMAT.md §6.6).
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
        ListEncoding::Table => entries.fold(len.saturating_mul(4), |sum, (k, v)| {
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
        ListEncoding::Table => {
            let block_len = 2 + ks + vs;
            let mut end = len.saturating_mul(4);
            for (i, (k, v)) in entries.enumerate() {
                let start = end;
                // Saturating, as in `list::write_list`.
                end = end.saturating_add(entry_len(k, v));
                write_u32(out, 4 * i, start as u32);
                if let Some(entry) = out.get_mut(start..end) {
                    let mut writer = crate::tuple::Writer::new(entry, block_len, true);
                    writer.write(k);
                    writer.write(v);
                }
            }
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

impl<K: MapKey, V: Field> Sealed for MapOf<K, V> {}

impl<K: MapKey, V: Field> Kind for MapOf<K, V> {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Table;
    const MIN_ELEMENT_SIZE: usize = 4;
    type View<'v> = MapView<'v, K, V>;

    #[inline]
    fn validate<M: Mode>(_: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        validate_map::<K, V, M>(place.region, place.region_at, mode, depth)
    }

    /// A map (a JSON object; integer and enum keys become strings in JSON).
    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: MapView<'v, K, V>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        use crate::serde_view::SerializeView;
        s.collect_map(
            view.iter()
                .map(|(k, v)| (SerializeView::<K::Kind>(k), SerializeView::<V::Kind>(v))),
        )
    }

    #[inline(always)]
    unsafe fn read<'v>(_: Internal, _: &'v [u8], region: &'v [u8]) -> MapView<'v, K, V> {
        // SAFETY: the caller promises validation accepted `region` as this map.
        unsafe { MapView::from_validated(region) }
    }

    #[inline]
    fn view_eq<'v>(_: Internal, a: MapView<'v, K, V>, b: MapView<'v, K, V>) -> bool
    where
        Self: 'v,
    {
        a == b
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
