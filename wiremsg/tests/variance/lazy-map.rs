// `LazyMap` is a map of `K` to `V` whose keys were checked as `K`'s kind: invariant
// in its type parameters, or a higher-ranked subtype (`Any`) could stand for its
// supertype (`Once`), whose impls may name another kind.
use wiremsg::LazyMap;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: LazyMap<'static, Any, u8>) -> LazyMap<'static, Once, u8> {
    x
}

fn param_1(x: LazyMap<'static, u8, Any>) -> LazyMap<'static, u8, Once> {
    x
}

fn main() {}
