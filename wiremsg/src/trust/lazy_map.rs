//! The on-demand view of a map ([`LazyMap`]): its keys checked when the map is read,
//! each entry when it is read.
//!
//! A map's key order is a property of all its keys (FORMAT.md §6.7): a lookup that
//! checked only the keys a binary search visits could answer "absent" from a map
//! whose keys up-front validation refuses as unsorted. So reading a map field on
//! demand checks every key (its slot, its region for a text key, its kind) and their
//! order, which is what a lookup relies on; the values, usually the larger part, are
//! checked one entry at a time, when an entry is read. A key check that fails
//! reports what up-front validation of the whole map reports (its first error,
//! which may be a value's before the broken key).

use crate::field::{Field, ListEncoding, ViewOf};
use crate::kind::{Invariant, MapOf};
use crate::kinds::map::MapKey;
use crate::lazy::{LazyList, LazyListIter, LazyOf, Root, eager, split_origin};
use crate::mode::Checked;
use crate::mode::sealed::{INTERNAL, Internal, Place};
use crate::primitives_le::read_u32;
use crate::trust::shape::Kind;
use crate::trust::shape::map::{MapView, entry_key, search};
use crate::validated::{check_depth, deeper};
use crate::{Error, ErrorKind};
use core::cmp::Ordering;
use core::fmt;
use core::marker::PhantomData;

/// The on-demand view of a map field of `K` to `V` ([`LazyOf`] of a
/// `BTreeMap` or `HashMap` field).
///
/// Obtaining it checked the map's header, every key and the keys' order, so that
/// [`len`](Self::len), [`keys`](Self::keys) and [`contains_key`](Self::contains_key)
/// cannot fail; a value is checked when its entry is read ([`get`](Self::get),
/// [`entry`](Self::entry), [`iter`](Self::iter)), that entry whole (its block, its
/// tail's bounds and both its elements as up-front validation checks them).
/// Cost: reading the map field is a pass over the keys (for integer keys of a
/// fixed-size map, one comparison each); a lookup is a binary search over the keys
/// (O(log n), nothing checked again) and the found entry's checks.
///
/// Invariant in `K` and `V`, as every type that carries a proof (here, that the
/// keys were checked as keys of `K`'s kind).
///
/// # Examples
///
/// ```
/// use std::collections::BTreeMap;
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Book { depth: BTreeMap<i64, String> }
///
/// let depth = BTreeMap::from([(101, "a".into()), (99, "b".into()), (100, "c".into())]);
/// let bytes = Book { depth }.to_bytes()?;
/// let book = Book::view_lazy(&bytes)?;
/// let depth = book.depth()?; // the header, the three keys and their order
/// assert_eq!(depth.keys().collect::<Vec<_>>(), [99, 100, 101]);
/// assert_eq!(depth.get(100)?, Some("c")); // entry 1 checked, nothing else
/// assert_eq!(depth.get(98)?, None);
/// # Ok::<(), wiremsg::Error>(())
/// ```
pub struct LazyMap<'v, K, V> {
    /// The entries, as the list of `(K, V)` they are on the wire, its header checked.
    entries: LazyList<'v, (K, V)>,
    _keys_checked: Invariant<(K, V)>,
}

impl<K, V> Clone for LazyMap<'_, K, V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<K, V> Copy for LazyMap<'_, K, V> {}

impl<K: MapKey, V: Field> fmt::Debug for LazyMap<'_, K, V> {
    /// The entries, each value as read on demand (`Ok(value)` or `Err(error)`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = |i| self.entry(i).map(|entry| entry.map(|(_, v)| v));
        f.debug_map()
            .entries((0..self.len()).filter_map(|i| Some((self.key(i), value(i)?))))
            .finish()
    }
}

