// `ListMut` is a validated list of `T`, borrowed mutably: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::ListMut;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ListMut<'static, Any>) -> ListMut<'static, Once> {
    x
}

fn main() {}
