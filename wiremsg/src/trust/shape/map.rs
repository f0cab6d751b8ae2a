//! Maps (FORMAT.md §6.7): a list of `(K, V)` entries in strictly increasing wire key
//! order. Their validation (the list, then the order), the key order itself
//! ([`KeyKind`]), and their views ([`MapView`], [`MapMut`]), whose lookups are binary
//! searches over the entries validation checked.

use crate::field::{Field, ListEncoding, ViewOf};
use crate::kind::{EnumOf, MapOf, Text};
use crate::kinds::map::MapKey;
use crate::list::{List, shape, validate_list};
use crate::message::EnumRepr;
use crate::mode::sealed::{INTERNAL, Internal, Place, Sealed};
use crate::primitives_le::read_u32;
use crate::trust::shape::Kind;
use crate::{Error, ErrorKind, FixedStr, Mode, WireEnum};
use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;

/// A kind whose views can be map keys, compared in wire order (FORMAT.md §6.7):
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

/// A key's place in the wire order (FORMAT.md §6.7): keys of one kind are always the
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

/// The key of entry `index` of a map region of `len` entries (strided with `stride`,
/// or a table), read from its bytes without relying on validation: out-of-range
/// parts read as empty.
pub(crate) fn entry_key<K: MapKey, V: Field>(
    bytes: &[u8],
    len: usize,
    stride: usize,
    index: usize,
) -> WireKey<'_> {
    let ks = <K::Kind as Kind>::BLOCK_SIZE;
    let _ = len;
    let (block, region) = match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Split => {
            // A tuple with a tail as an element of a split list (FORMAT.md §4.11,
            // §6.3): its tail start, block length, the key's slot (ending in its end
            // offset if it has a tail), the value's; the tails after all the blocks,
            // end offsets from the tail start minus the block length.
            let at = index.saturating_mul(stride);
            let block = bytes
                .get(at.saturating_add(6)..at.saturating_add(6 + ks))
                .unwrap_or_default();
            let region = if <K::Kind as Kind>::IN_TAIL {
                let start = read_u32(bytes, at).map_or(0, |t| t as usize);
                let origin = start.saturating_sub(stride.saturating_sub(4));
                let key_end = read_u32(block, ks.saturating_sub(4)).map_or(0, |e| e as usize);
                bytes
                    .get(start..origin.saturating_add(key_end))
                    .unwrap_or_default()
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

/// The index of the entry with `key` among the `len` of the map region `bytes` (of
/// `stride`, as [`entry_key`] takes it), or where it would be inserted: a binary
/// search over keys whose order was checked. For [`MapView`] and the on-demand
/// `LazyMap`.
pub(crate) fn search<K: MapKey, V: Field>(
    bytes: &[u8],
    len: usize,
    stride: usize,
    key: ViewOf<'_, K>,
) -> Result<usize, usize> {
    let key = <K::Kind as KeyKind>::view_key(INTERNAL, key);
    let (mut lo, mut hi) = (0, len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        match entry_key::<K, V>(bytes, len, stride, mid).cmp(&key) {
            Ordering::Less => lo = mid + 1,
            Ordering::Greater => hi = mid,
            Ordering::Equal => return Ok(mid),
        }
    }
    Err(lo)
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
    /// The same map viewed as a map of `K2` to `V2`: keys of `K`'s kind, values of a
    /// kind that reads as `V`'s ([`Kind::Reads`]: `&'static str` and `&'v str`, or a
    /// message with other lifetimes, `Name<'static>` and `Name<'v>`, whose kinds
    /// read by their one layout). Validation and every read go by the kinds alone, so
    /// the bytes are as valid for one as for the other. What the decoding of a
    /// message with a map of borrowed keys or values calls.
    #[doc(hidden)]
    #[inline(always)]
    pub fn same_kinds<K2, V2>(self) -> MapView<'v, K2, V2>
    where
        K2: MapKey<Kind = K::Kind>,
        V2: Field,
        V2::Kind: Kind<Reads = <V::Kind as Kind>::Reads>,
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
    /// `bytes` passed validation as a map of `K` to `V` (FORMAT.md §6.7).
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
        search::<K, V>(self.bytes, self.len, self.stride, key)
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
    pub fn keys(&self) -> impl ExactSizeIterator<Item = ViewOf<'v, K>> + use<'v, K, V>
    where
        K: 'v,
        V: 'v,
    {
        self.entries().iter().map(|(k, _)| k)
    }

    /// The values, in the order of their keys.
    #[inline]
    pub fn values(&self) -> impl ExactSizeIterator<Item = ViewOf<'v, V>> + use<'v, K, V>
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
            ListEncoding::Split => index * self.stride + 6,
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
fn entry_at<K: Field, V: Field>(stride: usize, index: usize) -> usize {
    match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Split => index * stride,
        _ => 2 + index * stride,
    }
}

/// Validates a map region (FORMAT.md §6.7): a list of `(K, V)`, then each key greater
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
        let offset = at + entry_at::<K, V>(stride, i);
        return Err(Error::new(kind, offset).in_element(i));
    }
    Ok(())
}

impl<K: MapKey, V: Field> Sealed for MapOf<K, V> {}

impl<K: MapKey, V: Field> Kind for MapOf<K, V> {
    const BLOCK_SIZE: usize = 4;
    const IN_TAIL: bool = true;
    const CHECKS: bool = true;
    const EVOLVES: bool = false;
    const LIST_ENCODING: ListEncoding = ListEncoding::Table;
    const MIN_ELEMENT_SIZE: usize = 4;
    type Reads = MapOf<<K::Kind as Kind>::Reads, <V::Kind as Kind>::Reads>;
    type View<'v> = MapView<'v, K, V>;
    type Lazy<'v> = crate::lazy_map::LazyMap<'v, K, V>;

    #[inline]
    fn lazy<'v>(
        i: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<Self::Lazy<'v>, Error> {
        crate::lazy_map::lazy(i, place, root, depth)
    }

    fn locate(
        _: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        crate::lazy::locate_list::<(K, V)>(place.region, target, steps)
    }

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
