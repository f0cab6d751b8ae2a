// `Right` is a path into a message's layout: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::Right;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Right<Any>) -> Right<Once> {
    x
}

fn main() {}
