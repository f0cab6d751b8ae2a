//! The wire shapes ([`Kind`](crate::Kind)s) that field types map to.
//!
//! Numbers, `bool` and [`FixedStr<N>`](crate::FixedStr) are their own kinds; the types
//! here stand for the others. They are markers: never built, only named as
//! `Field::Kind`. This crate defines every kind, and validation and reads go through
//! them alone, which is what makes a validated view sound whatever other code does.
//!
//! ```
//! use wiremsg::{Field, kind};
//!
//! fn kind_name<F: Field>() -> &'static str {
//!     core::any::type_name::<F::Kind>()
//! }
//! assert!(kind_name::<Vec<u16>>().ends_with("ListOf<u16>"));
//! assert!(kind_name::<Option<String>>().ends_with("Opt<wiremsg::kind::Text>"));
//! assert_eq!(kind_name::<u64>(), "u64"); // a number is its own kind
//! let _: Option<kind::Text> = None; // markers: never built
//! ```

use core::marker::PhantomData;

/// A marker that makes a type invariant in `T` (see the module docs).
pub(crate) type Invariant<T> = PhantomData<fn(T) -> T>;

/// UTF-8 text in the tail: `String` and `&str` (FORMAT.md §4.2).
///
/// ```
/// use wiremsg::{Field, kind::Text};
///
/// fn is_text<F: Field<Kind = Text>>() {}
/// is_text::<String>();
/// is_text::<&str>();
/// assert_eq!(<String as Field>::BLOCK_SIZE, 4); // the end offset of its data
/// ```
#[derive(Debug)]
pub struct Text(());

/// A list of `T` in the tail: `Vec<T>` and `&[T]` (FORMAT.md §6).
///
/// ```
/// use wiremsg::{Field, kind::ListOf};
///
/// fn is_list_of<T, F: Field<Kind = ListOf<T>>>() {}
/// is_list_of::<u32, Vec<u32>>();
/// is_list_of::<u32, &[u32]>(); // borrowed and owned: the same bytes
/// ```
#[derive(Debug)]
pub struct ListOf<T>(Invariant<T>);

/// A presence byte, then kind `K`: `Option<T>` (FORMAT.md §4.5).
///
/// ```
/// use wiremsg::{Field, kind::Opt};
///
/// fn is_option<F: Field<Kind = Opt<u64>>>() {}
/// is_option::<Option<u64>>();
/// assert_eq!(<Option<u64> as Field>::BLOCK_SIZE, 9); // presence byte, then 8
/// ```
#[derive(Debug)]
pub struct Opt<K>(Invariant<K>);

/// `N` elements of `T` inline: `[T; N]` (FORMAT.md §4.6).
///
/// ```
/// use wiremsg::{Field, kind::ArrayOf};
///
/// fn is_array<F: Field<Kind = ArrayOf<i16, 3>>>() {}
/// is_array::<[i16; 3]>();
/// assert_eq!(<[i16; 3] as Field>::BLOCK_SIZE, 6);
/// ```
#[derive(Debug)]
pub struct ArrayOf<T, const N: usize>(Invariant<T>);

/// A list of at most `MAX` elements of `T` (`#[wire(max_len = MAX)]`, FORMAT.md §6.5).
#[derive(Debug)]
pub struct BoundedListOf<T, const MAX: usize>(Invariant<T>);

/// A nested message of type `M` (FORMAT.md §4.7).
///
/// ```
/// use wiremsg::{Field, WireMsg, kind::Msg};
///
/// #[derive(WireMsg, Debug)]
/// struct Level { price: i64, size: u32 }
///
/// fn is_message<M, F: Field<Kind = Msg<M>>>() {}
/// is_message::<Level, Level>();
/// assert_eq!(<Level as Field>::BLOCK_SIZE, 12); // fixed-size: inline
/// ```
#[derive(Debug)]
pub struct Msg<M>(Invariant<M>);

/// A `#[derive(WireEnum)]` enum `E` (FORMAT.md §4.4).
///
/// ```
/// use wiremsg::{Field, WireEnum, kind::EnumOf};
///
/// #[derive(WireEnum, Debug, Clone, Copy)]
/// #[repr(u16)]
/// enum Status { New = 0, Done = 1 }
///
/// fn is_enum<E, F: Field<Kind = EnumOf<E>>>() {}
/// is_enum::<Status, Status>();
/// assert_eq!(<Status as Field>::BLOCK_SIZE, 2); // its repr
/// ```
#[derive(Debug)]
pub struct EnumOf<E>(Invariant<E>);

/// A `#[derive(WireUnion)]` tagged union whose layout is `L` (FORMAT.md §4.10): a tag,
/// then the variant's payload, in the tail.
///
/// ```
/// use wiremsg::{Field, WireMsg, WireUnion, kind::UnionOf};
///
/// #[derive(WireMsg, Debug)]
/// struct Limit { price: i64 }
///
/// #[derive(WireUnion, Debug)]
/// #[repr(u8)]
/// enum Instr { Market = 0, Limit(Limit) = 1 }
///
/// fn is_union<L, F: Field<Kind = UnionOf<L>>>() {}
/// is_union::<Instr, Instr>();
/// assert_eq!(<Instr as Field>::BLOCK_SIZE, 4); // the end offset of its region
/// ```
#[derive(Debug)]
pub struct UnionOf<L>(Invariant<L>);
/// A tuple `(T0, T1, ..)` of up to 12 field types, laid out as a message of version
/// 1 whose fields are its elements (FORMAT.md §4.11): inline when every element is
/// fixed-size, in the tail (with its own block length) otherwise.
///
/// ```
/// use wiremsg::{Field, kind::Tup};
///
/// fn is_tuple<T, F: Field<Kind = Tup<T>>>() {}
/// is_tuple::<(f64, f64), (f64, f64)>();
/// assert_eq!(<(f64, f64, u8) as Field>::BLOCK_SIZE, 17); // inline
/// assert_eq!(<(u32, String) as Field>::BLOCK_SIZE, 4); // in the tail: an end offset
/// ```
#[derive(Debug)]
pub struct Tup<T>(Invariant<T>);

/// A map from keys `K` to values `V`: `BTreeMap<K, V>` and `HashMap<K, V, S>`, laid out
/// as a list of `(K, V)` entries in strictly increasing key order (FORMAT.md §6.7).
///
/// ```
/// use std::collections::{BTreeMap, HashMap};
/// use wiremsg::{Field, kind::MapOf};
///
/// fn is_map<K, V, F: Field<Kind = MapOf<K, V>>>() {}
/// is_map::<String, u32, BTreeMap<String, u32>>();
/// is_map::<String, u32, HashMap<String, u32>>(); // the same bytes
/// assert_eq!(<BTreeMap<u16, u16> as Field>::BLOCK_SIZE, 4); // the end offset
/// ```
#[derive(Debug)]
pub struct MapOf<K, V>(Invariant<(K, V)>);
