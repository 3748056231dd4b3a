#![no_main]
//! See `fugue_server::fuzzing::mcp_args`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| fugue_server::fuzzing::mcp_args(data));
