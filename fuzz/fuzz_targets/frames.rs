#![no_main]
//! See `fugue_protocol::fuzzing::frames`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fugue_protocol::fuzzing::frames(data));
