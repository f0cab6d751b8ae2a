// `UnionOf` is the kind of a union of layout `L`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::UnionOf;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: UnionOf<Any>) -> UnionOf<Once> {
    x
}

fn main() {}
