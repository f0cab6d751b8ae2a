// `ListIterMut` is an iterator over a mutable validated list of `T`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::ListIterMut;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: ListIterMut<'static, Any>) -> ListIterMut<'static, Once> {
    x
}

fn main() {}
