// `EnumValues` is the promise of the values an enum's `from_raw` accepts: invariant in
// its type parameter, or a higher-ranked subtype (`Any`) could stand for its supertype
// (`Once`), another type whose promise it is not.
use wiremsg::__private::EnumValues;

type Any = for<'a> fn(&'a ());
type Once = fn(&'static ());

fn param_0(x: EnumValues<Any>) -> EnumValues<Once> {
    x
}

fn main() {}
