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

/// The number of clients attached to the server.
fn clients(w: &super::harness::World) -> usize {
    w.ok(&["list-clients", "-F", "#{client_name}"])
        .lines()
        .count()
}

/// `attach -d` detaches the session's other clients (their shells go on), `attach -x`
/// also sends SIGHUP to their parents (the shells end), and `detach-client -E`
/// replaces the client with a shell command. Real clients in PTYs: tmux's side would
/// need two terminals of its own for what these print.
#[test]
fn attach_d_and_x_detach_the_others_and_detach_e_replaces_the_client() {
    use super::harness::{World, eventually};
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "a", "cat"]);
    let mut one = w.sh("$FUGUE attach -t a; echo after-$?", 80, 24);
    eventually("the first client", || (clients(&w) == 1).then_some(()));
    // Every client runs under a shell: `-x` hangs up the others' parents, and the
    // parent of a client started here directly would be the test itself.
    let mut two = w.sh("$FUGUE attach -d -t a; echo after-$?", 80, 24);
    one.wait_text("after-0");
    one.wait_exit();
    eventually("one client left", || (clients(&w) == 1).then_some(()));
    let mut three = w.sh("$FUGUE attach -t a; echo after-$?", 80, 24);
    eventually("two clients", || (clients(&w) == 2).then_some(()));
    let mut four = w.sh("$FUGUE attach -x -t a; echo after-$?", 80, 24);
    // The hang-up ends the shells: nothing after their clients runs.
    for other in [&mut two, &mut three] {
        other.wait_exit();
        assert!(!other.contents().contains("after-"), "{}", other.contents());
    }
    eventually("only the last client", || (clients(&w) == 1).then_some(()));
    let name = w.ok(&["list-clients", "-F", "#{client_name}"]);
    w.ok(&[
        "detach-client",
        "-t",
        name.trim(),
        "-E",
        "echo replaced-by-E",
    ]);
    four.wait_text("replaced-by-E");
    four.wait_exit();
}

/// `attach -r`: keys typed go to no pane, and commands that change something are
/// refused, but the client can still detach.
#[test]
fn attach_r_types_nothing_into_the_pane() {
    use super::harness::{World, eventually};
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "a", "cat"]);
    let mut ro = w.tui(&["attach", "-r", "-t", "a"], 80, 24);
    eventually("the client", || (clients(&w) == 1).then_some(()));
    ro.send(b"typed-by-a-reader\r");
    ro.prefix(b"d");
    ro.wait_exit();
    w.ok(&["send-keys", "-t", "a", "written-after", "Enter"]);
    let screen = eventually("the marker", || {
        let s = w.ok(&["capture-pane", "-p", "-t", "a"]);
        s.contains("written-after").then_some(s)
    });
    assert!(!screen.contains("typed-by-a-reader"), "{screen}");
}
