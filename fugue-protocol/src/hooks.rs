//! Hooks (tmux's `set-hook` and `show-hooks`): the commands' arguments. A hook is a
//! command sequence the server runs when an event happens (`after-new-window`,
//! `pane-exited`, ...), with the event's object as the default target. The hook names
//! and what fires them live on the server (`fugue-server/src/surfaces/hooks/`).

use crate::options::OptionScope;
use crate::target::Target;
use crate::tmux_cmd::Argv;
use serde::{Deserialize, Serialize};

/// The most commands one hook may hold (tmux's hooks are array options; each `-a`
/// adds one). Past it `set-hook -a` is refused.
pub const MAX_HOOK_COMMANDS: usize = 64;

/// `set-hook` (tmux: `[-agpRuw] [-t target] hook [command]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetHook {
    /// The session, window or pane whose hook is set (`-t`); default the caller's.
    pub target: Option<Target>,
    /// `-w`, `-p`: a window's or pane's hook (the name says which, as in tmux, when
    /// neither is given).
    pub scope: Option<OptionScope>,
    /// `-g`: the global hook, which objects without their own use.
    pub global: bool,
    /// `-u`: remove the hook (or the one element `name[N]` names).
    pub unset: bool,
    /// `-a`: add the command after the hook's others.
    pub append: bool,
    /// `-R`: run the hook now instead of setting it.
    pub run: bool,
    /// The hook's name, optionally with `[N]` for one of its commands.
    pub name: String,
    /// The command sequence, parsed (empty with `-u` and `-R`).
    pub commands: Vec<Argv>,
}

/// `show-hooks` (tmux: `[-gpw] [-t target] [hook]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShowHooks {
    pub target: Option<Target>,
    pub scope: Option<OptionScope>,
    pub global: bool,
    pub name: Option<String>,
}

/// fugue's own hooks (tmux has none of these names). As `tmux`, `show-hooks` leaves
/// them out while they are unset: libtmux reads `show-hooks -g` into a record of
/// tmux's hook names and refuses one it does not know.
pub const FUGUE_OWN_HOOKS: &[&str] = &["agent-reported", "agent-state-changed"];
