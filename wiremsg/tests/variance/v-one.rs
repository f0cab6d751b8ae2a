// `VOne` is a leaf of a union's variant tree: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::VOne;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: VOne<Any>) -> VOne<Once> {
    x
}

fn main() {}
