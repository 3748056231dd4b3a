//! The fugue server: it owns every PTY and every pane's screen, holds sessions, windows
//! and layouts, and executes every command through one dispatcher.
//!
//! Architecture (see docs/architecture.md):
//! - [`pane`]: a program on a PTY; its bytes go through a sans-IO [`pane::state`] into a
//!   vt100 screen and a compact history.
//! - [`agents`]: agent panes' states, results and lineage.
//! - [`session`]: sessions → windows → layout trees of panes.
//! - [`dispatch`]: the one dispatcher, its policy and audit log.
//! - [`surfaces`]: the ways commands arrive (client socket; MCP and sideband later).
//! - [`server`]: shared state and pane lifecycle; [`socket`]: private sockets;
//!   [`config`]: the configuration file; [`run`]: starting and stopping; [`log_file`]:
//!   the server log, private and rotated; [`passthrough`]: bells and clipboard copies
//!   for the attached clients' terminals; [`buffers`]: paste buffers.

pub mod agents;
pub mod alerts;
pub mod attached;
pub mod audit;
pub mod buffers;
pub mod channels;
pub mod client_prompt;
pub mod config;
pub mod crash;
pub mod dispatch;
pub mod environment;
/// Harness bodies of the fuzz targets in `fuzz/`; not an API.
#[doc(hidden)]
pub mod fuzzing;
pub mod hooks;
pub mod hub;
pub mod journal;
pub mod log_file;
pub mod mux;
pub mod options;
pub mod origin;
pub mod pane;
pub mod passthrough;
pub mod persist;
pub mod pipes;
pub mod records;
pub mod reentry;
pub mod run;
pub mod server;
pub mod session;
pub mod sizing;
pub mod socket;
pub mod surfaces;
pub mod tmux_alias;
pub mod tmux_shim;
