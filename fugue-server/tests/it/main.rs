//! fugue-server's integration tests, one binary (each test binary links the whole server
//! and rmcp, so one binary instead of ten keeps `cargo test` builds short). Each module
//! is one family; `cargo test -p fugue-server --test it agents::` runs one of them.

mod agent_rig;
mod agents;
mod agents_delegation;
mod agents_input;
mod agents_pipelines;
mod agents_scope;
mod audit_full_disk;
mod close_own;
mod fuzz_corpus;
mod layers;
mod mcp;
mod mcp_advice;
mod mcp_answers;
mod notices;
mod scan_speed;
mod search;
mod server;
mod terminal_replies;
mod tree_locks;
mod vt100_attrs;
mod vt100_bce;
mod vt100_fast_path;
mod vt100_fidelity;
mod vt100_widths;
mod vte_osc_limit;
mod worktrees;
