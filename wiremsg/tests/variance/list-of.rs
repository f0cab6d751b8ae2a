// `ListOf` is the kind of a list of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::ListOf;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ListOf<Any>) -> ListOf<Once> {
    x
}

fn main() {}
