// `VLast` is a union's variant list: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::VLast;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: VLast<Any>) -> VLast<Once> {
    x
}

fn main() {}
