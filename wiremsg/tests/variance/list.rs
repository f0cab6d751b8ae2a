// `List` is a validated list of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::List;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: List<'static, Any>) -> List<'static, Once> {
    x
}

fn main() {}