/// The place of key `i` of the `len` in the map region `bytes` laid out as the list
/// of `(K, V)` it is, of `stride` bytes per element (a strided list's stride, or a
/// split list's block length plus its 4-byte tail start), and where its bytes are
/// from the region's start; `None` where its bytes are not inside the region. The
/// one computation of where a key is, for the check ([`check_keys`]) and the reads
/// after it ([`LazyMap::key`]).
#[inline(always)]
fn key_place<K: MapKey, V: Field>(
    bytes: &[u8],
    len: usize,
    stride: usize,
    i: usize,
) -> Option<Place<'_>> {
    let ks = <K::Kind as Kind>::BLOCK_SIZE;
    match <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING {
        ListEncoding::Split => {
            // Element `i`: its `u32` tail start, then its block (a `u16` block length,
            // the key's slot, the value's); its tail region from its tail start to
            // the next one's (FORMAT.md §4.11, §6.3).
            let at = i.checked_mul(stride)?;
            let block_at = at.checked_add(6)?;
            let block = bytes.get(block_at..block_at.checked_add(ks)?)?;
            if !<K::Kind as Kind>::IN_TAIL {
                return Some(Place::block(block, block_at));
            }
            // The element's origin and tail end, checked as the on-demand element
            // read checks them; the key's end offset, from the origin, between the
            // block length and the tail's end.
            let block_len = stride.checked_sub(4)?;
            let (origin, end) = split_origin(bytes, i, len, block_len).ok()?;
            let start = origin + block_len;
            let key_end = read_u32(block, ks - 4)? as usize;
            if key_end < block_len || key_end > end - origin {
                return None;
            }
            Some(Place {
                block,
                block_at,
                region: bytes.get(start..origin + key_end)?,
                region_at: start,
            })
        }
        _ => {
            // A fixed-size entry at its stride, after the `u16` stride.
            let at = i.checked_mul(stride)?.checked_add(2)?;
            Some(Place::block(bytes.get(at..at.checked_add(ks)?)?, at))
        }
    }
}

/// The region, entry count, entry stride and depth of the map whose entries are
/// `entries`: the stride as [`entry_key`] and [`key_place`] take it (a split list's
/// block length plus its 4-byte tail start).
#[inline(always)]
fn shape<'v, K: MapKey, V: Field>(entries: &LazyList<'v, (K, V)>) -> (&'v [u8], usize, usize, u32) {
    let (bytes, len, stride, depth) = entries.parts();
    let split = <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING == ListEncoding::Split;
    (bytes, len, if split { stride + 4 } else { stride }, depth)
}

/// Checks every key of the map `entries` (the list of its entries, its header
/// checked) as up-front validation checks it, and the keys' order; `Err(())` if
/// anything fails, for the caller to report up-front validation's error.
fn check_keys<K: MapKey, V: Field>(entries: &LazyList<'_, (K, V)>) -> Result<(), ()> {
    let (bytes, len, stride, depth) = shape(entries);
    if len == 0 {
        return Ok(());
    }
    let split = <<(K, V) as Field>::Kind as Kind>::LIST_ENCODING == ListEncoding::Split;
    // An entry with a tail is a nesting level of its own (as a message with a tail).
    let depth = deeper(split, depth);
    check_depth(depth).map_err(drop)?;
    for i in 0..len {
        if split {
            // Every element's block length is the list's (FORMAT.md §6.3).
            crate::trust::shape::list::split_block(bytes, 0, i, stride - 4).map_err(drop)?;
        }
        let place = key_place::<K, V>(bytes, len, stride, i).ok_or(())?;
        <K::Kind as Kind>::validate(INTERNAL, place, &Checked, depth).map_err(drop)?;
        if i > 0
            && entry_key::<K, V>(bytes, len, stride, i - 1)
                .cmp(&entry_key::<K, V>(bytes, len, stride, i))
                != Ordering::Less
        {
            return Err(());
        }
    }
    Ok(())
}

impl<'v, K: MapKey, V: Field> LazyMap<'v, K, V> {
    /// The map in `place` at nesting `depth`: its header and keys checked. Errors are
    /// up-front validation's of the map, counting from the bytes `place`'s offsets
    /// count from.
    #[inline]
    pub(crate) fn enter(place: Place<'v>, root: &Root<'v>, depth: u32) -> Result<Self, Error> {
        let checked = LazyList::enter(place.region, place.region_at, root, depth)
            .ok()
            .filter(|entries| check_keys(entries).is_ok());
        match checked {
            Some(entries) => Ok(LazyMap {
                entries,
                _keys_checked: PhantomData,
            }),
            None => Err(Self::refused(place, depth)),
        }
    }

