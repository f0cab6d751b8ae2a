// `Validated` is the proof that bytes passed validation for layout `L`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::Validated;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Validated<'static, Any>) -> Validated<'static, Once> {
    x
}

fn main() {}
