// `FieldPos` is where field `F` of layout `L` is, as the walk of `L`'s fields found
// it: invariant in its type parameters, or a higher-ranked subtype (`Any`) could
// stand for its supertype (`Once`), whose impls may name another layout or kind.
use wiremsg::__private::FieldPos;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: FieldPos<Any, u8>) -> FieldPos<Once, u8> {
    x
}

fn param_1(x: FieldPos<u8, Any>) -> FieldPos<u8, Once> {
    x
}

fn main() {}
