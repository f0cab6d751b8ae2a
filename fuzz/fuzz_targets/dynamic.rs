#![no_main]
//! The schema-driven reader against the typed views: the same bytes accepted, the
//! same values read, the same errors (kind, field path, byte offset), with and
//! without a message header; the annotated dump never panics and stops at the same
//! error; the on-demand view (`dynamic::view_lazy`) reads each field as the
//! up-front one does, and fails on the failing field with its error.
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;
use wiremsg::{SchemaSet, Template, dynamic};
use wiremsg_fuzz::{
    Every, Kinds, Maps, Node, agree_dynamic, book_v1, book_v2, same_outcome, ticks_v1, ticks_v2,
    v1, v2,
};

struct Sets {
    every: SchemaSet,
    /// `every` as read back from its schema file: owned names, defaults as bytes.
    every_file: SchemaSet,
    node: SchemaSet,
    v1: SchemaSet,
    v2: SchemaSet,
    feed: SchemaSet,
    maps: SchemaSet,
    /// Split lists of each version's `Quote`.
    book_v1: SchemaSet,
    book_v2: SchemaSet,
    /// Dense lists of a fixed-size union (FORMAT.md §6.8), in every place, and of
    /// each version of a union that gained a variant.
    kinds: SchemaSet,
    ticks_v1: SchemaSet,
    ticks_v2: SchemaSet,
}

fn sets() -> &'static Sets {
    static SETS: OnceLock<Sets> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut feed = SchemaSet::of::<Every>().unwrap();
        feed.add::<Node>().unwrap();
        feed.add::<v2::Quote>().unwrap();
        let every = SchemaSet::of::<Every>().unwrap();
        Sets {
            every_file: SchemaSet::from_bytes(&every.to_bytes().unwrap()).unwrap(),
            every,
            node: SchemaSet::of::<Node>().unwrap(),
            v1: SchemaSet::of::<v1::Quote>().unwrap(),
            v2: SchemaSet::of::<v2::Quote>().unwrap(),
            feed,
            maps: SchemaSet::of::<Maps>().unwrap(),
            book_v1: SchemaSet::of::<book_v1::Book>().unwrap(),
            book_v2: SchemaSet::of::<book_v2::Book>().unwrap(),
            kinds: SchemaSet::of::<Kinds>().unwrap(),
            ticks_v1: SchemaSet::of::<ticks_v1::Ticks>().unwrap(),
            ticks_v2: SchemaSet::of::<ticks_v2::Ticks>().unwrap(),
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let sets = sets();
    agree_dynamic!(Every, &sets.every, data);
    agree_dynamic!(Every, &sets.every_file, data);
    agree_dynamic!(Node, &sets.node, data);
    agree_dynamic!(v1::Quote, &sets.v1, data);
    agree_dynamic!(v2::Quote, &sets.v2, data);
    agree_dynamic!(Maps, &sets.maps, data);
    agree_dynamic!(book_v1::Book, &sets.book_v1, data);
    agree_dynamic!(book_v2::Book, &sets.book_v2, data);
    agree_dynamic!(Kinds, &sets.kinds, data);
    agree_dynamic!(ticks_v1::Ticks, &sets.ticks_v1, data);
    agree_dynamic!(ticks_v2::Ticks, &sets.ticks_v2, data);

    // After a header: as `Template::view_with_header`, and as a dispatch enum picks.
    let typed = Every::view_with_header(data);
    let dynamic = dynamic::view_with_header_as(&sets.every, "Every", data);
    let annotation = dynamic::annotate(&sets.every, "Every", data, true);
    same_outcome(
        typed.as_ref().err(),
        dynamic.as_ref().err(),
        annotation.error(),
    );
    if let (Ok((_, typed)), Ok((_, view))) = (typed, dynamic) {
        let value = wiremsg::dynamic::Value::Message(view);
        wiremsg_fuzz::same::Same::same(&typed.decode(), &value, "Every");
    }
    let typed = wiremsg_fuzz::Feed::view(data);
    let dynamic = dynamic::view_with_header(&sets.feed, data);
    let annotation = dynamic::annotate_with_header(&sets.feed, data);
    same_outcome(
        typed.as_ref().err(),
        dynamic.as_ref().err(),
        annotation.error(),
    );
    if let (Ok((_, typed)), Ok((_, view))) = (typed, dynamic) {
        let name = match typed {
            wiremsg_fuzz::FeedView::Every(_) => "Every",
            wiremsg_fuzz::FeedView::Node(_) => "Node",
            wiremsg_fuzz::FeedView::Quote(_) => "Quote",
        };
        assert_eq!(view.name(), name);
    }
});
