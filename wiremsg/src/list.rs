//! Lists: `Vec<T>` and `&[T]` fields, their views ([`List`]) and mutable views
//! ([`ListMut`]) (FORMAT.md §6).

use crate::field::{DecodeField, Element, Field, ListEncoding, Scalar, Slots};
use crate::mode::{Checked, Trusted};
use crate::primitives_le::{read_u16, read_u32, write_u16, write_u32};
use crate::{Error, ErrorKind, Mode, TypeSchema, WireMsg};
use alloc::vec::Vec;
use core::fmt;
use core::marker::PhantomData;

/// The validated view of a list field: O(1) `len` and random access by index.
///
/// Elements are read on access; elements with tail data (messages, strings) are
/// located through the list's offset table. Bytes (`Vec<u8>`, `&[u8]`) are viewed as
/// `&[u8]` instead.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Prices {
///     levels: Vec<i64>,
/// }
///
/// let bytes = Prices { levels: vec![101, 102, 105] }.to_bytes().unwrap();
/// let view = Prices::view(&bytes).unwrap();
/// let levels = view.levels();
/// assert_eq!(levels.len(), 3);
/// assert_eq!(levels.get(2), Some(105));
/// assert_eq!(levels.get(3), None);
/// assert_eq!(levels.iter().sum::<i64>(), 308);
/// ```
pub struct List<'v, T> {
    /// The list's whole tail region.
    bytes: &'v [u8],
    len: usize,
    /// Element size for packed and strided lists.
    stride: usize,
    /// `None` only for byte lists built without validation (they need none).
    trusted: Option<Trusted>,
    _element: PhantomData<fn() -> T>,
}

impl<T> Clone for List<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for List<'_, T> {}

impl<T> Default for List<'_, T> {
    /// The empty list (what a list field added in a later version reads as on older
    /// bytes).
    fn default() -> Self {
        List {
            bytes: &[],
            len: 0,
            stride: 0,
            trusted: None,
            _element: PhantomData,
        }
    }
}

impl<'v, T: Element> List<'v, T> {
    /// A packed list over `bytes` whose elements need no validation (bytes).
    pub(crate) fn packed_unchecked(bytes: &'v [u8], len: usize) -> Self {
        List {
            bytes,
            len,
            stride: T::BLOCK_SIZE,
            trusted: None,
            _element: PhantomData,
        }
    }

    /// Number of elements.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the list has no elements.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The list's bytes as they are on the wire (its whole tail region).
    #[inline]
    pub fn as_bytes(&self) -> &'v [u8] {
        self.bytes
    }

    /// The element at `index`, or `None` if `index >= len()`.
    #[inline]
    pub fn get(&self, index: usize) -> Option<T::View<'v>> {
        if index >= self.len {
            return None;
        }
        let (block, tail) = element_bytes::<T>(self.bytes, self.len, self.stride, index)?;
        let slots = Slots {
            block,
            block_at: 0,
            tail,
            tail_at: 0,
        };
        // Validation of the whole list already passed: this only rebuilds what the
        // element's view keeps, without checking again.
        let stored = match self.trusted {
            Some(trusted) => T::validate(slots, &trusted, 0),
            None => T::validate(slots, &Checked, 0),
        }
        .ok()?;
        Some(T::get(block, stored))
    }

    /// The first element, if any.
    #[inline]
    pub fn first(&self) -> Option<T::View<'v>> {
        self.get(0)
    }

    /// The last element, if any.
    #[inline]
    pub fn last(&self) -> Option<T::View<'v>> {
        self.len.checked_sub(1).and_then(|i| self.get(i))
    }

    /// The elements in order.
    #[inline]
    pub fn iter(&self) -> ListIter<'v, T> {
        ListIter {
            list: *self,
            next: 0,
        }
    }
}

/// Block and tail bytes of element `index` of a validated list region.
#[inline(always)]
fn element_bytes<T: Element>(
    bytes: &[u8],
    len: usize,
    stride: usize,
    index: usize,
) -> Option<(&[u8], &[u8])> {
    match T::LIST_ENCODING {
        ListEncoding::Packed => {
            let start = index * stride;
            Some((bytes.get(start..start + stride)?, &[]))
        }
        ListEncoding::Strided => {
            let start = 2 + index * stride;
            Some((bytes.get(start..start + stride)?, &[]))
        }
        ListEncoding::Table => {
            let (start, end) = table_range(bytes, len, index)?;
            Some((&[], bytes.get(start..end)?))
        }
    }
}

