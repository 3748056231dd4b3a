//! tmux's key tables: bindings of keys to command sequences, per table (`prefix`,
//! `root`, `copy-mode`, `copy-mode-vi` and any a user names), stored by the server so
//! every client sees the same ones, and printed by `list-keys` as tmux 3.3a prints them.

use crate::bindings::KeyAction;
use crate::command::Direction;
use crate::keys::{Key, KeyCode, Mods};
use crate::tmux_cmd::{self, Argv};
use serde::{Deserialize, Serialize};

/// The tables tmux always has.
pub const TABLES: [&str; 4] = ["prefix", "root", "copy-mode", "copy-mode-vi"];

/// Bindings one server keeps at most: each `bind-key` from a user or file adds one.
pub const MAX_BINDINGS: usize = 4096;
/// A table name's longest length.
pub const MAX_TABLE_NAME: usize = 64;

/// One key bound in one table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Binding {
    pub table: String,
    pub key: Key,
    /// `bind -r`: after it, another repeatable key of the table acts without the prefix
    /// for `repeat-time`.
    pub repeat: bool,
    /// `bind -N`.
    pub note: Option<String>,
    /// The command sequence it runs.
    pub commands: Vec<Argv>,
}

/// A table name as `bind-key -T` takes it.
pub fn check_table(name: &str) -> Result<(), String> {
    if name.is_empty() || name.len() > MAX_TABLE_NAME || name.chars().any(|c| c.is_control()) {
        return Err(format!(
            "invalid key table `{name}`: tables are {} or a name of your own (up to {MAX_TABLE_NAME} characters)",
            TABLES.join(", ")
        ));
    }
    Ok(())
}

impl KeyAction {
    /// The tmux command this action is (what `list-keys` shows for it).
    pub fn tmux_argv(&self) -> Argv {
        use KeyAction as A;
        let flag = |d: Direction| match d {
            Direction::Left => "-L",
            Direction::Right => "-R",
            Direction::Up => "-U",
            Direction::Down => "-D",
        };
        let w = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Argv>();
        match self {
            A::NewWindow => w(&["new-window"]),
            A::NextWindow => w(&["next-window"]),
            A::PreviousWindow => w(&["previous-window"]),
            A::LastWindow => w(&["last-window"]),
            A::SelectWindow(n) => vec!["select-window".into(), "-t".into(), format!(":={n}")],
            A::Split(Direction::Right) => w(&["split-window", "-h"]),
            A::Split(Direction::Down) => w(&["split-window", "-v"]),
            A::Split(Direction::Left) => w(&["split-window", "-bh"]),
            A::Split(Direction::Up) => w(&["split-window", "-bv"]),
            A::Focus(d) => w(&["select-pane", flag(*d)]),
            A::NextPane => w(&["select-pane", "-t", ":.+"]),
            A::PreviousPane => w(&["select-pane", "-t", ":.-"]),
            A::LastPane => w(&["last-pane"]),
            A::KillPane => w(&["confirm-before", "-p", "kill-pane #P? (y/n)", "kill-pane"]),
            A::KillWindow => w(&[
                "confirm-before",
                "-p",
                "kill-window #W? (y/n)",
                "kill-window",
            ]),
            A::Zoom => w(&["resize-pane", "-Z"]),
            A::Detach => w(&["detach-client"]),
            A::RenameWindow => w(&["command-prompt", "-I", "#W", "rename-window -- '%%'"]),
            A::RenameSession => w(&["command-prompt", "-I", "#S", "rename-session -- '%%'"]),
            A::ScrollMode => w(&["copy-mode"]),
            A::ScrollPageUp => w(&["copy-mode", "-u"]),
            A::NextLayout => w(&["next-layout"]),
            A::Layout(p) => w(&["select-layout", p.name()]),
            A::Resize(d, 1) => w(&["resize-pane", flag(*d)]),
            A::Resize(d, n) => vec!["resize-pane".into(), flag(*d).into(), n.to_string()],
            A::ListKeys => w(&["list-keys", "-N"]),
            A::SendPrefix => w(&["send-prefix"]),
            A::NewSession => w(&["new-session"]),
            A::SwitchSession(true) => w(&["switch-client", "-n"]),
            A::SwitchSession(false) => w(&["switch-client", "-p"]),
            A::Refresh => w(&["refresh-client"]),
            A::Suspend => w(&["suspend-client"]),
            A::ShowMessages => w(&["show-messages"]),
            A::PasteBuffer => w(&["paste-buffer", "-p"]),
            A::ListBuffers => w(&["list-buffers"]),
            A::ChooseBuffer => w(&["choose-buffer", "-Z"]),
            A::CommandPrompt => w(&["command-prompt"]),
            A::DisplayPanes => w(&["display-panes"]),
            A::ChooseTree(true) => w(&["choose-tree", "-Zs"]),
            A::ChooseTree(false) => w(&["choose-tree", "-Zw"]),
            // tmux 3.3a: `command-prompt { find-window -Z "%%" }`.
            A::FindWindow => w(&["command-prompt", "find-window -Z -- '%%'"]),
            A::ClockMode => w(&["clock-mode"]),
            A::ChooseClient => w(&["choose-client", "-Z"]),
            A::CustomizeMode => w(&["customize-mode", "-Z"]),
        }
    }

