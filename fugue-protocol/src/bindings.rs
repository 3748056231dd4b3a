//! Key bindings: what a key does in an attached client.
//!
//! The server owns the configuration and hands the client its key table when it
//! attaches, so every client of one server behaves the same and the config file is read
//! in one place.

use crate::command::{Direction, LayoutPreset};
use crate::keys::Key;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// An action a key can be bound to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum KeyAction {
    NewWindow,
    NextWindow,
    PreviousWindow,
    LastWindow,
    SelectWindow(u32),
    /// Split the active pane; the new pane goes on this side (`split-right` is tmux's
    /// `split-window -h`, `split-down` its `split-window -v`, left and up its `-b`).
    Split(Direction),
    Focus(Direction),
    NextPane,
    PreviousPane,
    LastPane,
    /// Asks for confirmation first.
    KillPane,
    /// Asks for confirmation first.
    KillWindow,
    Zoom,
    Detach,
    RenameWindow,
    RenameSession,
    ScrollMode,
    /// Scroll mode, one page up at once (tmux's `copy-mode -u`, on PgUp).
    ScrollPageUp,
    NextLayout,
    Layout(LayoutPreset),
    Resize(Direction, u16),
    ListKeys,
    SendPrefix,
    NewSession,
    /// Switch this client to the next (true) or previous (false) session by name.
    SwitchSession(bool),
    /// Draw the whole screen again (tmux's `refresh-client`).
    Refresh,
    /// Stop the client until its shell continues it (tmux's `suspend-client` on
    /// `C-z`).
    Suspend,
    /// The message log in the client's view (tmux's `show-messages` on `~`).
    ShowMessages,
    /// Paste the most recent buffer into the active pane, bracketed when its program
    /// asked (tmux's `paste-buffer -p` on `]`).
    PasteBuffer,
    /// Show the buffers (tmux's `list-buffers` on `#`).
    ListBuffers,
    /// Choose a buffer to paste or delete, with a preview (tmux's `choose-buffer`).
    ChooseBuffer,
    /// `C-b :`: tmux's command prompt (a line of tmux commands).
    CommandPrompt,
    /// Number the panes; a digit focuses one (tmux's `display-panes` on `q`).
    DisplayPanes,
    /// The tree of sessions, windows and panes: sessions collapsed (true, tmux's
    /// `choose-tree -Zs` on `s`) or windows shown (false, `choose-tree -Zw` on `w`).
    ChooseTree(bool),
    /// Ask for a string, then choose from the windows matching it (tmux's
    /// `find-window` on `f`).
    FindWindow,
    /// A big clock over the active pane until a key (tmux's `clock-mode` on `t`).
    ClockMode,
    /// Choose an attached client to detach (tmux's `choose-client -Z` on `D`).
    ChooseClient,
    /// Browse and change options and key bindings (tmux's `customize-mode -Z` on `C`).
    CustomizeMode,
}

impl KeyAction {
    /// Every action name with a short description, for `list-keys` and config docs.
    pub const NAMES: &'static [(&'static str, &'static str)] = &[
        ("new-window", "create a window"),
        ("next-window", "go to the next window"),
        ("previous-window", "go to the previous window"),
        ("last-window", "go to the previously used window"),
        ("select-window N", "go to window N"),
        ("split-right", "split the pane, new pane to the right"),
        ("split-down", "split the pane, new pane below"),
        ("split-left", "split the pane, new pane to the left"),
        ("split-up", "split the pane, new pane above"),
        ("focus DIR", "focus the pane left/right/up/down"),
        ("next-pane", "focus the next pane"),
        ("previous-pane", "focus the previous pane"),
        ("last-pane", "focus the previously active pane"),
        ("kill-pane", "close the pane (asks first)"),
        ("kill-window", "close the window (asks first)"),
        ("zoom", "zoom or unzoom the pane"),
        ("detach", "detach this client"),
        ("rename-window", "rename the window"),
        ("rename-session", "rename the session"),
        ("scroll-mode", "scroll through history (q leaves)"),
        ("scroll-page-up", "scroll mode, one page up"),
        ("next-layout", "arrange panes in the next preset layout"),
        ("layout NAME", "arrange panes in a preset layout"),
        ("resize DIR N", "move the pane's border by N cells"),
        ("list-keys", "show the key bindings"),
        ("send-prefix", "send the prefix key to the pane"),
        ("new-session", "create a session and switch to it"),
        ("next-session", "switch to the next session"),
        ("previous-session", "switch to the previous session"),
        ("refresh-client", "draw the whole screen again"),
        ("paste-buffer", "paste the latest buffer"),
        ("list-buffers", "list the paste buffers"),
        ("choose-buffer", "choose a buffer to paste or delete"),
        ("display-panes", "number the panes; a digit focuses one"),
        ("choose-session", "choose a session from a tree"),
        ("choose-window", "choose a window from a tree"),
        ("find-window", "choose from the windows matching a string"),
        ("clock-mode", "show a big clock over the pane until a key"),
        ("choose-client", "choose an attached client to detach"),
        (
            "customize-mode",
            "browse and change options and key bindings",
        ),
    ];
}

