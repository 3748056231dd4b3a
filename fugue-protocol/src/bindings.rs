//! Key bindings: what a key does in an attached client.
//!
//! The server owns the configuration and hands the client its key table when it
//! attaches, so every client of one server behaves the same and the config file is read
//! in one place. Every binding is a tmux command line, run through the command table as
//! any other; the config file's names for common ones (`"|" = "split-right"`) are only
//! other ways to write such a line ([`NAMED_LINES`]).

use crate::command::{Direction, LayoutPreset};
use crate::keys::Key;
use crate::tmux_cmd::{self, Argv, NoEnv};
use serde::{Deserialize, Serialize};

/// The config file's names for common bindings: name, the tmux command line it
/// stands for, whether tmux binds it with `bind -r` (another press soon after needs
/// no prefix), and the note `list-keys -N` shows for it. `select-window N`, `focus DIR`, `layout NAME` and `resize DIR N`
/// take a word more ([`named_line`]).
pub const NAMED_LINES: &[(&str, &str, bool, &str)] = &[
    ("new-window", "new-window", false, "Create a window"),
    ("next-window", "next-window", false, "Go to the next window"),
    (
        "previous-window",
        "previous-window",
        false,
        "Go to the previous window",
    ),
    (
        "last-window",
        "last-window",
        false,
        "Go to the window used before",
    ),
    (
        "split-right",
        "split-window -h",
        false,
        "Split the pane, the new one to the right",
    ),
    (
        "split-down",
        "split-window -v",
        false,
        "Split the pane, the new one below",
    ),
    (
        "split-left",
        "split-window -bh",
        false,
        "Split the pane, the new one to the left",
    ),
    (
        "split-up",
        "split-window -bv",
        false,
        "Split the pane, the new one above",
    ),
    (
        "next-pane",
        "select-pane -t :.+",
        false,
        "Go to the next pane",
    ),
    (
        "previous-pane",
        "select-pane -t :.-",
        false,
        "Go to the previous pane",
    ),
    (
        "last-pane",
        "last-pane",
        false,
        "Go to the pane used before",
    ),
    (
        "kill-pane",
        "confirm-before -p \"kill-pane #P? (y/n)\" kill-pane",
        false,
        "Close the pane (asks first)",
    ),
    (
        "kill-window",
        "confirm-before -p \"kill-window #W? (y/n)\" kill-window",
        false,
        "Close the window (asks first)",
    ),
    ("zoom", "resize-pane -Z", false, "Zoom the pane or back"),
    ("detach", "detach-client", false, "Detach this client"),
    (
        "rename-window",
        "command-prompt -I \"#W\" \"rename-window -- '%%'\"",
        false,
        "Rename the window",
    ),
    (
        "rename-session",
        "command-prompt -I \"#S\" \"rename-session -- '%%'\"",
        false,
        "Rename the session",
    ),
    (
        "scroll-mode",
        "copy-mode",
        false,
        "Scroll and copy (copy mode)",
    ),
    (
        "scroll-page-up",
        "copy-mode -u",
        false,
        "Copy mode, one page up",
    ),
    (
        "next-layout",
        "next-layout",
        false,
        "Arrange the panes in the next layout",
    ),
    ("list-keys", "list-keys -N", false, "List the keys"),
    (
        "send-prefix",
        "send-prefix",
        false,
        "Send the prefix key to the pane",
    ),
    ("new-session", "new-session", false, "Create a session"),
    (
        "next-session",
        "switch-client -n",
        false,
        "Go to the next session",
    ),
    (
        "previous-session",
        "switch-client -p",
        false,
        "Go to the previous session",
    ),
    (
        "refresh-client",
        "refresh-client",
        false,
        "Draw the screen again",
    ),
    (
        "suspend-client",
        "suspend-client",
        false,
        "Suspend this client",
    ),
    ("show-messages", "show-messages", false, "Show the messages"),
    (
        "paste-buffer",
        "paste-buffer -p",
        false,
        "Paste the latest buffer",
    ),
    (
        "list-buffers",
        "list-buffers",
        false,
        "List the paste buffers",
    ),
    (
        "choose-buffer",
        "choose-buffer -Z",
        false,
        "Choose a buffer to paste",
    ),
    ("command-prompt", "command-prompt", false, "Type a command"),
    ("display-panes", "display-panes", false, "Number the panes"),
    (
        "choose-session",
        "choose-tree -Zs",
        false,
        "Choose a session",
    ),
    ("choose-window", "choose-tree -Zw", false, "Choose a window"),
    // tmux 3.3a: `command-prompt { find-window -Z "%%" }`.
    (
        "find-window",
        "command-prompt \"find-window -Z -- '%%'\"",
        false,
        "Find a window by its text",
    ),
    ("clock-mode", "clock-mode", false, "Show a clock"),
    (
        "choose-client",
        "choose-client -Z",
        false,
        "Choose a client to detach",
    ),
    (
        "customize-mode",
        "customize-mode -Z",
        false,
        "Browse the options and keys",
    ),
    (
        "break-pane",
        "break-pane",
        false,
        "Break pane to a new window",
    ),
    (
        "delete-buffer",
        "delete-buffer",
        false,
        "Delete the most recent paste buffer",
    ),
    (
        "rotate-window",
        "rotate-window",
        false,
        "Rotate through the panes",
    ),
    (
        "rotate-window-reverse",
        "rotate-window -D",
        false,
        "Rotate through the panes in reverse",
    ),
    (
        "swap-pane-up",
        "swap-pane -U",
        false,
        "Swap the active pane with the pane above",
    ),
    (
        "swap-pane-down",
        "swap-pane -D",
        false,
        "Swap the active pane with the pane below",
    ),
    (
        "spread-layout",
        "select-layout -E",
        false,
        "Spread panes out evenly",
    ),
    (
        "mark-pane",
        "select-pane -m",
        false,
        "Toggle the marked pane",
    ),
    (
        "clear-mark",
        "select-pane -M",
        false,
        "Clear the marked pane",
    ),
    (
        "last-session",
        "switch-client -l",
        false,
        "Switch to the last client",
    ),
    (
        "display-info",
        "display-message",
        false,
        "Display window information",
    ),
    // tmux 3.3a: `command-prompt -T window-target -p index { select-window -t ":%%" }`.
    (
        "select-window-prompt",
        "command-prompt -p index \"select-window -t ':%%'\"",
        false,
        "Prompt for window index to select",
    ),
    // tmux 3.3a: `command-prompt -T target { move-window -t "%%" }`.
    (
        "move-window-prompt",
        "command-prompt \"move-window -t '%%'\"",
        false,
        "Move the current window",
    ),
    // tmux 3.5's M-n, M-p, `/`, DC, S-arrows, `<` and `>` (key-bindings.c).
    (
        "next-alert",
        "next-window -a",
        false,
        "Select the next window with an alert",
    ),
    (
        "previous-alert",
        "previous-window -a",
        false,
        "Select the previous window with an alert",
    ),
    (
        "describe-key",
        "command-prompt -k -p key { list-keys -1N '%%' }",
        false,
        "Describe key binding",
    ),
    (
        "pan-reset",
        "refresh-client -c",
        true,
        "Reset so the visible part of the window follows the cursor",
    ),
    (
        "pan-up",
        "refresh-client -U 10",
        true,
        "Move the visible part of the window up",
    ),
    (
        "pan-down",
        "refresh-client -D 10",
        true,
        "Move the visible part of the window down",
    ),
    (
        "pan-left",
        "refresh-client -L 10",
        true,
        "Move the visible part of the window left",
    ),
    (
        "pan-right",
        "refresh-client -R 10",
        true,
        "Move the visible part of the window right",
    ),
    ("window-menu", WINDOW_MENU, false, "Display window menu"),
    ("pane-menu", PANE_MENU, false, "Display pane menu"),
];

