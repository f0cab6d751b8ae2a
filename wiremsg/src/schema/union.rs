//! The schema of a tagged union (FORMAT.md §4.10): its tag's type and its variants,
//! each with its tag and the message its payload is (none for a unit variant).

use super::{MessageRef, Name, Node, TypeSchema};
use alloc::borrow::Cow;
use core::fmt;

/// A `#[derive(WireUnion)]` tagged union: the tag's integer type, the variants and
/// their tags, and the catch-all variant, if any.
///
/// # Examples
///
/// ```
/// use wiremsg::{TypeSchema, WireMsg, WireUnion};
///
/// #[derive(WireMsg, Debug)]
/// struct Limit { price: i64 }
///
/// #[derive(WireUnion, Debug)]
/// #[repr(u8)]
/// #[wire(version = 2)]
/// enum Instr {
///     Market = 0,
///     Limit(Limit) = 1,
///     #[wire(since = 2)]
///     Stop { trigger: i64 } = 2,
/// }
///
/// let schema = Instr::UNION_SCHEMA;
/// assert_eq!((schema.name.as_ref(), schema.version, &*schema.tag), ("Instr", 2, &TypeSchema::U8));
/// assert_eq!(schema.variant(1).unwrap().name, "Limit");
/// assert_eq!(schema.variant(1).unwrap().payload.as_ref().unwrap().name, "Limit");
/// assert_eq!(schema.variant(2).unwrap().payload.as_ref().unwrap().name, "InstrStop");
/// assert_eq!((schema.variant(2).unwrap().since, schema.variant(0).unwrap().payload.is_none()), (2, true));
/// assert_eq!(schema.catch_all, None);
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UnionSchema {
    /// The Rust type name.
    pub name: Name,
    /// The union's current schema version (`#[wire(version = N)]`, default 1).
    pub version: u16,
    /// The tag's integer type on the wire (`U8`, `U16`, `U32` or `U64`).
    pub tag: Node<TypeSchema>,
    /// The variants that have a tag, in declaration order (the catch-all excluded).
    pub variants: Cow<'static, [UnionVariantSchema]>,
    /// The catch-all variant that keeps unknown tags with their payload bytes
    /// (`#[wire(other)]`), if the union declares one.
    pub catch_all: Option<Name>,
}

impl UnionSchema {
    /// The variant with tag `tag`, if one has it.
    pub fn variant(&self, tag: u64) -> Option<&UnionVariantSchema> {
        self.variants.iter().find(|v| v.tag == tag)
    }

    /// Bytes of the tag.
    pub fn tag_size(&self) -> usize {
        self.tag.number_size().unwrap_or(0)
    }
}

impl fmt::Debug for UnionSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = f.debug_struct(&self.name);
        s.field("version", &self.version)
            .field("tag", &self.tag)
            .field("variants", &self.variants);
        if let Some(catch_all) = &self.catch_all {
            s.field("catch_all", catch_all);
        }
        s.finish()
    }
}

/// One variant of a union: its name, tag, payload message and since-version.
///
/// # Examples
///
/// ```
/// use wiremsg::{MessageRef, UnionVariantSchema};
///
/// let limit = UnionVariantSchema {
///     name: "Limit".into(),
///     tag: 1,
///     payload: Some(MessageRef::named("Limit")),
///     since: 1,
/// };
/// assert_eq!(format!("{limit:?}"), "Limit = 1 (Limit)");
/// ```
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UnionVariantSchema {
    /// The variant's name.
    pub name: Name,
    /// The tag on the wire.
    pub tag: u64,
    /// The message the payload is: the variant's message type `M` of `Name(M)`, or
    /// the anonymous message of a struct variant (`{Union}{Name}`); `None` for a unit
    /// variant (no payload).
    pub payload: Option<MessageRef>,
    /// The union version that added the variant (`#[wire(since = N)]`, default 1).
    pub since: u16,
}

impl fmt::Debug for UnionVariantSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {}", self.name, self.tag)?;
        if let Some(payload) = &self.payload {
            write!(f, " ({})", payload.name)?;
        }
        if self.since > 1 {
            write!(f, " since {}", self.since)?;
        }
        Ok(())
    }
}
