// A promise cannot be copied from another type's impl (issue 30): `Field::PLAIN` of
// `u64` is a `Plain<u64>`, and a hand-written `Field` for a reference, a `char` or a
// type with padding needs a `Plain<Self>`, which only `unsafe` code can make. Were it
// a plain value, lists of `Ref` would be decoded by copying wire bytes into
// references, and encoded by reading padding.
#![allow(coherence_leak_check)]
use wiremsg::{Field, TypeSchema};

struct Ref(&'static u64);

impl Field for Ref {
    type Kind = u64;
    const TYPE: &'static TypeSchema = &TypeSchema::U64;
    const PLAIN: wiremsg::__private::Plain<Self> = <u64 as Field>::PLAIN;

    fn tail_len(&self) -> usize {
        0
    }

    fn write(&self, block: &mut [u8], _: &mut [u8]) {
        block.copy_from_slice(&self.0.to_le_bytes());
    }
}

// The same through a type that differs only by a higher-ranked lifetime.
struct W<T>(T);

impl Field for W<fn(&'static ())> {
    type Kind = u8;
    const TYPE: &'static TypeSchema = &TypeSchema::U8;
    const PLAIN: wiremsg::__private::Plain<Self> = <W<for<'a> fn(&'a ())> as Field>::PLAIN;

    fn tail_len(&self) -> usize {
        0
    }

    fn write(&self, _: &mut [u8], _: &mut [u8]) {}
}

impl Field for W<for<'a> fn(&'a ())> {
    type Kind = u8;
    const TYPE: &'static TypeSchema = &TypeSchema::U8;

    fn tail_len(&self) -> usize {
        0
    }

    fn write(&self, _: &mut [u8], _: &mut [u8]) {}
}

fn main() {}
