//! Issue 16's choosers in a real client in a PTY: `display-panes` (`C-b q`),
//! `choose-tree` (`C-b s`, `C-b w`) and `find-window` (`C-b f`), from keys, `C-b :`
//! and the CLI; tmux 3.3a's screen beside fugue's where the two can be compared.

use super::harness::{TestTmux, Tui, World, eventually};
use std::time::Duration;

/// How many cells of the screen have this background.
fn cells_with_bg(s: &vt100::Screen, bg: vt100::Color) -> usize {
    let (rows, cols) = s.size();
    (0..rows.get())
        .flat_map(|r| (0..cols.get()).map(move |c| (r, c)))
        .filter(|&(r, c)| s.cell(r, c).is_some_and(|c| c.bgcolor() == bg))
        .count()
}

const BLUE: vt100::Color = vt100::Color::Idx(4);
const RED: vt100::Color = vt100::Color::Idx(1);

fn active_index(w: &World) -> u64 {
    w.panes()
        .iter()
        .find(|p| p["active"] == true && p["window_active"] == true)
        .and_then(|p| p["index"].as_u64())
        .expect("an active pane")
}

fn two_panes(name: &str) -> (World, Tui) {
    let w = World::new();
    let t = w.tui(&["new-session", "-s", name], 80, 24);
    t.wait_text(&format!("[{name}]"));
    w.ok(&["split-window", "-h", "-t", name]);
    eventually("two panes", || (w.panes().len() == 2).then_some(()));
    (w, t)
}

#[test]
fn display_panes_numbers_the_panes_and_a_digit_focuses_one() {
    let (w, mut t) = two_panes("dp");
    assert_eq!(active_index(&w), 1, "the new pane is active");
    t.prefix(b"q");
    // Big digits: the active pane's in red, the other's in blue (tmux's defaults).
    t.wait("the numbers", |s| {
        cells_with_bg(s, BLUE) >= 5 && cells_with_bg(s, RED) >= 5
    });
    t.send(b"0");
    eventually("pane 0 focused", || (active_index(&w) == 0).then_some(()));
    t.wait("the numbers gone", |s| {
        cells_with_bg(s, BLUE) == 0 && cells_with_bg(s, RED) == 0
    });

    // They go by themselves after display-panes-time...
    w.ok(&["set-option", "-g", "display-panes-time", "300"]);
    t.prefix(b"q");
    t.wait("the numbers", |s| cells_with_bg(s, RED) >= 5);
    t.wait("gone after 300 ms", |s| cells_with_bg(s, RED) == 0);

    // ...and from the CLI with -d 0 stay until a key; a template of one's own runs
    // on the chosen pane.
    w.ok(&[
        "display-panes",
        "-t",
        "dp",
        "-d",
        "0",
        "rename-window -t '%%' chosen-%%",
    ]);
    t.wait("the numbers", |s| cells_with_bg(s, BLUE) >= 5);
    // Past display-panes-time (300 ms, set above) twice over: still shown. (Part of
    // the scenario: the time must pass.)
    std::thread::sleep(Duration::from_millis(700));
    assert!(t.screen(|s| cells_with_bg(s, BLUE)) >= 5, "kept with -d 0");
    t.send(b"1");
    eventually("the template ran", || {
        w.panes()
            .iter()
            .any(|p| {
                p["window_name"]
                    .as_str()
                    .is_some_and(|n| n.starts_with("chosen-%"))
            })
            .then_some(())
    });
}

/// Any other key dismisses the numbers and does what it does (tmux passes it on).
#[test]
fn display_panes_dismisses_on_another_key_and_passes_it_on() {
    let (w, mut t) = two_panes("dq");
    t.prefix(b"q");
    t.wait("the numbers", |s| cells_with_bg(s, RED) >= 5);
    t.prefix(b"c");
    t.wait("gone", |s| {
        cells_with_bg(s, RED) == 0 && cells_with_bg(s, BLUE) == 0
    });
    eventually("C-b c made a window", || {
        (w.panes().len() == 3).then_some(())
    });
    // A digit with no pane is used up: nothing changes, the numbers go.
    t.prefix(b"q");
    t.wait("the numbers", |s| cells_with_bg(s, RED) >= 5);
    t.send(b"7");
    t.wait("gone", |s| cells_with_bg(s, RED) == 0);
    // -N takes no keys: a digit goes to the pane and the numbers go.
    w.ok(&["select-window", "-t", "dq:0"]);
    eventually("window 0", || {
        w.panes()
            .iter()
            .any(|p| p["window_index"] == 0 && p["window_active"] == true)
            .then_some(())
    });
    w.ok(&["display-panes", "-t", "dq", "-N", "-d", "0"]);
    t.wait("the numbers", |s| cells_with_bg(s, BLUE) >= 5);
    t.send(b"0");
    t.wait("gone", |s| {
        cells_with_bg(s, BLUE) == 0 && cells_with_bg(s, RED) == 0
    });
    assert_eq!(active_index(&w), 1, "no pane chosen");
}

