// `Plain` is the promise that `T`'s memory is its wire block: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::Plain;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Plain<Any>) -> Plain<Once> {
    x
}

fn main() {}