/// Start and end of element `index` of a table list (FORMAT.md §6.3).
#[inline(always)]
fn table_range(bytes: &[u8], len: usize, index: usize) -> Option<(usize, usize)> {
    let start = read_u32(bytes, 4 * index)? as usize;
    let end = if index + 1 < len {
        read_u32(bytes, 4 * index + 4)? as usize
    } else {
        bytes.len()
    };
    Some((start, end))
}

impl<'v, T: Element> IntoIterator for List<'v, T> {
    type Item = T::View<'v>;
    type IntoIter = ListIter<'v, T>;

    fn into_iter(self) -> ListIter<'v, T> {
        self.iter()
    }
}

impl<T: Element> fmt::Debug for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'v, T: Element, U> PartialEq<[U]> for List<'v, T>
where
    T::View<'v>: PartialEq<U>,
{
    fn eq(&self, other: &[U]) -> bool {
        self.len == other.len() && self.iter().zip(other).all(|(a, b)| a == *b)
    }
}

/// Iterator over the elements of a [`List`].
pub struct ListIter<'v, T> {
    list: List<'v, T>,
    next: usize,
}

impl<T: Element> fmt::Debug for ListIter<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListIter")
            .field("len", &self.list.len)
            .field("next", &self.next)
            .finish()
    }
}

impl<'v, T: Element> Iterator for ListIter<'v, T> {
    type Item = T::View<'v>;

    #[inline]
    fn next(&mut self) -> Option<T::View<'v>> {
        let item = self.list.get(self.next)?;
        self.next += 1;
        Some(item)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.list.len - self.next.min(self.list.len);
        (left, Some(left))
    }
}

impl<T: Element> ExactSizeIterator for ListIter<'_, T> {}

/// Validates the tail region of a list and returns its view (FORMAT.md §6).
///
/// Errors carry offsets relative to the message (`at` is the region's offset).
pub(crate) fn validate_list<'v, T: Element, M: Mode>(
    bytes: &'v [u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<List<'v, T>, Error> {
    let (len, stride) = if !M::CHECKED || bytes.is_empty() {
        // Trusted bytes: only the shape is read; elements are read on access.
        shape::<T>(bytes)
    } else {
        match T::LIST_ENCODING {
            ListEncoding::Packed => validate_packed::<T, M>(bytes, at, mode, depth)?,
            ListEncoding::Strided => validate_strided::<T, M>(bytes, at, mode, depth)?,
            ListEncoding::Table => (validate_table::<T, M>(bytes, at, mode, depth)?, 0),
        }
    };
    Ok(List {
        bytes,
        len,
        stride,
        trusted: Some(mode.validated(crate::mode::sealed::INTERNAL)),
        _element: PhantomData,
    })
}

/// Element count and stride of a list region that already passed validation: O(1),
/// it reads no element (FORMAT.md §6).
fn shape<T: Element>(bytes: &[u8]) -> (usize, usize) {
    if bytes.is_empty() {
        return (0, T::BLOCK_SIZE);
    }
    match T::LIST_ENCODING {
        ListEncoding::Packed => (bytes.len() / T::BLOCK_SIZE.max(1), T::BLOCK_SIZE),
        ListEncoding::Strided => {
            let stride = usize::from(read_u16(bytes, 0).unwrap_or(1)).max(1);
            (bytes.len().saturating_sub(2) / stride, stride)
        }
        ListEncoding::Table => (read_u32(bytes, 0).map_or(0, |first| first as usize / 4), 0),
    }
}

fn validate_packed<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(usize, usize), Error> {
    let size = T::BLOCK_SIZE;
    if size == 0 || (M::CHECKED && bytes.len() % size != 0) {
        return Err(Error::new(
            ErrorKind::ListLengthMismatch {
                len: bytes.len(),
                element_size: size,
            },
            at,
        ));
    }
    let len = bytes.len() / size;
    if !T::CHECKS {
        return Ok((len, size));
    }
    for (i, block) in bytes.chunks_exact(size).enumerate() {
        let slots = Slots {
            block,
            block_at: 0,
            tail: &[],
            tail_at: 0,
        };
        T::validate(slots, mode, depth).map_err(|e| e.shift(at + i * size).in_element(i))?;
    }
    Ok((len, size))
}

