// The view and the mutable view that the derive generates for a generic message hold
// the proof of validation for the message with its parameters: invariant in them, or
// a higher-ranked subtype (`Any4`) could stand for its supertype (`Text4`), whose
// impls may name another kind.
#![allow(coherence_leak_check)]
use wiremsg::{Field, TypeSchema, WireMsg};

include!("../common/subtype_field.rs");
subtype_field!(Any4, u32, TypeSchema::U32);
subtype_field!(Text4, wiremsg::FixedStr<4>, TypeSchema::FixedStr { len: 4 });

#[derive(WireMsg)]
pub struct Holder<T: Field> {
    x: T,
}

fn view(x: HolderView<'static, Any4>) -> HolderView<'static, Text4> {
    x
}

fn view_mut(x: HolderMut<'static, Any4>) -> HolderMut<'static, Text4> {
    x
}

fn main() {}
