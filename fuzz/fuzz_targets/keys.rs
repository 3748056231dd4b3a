#![no_main]
//! See `fugue_protocol::fuzzing::keys`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fugue_protocol::fuzzing::keys(data));
