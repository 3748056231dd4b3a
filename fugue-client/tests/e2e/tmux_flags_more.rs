//! More of tmux's flags that fugue took late (issue 28): each scenario runs the same
//! command lines against fugue's `tmux` and the real tmux, each in a fresh server, and
//! compares what they print (see [`super::tmux_flags::both`]). Pane sizes differ
//! (fugue's panes have borders), so the comparisons are of which edges a pane touches,
//! indexes, flags and names.

use super::tmux_flags::{Step, both};

/// Which window edges each pane touches, in index order.
const EDGES: &str = "#{pane_index}:#{pane_at_left}#{pane_at_right}#{pane_at_top}#{pane_at_bottom}";

/// `split-window -f` splits the whole window, so the new pane spans its full height
/// (`-h`) or width; `join-pane -f` and `move-pane -f` put the pane there the same way.
#[test]
fn split_and_join_f_span_the_whole_window() {
    use Step::*;
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "120",
            "-y",
            "40",
            "cat",
        ]),
        Do(&["split-window", "-h", "-t", "a", "cat"]),
        Do(&["split-window", "-v", "-f", "-t", "a:0.0", "cat"]),
        Same(&["list-panes", "-t", "a", "-F", EDGES]),
        Do(&["split-window", "-h", "-b", "-f", "-t", "a:0.1", "cat"]),
        Same(&["list-panes", "-t", "a", "-F", EDGES]),
        Do(&["new-window", "-d", "-t", "a:1", "cat"]),
        Do(&["split-window", "-v", "-t", "a:1", "cat"]),
        Do(&["join-pane", "-h", "-f", "-s", "a:0.0", "-t", "a:1.1"]),
        Same(&["list-panes", "-t", "a:1", "-F", EDGES]),
        Do(&["move-pane", "-v", "-b", "-f", "-s", "a:0.0", "-t", "a:1.0"]),
        Same(&["list-panes", "-t", "a:1", "-F", EDGES]),
    ]);
}

/// The current window of session `a`.
const CURRENT: &[&str] = &["display-message", "-p", "-t", "a", "#{window_index}"];

/// `next-window -a` / `previous-window -a` go to the next (previous) window with an
/// alert, wrapping round, and fail with tmux's words when there is none;
/// `kill-session -C` clears the alerts.
#[test]
fn window_steps_a_go_to_alerts_and_kill_session_c_clears_them() {
    use Step::*;
    const BELLS: &str = "#{window_index}:#{window_bell_flag}";
    const BELL: &str = "#{window_bell_flag}";
    let ring = "printf '\\a'; exec cat";
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Do(&["new-window", "-d", "-t", "a:1", "cat"]),
        Do(&["new-window", "-d", "-t", "a:2", ring]),
        Do(&["new-window", "-d", "-t", "a:3", "cat"]),
        Await(&["display-message", "-p", "-t", "a:2", BELL], "1\n"),
        Same(&["list-windows", "-t", "a", "-F", BELLS]),
        Do(&["next-window", "-a", "-t", "a"]),
        Same(CURRENT),
        Do(&["select-window", "-t", "a:3"]),
        Do(&["new-window", "-d", "-t", "a:4", ring]),
        Await(&["display-message", "-p", "-t", "a:4", BELL], "1\n"),
        Same(&["list-windows", "-t", "a", "-F", BELLS]),
        Do(&["previous-window", "-a", "-t", "a"]),
        Same(CURRENT),
        SameError(&["next-window", "-a", "-t", "a"]),
        Do(&["new-window", "-d", "-t", "a:5", ring]),
        Await(&["display-message", "-p", "-t", "a:5", BELL], "1\n"),
        Same(&["list-windows", "-t", "a", "-F", BELLS]),
        Do(&["kill-session", "-C", "-t", "a"]),
        Same(&["list-windows", "-t", "a", "-F", BELLS]),
        SameError(&["previous-window", "-a", "-t", "a"]),
    ]);
}

/// `select-window -T` on the current window goes to the last one; `select-pane -Z`
/// keeps a zoomed window zoomed on the pane selected (without it the zoom ends).
#[test]
fn select_window_t_toggles_and_select_pane_z_keeps_the_zoom() {
    use Step::*;
    const ZOOM: &str = "#{pane_index}:#{pane_active}:#{window_zoomed_flag}";
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Do(&["new-window", "-t", "a:1", "cat"]),
        Do(&["new-window", "-t", "a:2", "cat"]),
        Do(&["select-window", "-T", "-t", "a:1"]),
        Same(CURRENT),
        Do(&["select-window", "-T", "-t", "a:1"]),
        Same(CURRENT),
        Do(&["select-window", "-T", "-t", "a:2"]),
        Same(CURRENT),
        Do(&["split-window", "-t", "a:2", "cat"]),
        Do(&["resize-pane", "-Z", "-t", "a:2.1"]),
        Do(&["select-pane", "-Z", "-t", "a:2.0"]),
        Same(&["list-panes", "-t", "a:2", "-F", ZOOM]),
        Do(&["select-pane", "-t", "a:2.1"]),
        Same(&["list-panes", "-t", "a:2", "-F", ZOOM]),
    ]);
}

/// `break-pane -a` / `-b` put the new window after (before) the target window,
/// moving later windows up.
#[test]
fn break_pane_a_and_b_place_the_window() {
    use Step::*;
    const WINDOWS: &str = "#{window_index}:#{window_panes}:#{window_active}";
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Do(&["new-window", "-d", "-t", "a:1", "cat"]),
        Do(&["split-window", "-t", "a:0", "cat"]),
        Do(&["split-window", "-t", "a:0", "cat"]),
        Do(&["split-window", "-t", "a:0", "cat"]),
        Do(&["break-pane", "-a", "-d", "-s", "a:0.1", "-t", "a:0"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        Do(&["break-pane", "-b", "-s", "a:0.1", "-t", "a:0"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        Do(&["break-pane", "-a", "-s", "a:1.0"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
    ]);
}
