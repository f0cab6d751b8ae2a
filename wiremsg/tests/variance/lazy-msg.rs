// `LazyMsg` is a message of layout `L` whose header was checked: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::LazyMsg;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: LazyMsg<'static, Any>) -> LazyMsg<'static, Once> {
    x
}

fn main() {}
