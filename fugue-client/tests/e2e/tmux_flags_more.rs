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
    // The bell waits for a line: a program that rang before its pane was in its
    // window would race the window's creation.
    let ring = "read x; printf '\\a'; exec cat";
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Do(&["new-window", "-d", "-t", "a:1", "cat"]),
        Do(&["new-window", "-d", "-t", "a:2", ring]),
        Do(&["send-keys", "-t", "a:2", "Enter"]),
        Do(&["new-window", "-d", "-t", "a:3", "cat"]),
        Await(&["display-message", "-p", "-t", "a:2", BELL], "1\n"),
        Same(&["list-windows", "-t", "a", "-F", BELLS]),
        Do(&["next-window", "-a", "-t", "a"]),
        Same(CURRENT),
        Do(&["select-window", "-t", "a:3"]),
        Do(&["new-window", "-d", "-t", "a:4", ring]),
        Do(&["send-keys", "-t", "a:4", "Enter"]),
        Await(&["display-message", "-p", "-t", "a:4", BELL], "1\n"),
        Same(&["list-windows", "-t", "a", "-F", BELLS]),
        Do(&["previous-window", "-a", "-t", "a"]),
        Same(CURRENT),
        SameError(&["next-window", "-a", "-t", "a"]),
        Do(&["new-window", "-d", "-t", "a:5", ring]),
        Do(&["send-keys", "-t", "a:5", "Enter"]),
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

/// `list-keys -1` prints the first line only, `-a` with `-N` lists keys without a note
/// (their command instead), `-P` replaces the prefix before prefix keys.
#[test]
fn list_keys_1_a_and_p() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Do(&["bind-key", "-N", "my note", "F5", "display-message", "hi"]),
        Do(&["bind-key", "F6", "display-message", "there"]),
        Same(&["list-keys", "-N", "F5"]),
        Same(&["list-keys", "-1", "-T", "prefix", "F5"]),
        Same(&["list-keys", "-N", "-T", "prefix", "F5"]),
        Same(&["list-keys", "-N", "-a", "-T", "prefix", "F6"]),
        Same(&["list-keys", "-N", "-P", "PFX:", "F5"]),
        Same(&[
            "list-keys",
            "-1",
            "-N",
            "-a",
            "-P",
            "",
            "-T",
            "prefix",
            "F6",
        ]),
    ]);
}

/// tmux 3.5's default keys fugue lacked: `C-b /` asks for a key and shows its
/// binding's note on the status line (`list-keys -1N`), `C-b M-n` goes to the next
/// window with an alert, `C-b <` opens the window menu.
#[test]
fn describe_key_alert_and_menu_keys() {
    use super::harness::{World, eventually};
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "a", "cat"]);
    w.ok(&["new-window", "-d", "-t", "a:1", "cat"]);
    w.ok(&[
        "new-window",
        "-d",
        "-t",
        "a:2",
        "read x; printf '\\a'; exec cat",
    ]);
    w.ok(&["send-keys", "-t", "a:2", "Enter"]);
    eventually("the bell", || {
        let f = w.ok(&["display-message", "-p", "-t", "a:2", "#{window_bell_flag}"]);
        (f == "1\n").then_some(())
    });
    let mut t = w.tui(&["attach", "-t", "a"], 100, 30);
    t.wait_text("0:cat");
    t.prefix(b"/");
    t.wait_text("key");
    t.send(b"c");
    t.wait_text("C-b c Create a window");
    t.prefix(b"\x1bn");
    eventually("window 2 current", || {
        let i = w.ok(&["display-message", "-p", "-t", "a", "#{window_index}"]);
        (i == "2\n").then_some(())
    });
    t.prefix(b"<");
    t.wait_text("New At End");
    t.send(b"q");
    let notes = w.ok(&["list-keys", "-N", "-T", "prefix"]);
    for note in [
        "Select the next window with an alert",
        "Select the previous window with an alert",
        "Describe key binding",
        "Move the visible part of the window up",
        "Reset so the visible part of the window follows the cursor",
        "Display window menu",
        "Display pane menu",
    ] {
        assert!(notes.contains(note), "{note} missing from\n{notes}");
    }
}

/// `set-buffer -w` and `load-buffer -w` also send the text to the client's terminal's
/// clipboard (OSC 52), `-t` naming the client.
#[test]
fn set_and_load_buffer_w_reach_the_clipboard() {
    use super::harness::{World, eventually};
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "a", "cat"]);
    let t = w.tui(&["attach", "-t", "a"], 80, 24);
    eventually("the client", || (clients(&w) == 1).then_some(()));
    let name = w.ok(&["list-clients", "-F", "#{client_name}"]);
    w.ok(&["set-buffer", "-w", "-t", name.trim(), "hello"]);
    // base64 of "hello".
    let has = |b: &[u8], needle: &[u8]| b.windows(needle.len()).any(|x| x == needle);
    t.wait_raw("OSC 52 with hello", |b| has(b, b"\x1b]52;c;aGVsbG8="));
    std::fs::write(w.path("clip.txt"), "from a file").unwrap();
    let path = w.path("clip.txt");
    w.ok(&["load-buffer", "-w", path.to_str().unwrap()]);
    // base64 of "from a file".
    t.wait_raw("OSC 52 with the file", |b| {
        has(b, b"\x1b]52;c;ZnJvbSBhIGZpbGU=")
    });
    assert_eq!(w.ok(&["show-buffer"]), "from a file");
}

/// `source-file -F`: the path is a format, expanded before the file is read.
#[test]
fn source_file_f_expands_the_path() {
    use Step::*;
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.conf"), "set -g @loaded yes\n").unwrap();
    let d = dir.path().to_str().unwrap();
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Do(&["source-file", "-F", &format!("{d}/#{{session_name}}.conf")]),
        Same(&["show", "-gv", "@loaded"]),
        SameError(&["source-file", &format!("{d}/#{{session_name}}.conf")]),
    ]);
}

/// `select-layout -o` puts back the layout the window had before the last
/// select-layout, and again toggles to the one after it.
#[test]
fn select_layout_o_undoes_the_last_layout() {
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
        Do(&["split-window", "-v", "-t", "a:0.1", "cat"]),
        Same(&["list-panes", "-t", "a", "-F", EDGES]),
        Do(&["select-layout", "-t", "a", "even-vertical"]),
        Same(&["list-panes", "-t", "a", "-F", EDGES]),
        Do(&["select-layout", "-o", "-t", "a"]),
        Same(&["list-panes", "-t", "a", "-F", EDGES]),
        Do(&["select-layout", "-o", "-t", "a"]),
        Same(&["list-panes", "-t", "a", "-F", EDGES]),
    ]);
}