/// Why an action string was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown key action `{0}`; actions are: new-window, next-window, previous-window, last-window, select-window N, split-right, split-down, split-left, split-up, focus left|right|up|down, next-pane, previous-pane, last-pane, kill-pane, kill-window, zoom, detach, rename-window, rename-session, scroll-mode, scroll-page-up, next-layout, layout NAME, resize DIR N, list-keys, send-prefix, new-session, next-session, previous-session, refresh-client, paste-buffer, list-buffers, choose-buffer, command-prompt, display-panes, choose-session, choose-window, find-window, clock-mode, choose-client, customize-mode"
)]
pub struct ActionParseError(pub String);

impl FromStr for KeyAction {
    type Err = ActionParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let err = || ActionParseError(s.to_string());
        let words: Vec<&str> = s.split_whitespace().collect();
        let dir = |w: Option<&&str>| w.and_then(|w| Direction::parse(w)).ok_or_else(err);
        Ok(match words.as_slice() {
            ["new-window"] => KeyAction::NewWindow,
            ["next-window"] => KeyAction::NextWindow,
            ["previous-window"] => KeyAction::PreviousWindow,
            ["last-window"] => KeyAction::LastWindow,
            ["select-window", n] => KeyAction::SelectWindow(n.parse().map_err(|_| err())?),
            [split] if split.starts_with("split-") => {
                KeyAction::Split(Direction::parse(&split["split-".len()..]).ok_or_else(err)?)
            }
            ["focus", d] => KeyAction::Focus(dir(Some(d))?),
            ["next-pane"] => KeyAction::NextPane,
            ["previous-pane"] => KeyAction::PreviousPane,
            ["last-pane"] => KeyAction::LastPane,
            ["kill-pane"] => KeyAction::KillPane,
            ["kill-window"] => KeyAction::KillWindow,
            ["zoom"] => KeyAction::Zoom,
            ["detach"] => KeyAction::Detach,
            ["rename-window"] => KeyAction::RenameWindow,
            ["rename-session"] => KeyAction::RenameSession,
            ["scroll-mode"] => KeyAction::ScrollMode,
            ["scroll-page-up"] => KeyAction::ScrollPageUp,
            ["next-layout"] => KeyAction::NextLayout,
            ["layout", name] => KeyAction::Layout(LayoutPreset::parse(name).ok_or_else(err)?),
            ["resize", d, n] => KeyAction::Resize(dir(Some(d))?, n.parse().map_err(|_| err())?),
            ["list-keys"] => KeyAction::ListKeys,
            ["send-prefix"] => KeyAction::SendPrefix,
            ["new-session"] => KeyAction::NewSession,
            ["next-session"] => KeyAction::SwitchSession(true),
            ["previous-session"] => KeyAction::SwitchSession(false),
            ["refresh-client"] => KeyAction::Refresh,
            ["suspend-client"] => KeyAction::Suspend,
            ["show-messages"] => KeyAction::ShowMessages,
            ["paste-buffer"] => KeyAction::PasteBuffer,
            ["list-buffers"] => KeyAction::ListBuffers,
            ["choose-buffer"] => KeyAction::ChooseBuffer,
            ["command-prompt"] => KeyAction::CommandPrompt,
            ["display-panes"] => KeyAction::DisplayPanes,
            ["choose-session"] => KeyAction::ChooseTree(true),
            ["choose-window"] => KeyAction::ChooseTree(false),
            ["find-window"] => KeyAction::FindWindow,
            ["clock-mode"] => KeyAction::ClockMode,
            ["choose-client"] => KeyAction::ChooseClient,
            ["customize-mode"] => KeyAction::CustomizeMode,
            _ => return Err(err()),
        })
    }
}

