//! End-to-end tests: the real `fugue` and `fugue-server` binaries, real sockets and
//! real PTYs. The terminal client runs inside a PTY and its screen is read back
//! through vt100, the way a person would see it.

mod e2e {
    pub mod admin;
    pub mod agents;
    pub mod agents_worktree;
    pub mod architecture;
    pub mod attrs;
    pub mod bind_runtime;
    pub mod buffers;
    pub mod buffers_tui;
    pub mod choosers;
    pub mod cli;
    pub mod client_exits;
    pub mod client_prompts;
    pub mod command_prompt;
    pub mod control_mode;
    pub mod faults;
    pub mod formats;
    pub mod harness;
    pub mod hooks;
    pub mod lifecycle;
    pub mod manage_panes;
    pub mod manage_windows;
    pub mod mcp;
    pub mod mcp_http;
    pub mod mcp_input;
    pub mod options;
    pub mod overlays;
    pub mod passthrough;
    pub mod policy;
    pub mod restore;
    pub mod security;
    pub mod sequences;
    pub mod sideband;
    pub mod sideband_keys;
    pub mod sideband_limits;
    pub mod source_file;
    pub mod status_line;
    pub mod terminal_core;
    pub mod tmux_compat;
    pub mod tmux_flags;
    pub mod tmux_libtmux;
    pub mod tmux_suite;
    pub mod tmux_verbs;
    pub mod tui;
    pub mod tui_copy;
    pub mod tui_input;
    pub mod tui_keys;
    pub mod tui_mouse;
    pub mod tui_search;
    pub mod tui_sizes;
    pub mod tui_terminal;
    pub mod twins;
    pub mod vttest;
}
