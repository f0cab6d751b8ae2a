// `LazyList` is a list of `T` checked on demand: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::LazyList;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: LazyList<'static, Any>) -> LazyList<'static, Once> {
    x
}

fn main() {}
