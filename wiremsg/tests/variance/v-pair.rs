// `VPair` is a node of a union's variant tree: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::VPair;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: VPair<Any, u8>) -> VPair<Once, u8> {
    x
}

fn param_1(x: VPair<u8, Any>) -> VPair<u8, Once> {
    x
}

fn main() {}
