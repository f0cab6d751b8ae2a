// `Pair` is two halves of a message's layout: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::Pair;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Pair<Any, u8>) -> Pair<Once, u8> {
    x
}

fn param_1(x: Pair<u8, Any>) -> Pair<u8, Once> {
    x
}

fn main() {}
