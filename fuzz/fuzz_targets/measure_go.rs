//! Fuzz target: see `checks::measure_go` (fuzz/checks.rs) for what it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::measure_go(data));