    /// The action a bound command is, when it is exactly one an action prints as:
    /// such a binding keeps the client's own handling (its questions and prompts).
    pub fn from_tmux_argv(argv: &[String]) -> Option<KeyAction> {
        ACTIONS_FOR_LOOKUP
            .iter()
            .map(|f| f())
            .chain((0..10).map(KeyAction::SelectWindow))
            .chain(Direction::ALL.into_iter().flat_map(|d| {
                [
                    KeyAction::Split(d),
                    KeyAction::Focus(d),
                    KeyAction::Resize(d, 1),
                    KeyAction::Resize(d, 5),
                ]
            }))
            .chain(
                crate::command::LayoutPreset::CYCLE
                    .into_iter()
                    .map(KeyAction::Layout),
            )
            .find(|a| a.tmux_argv() == argv)
    }
}

const ACTIONS_FOR_LOOKUP: &[fn() -> KeyAction] = &[
    || KeyAction::NewWindow,
    || KeyAction::NextWindow,
    || KeyAction::PreviousWindow,
    || KeyAction::LastWindow,
    || KeyAction::NextPane,
    || KeyAction::PreviousPane,
    || KeyAction::LastPane,
    || KeyAction::KillPane,
    || KeyAction::KillWindow,
    || KeyAction::Zoom,
    || KeyAction::Detach,
    || KeyAction::RenameWindow,
    || KeyAction::RenameSession,
    || KeyAction::ScrollMode,
    || KeyAction::ScrollPageUp,
    || KeyAction::NextLayout,
    || KeyAction::ListKeys,
    || KeyAction::SendPrefix,
    || KeyAction::NewSession,
    || KeyAction::SwitchSession(true),
    || KeyAction::SwitchSession(false),
    || KeyAction::Refresh,
    || KeyAction::Suspend,
    || KeyAction::ShowMessages,
    || KeyAction::PasteBuffer,
    || KeyAction::ListBuffers,
    || KeyAction::ChooseBuffer,
    || KeyAction::CommandPrompt,
    || KeyAction::DisplayPanes,
    || KeyAction::ClockMode,
    || KeyAction::ChooseClient,
    || KeyAction::CustomizeMode,
    || KeyAction::ChooseTree(true),
    || KeyAction::ChooseTree(false),
    || KeyAction::FindWindow,
];

/// The order tmux lists keys in: by its key code, which puts C0 control keys first,
/// then printable characters, then special keys, then the same with Meta, Ctrl, Shift.
fn tmux_order(k: &Key) -> (u8, u32, u32) {
    let mods = k.mods.without(Mods::LOCKS);
    let mut rank = 0u8;
    if mods.contains(Mods::ALT) || mods.contains(Mods::META) {
        rank |= 1;
    }
    let ctrl = mods.contains(Mods::CTRL);
    let (base, sub) = match k.code {
        // tmux 3.3a keeps C-a .. C-z and C-Space as C0 codes.
        KeyCode::Char(' ') if ctrl => (0, 0),
        KeyCode::Char(c) if ctrl && c.is_ascii_lowercase() => (0, u32::from(c) - 0x60),
        KeyCode::Escape => (0, 27),
        KeyCode::Char(c) => {
            if ctrl {
                rank |= 2;
            }
            (1, u32::from(c))
        }
        KeyCode::F(n) => {
            if ctrl {
                rank |= 2;
            }
            (2, u32::from(n))
        }
        _ => {
            if ctrl {
                rank |= 2;
            }
            (3, special_rank(&k.code))
        }
    };
    if mods.contains(Mods::SHIFT) {
        rank |= 4;
    }
    (rank, base, sub)
}

