// `EnumOf` is the kind of an enum `E`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::kind::EnumOf;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: EnumOf<Any>) -> EnumOf<Once> {
    x
}

fn main() {}
