//! `Serialize` for the schema-driven reader's values (feature `serde`): the same
//! JSON as the typed views write (`crate::serde_view`), so that a tool without the
//! Rust types prints what a program with them would. A field the writer's version
//! did not have is left out.

use super::{DynLazy, DynView, UnionValue, Value};
use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

impl Serialize for Value<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Bool(b) => s.serialize_bool(*b),
            // The widest integers serde has; JSON writes them as their digits.
            Value::Unsigned(n) => s.serialize_u128(*n),
            Value::Signed(n) => s.serialize_i128(*n),
            Value::F32(x) => s.serialize_f32(*x),
            Value::F64(x) => s.serialize_f64(*x),
            Value::Str(text) | Value::FixedStr(text) => s.serialize_str(text),
            // Exact text, as the typed view writes a `Decimal`.
            Value::Decimal { .. } => s.collect_str(self),
            Value::Bytes(bytes) => s.collect_seq(bytes.iter()),
            Value::Enum(e) => match e.name() {
                Some(name) => s.serialize_str(name),
                None => s.serialize_u64(e.raw()),
            },
            Value::Option(None) | Value::Absent => s.serialize_none(),
            Value::Option(Some(value)) => s.serialize_some(value),
            Value::Array(array) => s.collect_seq(array.iter()),
            Value::List(list) => s.collect_seq(list.iter()),
            Value::Message(view) => view.serialize(s),
            // A sequence, as the typed view writes a tuple (JSON: an array).
            Value::Tuple(tuple) => s.collect_seq(tuple.iter()),
            // An object, as the typed view writes a map (JSON keys are strings).
            Value::Map(entries) => s.collect_map(super::value::map_entries(entries)),
            Value::Union(u) => u.serialize(s),
        }
    }
}

/// As serde writes an externally tagged enum, and the typed view: a unit variant is
/// its name, another `{ name: payload }`, the catch-all `{ name: { tag, bytes } }`.
impl Serialize for UnionValue<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match (self.name(), self.payload()) {
            (Some(name), Value::Absent) => s.serialize_str(name),
            (Some(name), payload) => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(name, &payload)?;
                map.end()
            }
            (None, payload) => {
                struct Kept<'v>(u64, Value<'v>);
                impl Serialize for Kept<'_> {
                    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                        let mut map = s.serialize_map(Some(2))?;
                        map.serialize_entry("tag", &self.0)?;
                        map.serialize_entry("bytes", &self.1)?;
                        map.end()
                    }
                }
                let other = self.schema().catch_all.as_deref().unwrap_or("");
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(other, &Kept(self.tag(), payload))?;
                map.end()
            }
        }
    }
}

/// A map of the fields the writer had, in wire order.
impl Serialize for DynView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        for field in self.fields().filter(|f| f.is_present()) {
            map.serialize_entry(field.name(), field.value())?;
        }
        map.end()
    }
}

/// As the up-front view serializes, after `to_view()` (as a typed on-demand view
/// does): a validation error is the serializer's error (`serde::ser::Error::custom`),
/// before anything is written.
impl Serialize for DynLazy<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.to_view() {
            Ok(view) => view.serialize(s),
            Err(err) => Err(serde::ser::Error::custom(err)),
        }
    }
}
