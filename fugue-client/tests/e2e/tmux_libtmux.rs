//! What libtmux's own test suite found different from tmux (run against fugue's
//! `tmux`): each scenario runs the same command lines against fugue's `tmux` and the
//! real tmux and compares them (`tmux_flags::both`). Without tmux the comparison is
//! skipped with a message.

use super::tmux_flags::{Step, both};

/// `last-window` with no last window fails with tmux's exact line, which libtmux
/// turns into its exception text.
#[test]
fn last_window_without_one_fails_in_tmuxs_words() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        SameError(&["last-window", "-t", "a"]),
        Do(&["new-window", "-d", "-t", "a", "cat"]),
        SameError(&["last-window", "-t", "a"]),
        Do(&["select-window", "-t", "a:1"]),
        Do(&["last-window", "-t", "a"]),
        Same(&["display-message", "-p", "-t", "a", "#{window_index}"]),
    ]);
}
