// The forge of issue 30: a map validated with `[u8; 4]` values must not be read with
// `FixedStr<4>` values through higher-ranked subtyping (`W<for<'a> fn(&'a ())>` is a
// subtype of `W<fn(&'static ())>`; both implement `Field`, with different kinds).
// `MapView` is invariant in its key and value types, so the coercion is refused.
#![allow(coherence_leak_check)]
use std::collections::BTreeMap;
use std::marker::PhantomData;
use wiremsg::{DecodeField, MapView, TypeSchema, WireMsg};

include!("../common/subtype_field.rs");
subtype_field!(Any4, wiremsg::kind::ArrayOf<u8, 4>, TypeSchema::U32);
subtype_field!(Text4, wiremsg::FixedStr<4>, TypeSchema::FixedStr { len: 4 });

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
