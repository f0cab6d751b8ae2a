// `LazyListIter` iterates a list of `T` checked on demand: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::LazyListIter;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: LazyListIter<'static, Any>) -> LazyListIter<'static, Once> {
    x
}

fn main() {}
