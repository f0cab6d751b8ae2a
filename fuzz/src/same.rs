//! The typed and the schema-driven reader read the same values: an owned value
//! (decoded by the typed view) against the [`Value`] the dynamic view reads.

use crate::{
    Chain, Every, Expr, Fill, Formula, Item, Kind, Kinds, Level, Maps, Node, Side, Tick, Venue,
    book_v1, book_v2, ticks_v1, ticks_v2, v1, v2,
};
use wiremsg::dynamic::Value;
use wiremsg::{FixedStr, WireEnum};

/// Asserts that a dynamic value is this value.
pub trait Same {
    /// Panics, naming `at`, if `value` is not `self`.
    fn same(&self, value: &Value<'_>, at: &str);
}

macro_rules! same_number {
    ($variant:ident as $wide:ty: $($ty:ty),*) => {$(
        impl Same for $ty {
            fn same(&self, value: &Value<'_>, at: &str) {
                assert_eq!(value, &Value::$variant(<$wide>::from(*self)), "at `{at}`");
            }
        }
    )*};
}

same_number!(Unsigned as u128: u8, u16, u32, u64, u128);
same_number!(Signed as i128: i8, i16, i32, i64, i128);

impl Same for bool {
    fn same(&self, value: &Value<'_>, at: &str) {
        assert_eq!(value, &Value::Bool(*self), "at `{at}`");
    }
}

impl Same for f64 {
    fn same(&self, value: &Value<'_>, at: &str) {
        match value {
            Value::F64(x) => assert_eq!(x.to_bits(), self.to_bits(), "at `{at}`"),
            _ => panic!("at `{at}`: {value:?} is not an f64"),
        }
    }
}

impl Same for String {
    fn same(&self, value: &Value<'_>, at: &str) {
        assert_eq!(value, &Value::Str(self.as_str().into()), "at `{at}`");
    }
}

impl<const N: usize> Same for FixedStr<N> {
    fn same(&self, value: &Value<'_>, at: &str) {
        assert_eq!(value, &Value::FixedStr(self.as_str().into()), "at `{at}`");
    }
}

/// A box reads as its contents.
impl<T: Same> Same for Box<T> {
    fn same(&self, value: &Value<'_>, at: &str) {
        (**self).same(value, at);
    }
}

/// The variant by name, then its payload's fields.
impl Same for Expr {
    fn same(&self, value: &Value<'_>, at: &str) {
        let Value::Union(union) = value else {
            panic!("at `{at}`: {value:?} is not a union")
        };
        let Value::Message(payload) = union.payload() else {
            panic!("at `{at}`: {value:?} has no payload message")
        };
        let field = |name: &str| {
            payload
                .get(name)
                .unwrap_or_else(|| panic!("`{at}.{name}` missing"))
        };
        let variant = match self {
            Expr::Num { value } => {
                value.same(&field("value"), "value");
                "Num"
            }
            Expr::Add { l, r } => {
                l.same(&field("l"), "l");
                r.same(&field("r"), "r");
                "Add"
            }
            Expr::Neg { e } => {
                e.same(&field("e"), "e");
                "Neg"
            }
        };
        assert_eq!(union.name(), Some(variant), "at `{at}`");
    }
}

impl<T: Same> Same for Option<T> {
    fn same(&self, value: &Value<'_>, at: &str) {
        match (self, value) {
            (None, Value::Option(None)) => {}
            (Some(mine), Value::Option(Some(theirs))) => mine.same(theirs, at),
            _ => panic!("at `{at}`: {value:?} differs"),
        }
    }
}

impl<T: Same, const N: usize> Same for [T; N] {
    fn same(&self, value: &Value<'_>, at: &str) {
        let Value::Array(array) = value else {
            panic!("at `{at}`: {value:?} is not an array")
        };
        assert_eq!(array.len(), N, "at `{at}`");
        for (i, item) in self.iter().enumerate() {
            item.same(&array.get(i).expect("element"), at);
        }
    }
}

impl<T: Same> Same for Vec<T> {
    fn same(&self, value: &Value<'_>, at: &str) {
        match value {
            Value::List(list) => {
                assert_eq!(list.len(), self.len(), "at `{at}`");
                for (i, item) in self.iter().enumerate() {
                    item.same(&list.get(i).expect("element"), at);
                }
            }
            Value::Bytes(bytes) => {
                assert_eq!(bytes.len(), self.len(), "at `{at}`");
                for (item, byte) in self.iter().zip(bytes.iter()) {
                    item.same(&Value::Unsigned(u128::from(*byte)), at);
                }
            }
            _ => panic!("at `{at}`: {value:?} is not a list"),
        }
    }
}

macro_rules! same_tuple {
    ($(($($t:ident . $i:tt),+))*) => {$(
        /// A tuple: its elements in order.
        impl<$($t: Same),+> Same for ($($t,)+) {
            fn same(&self, value: &Value<'_>, at: &str) {
                let Value::Tuple(tuple) = value else {
                    panic!("at `{at}`: {value:?} is not a tuple")
                };
                assert_eq!(tuple.len(), [$($i),+].len(), "at `{at}`");
                $(self.$i.same(&tuple.get($i).expect("element"), at);)+
            }
        }
    )*};
}

same_tuple! {
    (A.0, B.1)
    (A.0, B.1, C.2)
}

/// A map: its entries in key order, each a `(key, value)` tuple.
impl<K: Same, V: Same> Same for std::collections::BTreeMap<K, V> {
    fn same(&self, value: &Value<'_>, at: &str) {
        let Value::Map(entries) = value else {
            panic!("at `{at}`: {value:?} is not a map")
        };
        assert_eq!(entries.len(), self.len(), "at `{at}`");
        for (i, (k, v)) in self.iter().enumerate() {
            let Some(Value::Tuple(entry)) = entries.get(i) else {
                panic!("at `{at}`: entry {i} is not a tuple")
            };
            k.same(&entry.get(0).expect("key"), at);
            v.same(&entry.get(1).expect("value"), at);
        }
    }
}

macro_rules! same_enum {
    ($($ty:ty),*) => {$(
        impl Same for $ty {
            fn same(&self, value: &Value<'_>, at: &str) {
                let Value::Enum(e) = value else {
                    panic!("at `{at}`: {value:?} is not an enum")
                };
                assert_eq!(e.raw(), u64::from(self.to_raw()), "at `{at}`");
            }
        }
    )*};
}

same_enum!(Side, Venue);

macro_rules! same_message {
    ($ty:ty { $($field:ident),* $(,)? }) => {
        impl Same for $ty {
            fn same(&self, value: &Value<'_>, at: &str) {
                let Value::Message(view) = value else {
                    panic!("at `{at}`: {value:?} is not a message")
                };
                $(
                    let name = stringify!($field);
                    let field = view.get(name).unwrap_or_else(|| panic!("`{at}.{name}` missing"));
                    self.$field.same(&field, name);
                )*
            }
        }
    };
}

same_message!(Level { price, size, live });
same_message!(Item { sku, qty, venue });
same_message!(Every {
    a,
    b,
    c,
    big,
    flag,
    side,
    venue,
    opt,
    opt_text,
    arr,
    sym,
    level,
    levels,
    text,
    bytes,
    numbers,
    flags,
    sides,
    syms,
    quotes,
    items,
    names,
    item,
    maybe_item,
    pairs,
    groups
});
same_message!(Node {
    id,
    name,
    children,
    tags
});
same_message!(Chain { value, label, next });
same_message!(Formula { name, expr });
same_message!(v1::Quote { price, venue });
same_message!(v2::Quote {
    price,
    venue,
    size,
    levels,
    note
});
same_message!(Maps {
    depth,
    names,
    syms,
    sides,
    venues,
    nested,
    maybe,
    many
});
same_message!(book_v1::Book { quotes });
same_message!(book_v2::Book { quotes });

/// A decimal by its mantissa and scale.
impl<const SCALE: u32> Same for wiremsg::Decimal<u32, SCALE> {
    fn same(&self, value: &Value<'_>, at: &str) {
        let expected = Value::Decimal {
            mantissa: i128::from(self.mantissa()),
            scale: SCALE,
        };
        assert_eq!(value, &expected, "at `{at}`");
    }
}

same_message!(Fill { qty, px });
same_message!(ticks_v1::Px { px });
same_message!(ticks_v2::Px { px, live });

/// A union: the variant by name, then its payload (a message variant's message, a
/// struct variant's fields; nothing for a unit variant).
macro_rules! same_union {
    ($ty:ty { $($variant:ident $(($payload:ident))? $({ $($field:ident),* })?),* $(,)? }) => {
        impl Same for $ty {
            fn same(&self, value: &Value<'_>, at: &str) {
                let Value::Union(union) = value else {
                    panic!("at `{at}`: {value:?} is not a union")
                };
                #[allow(unused_variables)]
                let payload = union.payload();
                let name = match self {
                    $(
                        Self::$variant $(($payload))? $({ $($field),* })? => {
                            $($payload.same(&payload, stringify!($variant));)?
                            $(
                                let Value::Message(fields) = &payload else {
                                    panic!("at `{at}`: {payload:?} has no payload message")
                                };
                                $(
                                    let name = stringify!($field);
                                    let field = fields
                                        .get(name)
                                        .unwrap_or_else(|| panic!("`{at}.{name}` missing"));
                                    $field.same(&field, name);
                                )*
                            )?
                            stringify!($variant)
                        }
                    )*
                };
                assert_eq!(union.name(), Some(name), "at `{at}`");
            }
        }
    };
}

same_union!(Kind { Add(level), Note { text }, Halt, Fill(fill) });
same_union!(Tick { Add(level), Halt, Fill(fill), Cancel { id, side } });
same_union!(ticks_v1::Tick { Halt, Trade(px), Cancel { id } });
same_union!(ticks_v2::Tick { Halt, Trade(px), Cancel { id }, Stop(px) });
same_message!(Kinds {
    kind,
    kinds,
    last,
    ticks,
    few,
    maybe,
    rows
});
same_message!(ticks_v1::Ticks { seq, ticks });
same_message!(ticks_v2::Ticks { seq, ticks });
