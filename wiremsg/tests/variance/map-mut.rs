// `MapMut` is a validated map of `K` to `V`, borrowed mutably: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::MapMut;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: MapMut<'static, Any, u8>) -> MapMut<'static, Once, u8> {
    x
}

fn param_1(x: MapMut<'static, u8, Any>) -> MapMut<'static, u8, Once> {
    x
}

fn main() {}
