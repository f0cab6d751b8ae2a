// The forge of issue 30: a map validated with `[u8; 4]` values must not be read with
// `FixedStr<4>` values through higher-ranked subtyping (`W<for<'a> fn(&'a ())>` is a
// subtype of `W<fn(&'static ())>`; both implement `Field`, with different kinds).
// `MapView` is invariant in its key and value types, so the coercion is refused.
#![allow(coherence_leak_check)]
use std::collections::BTreeMap;
use std::marker::PhantomData;
use wiremsg::{DecodeField, Element, Field, List, MapView, TypeSchema, WireMsg};

pub struct W<T>(PhantomData<T>);
type Any4 = W<for<'a> fn(&'a ())>; // validated as [u8; 4]: any 4 bytes
type Text4 = W<fn(&'static ())>; // would read as FixedStr<4>: UTF-8 promised

macro_rules! field {
    ($t:ty, $kind:ty, $schema:expr) => {
        impl Field for $t {
            type Kind = $kind;
            const TYPE: &'static TypeSchema = &$schema;
            fn tail_len(&self) -> usize {
                0
            }
            fn write(&self, _: &mut [u8], _: &mut [u8]) {}
        }
        impl Element for $t {
            type ListView<'v> = List<'v, Self>;
            fn list_view<'v>(l: List<'v, Self>) -> List<'v, Self> {
                l
            }
            fn list_of<'v>(l: List<'v, Self>) -> List<'v, Self>
            where
                Self: 'v,
            {
                l
            }
        }
    };
}
field!(Any4, wiremsg::kind::ArrayOf<u8, 4>, TypeSchema::U32);
field!(Text4, wiremsg::FixedStr<4>, TypeSchema::FixedStr { len: 4 });

impl<'v> DecodeField<'v> for Any4 {
    fn decode_view(_: wiremsg::ArrayView<'v, u8, 4>) -> Self {
        W(PhantomData)
    }
}

#[derive(WireMsg)]
struct Carrier {
    book: BTreeMap<u8, Any4>,
}

fn main() {
    let bytes = Carrier { book: BTreeMap::from([(1, W(PhantomData))]) }.to_bytes().unwrap();
    let view = Carrier::view(&bytes).unwrap();
    let book: MapView<'_, u8, Text4> = view.book();
    let _text: &str = book.get(1).unwrap();
}
