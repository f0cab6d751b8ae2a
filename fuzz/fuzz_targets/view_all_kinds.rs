#![no_main]
//! `view` of a message with every field kind (split lists of messages and tuples
//! with a tail and of map entries among them, and dense lists of a fixed-size union):
//! no panic, and every way of reading an accepted buffer agrees.
use libfuzzer_sys::fuzz_target;
use wiremsg_fuzz::{Every, Item, Kinds, Level, Maps, Trading, agree};

fuzz_target!(|data: &[u8]| {
    agree!(Every, data);
    agree!(Item, data);
    agree!(Level, data);
    agree!(Trading, data);
    agree!(Maps, data);
    agree!(Kinds, data);
});
