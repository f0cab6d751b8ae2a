// `VCons` is a union's variant list: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::__private::VCons;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: VCons<Any, u8>) -> VCons<Once, u8> {
    x
}

fn param_1(x: VCons<u8, Any>) -> VCons<u8, Once> {
    x
}

fn main() {}
