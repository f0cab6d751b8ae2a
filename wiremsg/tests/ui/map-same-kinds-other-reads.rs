use std::collections::BTreeMap;
use wiremsg::{List, MapView, WireMsg};

// `MapView::same_kinds` and `List::same_kinds` (what decoding calls on a map or list
// of borrowed data) retype only to a type that reads as the list's or map's own: a
// message of the same layout, the same shape of parts that read alike. Not to another
// message, number or key, nor through a generic message, a list or a tuple.
#[derive(WireMsg)]
struct A {
    x: u32,
}

#[derive(WireMsg)]
struct B {
    x: u64,
}

#[derive(WireMsg)]
struct G<T> {
    t: T,
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

fn to_other_generic_argument(map: MapView<'_, u32, G<u32>>) -> MapView<'_, u32, G<i32>> {
    map.same_kinds()
}

fn to_lists_of_other_messages(map: MapView<'_, u32, Vec<A>>) -> MapView<'_, u32, Vec<B>> {
    map.same_kinds()
}

fn to_swapped_tuples(list: List<'_, (u32, u64)>) -> List<'_, (u64, u32)> {
    list.same_kinds()
}

fn to_maps_of_other_values(
    list: List<'_, BTreeMap<u32, A>>,
) -> List<'_, BTreeMap<u32, B>> {
    list.same_kinds()
}

fn main() {}