fn validate_strided<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<(usize, usize), Error> {
    let Some(stride) = read_u16(bytes, 0) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: 2,
                available: bytes.len(),
            },
            at,
        ));
    };
    let stride = usize::from(stride);
    // An older writer's elements may be shorter than this reader's block, down to the
    // fields every version has (FORMAT.md §6.2).
    let required = T::MIN_ELEMENT_SIZE.max(1);
    if M::CHECKED && stride < required {
        return Err(Error::new(
            ErrorKind::StrideTooSmall { stride, required },
            at,
        ));
    }
    let elements = &bytes[2..];
    if M::CHECKED && elements.len() % stride != 0 {
        return Err(Error::new(
            ErrorKind::ListLengthMismatch {
                len: elements.len(),
                element_size: stride,
            },
            at + 2,
        ));
    }
    let len = elements.len() / stride.max(1);
    if !T::CHECKS {
        return Ok((len, stride));
    }
    for (i, block) in elements.chunks_exact(stride.max(1)).enumerate() {
        let slots = Slots {
            block,
            block_at: 0,
            tail: &[],
            tail_at: 0,
        };
        T::validate(slots, mode, depth).map_err(|e| e.shift(at + 2 + i * stride).in_element(i))?;
    }
    Ok((len, stride))
}

fn validate_table<T: Element, M: Mode>(
    bytes: &[u8],
    at: usize,
    mode: &M,
    depth: u32,
) -> Result<usize, Error> {
    let Some(first) = read_u32(bytes, 0) else {
        return Err(Error::new(
            ErrorKind::Truncated {
                needed: 4,
                available: bytes.len(),
            },
            at,
        ));
    };
    let first = first as usize;
    if M::CHECKED && (first == 0 || first % 4 != 0) {
        return Err(Error::new(
            ErrorKind::BadTableStart {
                start: first,
                len: bytes.len(),
            },
            at,
        ));
    }
    // The table must fit in the bytes present: this bounds the loop below by the
    // input size, whatever the first offset says.
    if M::CHECKED && first > bytes.len() {
        return Err(Error::new(
            ErrorKind::ListCountTooLarge {
                count: first / 4,
                available: bytes.len(),
            },
            at,
        ));
    }
    let count = first / 4;
    let mut start = first;
    for i in 0..count {
        let end = if i + 1 < count {
            read_u32(bytes, 4 * i + 4).unwrap_or(0) as usize
        } else {
            bytes.len()
        };
        if M::CHECKED && (end < start || end > bytes.len()) {
            return Err(Error::new(
                ErrorKind::OffsetOutOfRange {
                    end,
                    min: start,
                    max: bytes.len(),
                },
                at + 4 * i + 4,
            )
            .in_element(i + 1));
        }
        let tail = mode
            .slice(crate::mode::sealed::INTERNAL, bytes, start, end)
            .unwrap_or(&[]);
        let slots = Slots {
            block: &[],
            block_at: 0,
            tail,
            tail_at: 0,
        };
        T::validate(slots, mode, depth).map_err(|e| e.shift(at + start).in_element(i))?;
        start = end;
    }
    Ok(count)
}

/// Bytes of tail data a list of `items` encodes to (FORMAT.md §6).
pub(crate) fn list_tail_len<T: Element>(items: &[T]) -> usize {
    // A list of zero-size elements would have no count on the wire. (Checked here, in
    // the encoder every list goes through, and not in `BLOCK_SIZE`, which recursive
    // messages must be able to compute without looking at their elements.)
    const {
        assert!(
            matches!(T::LIST_ENCODING, ListEncoding::Table) || T::BLOCK_SIZE > 0,
            "wiremsg: list elements must not be zero-size (a message without fields, FixedStr<0>, [T; 0])"
        )
    };
    if items.is_empty() {
        return 0;
    }
    match T::LIST_ENCODING {
        ListEncoding::Packed => items.len() * T::BLOCK_SIZE,
        ListEncoding::Strided => 2 + items.len() * T::BLOCK_SIZE,
        ListEncoding::Table => 4 * items.len() + items.iter().map(Field::tail_len).sum::<usize>(),
    }
}

/// Writes a list of `items` into `out`, exactly `list_tail_len(items)` bytes.
pub(crate) fn write_list<T: Element>(items: &[T], out: &mut [u8]) {
    if items.is_empty() {
        return;
    }
    let size = T::BLOCK_SIZE;
    match T::LIST_ENCODING {
        ListEncoding::Packed => {
            for (item, block) in items.iter().zip(out.chunks_exact_mut(size.max(1))) {
                item.write(block, &mut []);
            }
        }
        ListEncoding::Strided => {
            write_u16(out, 0, size as u16);
            let elements = out.get_mut(2..).unwrap_or_default();
            for (item, block) in items.iter().zip(elements.chunks_exact_mut(size.max(1))) {
                item.write(block, &mut []);
            }
        }
        ListEncoding::Table => {
            let mut end = 4 * items.len();
            for (i, item) in items.iter().enumerate() {
                let start = end;
                end += item.tail_len();
                write_u32(out, 4 * i, start as u32);
                if let Some(tail) = out.get_mut(start..end) {
                    item.write(&mut [], tail);
                }
            }
        }
    }
}

