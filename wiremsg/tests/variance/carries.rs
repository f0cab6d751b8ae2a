// `Carries` is the payload kind of a union variant: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::Carries;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Carries<Any>) -> Carries<Once> {
    x
}

fn main() {}
