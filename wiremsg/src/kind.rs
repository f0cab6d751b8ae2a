//! The wire shapes ([`Kind`](crate::Kind)s) that field types map to.
//!
//! Numbers, `bool` and [`FixedStr<N>`](crate::FixedStr) are their own kinds; the types
//! here stand for the others. They are markers: never built, only named as
//! `Field::Kind`. This crate defines every kind, and validation and reads go through
//! them alone, which is what makes a validated view sound whatever other code does.

use core::marker::PhantomData;

/// A marker that makes a type invariant in `T` (see the module docs).
pub(crate) type Invariant<T> = PhantomData<fn(T) -> T>;

/// UTF-8 text in the tail: `String` and `&str` (FORMAT.md §4.2).
#[derive(Debug)]
pub struct Text(());

/// A list of `T` in the tail: `Vec<T>` and `&[T]` (FORMAT.md §6).
#[derive(Debug)]
pub struct ListOf<T>(Invariant<T>);

/// A presence byte, then kind `K`: `Option<T>` (FORMAT.md §4.5).
#[derive(Debug)]
pub struct Opt<K>(Invariant<K>);

/// `N` elements of `T` inline: `[T; N]` (FORMAT.md §4.6).
#[derive(Debug)]
pub struct ArrayOf<T, const N: usize>(Invariant<T>);

/// A list of at most `MAX` elements of `T` (`#[wire(max_len = MAX)]`, FORMAT.md §6.4).
#[derive(Debug)]
pub struct BoundedListOf<T, const MAX: usize>(Invariant<T>);

/// A nested message of type `M` (FORMAT.md §4.7).
#[derive(Debug)]
pub struct Msg<M>(Invariant<M>);

/// A `#[derive(WireEnum)]` enum `E` (FORMAT.md §4.4).
#[derive(Debug)]
pub struct EnumOf<E>(Invariant<E>);
