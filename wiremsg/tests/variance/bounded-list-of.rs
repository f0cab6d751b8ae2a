// `BoundedListOf` is the kind of a bounded list of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::BoundedListOf;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: BoundedListOf<Any, 2>) -> BoundedListOf<Once, 2> {
    x
}

fn main() {}