macro_rules! list_field {
    ($($impl_head:tt)*) => {
        $($impl_head)* {
            const BLOCK_SIZE: usize = 4;
            const IN_TAIL: bool = true;
            const TYPE: &'static TypeSchema = &TypeSchema::List(T::TYPE);
            type View<'v> = T::ListView<'v>;
            type Stored<'v> = T::ListView<'v>;

            #[inline]
            fn validate<'v, M: Mode>(
                s: Slots<'v>,
                mode: &M,
                depth: u32,
            ) -> Result<T::ListView<'v>, Error> {
                validate_list::<T, M>(s.tail, s.tail_at, mode, depth).map(T::list_view)
            }

            #[inline(always)]
            fn get<'v>(_: &'v [u8], stored: T::ListView<'v>) -> T::ListView<'v> {
                stored
            }

            #[inline]
            fn tail_len(&self) -> usize {
                list_tail_len::<T>(self)
            }

            #[inline]
            fn write(&self, _: &mut [u8], tail: &mut [u8]) {
                write_list::<T>(self, tail)
            }
        }
    };
}

list_field!(impl<T: Element> Field for Vec<T>);
list_field!(impl<'a, T: Element> Field for &'a [T]);

impl<'v, T: Element + DecodeField<'v> + 'v> DecodeField<'v> for Vec<T> {
    fn decode_view(view: T::ListView<'v>) -> Vec<T> {
        T::list_of(view).iter().map(T::decode_view).collect()
    }
}

impl<'v> DecodeField<'v> for &'v [u8] {
    #[inline]
    fn decode_view(view: &'v [u8]) -> &'v [u8] {
        view
    }
}

/// A mutable view of a list field, from a message's mutable view: elements keep their
/// place and the list its length; fixed-size parts of elements can be overwritten.
///
/// # Examples
///
/// ```
/// use wiremsg::WireMsg;
///
/// #[derive(WireMsg, Debug)]
/// struct Book {
///     sizes: Vec<u32>,
/// }
///
/// let mut bytes = Book { sizes: vec![100, 200] }.to_bytes().unwrap();
/// let mut book = Book::view_mut(&mut bytes).unwrap();
/// assert!(book.sizes_mut().set(1, &250));
/// assert!(!book.sizes_mut().set(2, &1)); // out of range: nothing written
/// assert_eq!(Book::decode(&bytes).unwrap().sizes, [100, 250]);
/// ```
pub struct ListMut<'v, T> {
    bytes: &'v mut [u8],
    len: usize,
    stride: usize,
    _element: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for ListMut<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListMut")
            .field("len", &self.len)
            .field("bytes", &self.bytes.len())
            .finish()
    }
}

impl<'v, T: Element> ListMut<'v, T> {
    /// A mutable view over a list region that already passed validation (O(1)).
    #[doc(hidden)]
    pub fn from_validated(bytes: &'v mut [u8]) -> Self {
        let (len, stride) = shape::<T>(bytes);
        ListMut {
            bytes,
            len,
            stride,
            _element: PhantomData,
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if the list has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Overwrites element `index` with `value`; returns false (and writes nothing) if
    /// `index >= len()`.
    pub fn set(&mut self, index: usize, value: &T) -> bool
    where
        T: Scalar<'v>,
    {
        if index >= self.len || T::LIST_ENCODING != ListEncoding::Packed {
            return false;
        }
        let start = index * self.stride;
        match self.bytes.get_mut(start..start + self.stride) {
            Some(block) => {
                value.write(block, &mut []);
                true
            }
            None => false,
        }
    }

    /// The mutable view of message element `index`, or `None` if `index >= len()`.
    pub fn get_mut(&mut self, index: usize) -> Option<T::Mut<'_>>
    where
        T: WireMsg,
    {
        if index >= self.len {
            return None;
        }
        match T::LIST_ENCODING {
            ListEncoding::Table => {
                let (start, end) = table_range(self.bytes, self.len, index)?;
                T::__mut(self.bytes.get_mut(start..end)?)
            }
            _ => {
                let start = 2 + index * self.stride;
                T::__mut(self.bytes.get_mut(start..start + self.stride)?)
            }
        }
    }
}
