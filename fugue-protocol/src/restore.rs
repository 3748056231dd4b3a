//! `fugue restore`: sessions the server's journal holds that are not running (the
//! previous server was killed, crashed or the machine rebooted), and what a restore
//! or a discard did.

use serde::{Deserialize, Serialize};

/// A session that can be brought back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestorableSession {
    pub name: String,
    pub windows: u32,
    pub panes: u32,
    /// Agent panes among them.
    pub agents: u32,
    /// When the session was made, ms since the Unix epoch.
    pub created_ms: u64,
}

/// The answer to `restore` and `restore --discard`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RestoreOutcome {
    /// Sessions brought back (their names; a name taken meanwhile gets a suffix).
    pub restored: Vec<String>,
    /// Sessions forgotten.
    pub discarded: Vec<String>,
    /// What is still restorable afterwards.
    pub restorable: Vec<RestorableSession>,
    /// The server's `restore` setting wants a person asked about them (`ask`, or
    /// `auto` after a reboot); plain `fugue` asks then.
    #[serde(default)]
    pub ask: bool,
}