impl fmt::Display for KeyAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeyAction::NewWindow => f.write_str("new-window"),
            KeyAction::NextWindow => f.write_str("next-window"),
            KeyAction::PreviousWindow => f.write_str("previous-window"),
            KeyAction::LastWindow => f.write_str("last-window"),
            KeyAction::SelectWindow(n) => write!(f, "select-window {n}"),
            KeyAction::Split(d) => write!(f, "split-{}", d.name()),
            KeyAction::Focus(d) => write!(f, "focus {}", d.name()),
            KeyAction::NextPane => f.write_str("next-pane"),
            KeyAction::PreviousPane => f.write_str("previous-pane"),
            KeyAction::LastPane => f.write_str("last-pane"),
            KeyAction::KillPane => f.write_str("kill-pane"),
            KeyAction::KillWindow => f.write_str("kill-window"),
            KeyAction::Zoom => f.write_str("zoom"),
            KeyAction::Detach => f.write_str("detach"),
            KeyAction::RenameWindow => f.write_str("rename-window"),
            KeyAction::RenameSession => f.write_str("rename-session"),
            KeyAction::ScrollMode => f.write_str("scroll-mode"),
            KeyAction::ScrollPageUp => f.write_str("scroll-page-up"),
            KeyAction::NextLayout => f.write_str("next-layout"),
            KeyAction::Layout(p) => write!(f, "layout {}", p.name()),
            KeyAction::Resize(d, n) => write!(f, "resize {} {n}", d.name()),
            KeyAction::ListKeys => f.write_str("list-keys"),
            KeyAction::SendPrefix => f.write_str("send-prefix"),
            KeyAction::NewSession => f.write_str("new-session"),
            KeyAction::SwitchSession(true) => f.write_str("next-session"),
            KeyAction::SwitchSession(false) => f.write_str("previous-session"),
            KeyAction::Refresh => f.write_str("refresh-client"),
            KeyAction::Suspend => f.write_str("suspend-client"),
            KeyAction::ShowMessages => f.write_str("show-messages"),
            KeyAction::PasteBuffer => f.write_str("paste-buffer"),
            KeyAction::ListBuffers => f.write_str("list-buffers"),
            KeyAction::ChooseBuffer => f.write_str("choose-buffer"),
            KeyAction::CommandPrompt => f.write_str("command-prompt"),
            KeyAction::DisplayPanes => f.write_str("display-panes"),
            KeyAction::ChooseTree(true) => f.write_str("choose-session"),
            KeyAction::ChooseTree(false) => f.write_str("choose-window"),
            KeyAction::FindWindow => f.write_str("find-window"),
            KeyAction::ClockMode => f.write_str("clock-mode"),
            KeyAction::ChooseClient => f.write_str("choose-client"),
            KeyAction::CustomizeMode => f.write_str("customize-mode"),
        }
    }
}

impl TryFrom<String> for KeyAction {
    type Error = ActionParseError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        s.parse()
    }
}

impl From<KeyAction> for String {
    fn from(a: KeyAction) -> String {
        a.to_string()
    }
}

/// The keys of an attached client: every key table, as the server keeps them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyTable {
    pub prefix: Key,
    /// Every binding of every table (`prefix`, `root`, user tables).
    pub bindings: Vec<crate::key_tables::Binding>,
    /// After a repeatable key (`bind -r`), how long another repeatable key acts
    /// without the prefix, in milliseconds (tmux's `repeat-time`).
    #[serde(default = "default_repeat_time_ms")]
    pub repeat_time_ms: u32,
}

/// tmux's default `repeat-time`.
pub const DEFAULT_REPEAT_TIME_MS: u32 = 500;

fn default_repeat_time_ms() -> u32 {
    DEFAULT_REPEAT_TIME_MS
}

impl KeyAction {
    /// Actions tmux binds with `bind -r`: pressing them again soon needs no prefix.
    pub fn repeats(&self) -> bool {
        matches!(self, KeyAction::Focus(_) | KeyAction::Resize(..))
    }
}

impl KeyTable {
    /// The binding of `key`'s chord ([`Key::chord`]: lock states and event kinds do not
    /// count) in `table`.
    pub fn lookup(&self, table: &str, key: &Key) -> Option<&crate::key_tables::Binding> {
        let key = key.chord();
        self.bindings
            .iter()
            .find(|b| b.table == table && b.key.chord() == key)
    }

    /// The action bound after the prefix to `key`, when it is one of fugue's actions.
    pub fn prefix_action(&self, key: &Key) -> Option<KeyAction> {
        self.lookup("prefix", key)
            .and_then(|b| match b.commands.as_slice() {
                [one] => KeyAction::from_tmux_argv(one),
                _ => None,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_round_trips() {
        let actions = [
            KeyAction::SelectWindow(3),
            KeyAction::Focus(Direction::Left),
            KeyAction::Layout(LayoutPreset::Tiled),
            KeyAction::Resize(Direction::Up, 5),
            KeyAction::Split(Direction::Right),
            KeyAction::Split(Direction::Up),
            KeyAction::Detach,
            KeyAction::ScrollPageUp,
            KeyAction::PasteBuffer,
            KeyAction::ListBuffers,
            KeyAction::ChooseBuffer,
            KeyAction::CommandPrompt,
            KeyAction::Suspend,
            KeyAction::ShowMessages,
        ];
        for a in actions {
            assert_eq!(a.to_string().parse::<KeyAction>(), Ok(a.clone()), "{a}");
        }
    }

    #[test]
    fn unknown_actions_list_the_known_ones() {
        let e = "split-sideways".parse::<KeyAction>().unwrap_err();
        assert!(e.to_string().contains("split-right"));
        assert!("select-window x".parse::<KeyAction>().is_err());
        assert!("resize left".parse::<KeyAction>().is_err());
    }
}
