// The on-demand view the derive generates for a generic message holds the message's
// type parameters, as a map's keys checked as one kind: invariant in them, or a
// higher-ranked subtype (`Any4`, keys of `u32`'s kind) could stand for its
// supertype (`Text4`, keys of text), whose map would read any bytes as text.
#![allow(coherence_leak_check)]
use std::collections::BTreeMap;
use wiremsg::{MapKey, TypeSchema, WireMsg};

include!("../common/subtype_field.rs");
subtype_field!(Any4, u32, TypeSchema::U32);
subtype_field!(Text4, wiremsg::kind::Text, TypeSchema::Str);

impl<T> PartialEq for W<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for W<T> {}
impl<T> PartialOrd for W<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for W<T> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl MapKey for Any4 {
    fn key_view(&self) -> u32 {
        0
    }
}

impl MapKey for Text4 {
    fn key_view(&self) -> &str {
        ""
    }
}

#[derive(WireMsg)]
pub struct Keyed<K: MapKey + Ord> {
    m: BTreeMap<K, u8>,
}

fn lazy(x: KeyedLazy<'static, Any4>) -> KeyedLazy<'static, Text4> {
    x
}

fn main() {}
