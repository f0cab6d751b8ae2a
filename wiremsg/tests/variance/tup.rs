// `Tup` is the kind of a tuple `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::Tup;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Tup<Any>) -> Tup<Once> {
    x
}

fn main() {}
