// `MapView` is a validated map of `K` to `V`: invariant in its type parameters, or a higher-ranked
// subtype (`Any`) could stand for its supertype (`Once`), whose impls may name
// another kind.
use wiremsg::MapView;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: MapView<'static, Any, u8>) -> MapView<'static, Once, u8> {
    x
}

fn param_1(x: MapView<'static, u8, Any>) -> MapView<'static, u8, Once> {
    x
}

fn main() {}
