// `MapOf` is the kind of a map of `K` to `V`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::MapOf;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: MapOf<Any, u8>) -> MapOf<Once, u8> {
    x
}

fn param_1(x: MapOf<u8, Any>) -> MapOf<u8, Once> {
    x
}

fn main() {}
