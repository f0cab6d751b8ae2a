//! Options (FORMAT.md §4.5): a presence byte, 0 or 1, then the value's block; the
//! value is read only where the byte said present, as validation checked it, except
//! for a kind whose every byte pattern is a value (`Kind::CHECKS` false, no tail),
//! whose bytes are read either way and dropped when absent.

use crate::field::{FixedKind, Scalar, SetInPlace};
use crate::kind::Opt;
use crate::mode::sealed::{Internal, Place, Sealed};
use crate::trust::shape::Kind;
use crate::{Error, ErrorKind, ListEncoding, Mode};

impl<K: Kind> Sealed for Opt<K> {}

/// One presence byte (0 absent, 1 present, others invalid), then `K`'s block bytes
/// (zero when absent; readers ignore them). A `K` with tail data keeps its slot, and
/// an absent one has empty tail data.
impl<K: Kind> Kind for Opt<K> {
    const BLOCK_SIZE: usize = 1 + K::BLOCK_SIZE;
    const IN_TAIL: bool = K::IN_TAIL;
    const CHECKS: bool = true;
    const EVOLVES: bool = K::EVOLVES;
    const LIST_ENCODING: ListEncoding = ListEncoding::Packed;
    const MIN_ELEMENT_SIZE: usize = 1 + K::BLOCK_SIZE;
    // An absent value's region is empty when a writer made it; one that is not is
    // checked in the run too, which at worst sends the message to the checked pass.
    const TAIL_TEXT: bool = K::TAIL_TEXT;
    type Reads = Opt<K::Reads>;
    type View<'v> = Option<K::View<'v>>;
    type Lazy<'v> = Option<K::Lazy<'v>>;

    /// The presence byte checked as [`validate`](Kind::validate) checks it; a present
    /// value read on demand as its kind reads it (a message or list: its on-demand
    /// view).
    #[inline(always)]
    fn lazy<'v>(
        i: Internal,
        place: Place<'v>,
        root: &crate::lazy::Root<'v>,
        depth: u32,
    ) -> Result<Option<K::Lazy<'v>>, Error> {
        match place.block.first() {
            Some(1) => {
                let inner = Place {
                    block: place.block.get(1..).unwrap_or_default(),
                    block_at: place.block_at.wrapping_add(1),
                    ..place
                };
                K::lazy(i, inner, root, depth).map(Some)
            }
            Some(0) | None => Ok(None),
            Some(&value) => Err(Error::new(
                ErrorKind::InvalidPresence { value },
                place.block_at,
            )),
        }
    }

    fn locate(
        i: Internal,
        place: Place<'_>,
        target: &crate::lazy::Target,
        steps: &mut alloc::vec::Vec<crate::lazy::Step>,
    ) -> bool {
        let inner = Place {
            block: place.block.get(1..).unwrap_or_default(),
            block_at: place.block_at.wrapping_add(1),
            ..place
        };
        place.block.first() == Some(&1) && K::locate(i, inner, target, steps)
    }

    #[inline(always)]
    fn validate<M: Mode>(i: Internal, place: Place<'_>, mode: &M, depth: u32) -> Result<(), Error> {
        match place.block.first() {
            Some(1) => {
                let inner = Place {
                    block: place.block.get(1..).unwrap_or_default(),
                    block_at: place.block_at.wrapping_add(1),
                    ..place
                };
                K::validate(i, inner, mode, depth)
            }
            Some(0) | None => Ok(()),
            Some(&value) => Err(Error::new(
                ErrorKind::InvalidPresence { value },
                place.block_at,
            )),
        }
    }

    /// The presence byte and the value's block bytes (zeros when absent), for a
    /// fixed-size `K`.
    fn default_bytes(i: Internal, view: Option<K::View<'_>>) -> Option<alloc::vec::Vec<u8>> {
        if K::IN_TAIL {
            return None;
        }
        let mut out = alloc::vec![0; <Self as Kind>::BLOCK_SIZE];
        if let Some(value) = view {
            out[0] = 1;
            out[1..].copy_from_slice(&K::default_bytes(i, value)?);
        }
        Some(out)
    }

    #[cfg(feature = "serde")]
    fn serialize_view<'v, S: serde::Serializer>(
        _: Internal,
        view: Option<K::View<'v>>,
        s: S,
    ) -> Result<S::Ok, S::Error>
    where
        Self: 'v,
    {
        match view {
            Some(value) => s.serialize_some(&crate::serde_view::SerializeView::<K>(value)),
            None => s.serialize_none(),
        }
    }

    #[inline(always)]
    unsafe fn read<'v>(i: Internal, block: &'v [u8], region: &'v [u8]) -> Option<K::View<'v>> {
        // SAFETY: the caller promises `block` holds the presence byte and `K`'s bytes
        // after it, validated: when the byte is 1, `K` was validated at `block[1..]`.
        unsafe {
            let [presence] = crate::validated::array_at::<1>(block, 0);
            if !K::CHECKS && !K::IN_TAIL {
                // Every byte pattern of `K`'s block is a value (`CHECKS`: validation
                // accepts any), and it has no tail data: the bytes are read whether
                // present or not (zero when absent), then the byte picks the result.
                // A load behind the presence test cost the game's read register
                // shuffles and spills around its contacts' four options (6.61M to
                // 6.00M instructions a read without them).
                let value = K::read(i, crate::validated::range(block, 1, block.len()), region);
                return if presence == 1 { Some(value) } else { None };
            }
            if presence == 1 {
                Some(K::read(
                    i,
                    crate::validated::range(block, 1, block.len()),
                    region,
                ))
            } else {
                None
            }
        }
    }

    #[inline]
    fn view_eq<'v>(i: Internal, a: Option<K::View<'v>>, b: Option<K::View<'v>>) -> bool
    where
        Self: 'v,
    {
        match (a, b) {
            (Some(a), Some(b)) => K::view_eq(i, a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl<'v, T: Scalar<'v>> SetInPlace<'v, Option<T>> for Opt<T::Kind> {
    /// The value first, then the presence byte: a value that writes nothing (a
    /// message whose encoding did not validate) leaves the option as it was.
    #[inline(always)]
    fn set(i: Internal, value: &Option<T>, block: &mut [u8]) -> bool {
        let Some((presence, rest)) = block.split_first_mut() else {
            return false;
        };
        match value {
            Some(value) => {
                if !value.write_scalar(i, rest) {
                    return false;
                }
                *presence = 1;
            }
            None => {
                *presence = 0;
                let size = <T::Kind as Kind>::BLOCK_SIZE.min(rest.len());
                rest[..size].fill(0);
            }
        }
        true
    }
}

impl<K: FixedKind> FixedKind for Opt<K> {}
