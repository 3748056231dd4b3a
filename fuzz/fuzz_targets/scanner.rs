#![no_main]
//! See `fugue_server::fuzzing::scanner`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fugue_server::fuzzing::scanner(data));
