#![no_main]
//! On-demand views (`view_lazy`) against `view`: every field read on demand fails
//! exactly when `view` fails, with the same error, and otherwise reads the value
//! `view` decodes; no input makes them panic.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    wiremsg_fuzz::lazy::check(data);
});
