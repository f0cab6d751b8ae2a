//! Dense lists (FORMAT.md §6.8): the lists of a fixed-size union, whose elements sit
//! at one stride, each an entry index into the variant table at the list's start and
//! the payload's block. The header and element checks here are shared by the typed
//! lists (`list.rs`), the on-demand lists (`lazy.rs`) and the schema-driven reader,
//! so that all of them fail alike.

use crate::primitives_le::read_u16;
use crate::trust::shape::ByteCheck;
use crate::{Error, ErrorKind};

/// The shape of a dense list region, from its header (checked by [`header`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dense {
    /// Elements in the list.
    pub(crate) count: usize,
    /// Bytes per element.
    pub(crate) stride: usize,
    /// Entries of the variant table.
    pub(crate) entries: usize,
    /// Offset of element 0 from the list's start: after the stride, the entry count
    /// and the table.
    pub(crate) first: usize,
}

impl Dense {
    /// The shape of a dense list region whose header passed [`header`] with this
    /// count and stride, for [`element`]: its entry count read again, where a view
    /// keeps only the count and stride.
    #[inline(always)]
    pub(crate) fn of(region: &[u8], count: usize, stride: usize, tag: usize) -> Dense {
        let entries = usize::from(read_u16(region, 2).unwrap_or(0));
        Dense {
            count,
            stride,
            entries,
            first: entry_at(entries, tag),
        }
    }
}

/// Bytes of one entry of the variant table of a union whose tag is `tag` bytes: the
/// tag, then the `u16` block length.
#[inline(always)]
pub(crate) const fn entry_size(tag: usize) -> usize {
    tag + 2
}

/// Offset from the list's start of entry `k` of its variant table (FORMAT.md §6.8:
/// after the `u16` stride and the `u16` entry count), for a union whose tag is `tag`
/// bytes. `entry_at(entries, tag)`, one past the last entry, is where element 0
/// starts. At most 65,535 entries of at most 10 bytes: no overflow.
#[inline(always)]
pub(crate) const fn entry_at(k: usize, tag: usize) -> usize {
    4 + k * entry_size(tag)
}

/// The unsigned little-endian number of `size` bytes (a union's repr: 1, 2, 4 or 8)
/// at `at`, if the bytes hold it.
#[inline(always)]
pub(crate) fn read_uint(bytes: &[u8], at: usize, size: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(size)?)?;
    Some(match size {
        1 => u64::from(b[0]),
        2 => u64::from(u16::from_le_bytes([b[0], b[1]])),
        4 => u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        _ => {
            let mut le = [0; 8];
            let n = size.min(8);
            le[..n].copy_from_slice(&b[..n]);
            u64::from_le_bytes(le)
        }
    })
}

/// The header of a dense list region of a union with `tag`-byte tags, checked
/// (FORMAT.md §6.8): the stride, the entry count and the table are inside the region
/// (`Truncated`), each entry's block length leaves room for the entry index
/// (`StrideTooSmall`), and the elements are a whole, non-zero number of strides
/// (`ListLengthMismatch`). `at` is the region's offset, for errors. A header that
/// fails but has the shape of format 2's table list is `UnsupportedFormat`.
#[inline]
pub(crate) fn header(bytes: &[u8], at: usize, tag: usize) -> Result<Dense, Error> {
    header_of(bytes, at, tag).map_err(|e| format_2_or(e, bytes, at))
}

