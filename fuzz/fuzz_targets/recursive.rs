#![no_main]
//! `view` of a recursive message: bounded depth, no panic, agreement.
use libfuzzer_sys::fuzz_target;
use wiremsg_fuzz::{Node, agree};

fuzz_target!(|data: &[u8]| {
    agree!(Node, data);
});
