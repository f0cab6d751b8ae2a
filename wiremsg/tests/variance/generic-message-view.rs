// The view and the mutable view that the derive generates for a generic message hold
// the proof of validation for the message with its parameters: invariant in them, or
// a higher-ranked subtype (`Any`) could stand for its supertype (`Once`), whose
// impls may name another kind.
#![allow(coherence_leak_check)]
use std::marker::PhantomData;
use wiremsg::{Element, Field, List, TypeSchema, WireMsg};

pub struct W<T>(PhantomData<T>);
type Any = W<for<'a> fn(&'a ())>;
type Once = W<fn(&'static ())>;

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
field!(Any, u32, TypeSchema::U32);
field!(Once, wiremsg::FixedStr<4>, TypeSchema::FixedStr { len: 4 });

#[derive(WireMsg)]
pub struct Holder<T: Field> {
    x: T,
}

fn view(x: HolderView<'static, Any>) -> HolderView<'static, Once> {
    x
}

fn view_mut(x: HolderMut<'static, Any>) -> HolderMut<'static, Once> {
    x
}

fn main() {}