/// [`header`] without the format-2 diagnosis.
#[inline(always)]
fn header_of(bytes: &[u8], at: usize, tag: usize) -> Result<Dense, Error> {
    let (Some(stride), Some(entries)) = (read_u16(bytes, 0), read_u16(bytes, 2)) else {
        return Err(truncated(4, bytes.len(), at));
    };
    let (stride, entries) = (usize::from(stride), usize::from(entries));
    let first = entry_at(entries, tag);
    if first > bytes.len() {
        return Err(truncated(first, bytes.len(), at));
    }
    if stride < tag {
        return Err(Error::new(
            ErrorKind::StrideTooSmall {
                stride,
                required: tag,
            },
            at,
        ));
    }
    for k in 0..entries {
        let entry = entry_at(k, tag);
        let block = usize::from(read_u16(bytes, entry + tag).unwrap_or(0));
        if tag + block > stride {
            return Err(Error::new(
                ErrorKind::StrideTooSmall {
                    stride,
                    required: tag + block,
                },
                at + entry + tag,
            ));
        }
    }
    // `stride >= tag >= 1`.
    let elements = bytes.len() - first;
    if elements == 0 || elements % stride != 0 {
        return Err(Error::new(
            ErrorKind::ListLengthMismatch {
                len: elements,
                element_size: stride,
            },
            at + first,
        ));
    }
    if entries == 0 {
        // No writer writes an empty table before elements: their indexes name none.
        let index = read_uint(bytes, first, tag).unwrap_or(0);
        return Err(entry_out_of_range(index, 0, at + first, 0));
    }
    Ok(Dense {
        count: elements / stride,
        stride,
        entries,
        first,
    })
}

/// `VariantEntryOutOfRange` of element `i`, whose entry index at `at` is `index`.
#[cold]
fn entry_out_of_range(index: u64, entries: usize, at: usize, i: usize) -> Error {
    Error::new(ErrorKind::VariantEntryOutOfRange { index, entries }, at).in_element(i)
}

/// `Truncated`: `needed` bytes of a list header at `at`, `available` there.
#[cold]
fn truncated(needed: usize, available: usize, at: usize) -> Error {
    Error::new(ErrorKind::Truncated { needed, available }, at)
}

/// `err`, or `UnsupportedFormat` if the region that failed as a dense list has the
/// shape of format 2's table list (FORMAT.md "Format versions"): a first start
/// offset that is a non-zero multiple of 4 within the region. Only on the error
/// path of the list's structure (its header, an element's entry index): valid
/// format-3 bytes never get here, and an error inside a payload is never renamed.
/// Corrupt bytes can have that shape by chance, so the error keeps `err` and says
/// both ([`Error::format_by_shape`]).
#[cold]
#[inline(never)]
fn format_2_or(err: Error, bytes: &[u8], at: usize) -> Error {
    match crate::primitives_le::read_u32(bytes, 0) {
        Some(first) if first != 0 && first % 4 == 0 && first as usize <= bytes.len() => {
            Error::format_by_shape(2, at, err)
        }
        _ => err,
    }
}

/// Element `i` of a dense list region whose header [`header`] read as `d`, with
/// `tag`-byte tags, checked: its entry index is below the entry count
/// (`VariantEntryOutOfRange`, at the index, in element `i`). Returns the entry's
/// tag, and the offset and length of the element's payload (from the list's start),
/// inside the element (`header` checked the entry's block length against the stride).
/// `i < d.count`.
#[inline(always)]
pub(crate) fn element(
    bytes: &[u8],
    at: usize,
    d: &Dense,
    i: usize,
    tag: usize,
) -> Result<(u64, usize, usize), Error> {
    let start = d.first + i * d.stride;
    let index = read_uint(bytes, start, tag).unwrap_or(u64::MAX);
    let entry = match usize::try_from(index) {
        Ok(k) if k < d.entries => entry_at(k, tag),
        _ => {
            let err = entry_out_of_range(index, d.entries, at + start, i);
            return Err(format_2_or(err, bytes, at));
        }
    };
    let value = read_uint(bytes, entry, tag).unwrap_or(0);
    let block = usize::from(read_u16(bytes, entry + tag).unwrap_or(0));
    Ok((value, start + tag, block))
}