/// tmux 3.3a draws the same digit shape: the big 1 is a column of five cells.
#[test]
fn display_panes_digits_are_tmuxs() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "set -g display-panes-time 60000");
    let mut tt = w.sh(&tmux.script("new-session -s q"), 80, 24);
    eventually("tmux up", || {
        tmux.run(&["has-session", "-t", "q"])
            .status
            .success()
            .then_some(())
    });
    tt.send(b"\x02q");
    tt.wait("tmux's numbers", |s| cells_with_bg(s, RED) > 0);
    let theirs = tt.screen(|s| cells_with_bg(s, RED));

    let mut t = w.tui(&["new-session", "-s", "q"], 80, 24);
    t.wait_text("[q]");
    w.ok(&["set-option", "-g", "display-panes-time", "60000"]);
    t.prefix(b"q");
    t.wait("fugue's numbers", |s| cells_with_bg(s, RED) > 0);
    // The big 0: the same number of cells as tmux's.
    assert_eq!(t.screen(|s| cells_with_bg(s, RED)), theirs);
}

/// The first `n` rows of the screen, trimmed.
fn top_rows(s: &vt100::Screen, n: usize) -> Vec<String> {
    let (_, cols) = s.size();
    s.rows(0, cols.get())
        .take(n)
        .map(|r| r.trim_end().to_string())
        .collect()
}

fn window_active(w: &World, session: &str, index: u64) -> bool {
    w.panes().iter().any(|p| {
        p["session"] == session
            && p["window_index"].as_u64() == Some(index)
            && p["window_active"] == true
    })
}

/// Two sessions, the first with two windows, named so both servers show the same.
fn tree_world(run: &dyn Fn(&[&str])) {
    run(&["rename-window", "-t", "ct:0", "one"]);
    run(&["new-window", "-t", "ct", "-n", "two"]);
    run(&["new-session", "-d", "-s", "other", "-n", "three"]);
}

const TREE_W: [&str; 5] = [
    "(0) - ct: 2 windows (attached)",
    "(1) ├─> 0: one-",
    "(2) └─> 1: two*",
    "(3) - other: 1 windows",
    "(4) └─> 0: three*",
];

#[test]
fn choose_tree_lists_windows_and_enter_switches() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    t.prefix(b"w");
    t.wait("the tree", |s| top_rows(s, 5) == TREE_W);
    // The client's window is selected: Up goes to window 0, Enter switches to it.
    t.send(b"k");
    t.send(b"\r");
    eventually("window 0 chosen", || {
        window_active(&w, "ct", 0).then_some(())
    });
    t.wait("the tree gone", |s| !s.contents().contains("(0) - ct"));

    // A number chooses its item at once: the other session.
    t.prefix(b"w");
    t.wait("the tree", |s| s.contents().contains("(3) - other"));
    t.send(b"3");
    t.wait("switched to other", |s| s.contents().contains("[other]"));
}

/// tmux 3.3a shows the same lines for the same sessions and windows.
#[test]
fn choose_tree_lines_are_tmuxs() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "");
    let mut tt = w.sh(&tmux.script("new-session -s ct"), 80, 24);
    eventually("tmux up", || {
        tmux.run(&["has-session", "-t", "ct"])
            .status
            .success()
            .then_some(())
    });
    tree_world(&|a| {
        tmux.ok(a);
    });
    tt.send(b"\x02w");
    tt.wait("tmux's tree", |s| s.contents().contains("(4)"));
    let theirs = tt.screen(|s| top_rows(s, 5));
    assert_eq!(theirs, TREE_W, "tmux's own lines");
    // -s: sessions collapsed.
    tt.send(b"q");
    tt.wait("tmux's tree gone", |s| !s.contents().contains("(4)"));
    // tmux has left the mode (not only drawn the pane again) before the next key.
    eventually("tmux's pane out of the mode", || {
        (tmux.ok(&["display-message", "-p", "-t", "ct", "#{pane_in_mode}"]) == "0\n").then_some(())
    });
    tt.send(b"\x02s");
    tt.wait("tmux's -s", |s| s.contents().contains("(1) + other"));
    let theirs_s = tt.screen(|s| top_rows(s, 3));

    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    t.prefix(b"s");
    t.wait("fugue's -s", |s| s.contents().contains("(1) + other"));
    assert_eq!(t.screen(|s| top_rows(s, 3)), theirs_s);
}

