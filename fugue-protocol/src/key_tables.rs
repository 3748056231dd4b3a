//! tmux's key tables: bindings of keys to command sequences, per table (`prefix`,
//! `root`, `copy-mode`, `copy-mode-vi` and any a user names), stored by the server so
//! every client sees the same ones, and printed by `list-keys` as tmux 3.3a prints them.

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

/// The prefix table tmux 3.5 has before any config: each key with the config name
/// of its command line ([`crate::bindings::NAMED_LINES`] spells the lines, as tmux's
/// key-bindings.c does). The prefix key itself sends the prefix, added by whoever
/// knows which key that is.
pub const DEFAULT_PREFIX: &[(&str, &str)] = &[
    ("c", "new-window"),
    ("n", "next-window"),
    ("p", "previous-window"),
    ("l", "last-window"),
    ("%", "split-right"),
    ("\"", "split-down"),
    ("Left", "focus left"),
    ("Right", "focus right"),
    ("Up", "focus up"),
    ("Down", "focus down"),
    ("o", "next-pane"),
    (";", "last-pane"),
    ("x", "kill-pane"),
    ("&", "kill-window"),
    ("z", "zoom"),
    ("d", "detach"),
    (",", "rename-window"),
    ("$", "rename-session"),
    ("[", "scroll-mode"),
    ("PPage", "scroll-page-up"),
    ("Space", "next-layout"),
    ("M-1", "layout even-horizontal"),
    ("M-2", "layout even-vertical"),
    ("M-3", "layout main-horizontal"),
    ("M-4", "layout main-vertical"),
    ("M-5", "layout tiled"),
    ("C-Left", "resize left 1"),
    ("C-Right", "resize right 1"),
    ("C-Up", "resize up 1"),
    ("C-Down", "resize down 1"),
    ("M-Left", "resize left 5"),
    ("M-Right", "resize right 5"),
    ("M-Up", "resize up 5"),
    ("M-Down", "resize down 5"),
    ("?", "list-keys"),
    ("C-c", "new-session"),
    (")", "next-session"),
    ("(", "previous-session"),
    ("r", "refresh-client"),
    ("C-z", "suspend-client"),
    ("~", "show-messages"),
    ("]", "paste-buffer"),
    ("#", "list-buffers"),
    ("=", "choose-buffer"),
    (":", "command-prompt"),
    ("q", "display-panes"),
    ("s", "choose-session"),
    ("w", "choose-window"),
    ("f", "find-window"),
    ("t", "clock-mode"),
    ("D", "choose-client"),
    ("C", "customize-mode"),
    ("!", "break-pane"),
    ("-", "delete-buffer"),
    ("C-o", "rotate-window"),
    ("M-o", "rotate-window-reverse"),
    ("{", "swap-pane-up"),
    ("}", "swap-pane-down"),
    ("E", "spread-layout"),
    ("m", "mark-pane"),
    ("M", "clear-mark"),
    ("L", "last-session"),
    ("i", "display-info"),
    ("'", "select-window-prompt"),
    (".", "move-window-prompt"),
    ("0", "select-window 0"),
    ("1", "select-window 1"),
    ("2", "select-window 2"),
    ("3", "select-window 3"),
    ("4", "select-window 4"),
    ("5", "select-window 5"),
    ("6", "select-window 6"),
    ("7", "select-window 7"),
    ("8", "select-window 8"),
    ("9", "select-window 9"),
    ("M-n", "next-alert"),
    ("M-p", "previous-alert"),
    ("/", "describe-key"),
    ("DC", "pan-reset"),
    ("S-Up", "pan-up"),
    ("S-Down", "pan-down"),
    ("S-Left", "pan-left"),
    ("S-Right", "pan-right"),
    ("<", "window-menu"),
    (">", "pane-menu"),
];

/// [`DEFAULT_PREFIX`] as bindings of the `prefix` table.
pub fn default_prefix() -> Vec<Binding> {
    DEFAULT_PREFIX
        .iter()
        .filter_map(|(key, name)| {
            let (commands, repeat, note) = crate::bindings::config_line(name).ok()?;
            Some(Binding {
                table: "prefix".into(),
                key: Key::parse(key)?,
                repeat,
                note,
                commands,
            })
        })
        .collect()
}

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

/// What `list-keys -N` shows beyond the noted keys and how.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NotesOptions {
    /// `-a`: keys without a note too, their command line standing for the note.
    pub all: bool,
    /// `-P`: what stands before a prefix-table key instead of the prefix and a space.
    pub prefix_string: Option<String>,
}

/// `list-keys -N` as tmux 3.5 prints it: without `-T`, the root table's noted keys
/// then the prefix table's, each line `START KEY NOTE`, START being the prefix and a
/// space (`-P` replaces it) for prefix keys and as many spaces for root keys; with
/// `-T`, that table's keys after `-P` (or nothing). Keys are padded to the widest
/// noted key plus one; with `-a` keys without a note are listed too, their command
/// standing for the note. Like tmux, the width counts only noted keys, and without
/// `-T` a prefix table with no noted key is left out even with `-a`.
pub fn list_notes(
    bindings: &[Binding],
    table: Option<&str>,
    prefix: Key,
    opts: &NotesOptions,
) -> String {
    let noted = |b: &Binding| b.note.as_deref().is_some_and(|n| !n.is_empty());
    let in_table = |t: &str| {
        let mut v: Vec<&Binding> = bindings
            .iter()
            .filter(|b| b.table == t && !matches!(b.key.code, crate::keys::KeyCode::Mouse(_)))
            .collect();
        v.sort_by_key(|b| tmux_order(&b.key));
        v
    };
    let width = |t: &str| {
        in_table(t)
            .iter()
            .filter(|b| noted(b))
            .map(|b| b.key.to_string().chars().count())
            .max()
            .unwrap_or(0)
    };
    let mut parts: Vec<(String, String)> = Vec::new();
    let mut key_w = 0;
    match table {
        Some(t) => {
            key_w = width(t);
            parts.push((
                t.to_string(),
                opts.prefix_string.clone().unwrap_or_default(),
            ));
        }
        None => {
            let start = opts
                .prefix_string
                .clone()
                .unwrap_or_else(|| format!("{prefix} "));
            key_w = key_w.max(width("root"));
            parts.push(("root".into(), " ".repeat(start.chars().count())));
            let prefix_w = width("prefix");
            if prefix_w > 0 {
                key_w = key_w.max(prefix_w);
                parts.push(("prefix".into(), start));
            }
        }
    }
    let mut out = String::new();
    for (t, start) in parts {
        for b in in_table(&t) {
            let note = match &b.note {
                Some(n) if !n.is_empty() => n.clone(),
                _ if opts.all => tmux_cmd::print_sequence(&b.commands),
                _ => continue,
            };
            let key = b.key.to_string();
            out.push_str(&format!("{start}{key:<w$}{note}\n", w = key_w + 1));
        }
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
    fn the_default_table_is_all_there() {
        // Every line parses and every key name is one: nothing is dropped.
        assert_eq!(default_prefix().len(), DEFAULT_PREFIX.len());
        let x = default_prefix()
            .into_iter()
            .find(|b| b.key == Key::char('x'));
        assert_eq!(
            x.map(|b| b.commands),
            Some(vec![
                ["confirm-before", "-p", "kill-pane #P? (y/n)", "kill-pane"]
                    .map(String::from)
                    .to_vec()
            ])
        );
    }
}
