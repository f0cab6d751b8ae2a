// Included (`include!`) by the compile-fail cases that forge through higher-ranked
// subtyping: `Any4` is a subtype of `Text4` (rustc accepts an impl for each, with a
// future-compatibility warning), and `subtype_field!` gives each a `Field` (and
// `Element`) impl of its own kind.

pub struct W<T>(std::marker::PhantomData<T>);
type Any4 = W<for<'a> fn(&'a ())>;
type Text4 = W<fn(&'static ())>;

macro_rules! subtype_field {
    ($t:ty, $kind:ty, $schema:expr) => {
        impl wiremsg::Field for $t {
            type Kind = $kind;
            const TYPE: &'static wiremsg::TypeSchema = &$schema;
            fn tail_len(&self) -> usize {
                0
            }
            fn write(&self, _: &mut [u8], _: &mut [u8]) {}
        }
        impl wiremsg::Element for $t {
            type ListView<'v> = wiremsg::List<'v, Self>;
            fn list_view<'v>(l: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self> {
                l
            }
            fn list_of<'v>(l: wiremsg::List<'v, Self>) -> wiremsg::List<'v, Self>
            where
                Self: 'v,
            {
                l
            }
        }
    };
}