#[test]
fn choose_tree_kills_after_y_and_renames_with_r() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    t.prefix(b"w");
    t.wait("the tree", |s| top_rows(s, 5) == TREE_W);
    // Down to the other session's window, x asks as tmux asks; n declines.
    t.send(b"jj");
    t.send(b"x");
    t.wait("the question", |s| s.contents().contains("Kill window 0? "));
    t.send(b"n");
    t.wait("declined", |s| !s.contents().contains("Kill window"));
    assert_eq!(w.panes().len(), 3);
    t.send(b"x");
    t.wait("the question", |s| s.contents().contains("Kill window 0? "));
    t.send(b"y");
    eventually("killed", || (w.panes().len() == 2).then_some(()));
    // The tree stays, without it (its session went with its last window).
    t.wait("the tree again", |s| {
        top_rows(s, 4)[..3] == TREE_W[..3] && !s.contents().contains("other")
    });

    // R renames the selected window (fugue's own key).
    t.send(b"g");
    t.send(b"j");
    t.send(b"R");
    t.wait("the rename prompt", |s| {
        s.contents().contains("(rename) one")
    });
    t.send(b"\x7f\x7f\x7funo\r");
    eventually("renamed", || {
        w.panes()
            .iter()
            .any(|p| p["window_name"] == "uno")
            .then_some(())
    });
    t.wait("shown renamed", |s| s.contents().contains("(1) ├─> 0: uno"));
    t.send(b"q");
    t.wait("the tree gone", |s| !s.contents().contains("(0) - ct"));
}

#[test]
fn choose_tree_from_the_cli_and_the_prompt() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    w.ok(&["choose-tree", "-t", "ct", "-s"]);
    t.wait("the tree", |s| s.contents().contains("(1) + other"));
    // H opens the client's own session and selects its window (tmux's H).
    t.send(b"H");
    t.wait("back home", |s| {
        top_rows(s, 4)
            == [
                "(0) - ct: 2 windows (attached)",
                "(1) ├─> 0: one-",
                "(2) └─> 1: two*",
                "(3) + other: 1 windows",
            ]
            && s.contents().contains("┌ 1 (sort: index)")
    });
    t.send(b"q");
    t.wait("gone", |s| !s.contents().contains("(1) + other"));
    // A template of one's own, from C-b :.
    t.prefix(b":");
    t.send(b"choose-tree -w 'rename-window -t %% picked'\r");
    t.wait("the tree", |s| s.contents().contains("(2) └─> 1: two"));
    t.send(b"\r");
    eventually("the template ran", || {
        w.panes()
            .iter()
            .any(|p| p["window_name"] == "picked")
            .then_some(())
    });
}

#[test]
fn find_window_chooses_a_window_by_content() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "fw"], 80, 24);
    t.wait_text("[fw]");
    w.ok(&["new-window", "-t", "fw", "-n", "plain"]);
    w.ok(&["new-window", "-t", "fw", "-n", "target"]);
    w.ok(&["send-keys", "-t", "fw:2", "echo needle-$((40+2))", "Enter"]);
    eventually("the output", || {
        w.ok(&["capture-pane", "-p", "-t", "fw:2"])
            .contains("needle-42")
            .then_some(())
    });
    w.ok(&["select-window", "-t", "fw:0"]);
    // C-b f asks, then shows only the windows matching.
    t.prefix(b"f");
    t.wait("the prompt", |s| s.contents().contains("find-window"));
    t.send(b"needle-42\r");
    t.wait("the match", |s| s.contents().contains(": target"));
    assert!(!t.contents().contains(": plain"), "only the match");
    t.send(b"\r");
    eventually("switched to it", || {
        window_active(&w, "fw", 2).then_some(())
    });
    // By name (-N), from the CLI; no match says so.
    w.ok(&["find-window", "-t", "fw", "-N", "plai"]);
    t.wait("the name match", |s| s.contents().contains(": plain"));
    t.send(b"q");
    w.ok(&["find-window", "-t", "fw", "nothing-like-it"]);
    t.wait("no match", |s| s.contents().contains("no windows matching"));
}