/// tmux 3.5's `<`: the window menu (its DEFAULT_WINDOW_MENU), where the window is.
/// Braces have spaces inside: fugue's command-line parser takes `{` and `}` as
/// blocks only as words of their own.
const WINDOW_MENU: &str = concat!(
    "display-menu -x W -y W -T '#[align=centre]#{window_index}:#{window_name}'",
    " '#{?#{>:#{session_windows},1},,-}Swap Left' 'l' { swap-window -t:-1 }",
    " '#{?#{>:#{session_windows},1},,-}Swap Right' 'r' { swap-window -t:+1 }",
    " '#{?pane_marked_set,,-}Swap Marked' 's' { swap-window }",
    " ''",
    " 'Kill' 'X' { kill-window }",
    " 'Respawn' 'R' { respawn-window -k }",
    " '#{?pane_marked,Unmark,Mark}' 'm' { select-pane -m }",
    " 'Rename' 'n' { command-prompt -FI \"#W\" { rename-window -t '#{window_id}' -- '%%' } }",
    " ''",
    " 'New After' 'w' { new-window -a }",
    " 'New At End' 'W' { new-window }",
);

/// tmux 3.5's `>`: the pane menu (its DEFAULT_PANE_MENU), where the pane is. The
/// items about the word, line or link under the mouse are hidden when a key opens it
/// (their names expand empty), as in tmux.
const PANE_MENU: &str = concat!(
    "display-menu -x P -y P -T '#[align=centre]#{pane_index} (#{pane_id})'",
    " '#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Top,}' '<' { send -X history-top }",
    " '#{?#{m/r:(copy|view)-mode,#{pane_mode}},Go To Bottom,}' '>' { send -X history-bottom }",
    " ''",
    " '#{?mouse_word,Search For #[underscore]#{=/9/...:mouse_word},}' 'C-r'",
    " { if -F '#{?#{m/r:(copy|view)-mode,#{pane_mode}},0,1}' 'copy-mode -t=' ;",
    " send -Xt= search-backward \"#{q:mouse_word}\" }",
    " '#{?mouse_word,Type #[underscore]#{=/9/...:mouse_word},}' 'C-y'",
    " { copy-mode -q ; send-keys -l -- \"#{q:mouse_word}\" }",
    " '#{?mouse_word,Copy #[underscore]#{=/9/...:mouse_word},}' 'c'",
    " { copy-mode -q ; set-buffer -- \"#{q:mouse_word}\" }",
    " '#{?mouse_line,Copy Line,}' 'l' { copy-mode -q ; set-buffer -- \"#{q:mouse_line}\" }",
    " ''",
    " '#{?mouse_hyperlink,Type #[underscore]#{=/9/...:mouse_hyperlink},}' 'C-h'",
    " { copy-mode -q ; send-keys -l -- \"#{q:mouse_hyperlink}\" }",
    " '#{?mouse_hyperlink,Copy #[underscore]#{=/9/...:mouse_hyperlink},}' 'h'",
    " { copy-mode -q ; set-buffer -- \"#{q:mouse_hyperlink}\" }",
    " ''",
    " 'Horizontal Split' 'h' { split-window -h }",
    " 'Vertical Split' 'v' { split-window -v }",
    " ''",
    " '#{?#{>:#{window_panes},1},,-}Swap Up' 'u' { swap-pane -U }",
    " '#{?#{>:#{window_panes},1},,-}Swap Down' 'd' { swap-pane -D }",
    " '#{?pane_marked_set,,-}Swap Marked' 's' { swap-pane }",
    " ''",
    " 'Kill' 'X' { kill-pane }",
    " 'Respawn' 'R' { respawn-pane -k }",
    " '#{?pane_marked,Unmark,Mark}' 'm' { select-pane -m }",
    " '#{?#{>:#{window_panes},1},,-}#{?window_zoomed_flag,Unzoom,Zoom}' 'z' { resize-pane -Z }",
);