    /// Up-front validation's error for a map whose header or keys failed their
    /// checks: its first, which may be before the key that failed.
    #[cold]
    #[inline(never)]
    fn refused(place: Place<'v>, depth: u32) -> Error {
        match eager::<MapOf<K, V>>(INTERNAL, place, depth) {
            Err(err) => err,
            // Unreachable: every check above is one up-front validation makes.
            Ok(_) => Error::new(ErrorKind::UnsortedKeys, place.region_at),
        }
    }

    /// Number of entries.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if the map has no entries.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Key `i < len`, which [`enter`](Self::enter) checked.
    #[inline(always)]
    fn key(&self, i: usize) -> ViewOf<'v, K> {
        let (bytes, len, stride, _) = shape(&self.entries);
        let place = key_place::<K, V>(bytes, len, stride, i).unwrap_or(Place::block(&[], 0));
        // SAFETY: `enter` made this map only after `check_keys` found, for every key
        // below `len`, its place with `key_place` over these same bytes (immutable for
        // `'v`) and validated it there as `K`'s kind; `i < len`.
        unsafe { <K::Kind as Kind>::read(INTERNAL, place.block, place.region) }
    }

    /// The index of the entry with `key`, or where it would be inserted: a binary
    /// search over the keys, which are in order.
    fn search(&self, key: ViewOf<'_, K>) -> Result<usize, usize> {
        let (bytes, len, stride, _) = shape(&self.entries);
        search::<K, V>(bytes, len, stride, key)
    }

    /// The keys in order (checked when the map was read).
    #[inline]
    pub fn keys(&self) -> impl ExactSizeIterator<Item = ViewOf<'v, K>> + use<'v, K, V>
    where
        K: 'v,
        V: 'v,
    {
        let map = *self;
        (0..self.len()).map(move |i| map.key(i))
    }

    /// True if the map has an entry with `key`: a binary search over the keys.
    #[inline]
    pub fn contains_key(&self, key: ViewOf<'_, K>) -> bool {
        self.search(key).is_ok()
    }

    /// The value of `key` (as a view reads it: `&str` for text keys), or `None`; its
    /// entry checked whole, and the value returned as the up-front view's map returns
    /// it ([`ViewOf`]).
    ///
    /// # Errors
    ///
    /// What up-front validation reports for the entry's bytes: its block, its tail's
    /// bounds, its value (invalid UTF-8, `bool` or enum values, a nested message).
    #[inline]
    pub fn get(&self, key: ViewOf<'_, K>) -> Result<Option<ViewOf<'v, V>>, Error> {
        match self.position(key).and_then(|index| self.entry(index)) {
            Some(entry) => entry.map(|(_, v)| Some(v)),
            None => Ok(None),
        }
    }

    /// The index of the entry with `key` in key order, or `None`: a binary search
    /// over the keys, nothing checked (they were, when the map was read). With
    /// [`entry`](Self::entry), the entry's key and value.
    #[inline]
    pub fn position(&self, key: ViewOf<'_, K>) -> Option<usize> {
        self.search(key).ok()
    }

    /// Entry `index` in key order, checked whole; `None` past the end.
    ///
    /// # Errors
    ///
    /// As [`get`](Self::get).
    #[inline]
    pub fn entry(&self, index: usize) -> Option<Result<LazyOf<'v, (K, V)>, Error>> {
        self.entries.get(index)
    }

    /// The entries in key order, each checked whole as it is read.
    #[inline]
    pub fn iter(&self) -> LazyListIter<'v, (K, V)> {
        self.entries.iter()
    }

    /// Validates the whole map, as up-front validation does, and returns the map view
    /// the up-front view's accessor returns.
    ///
    /// # Errors
    ///
    /// Any error of up-front validation of the map.
    #[inline]
    pub fn to_view(&self) -> Result<MapView<'v, K, V>, Error> {
        self.entries.validate_as::<MapOf<K, V>>()
    }
}

impl<'v, K: MapKey, V: Field> IntoIterator for LazyMap<'v, K, V> {
    type Item = Result<LazyOf<'v, (K, V)>, Error>;
    type IntoIter = LazyListIter<'v, (K, V)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The on-demand read of a map field, for [`MapOf`]'s `Kind::lazy`.
#[inline]
pub(crate) fn lazy<'v, K: MapKey, V: Field>(
    _: Internal,
    place: Place<'v>,
    root: &Root<'v>,
    depth: u32,
) -> Result<LazyMap<'v, K, V>, Error> {
    LazyMap::enter(place, root, depth)
}