/// tmux's `f` (filter), `t` (tag), `:` (a command for the tagged items) and `/`
/// (search) in the tree.
#[test]
fn choose_tree_filters_tags_runs_commands_and_searches() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    t.prefix(b"w");
    t.wait("the tree", |s| top_rows(s, 5) == TREE_W);
    t.send(b"f");
    t.wait("the filter prompt", |s| s.contents().contains("(filter) "));
    t.send(b"#{==:#{window_name},two}\r");
    t.wait("filtered", |s| {
        top_rows(s, 3)[..2] == ["(0) - ct: 2 windows (attached)", "(1) └─> 1: two*"]
            && !s.contents().contains("other")
    });
    // An empty filter shows everything again.
    t.send(b"f");
    t.wait("the filter prompt", |s| {
        s.contents().contains("(filter) #{==")
    });
    t.send(&[0x15]); // C-u
    t.send(b"\r");
    t.wait("unfiltered", |s| top_rows(s, 5) == TREE_W);
    // Tag both windows of ct, then run a command for them.
    t.send(b"gj");
    t.send(b"tt");
    t.send(b":");
    t.wait("the command prompt", |s| {
        s.contents().contains("(2 tagged) ")
    });
    t.send(b"rename-window -t '%%' 'w%%'\r");
    eventually("both renamed", || {
        let names: Vec<String> = w
            .panes()
            .iter()
            .filter(|p| p["session"] == "ct")
            .filter_map(|p| p["window_name"].as_str().map(String::from))
            .collect();
        (names.len() == 2 && names.iter().all(|n| n.starts_with("w@"))).then_some(())
    });
    // Search (tags off first: Enter would choose them), then Enter goes there.
    t.send(b"T/three\r");
    t.send(b"\r");
    t.wait("switched to other", |s| s.contents().contains("[other]"));
}

/// A window's preview is tmux's: its panes side by side, a line between them, each
/// pane's index in a box in its middle.
#[test]
fn choose_tree_previews_a_window_as_tmux() {
    let w = World::new();
    let tmux = TestTmux::new(&w, "");
    let mut tt = w.sh(&tmux.script("new-session -s pv cat"), 80, 24);
    eventually("tmux up", || {
        tmux.run(&["has-session", "-t", "pv"])
            .status
            .success()
            .then_some(())
    });
    tmux.ok(&["split-window", "-h", "-t", "pv", "cat"]);
    tt.send(b"\x02w");
    tt.wait("tmux's preview", |s| s.contents().contains("│ 1 │"));
    let preview = |s: &vt100::Screen| -> Vec<String> {
        let (_, cols) = s.size();
        s.rows(0, cols.get())
            .skip(11)
            .take(12)
            .map(|r| r.trim_end().to_string())
            .collect()
    };
    let theirs = tt.screen(preview);

    let mut t = w.tui(&["new-session", "-s", "pv", "cat"], 80, 24);
    t.wait_text("[pv]");
    w.ok(&["split-window", "-h", "-t", "pv", "cat"]);
    eventually("two panes", || (w.panes().len() == 2).then_some(()));
    t.prefix(b"w");
    t.wait("fugue's preview", |s| s.contents().contains("│ 1 │"));
    assert_eq!(t.screen(preview), theirs);
}

/// The mouse in the tree, as tmux's: a click selects a line, a double click chooses.
#[test]
fn choose_tree_takes_clicks() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    t.prefix(b"w");
    t.wait("the tree", |s| top_rows(s, 5) == TREE_W);
    // A click on window 0's line (row 2, 1-based) selects it: the preview's title says.
    t.send(b"\x1b[<0;10;2M\x1b[<0;10;2m");
    t.wait("selected", |s| s.contents().contains("┌ 0 (sort: index)"));
    assert!(window_active(&w, "ct", 1), "a click only selects");
    t.send(b"\x1b[<0;10;2M\x1b[<0;10;2m");
    eventually("double click chose it", || {
        window_active(&w, "ct", 0).then_some(())
    });
}

/// Keys typed before the tree has the server's lists are not lost: `C-b w k Enter`
/// typed at once chooses the window above the client's.
#[test]
fn choose_tree_keeps_keys_typed_ahead() {
    let w = World::new();
    let t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    let mut t = t;
    t.send(b"\x02wk\r");
    eventually("window 0 chosen", || {
        window_active(&w, "ct", 0).then_some(())
    });
}

/// The preview follows the output of a pane the client sees (tmux's follows every
/// pane's).
#[test]
fn choose_tree_preview_follows_output() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "ct"], 80, 24);
    t.wait_text("[ct]");
    tree_world(&|a| {
        w.ok(a);
    });
    eventually("window two active", || {
        window_active(&w, "ct", 1).then_some(())
    });
    t.prefix(b"w");
    t.wait("the tree and its preview", |s| {
        top_rows(s, 5) == TREE_W && top_rows(s, 13)[12].contains('$')
    });
    w.ok(&["send-keys", "-t", "ct:1", "echo live-$((40+2))", "Enter"]);
    t.wait("the preview", |s| {
        let (_, cols) = s.size();
        s.rows(0, cols.get())
            .skip(11)
            .any(|r| r.contains("live-42"))
    });
}