fn special_rank(code: &KeyCode) -> u32 {
    // tmux's order: F1..F12, IC, DC, Home, End, NPage, PPage, BTab, Up, Down, Left, Right.
    match code {
        KeyCode::Insert => 1,
        KeyCode::Delete => 2,
        KeyCode::Home => 3,
        KeyCode::End => 4,
        KeyCode::PageDown => 5,
        KeyCode::PageUp => 6,
        KeyCode::BackTab => 7,
        KeyCode::Up => 8,
        KeyCode::Down => 9,
        KeyCode::Left => 10,
        KeyCode::Right => 11,
        KeyCode::Enter => 0,
        KeyCode::Tab => 0,
        KeyCode::Backspace => 12,
        _ => 100,
    }
}

/// Sorts bindings as `list-keys` lists them: by table name, then tmux's key order.
pub fn sort(bindings: &mut [Binding]) {
    bindings.sort_by(|a, b| {
        a.table
            .cmp(&b.table)
            .then_with(|| tmux_order(&a.key).cmp(&tmux_order(&b.key)))
    });
}

/// `list-keys [-T table]` as tmux 3.3a prints it: `-r` column only when some key
/// repeats, table and key columns padded to the widest shown.
pub fn list_keys(bindings: &[Binding], table: Option<&str>) -> String {
    let mut shown: Vec<Binding> = bindings
        .iter()
        .filter(|b| table.is_none_or(|t| b.table == t))
        .cloned()
        .collect();
    sort(&mut shown);
    let keys: Vec<String> = shown
        .iter()
        .map(|b| tmux_cmd::escape(&b.key.to_string()))
        .collect();
    let table_w = shown
        .iter()
        .map(|b| b.table.chars().count())
        .max()
        .unwrap_or(0);
    let key_w = keys.iter().map(|k| k.chars().count()).max().unwrap_or(0);
    let any_repeat = shown.iter().any(|b| b.repeat);
    let mut out = String::new();
    for (b, key) in shown.iter().zip(&keys) {
        let r = match (any_repeat, b.repeat) {
            (false, _) => "",
            (true, true) => "-r ",
            (true, false) => "   ",
        };
        out.push_str(&format!(
            "bind-key {r}-T {:<table_w$} {:<key_w$} {}\n",
            b.table,
            key,
            tmux_cmd::print_sequence(&b.commands)
        ));
    }
    out
}

/// `list-keys -N`: the noted keys, as `C-b KEY note` for the prefix table (tmux's form).
pub fn list_notes(bindings: &[Binding], table: Option<&str>, prefix: Key) -> String {
    let mut shown: Vec<&Binding> = bindings
        .iter()
        .filter(|b| b.note.is_some() && table.is_none_or(|t| b.table == t))
        .collect();
    shown.sort_by(|a, b| {
        a.table
            .cmp(&b.table)
            .then_with(|| tmux_order(&a.key).cmp(&tmux_order(&b.key)))
    });
    let label = |b: &Binding| match b.table.as_str() {
        "prefix" => format!("{prefix} {}", b.key),
        "root" => b.key.to_string(),
        t => format!("{t} {}", b.key),
    };
    let w = shown
        .iter()
        .map(|b| label(b).chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for b in shown {
        out.push_str(&format!(
            "{:<w$} {}\n",
            label(b),
            b.note.as_deref().unwrap_or_default()
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(table: &str, key: &str, repeat: bool, cmd: &[&[&str]]) -> Binding {
        Binding {
            table: table.into(),
            key: Key::parse(key).unwrap(),
            repeat,
            note: None,
            commands: cmd
                .iter()
                .map(|c| c.iter().map(|s| s.to_string()).collect())
                .collect(),
        }
    }

    #[test]
    fn list_keys_is_tmuxs() {
        // What tmux 3.3a printed for the same bindings (`unbind -a` then these binds).
        let bs = vec![
            b("prefix", "c", false, &[&["new-window"]]),
            b("prefix", "H", true, &[&["resize-pane", "-L", "5"]]),
            b("prefix", "\"", false, &[&["split-window", "-v"]]),
            b("prefix", ";", false, &[&["last-pane"]]),
        ];
        assert_eq!(
            list_keys(&bs, Some("prefix")),
            "bind-key    -T prefix \\\" split-window -v\n\
             bind-key    -T prefix \\; last-pane\n\
             bind-key -r -T prefix H  resize-pane -L 5\n\
             bind-key    -T prefix c  new-window\n"
        );
    }

    #[test]
    fn every_action_is_found_from_its_command() {
        for a in [
            KeyAction::KillPane,
            KeyAction::Split(Direction::Left),
            KeyAction::Resize(Direction::Up, 5),
            KeyAction::SelectWindow(3),
            KeyAction::ChooseBuffer,
            KeyAction::CommandPrompt,
        ] {
            assert_eq!(KeyAction::from_tmux_argv(&a.tmux_argv()), Some(a));
        }
    }
}
