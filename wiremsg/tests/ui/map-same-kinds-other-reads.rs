use wiremsg::{MapView, WireMsg};

// `MapView::same_kinds` (what decoding calls on a map of borrowed keys or values)
// retypes a map only to values that read as its own: a message of the same layout, a
// kind of the same kind. Not to another message, not to another number.
#[derive(WireMsg)]
struct A {
    x: u32,
}

#[derive(WireMsg)]
struct B {
    x: u64,
}

fn to_other_message(map: MapView<'_, u32, A>) -> MapView<'_, u32, B> {
    map.same_kinds()
}

fn to_other_number(map: MapView<'_, u32, u32>) -> MapView<'_, u32, u64> {
    map.same_kinds()
}

fn to_other_key(map: MapView<'_, u32, u32>) -> MapView<'_, u64, u32> {
    map.same_kinds()
}

fn main() {}