/// What a config name stands for ([`named_line`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Named {
    pub line: String,
    /// tmux binds it with `bind -r`.
    pub repeat: bool,
    /// What `list-keys -N` says it does.
    pub note: String,
}

/// The command line a config name stands for; None when the words are no name of
/// [`NAMED_LINES`] (nor one of the four that take a word more).
pub fn named_line(name: &str) -> Option<Named> {
    let flag = |d: Direction| match d {
        Direction::Left => "-L",
        Direction::Right => "-R",
        Direction::Up => "-U",
        Direction::Down => "-D",
    };
    let named = |line: String, repeat, note: String| Named { line, repeat, note };
    let words: Vec<&str> = name.split_whitespace().collect();
    match words.as_slice() {
        [one] => NAMED_LINES
            .iter()
            .find(|(n, ..)| n == one)
            .map(|(_, line, repeat, note)| named(line.to_string(), *repeat, note.to_string())),
        ["select-window", n] => {
            let n: u32 = n.parse().ok()?;
            let note = format!("Go to window {n}");
            Some(named(format!("select-window -t :={n}"), false, note))
        }
        ["focus", d] => {
            let d = Direction::parse(d)?;
            let note = format!("Go to the pane {}", d.name());
            Some(named(format!("select-pane {}", flag(d)), true, note))
        }
        ["layout", p] => {
            let p = LayoutPreset::parse(p)?.name();
            let note = format!("Arrange the panes {p}");
            Some(named(format!("select-layout {p}"), false, note))
        }
        ["resize", d, n] => {
            let (d, n) = (Direction::parse(d)?, n.parse::<u16>().ok()?);
            let note = format!("Move the pane's border {} by {n}", d.name());
            Some(match n {
                1 => named(format!("resize-pane {}", flag(d)), true, note),
                n => named(format!("resize-pane {} {n}", flag(d)), true, note),
            })
        }
        _ => None,
    }
}

