#![no_main]
//! See `fugue_protocol::fuzzing::target`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fugue_protocol::fuzzing::target(data));
