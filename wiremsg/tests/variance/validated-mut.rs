// `ValidatedMut` is the proof, over bytes borrowed mutably: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::ValidatedMut;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ValidatedMut<'static, Any>) -> ValidatedMut<'static, Once> {
    x
}

fn main() {}
