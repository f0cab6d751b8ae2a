// `Msg` is the kind of a message `M`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::Msg;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: Msg<Any>) -> Msg<Once> {
    x
}

fn main() {}
