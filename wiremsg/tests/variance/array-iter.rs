// `ArrayIter` is an iterator over a validated array of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::ArrayIter;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ArrayIter<'static, Any, 2>) -> ArrayIter<'static, Once, 2> {
    x
}

fn main() {}
