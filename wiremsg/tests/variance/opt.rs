// `Opt` is the kind of an option of kind `K`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::Opt;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Opt<Any>) -> Opt<Once> {
    x
}

fn main() {}
