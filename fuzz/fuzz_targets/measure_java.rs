//! Fuzz target: see `checks::measure_java` (fuzz/checks.rs) for what it asserts.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::measure_java(data));
