//! Hooks: the commands events run (tmux's `set-hook`). The names and their scopes
//! (`names.rs`) and the commands set per owner (`store.rs`) live here, below the
//! dispatcher; what runs them when an event is published is the hooks surface
//! (`surfaces/hooks.rs`), which turns them into Commands like every other surface.

pub mod names;
pub mod store;

pub use names::{HookDef, HookScope};
pub use store::{Object, Owner, Store};
pub mod doc;

use std::time::Duration;

/// How deep hooks may set each other off (a hook's command that fires another hook).
pub const MAX_DEPTH: u8 = 4;
/// Hooks started per second, at most.
pub const MAX_RUNS_PER_SECOND: u32 = 200;
/// A `run-shell` or `if-shell` condition run by a hook is ended after this.
pub const SHELL_TIMEOUT: Duration = Duration::from_secs(30);
/// Output of a hook's shell command kept for the log.
pub const MAX_SHELL_OUTPUT: usize = 4096;
