//! The ways in: the client socket (CLI verbs and attached terminals).
//!
//! A surface turns what it receives into Commands for the dispatcher and carries the
//! answers back; it never changes panes or the session tree itself.

pub mod admission;
pub mod answer;
pub mod clients;
pub mod control;
mod fields;
pub mod frames;
pub mod hooks;
pub mod inbound;
pub mod mcp;
pub mod peer;
pub mod sideband;

use crate::server::Server;
use std::sync::Arc;

/// Subscribes the surfaces that hear pane events (the sideband, hooks) to `server`'s
/// hub; called once, in the runtime, before any pane exists.
pub fn subscribe(server: &Arc<Server>) {
    sideband::Sideband::subscribe(server, tokio::runtime::Handle::current());
    hooks::Hooks::subscribe(server, tokio::runtime::Handle::current());
}
