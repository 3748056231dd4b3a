//! Commands that rearrange what exists: tmux's pane and window management verbs
//! (`respawn-pane`, `join-pane`, `move-window`, the environment and channels), whose
//! payloads live here so the command declaration stays one readable table, and the
//! types of the payloads the table declares itself (`swap-pane`'s [`SwapSource`]).

use crate::command::{Direction, Spawn, SplitSize};
use crate::target::Target;
use serde::{Deserialize, Serialize};

/// `respawn-pane` / `respawn-window`: start a program again in a pane that keeps its
/// id, its place and its screen (tmux's semantics: the pane is not closed).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Respawn {
    pub target: Option<Target>,
    /// `respawn-window`: the window is reduced to its active pane, which respawns.
    pub window: bool,
    /// `-k`: end a program still running; without it a live pane is an error.
    pub kill: bool,
    /// The new program (empty: the pane's last program), `-c` and `-e`.
    pub spawn: Spawn,
}

/// Which pane `swap-pane` swaps with its target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SwapSource {
    /// `-s`: this pane (anywhere on the server).
    Pane(Target),
    /// No `-s`: the current pane.
    Current,
    /// `-U`: the pane before the target in its window (the last for the first).
    Previous,
    /// `-D`: the pane after the target (the first for the last).
    Next,
}

/// `join-pane` / `move-pane`: a pane leaves its window to split another pane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinPane {
    /// `-s`: the pane that moves (default the current one).
    pub source: Option<Target>,
    /// `-t`: the pane it splits.
    pub target: Option<Target>,
    /// Where it goes relative to the target (`-h`: right, default below, `-b`: before).
    pub direction: Direction,
    /// `-l`: its size along the split.
    pub size: Option<SplitSize>,
    /// `-d`: the moved pane does not become active.
    pub detached: bool,
    /// `-f`: the pane goes beside the whole target window (full height or width),
    /// not beside the target pane, as `split-window -f`.
    #[serde(default)]
    pub full: bool,
}

/// Where a new or moved window goes in its session (tmux's `-a` / `-b`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum WindowPlace {
    /// The index the target names (which must be free), else the first free index
    /// from `base-index`.
    #[default]
    Index,
    /// `-a`: the index after the target window, moving later windows up to make room.
    After,
    /// `-b`: the target window's index, moving it and later windows up.
    Before,
}

impl WindowPlace {
    fn is_index(&self) -> bool {
        *self == WindowPlace::Index
    }
}

/// `move-window` (and `move-window -r`), and `link-window` (`link`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveWindow {
    /// `-s`: the window (default the current one).
    pub source: Option<Target>,
    /// `-t`: the session, or `session:index`.
    pub target: Option<Target>,
    #[serde(default, skip_serializing_if = "WindowPlace::is_index")]
    pub place: WindowPlace,
    /// `-k`: a window at the target index is killed first.
    pub kill: bool,
    /// `-d`: the moved window does not become current.
    pub detached: bool,
    /// `-r`: only renumber the target session's windows from `base-index`.
    pub renumber: bool,
    /// `link-window`: the window stays where it is and is linked at the target too.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub link: bool,
}

/// `swap-window`: its verb is this declaration (`clap:` in its table entry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
pub struct SwapWindow {
    #[arg(short = 's', value_name = "source")]
    pub source: Option<Target>,
    #[arg(short = 't', value_name = "target")]
    pub target: Option<Target>,
    /// The current window stays current.
    #[arg(short = 'd')]
    pub detached: bool,
}

/// What `wait-for` does with a tmux channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChannelOp {
    /// Wait for the channel to be signalled.
    Wait,
    /// `-S`: wake its waiters.
    Signal,
    /// `-L`: take its lock, waiting for it if held.
    Lock,
    /// `-U`: give the lock up.
    Unlock,
}

/// `set-environment`: its verb is this declaration (`clap:` in its table entry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
pub struct SetEnvironment {
    /// The session (default the current one); ignored with `global`.
    #[arg(short = 't', value_name = "target")]
    pub target: Option<Target>,
    /// `-g`: the global environment.
    #[arg(short = 'g')]
    pub global: bool,
    #[arg(value_name = "name")]
    pub name: String,
    #[arg(value_name = "value")]
    pub value: Option<String>,
    /// `-u`: take the variable out of the table.
    #[arg(short = 'u', conflicts_with = "remove")]
    pub unset: bool,
    /// `-r`: take the variable out of new programs' environment.
    #[arg(short = 'r')]
    pub remove: bool,
    /// `-h`: hidden from `show-environment` without `-h`.
    #[arg(short = 'h')]
    pub hidden: bool,
    /// `-F`: the value is a format, expanded in the target's scope.
    #[arg(short = 'F')]
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub format: bool,
}

/// `show-environment`: its verb is this declaration (`clap:` in its table entry).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::Args)]
pub struct ShowEnvironment {
    /// The session (default the current one); ignored with `global`.
    #[arg(short = 't', value_name = "target")]
    pub target: Option<Target>,
    /// `-g`: the global environment.
    #[arg(short = 'g')]
    pub global: bool,
    /// One variable (an error if it is not set).
    #[arg(value_name = "name")]
    pub name: Option<String>,
    /// `-h`: the hidden variables (only them, as tmux).
    #[arg(short = 'h')]
    pub hidden: bool,
    /// `-s`: as shell commands to set them.
    #[arg(short = 's')]
    pub shell: bool,
}
