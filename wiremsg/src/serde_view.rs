//! `Serialize` for views (feature `serde`): `serde_json::to_string(&view)` writes a
//! message straight from its bytes, without decoding it.
//!
//! A view is a struct of its readable fields, named as in Rust; a field the writer's
//! version did not have (added in a later version) is left out, not `null`. Numbers,
//! `bool` and text are themselves; bytes, lists and arrays are sequences; an enum is
//! its variant's name (an unknown value kept by a catch-all variant is its number);
//! an absent `Option` is `null`; a `Decimal` is its exact text. `FixedStr` and
//! `Decimal` also deserialize, from a string.

use crate::field::{Element, Kind};
use crate::mode::sealed::INTERNAL;
use crate::{ArrayView, Field, FixedStr, List};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A view of kind `K`, serialized as that kind says.
#[doc(hidden)]
pub struct SerializeView<'v, K: Kind + 'v>(pub K::View<'v>);

impl<'v, K: Kind + 'v> core::fmt::Debug for SerializeView<'v, K> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.0.fmt(f)
    }
}

impl<'v, K: Kind + 'v> Serialize for SerializeView<'v, K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        K::serialize_view(INTERNAL, self.0, serializer)
    }
}

/// A list is a sequence of its elements.
impl<'v, T: Element + 'v> Serialize for List<'v, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(SerializeView::<T::Kind>))
    }
}

/// An array is a sequence of its elements.
impl<'v, T: Field + 'v, const N: usize> Serialize for ArrayView<'v, T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter().map(SerializeView::<T::Kind>))
    }
}

/// The text, without its padding.
impl<const N: usize> Serialize for FixedStr<N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// From a string, with the checks of [`FixedStr::new`].
impl<'de, const N: usize> Deserialize<'de> for FixedStr<N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        FixedStr::new(&text).map_err(serde::de::Error::custom)
    }
}

/// The exact decimal text (`"123.4500"`), as a view writes it: a JSON number would
/// round it.
impl<M: crate::Mantissa, const SCALE: u32> Serialize for crate::Decimal<M, SCALE> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// From decimal text, with the checks of its `FromStr` (no more places than `SCALE`,
/// in the mantissa's range).
impl<'de, M: crate::Mantissa, const SCALE: u32> Deserialize<'de> for crate::Decimal<M, SCALE> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <alloc::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}
