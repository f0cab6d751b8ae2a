use wiremsg::{EnumSchema, Node, TypeSchema, WireEnum};

#[derive(WireEnum, Debug, Clone, Copy, PartialEq)]
#[repr(u8)]
enum Side {
    Buy = 0,
    Sell = 1,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Lie {
    A,
}

// A hand-written impl cannot state another enum's range of values in safe code:
// the range names its type, and is invariant in it.
impl WireEnum for Lie {
    type Repr = u8;
    const ENUM_SCHEMA: &'static EnumSchema = &EnumSchema {
        name: std::borrow::Cow::Borrowed("Lie"),
        repr: Node::Static(&TypeSchema::U8),
        variants: std::borrow::Cow::Borrowed(&[]),
        catch_all: None,
    };
    const __FALLBACK: Self = Lie::A;
    const __VALUES: wiremsg::__private::EnumValues<Self> = <Side as WireEnum>::__VALUES;
    fn from_raw(raw: u8) -> Option<Self> {
        (raw == 0).then_some(Lie::A)
    }
    fn to_raw(self) -> u8 {
        0
    }
}

fn main() {}
