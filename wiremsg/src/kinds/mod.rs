//! The field types, one file per wire shape: how each Rust type (numbers, text, fixed
//! strings, lists, maps, tuples, unions, options, boxes, arrays, decimals, null
//! sentinels) maps to its [`Kind`](crate::Kind), and is encoded and decoded.

pub(crate) mod array;
pub(crate) mod boxed;
pub(crate) mod decimal;
pub(crate) mod fixed_str;
pub(crate) mod list;
pub(crate) mod map;
pub(crate) mod null;
pub(crate) mod option;
pub(crate) mod primitives;
pub(crate) mod text;
pub(crate) mod tuple;