/// Calls `f(i, k, tag, payload, payload_at)` (`k` the entry index) for each element
/// of a dense list region whose header [`header`] read as `d`, with `tag`-byte tags,
/// in order, after the check of [`element`] (`VariantEntryOutOfRange`); stops at the
/// first error. The loop of up-front validation: the elements and the table as
/// slices, so that each element costs one bounds check of its entry and one of its
/// payload.
///
/// `f` validates the payload and returns what decides the other payloads of its
/// variant ([`ByteCheck`]): every element of one entry has a payload of the entry's
/// block length, so once `f` accepted one, each other element of that entry (entries
/// 0 to 63) is one byte compare (an enum's or a `bool`'s byte), or none (a payload of
/// numbers). An element that fails the compare goes to `f`, so an error is the one
/// the full loop finds, at the same element. (`events/access`: the feed's three
/// variants of numbers and its two with a `side` byte cost the entry index, a load of
/// the entry's test and one compare each, with no jump on the tag.)
#[inline(always)]
pub(crate) fn try_each(
    bytes: &[u8],
    at: usize,
    d: &Dense,
    tag: usize,
    mut f: impl FnMut(usize, u64, u64, &[u8], usize) -> Result<ByteCheck, Error>,
) -> Result<(), Error> {
    let size = entry_size(tag);
    let table = bytes.get(4..d.first).unwrap_or_default();
    let elements = bytes.get(d.first..).unwrap_or_default();
    // Entry `k`'s test, once an element of it passed; `Test::NONE` (zeros) before.
    let mut tests = [Test::NONE; 64];
    for (i, element) in elements.chunks_exact(d.stride.max(1)).enumerate() {
        let index = read_uint(element, 0, tag).unwrap_or(u64::MAX);
        let test = usize::try_from(index)
            .ok()
            .and_then(|k| tests.get(k))
            .copied()
            .unwrap_or(Test::NONE);
        if test.passes(element) {
            continue;
        }
        let entry = usize::try_from(index)
            .ok()
            // Below the entry count (at most 65,535) first: `k * size` cannot wrap.
            .filter(|&k| k < d.entries)
            .and_then(|k| table.get(k * size..k * size + size));
        let Some(entry) = entry else {
            let err = entry_out_of_range(index, d.entries, at + d.first + i * d.stride, i);
            return Err(format_2_or(err, bytes, at));
        };
        let value = read_uint(entry, 0, tag).unwrap_or(0);
        let block = usize::from(read_u16(entry, tag).unwrap_or(0));
        let payload = element.get(tag..tag + block).unwrap_or_default();
        let check = f(i, index, value, payload, d.first + i * d.stride + tag)?;
        if let Some(slot) = usize::try_from(index).ok().and_then(|k| tests.get_mut(k)) {
            *slot = Test::of(check, tag, block);
        }
    }
    Ok(())
}

/// The test that decides the other elements of a variant-table entry once one
/// passed: the element's byte `at` minus `lo` (wrapping) is below `span`. Byte 0 (the
/// entry index) with a span of 256 passes every element; a span of 0 none.
#[derive(Clone, Copy)]
struct Test {
    at: u16,
    lo: u8,
    span: u16,
}

impl Test {
    /// Passes no element: it goes to the full check.
    const NONE: Test = Test {
        at: 0,
        lo: 0,
        span: 0,
    };

    /// The test of an entry whose payloads are `block` bytes after a `tag`-byte
    /// index and are decided by `check`.
    #[inline(always)]
    fn of(check: ByteCheck, tag: usize, block: usize) -> Test {
        const ALL: Test = Test {
            at: 0,
            lo: 0,
            span: 256,
        };
        match check {
            ByteCheck::Free => ALL,
            // The byte is past this entry's block: a field this writer's block lacks.
            ByteCheck::Range { at, .. } if at >= block => ALL,
            ByteCheck::Range { at, lo, span } => match u16::try_from(tag + at) {
                Ok(at) => Test { at, lo, span },
                Err(_) => Test::NONE,
            },
            ByteCheck::Other => Test::NONE,
        }
    }

    #[inline(always)]
    fn passes(self, element: &[u8]) -> bool {
        let byte = element.get(usize::from(self.at)).copied().unwrap_or(0);
        u16::from(byte.wrapping_sub(self.lo)) < self.span
    }
}
