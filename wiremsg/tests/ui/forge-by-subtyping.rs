// Two types related by subtyping may name different kinds (rustc accepts both impls,
// with a future-compatibility warning). A proof about one must not coerce into a
// proof about the other: lists, arrays and the views' proofs are invariant in their
// type parameter.
#![allow(coherence_leak_check)]
use std::marker::PhantomData;
use wiremsg::{DecodeField, List, TypeSchema, WireMsg};

include!("../common/subtype_field.rs");
subtype_field!(Any4, u32, TypeSchema::U32);
subtype_field!(Text4, wiremsg::FixedStr<4>, TypeSchema::FixedStr { len: 4 });

impl<'v> DecodeField<'v> for Any4 {
    fn decode_view(_: u32) -> Self {
        W(PhantomData)
    }
}

#[derive(WireMsg)]
struct Carrier {
    xs: Vec<Any4>,
}

fn main() {
    let bytes = [6u8, 0, 10, 0, 0, 0, 0xff, 0xfe, 0xfd, 0xfc];
    let view = Carrier::view(&bytes).unwrap();
    let list: List<'_, Text4> = view.xs();
    let _text: &str = list.get(0).unwrap();
}
