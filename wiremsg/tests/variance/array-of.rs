// `ArrayOf` is the kind of an array of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::ArrayOf;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ArrayOf<Any, 2>) -> ArrayOf<Once, 2> {
    x
}

fn main() {}
