//! The default `copy-mode-vi` and `copy-mode` key tables: each key and the copy-mode
//! command (`send-keys -X NAME`) it runs, as `list-keys -T copy-mode-vi` prints them
//! and `bind-key -T copy-mode-vi` changes them. The terminal client's copy mode runs
//! whatever its table holds (tui/copy/keys.rs).
//!
//! They are tmux's tables where fugue's copy mode has the command, with the keys the
//! issue chose over tmux 3.3a's: vi `v` begins a selection and `r` toggles the
//! rectangle (vim's keys), `y` copies. Counts (digits) and the search prompt's typing
//! are the copy mode's own, as tmux's `command-prompt -N` bindings are.

/// (key, copy-mode command) of the vi table.
pub const COPY_MODE_VI: &[(&str, &str)] = &[
    ("C-b", "page-up"),
    ("C-c", "cancel"),
    ("C-d", "halfpage-down"),
    ("C-e", "scroll-down"),
    ("C-f", "page-down"),
    ("C-h", "cursor-left"),
    ("C-j", "copy-pipe-and-cancel"),
    ("C-u", "halfpage-up"),
    ("C-v", "rectangle-toggle"),
    ("C-y", "scroll-up"),
    ("Enter", "copy-pipe-and-cancel"),
    ("Escape", "clear-selection"),
    ("Space", "begin-selection"),
    ("$", "end-of-line"),
    ("%", "next-matching-bracket"),
    (",", "jump-reverse"),
    ("/", "search-forward"),
    ("0", "start-of-line"),
    (";", "jump-again"),
    ("?", "search-backward"),
    ("A", "append-selection-and-cancel"),
    ("B", "previous-space"),
    ("D", "copy-pipe-end-of-line-and-cancel"),
    ("E", "next-space-end"),
    ("F", "jump-backward"),
    ("G", "history-bottom"),
    ("H", "top-line"),
    ("J", "scroll-down"),
    ("K", "scroll-up"),
    ("L", "bottom-line"),
    ("M", "middle-line"),
    ("N", "search-reverse"),
    ("T", "jump-to-backward"),
    ("V", "select-line"),
    ("W", "next-space"),
    ("X", "set-mark"),
    ("^", "back-to-indentation"),
    ("b", "previous-word"),
    ("e", "next-word-end"),
    ("f", "jump-forward"),
    ("g", "history-top"),
    ("h", "cursor-left"),
    ("j", "cursor-down"),
    ("k", "cursor-up"),
    ("l", "cursor-right"),
    ("n", "search-again"),
    ("o", "other-end"),
    ("q", "cancel"),
    ("r", "rectangle-toggle"),
    ("t", "jump-to-forward"),
    ("v", "begin-selection"),
    ("w", "next-word"),
    ("y", "copy-pipe-and-cancel"),
    ("{", "previous-paragraph"),
    ("}", "next-paragraph"),
    ("M-x", "jump-to-mark"),
    ("BSpace", "cursor-left"),
    ("Up", "cursor-up"),
    ("Down", "cursor-down"),
    ("Left", "cursor-left"),
    ("Right", "cursor-right"),
    ("PPage", "page-up"),
    ("NPage", "page-down"),
    ("Home", "start-of-line"),
    ("End", "end-of-line"),
];

/// (key, copy-mode command) of the emacs table.
pub const COPY_MODE: &[(&str, &str)] = &[
    ("C-Space", "begin-selection"),
    ("C-@", "begin-selection"),
    ("C-a", "start-of-line"),
    ("C-b", "cursor-left"),
    ("C-c", "cancel"),
    ("C-e", "end-of-line"),
    ("C-f", "cursor-right"),
    ("C-g", "clear-selection"),
    ("C-k", "copy-pipe-end-of-line-and-cancel"),
    ("C-n", "cursor-down"),
    ("C-p", "cursor-up"),
    ("C-r", "search-backward"),
    ("C-s", "search-forward"),
    ("C-v", "page-down"),
    ("C-w", "copy-pipe-and-cancel"),
    ("Escape", "cancel"),
    ("Space", "page-down"),
    (",", "jump-reverse"),
    (";", "jump-again"),
    ("F", "jump-backward"),
    ("N", "search-reverse"),
    ("R", "rectangle-toggle"),
    ("T", "jump-to-backward"),
    ("X", "set-mark"),
    ("f", "jump-forward"),
    ("n", "search-again"),
    ("q", "cancel"),
    ("t", "jump-to-forward"),
    ("M-<", "history-top"),
    ("M->", "history-bottom"),
    ("M-R", "top-line"),
    ("M-b", "previous-word"),
    ("M-f", "next-word-end"),
    ("M-m", "back-to-indentation"),
    ("M-r", "middle-line"),
    ("M-v", "page-up"),
    ("M-w", "copy-pipe-and-cancel"),
    ("M-x", "jump-to-mark"),
    ("M-{", "previous-paragraph"),
    ("M-}", "next-paragraph"),
    ("C-M-b", "previous-matching-bracket"),
    ("C-M-f", "next-matching-bracket"),
    ("Up", "cursor-up"),
    ("Down", "cursor-down"),
    ("Left", "cursor-left"),
    ("Right", "cursor-right"),
    ("PPage", "page-up"),
    ("NPage", "page-down"),
    ("Home", "start-of-line"),
    ("End", "end-of-line"),
];

/// The default bindings of both tables, as `send-keys -X NAME`.
pub fn default_bindings() -> Vec<crate::key_tables::Binding> {
    let mut out = Vec::new();
    for (table, list) in [("copy-mode-vi", COPY_MODE_VI), ("copy-mode", COPY_MODE)] {
        for (key, command) in list {
            // The tables are checked by a test; a key that does not parse is skipped
            // rather than take the server down.
            let Some(key) = crate::keys::Key::parse(key) else {
                continue;
            };
            out.push(crate::key_tables::Binding {
                table: table.to_string(),
                key,
                repeat: false,
                note: None,
                commands: vec![vec![
                    "send-keys".to_string(),
                    "-X".to_string(),
                    (*command).to_string(),
                ]],
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_parses_and_none_is_bound_twice() {
        for (name, list) in [("copy-mode-vi", COPY_MODE_VI), ("copy-mode", COPY_MODE)] {
            let mut seen = std::collections::HashSet::new();
            for (key, _) in list {
                let k = crate::keys::Key::parse(key)
                    .unwrap_or_else(|| panic!("{name}: `{key}` does not parse"));
                assert!(seen.insert(k.chord()), "{name}: `{key}` bound twice");
            }
        }
        assert_eq!(
            default_bindings().len(),
            COPY_MODE_VI.len() + COPY_MODE.len()
        );
    }
}
