// Two types related by subtyping may name different kinds (rustc accepts both impls,
// with a future-compatibility warning). A proof about one must not coerce into a
// proof about the other: lists, arrays and the views' proofs are invariant in their
// type parameter.
#![allow(coherence_leak_check)]
use std::marker::PhantomData;
use wiremsg::{DecodeField, Element, Field, List, TypeSchema, WireMsg};

pub struct W<T>(PhantomData<T>);
type Any4 = W<for<'a> fn(&'a ())>; // validated as a u32: any 4 bytes
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
field!(Any4, u32, TypeSchema::U32);
field!(Text4, wiremsg::FixedStr<4>, TypeSchema::FixedStr { len: 4 });

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