/// Every config name, for the error that lists them.
pub fn names() -> String {
    let mut all: Vec<&str> = NAMED_LINES.iter().map(|(n, ..)| *n).collect();
    all.extend([
        "select-window N",
        "focus left|right|up|down",
        "layout NAME",
        "resize DIR N",
    ]);
    all.join(", ")
}

/// A binding's commands from the config file: one of fugue's names or a tmux command
/// line (`"split-window -h -c '#{pane_current_path}'"`), whether it repeats, and a
/// name's note.
pub fn config_line(text: &str) -> Result<(Vec<Argv>, bool, Option<String>), String> {
    let (line, repeat, note) = match named_line(text) {
        Some(n) => (n.line, n.repeat, Some(n.note)),
        None => (text.to_string(), false, None),
    };
    let commands = tmux_cmd::parse(&line, &NoEnv).map_err(|e| e.to_string())?;
    if commands.is_empty() {
        return Err(format!(
            "`{text}` is no command; give a tmux command line or one of: {}",
            names()
        ));
    }
    Ok((commands, repeat, note))
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

impl KeyTable {
    /// The binding of `key`'s chord ([`Key::chord`]: lock states and event kinds do not
    /// count) in `table`.
    pub fn lookup(&self, table: &str, key: &Key) -> Option<&crate::key_tables::Binding> {
        let key = key.chord();
        self.bindings
            .iter()
            .find(|b| b.table == table && b.key.chord() == key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_a_command_line() {
        for (name, ..) in NAMED_LINES {
            let (commands, ..) = config_line(name).unwrap();
            assert_eq!(commands.len(), 1, "{name}");
        }
        let words = |s: &str| s.split(' ').map(String::from).collect::<Argv>();
        assert_eq!(
            config_line("select-window 3"),
            Ok((
                vec![words("select-window -t :=3")],
                false,
                Some("Go to window 3".into())
            ))
        );
        assert_eq!(
            config_line("focus left").map(|(c, r, _)| (c, r)),
            Ok((vec![words("select-pane -L")], true))
        );
        assert_eq!(
            config_line("resize up 5").map(|(c, r, _)| (c, r)),
            Ok((vec![words("resize-pane -U 5")], true))
        );
        assert_eq!(
            config_line("layout tiled").map(|(c, r, _)| (c, r)),
            Ok((vec![words("select-layout tiled")], false))
        );
        // The question keeps its words together, as tmux's default binding does.
        let (kill, ..) = config_line("kill-pane").unwrap();
        assert_eq!(
            kill[0],
            ["confirm-before", "-p", "kill-pane #P? (y/n)", "kill-pane"].map(String::from)
        );
    }

    #[test]
    fn any_tmux_line_binds_and_nothing_is_refused_with_the_names() {
        assert_eq!(
            config_line("split-window -h ; select-layout tiled").map(|(c, ..)| c.len()),
            Ok(2)
        );
        let e = config_line("   ").unwrap_err();
        assert!(
            e.contains("split-right") && e.contains("resize DIR N"),
            "{e}"
        );
        // A name's extra word must be one it takes.
        assert_eq!(named_line("select-window x"), None);
        // A command line has no note of its own; a name has its own.
        assert_eq!(config_line("new-window -d").map(|(.., n)| n), Ok(None));
        assert_eq!(named_line("resize left"), None);
    }
}
