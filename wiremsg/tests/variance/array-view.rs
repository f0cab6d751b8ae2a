// `ArrayView` is a validated array of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::ArrayView;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ArrayView<'static, Any, 2>) -> ArrayView<'static, Once, 2> {
    x
}

fn main() {}
