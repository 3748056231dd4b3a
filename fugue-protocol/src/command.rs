//! The one command set.
//!
//! Every surface (keys of an attached client, CLI verbs, MCP tools, sideband tags) turns
//! its input into a [`Command`] and sends it through the server's one dispatcher. The
//! [`COMMANDS`] table is the single list of what exists: its names appear in the audit
//! log, its tiers drive the permission policy, and the other surfaces are checked
//! against it.

use crate::PaneId;
use crate::agent::{AgentWorktree, Report, SendMessage, SpawnAgent};
use crate::buffers::{PasteBuffer, SetBuffer};
use crate::keys::Key;
use crate::observe::{CapturePane, ReadPane, RunCommand, SearchPanes, WaitFor};
use crate::target::Target;
use serde::{Deserialize, Serialize};

pub use crate::arrange::{
    Direction, LayoutChoice, LayoutPreset, PaneScope, PaneSelect, Resize, SplitSize, WindowSelect,
};

/// How a program for a new pane is described.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spawn {
    /// argv; empty runs the default shell. A single element containing spaces is run
    /// by the default shell with `-c`, as tmux does.
    pub command: Vec<String>,
    pub cwd: Option<String>,
    pub env: Vec<(String, String)>,
    /// A title for the pane (the program may change it later).
    pub title: Option<String>,
    /// Scan this pane's output for sideband tags.
    pub sideband: Option<bool>,
    /// Keep the pane, showing its exit status, when the program ends.
    pub remain: Option<bool>,
}

/// `new-session`
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewSession {
    pub name: Option<String>,
    pub window_name: Option<String>,
    /// Window size for a session no client is attached to (columns, rows).
    pub size: Option<(u16, u16)>,
    pub spawn: Spawn,
    /// `-A`: a session of that name already there is the answer (and the CLI
    /// attaches to it) instead of an error.
    #[serde(default)]
    pub existing: bool,
    /// The creating client's environment, for tmux's `update-environment` (the
    /// variables the option names are copied into the session's environment, so its
    /// programs get the client's `SSH_AUTH_SOCK`); None with `-E` or no client.
    #[serde(default)]
    pub client_env: Option<Vec<(String, String)>>,
    /// `-t`: the session to group the new one with: it shares that session's windows
    /// (and any made later in either), with a current window of its own. No program
    /// is started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<Target>,
}

/// `new-window`
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NewWindow {
    /// The session; default the caller's.
    pub target: Option<Target>,
    pub name: Option<String>,
    /// Make the new window the session's current one.
    pub select: bool,
    pub spawn: Spawn,
    /// Where it goes: the index `target` names (`-t s:3`), or after/before the
    /// target window (`-a`/`-b`).
    #[serde(default)]
    pub place: crate::manage::WindowPlace,
    /// `-k`: a window already at the index `target` names is destroyed and replaced
    /// (without it, a taken index is an error).
    #[serde(default)]
    pub kill: bool,
    /// `-S`: when `name` is given and `target` names no index, a window of that name
    /// already in the session is selected (with `select`) instead of a new one made;
    /// the answer is then `Done`. Two of that name are an error.
    #[serde(default)]
    pub select_existing: bool,
}

/// `split-window`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitPane {
    pub target: Option<Target>,
    /// Where the new pane goes relative to the target.
    pub direction: Direction,
    pub size: Option<SplitSize>,
    /// Make the new pane the active one.
    pub select: bool,
    /// `-Z`: the window is zoomed after the split, on its active pane (the new one,
    /// unless not `select`), as tmux 3.5's split-window -Z leaves it.
    #[serde(default)]
    pub zoom: bool,
    /// `-f`: split the whole window rather than the target pane, so the new pane
    /// spans the window's full height (`-h`) or width (`-v`), as tmux's -f.
    #[serde(default)]
    pub full: bool,
    pub spawn: Spawn,
    /// Typed into the new pane (as a paste, then Enter) once its program reads input:
    /// a split and its task are one command and one audit record. MCP's
    /// `create_pane` `input` and a `<fugue:spawn>` tag's content; tmux's
    /// `split-window` has no such flag, so the CLI sends `send-keys` after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task: Option<String>,
}

/// A piece of input for a pane, written in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InputPart {
    /// Text typed as is.
    Text(String),
    /// Text delivered as a bracketed paste when the program enabled bracketed paste.
    Paste(String),
    /// A key, encoded for the pane's current keyboard modes.
    Key(Key),
    /// A mouse event at a cell of the pane, reported if (and as) its program asked
    /// for mouse reports. Only attached clients send these.
    Mouse(crate::mouse::MouseEvent),
    /// tmux's `send-keys -R`: the pane's terminal state is reset (screen cleared,
    /// cursor home, modes off, as a terminal's reset does). Nothing reaches the
    /// program.
    Reset,
}

/// `send-keys`
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SendInput {
    pub target: Option<Target>,
    pub parts: Vec<InputPart>,
}

// The `Command` enum and the argument structs of the commands that have no type of
// their own (`cmd::KillPane`, ...) are declared by the table, one entry per command
// (command_table.rs).

pub use access::{TargetKind, TargetUse, Targets};
pub use spec::{CommandSpec, Exposure, Facts, Surfaces, Tier};

#[path = "command_access.rs"]
mod access;
#[path = "command_spec.rs"]
mod spec;

#[path = "command_table.rs"]
mod table;
pub use table::{COMMANDS, Command, DECLARED_CLI, DeclaredCli, Handle, cmd, flags};

pub use crate::commands_doc::commands_markdown;

#[cfg(test)]
#[path = "command_tests.rs"]
mod tests;
