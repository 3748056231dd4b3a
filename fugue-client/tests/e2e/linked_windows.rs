//! One window in several places, as tmux has it: `link-window`, `unlink-window` and
//! grouped sessions (`new-session -t`). Each scenario runs the same command lines
//! against fugue's `tmux` and the real tmux and compares output and exit codes
//! (`tmux_flags::both`); without tmux, what fugue prints is still checked.

use super::harness::World;
use super::tmux_flags::{Step, both};

const WINDOWS: &str = "#{session_name}:#{window_index} #{window_name} #{window_active} #{window_linked} #{window_linked_sessions}";
const PANES: &str = "#{session_name}:#{window_index}.#{pane_index} #{pane_active}";

/// `link-window` puts the window in a second session: both list it, the listing
/// gives it a row (and its panes a row) per link, sessions in name order, and a
/// window's index or session id resolves through the session tmux would pick.
#[test]
fn a_linked_window_is_listed_in_each_session_as_tmux() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "zzz-old", "-n", "w", "cat"]),
        Do(&["new-session", "-d", "-s", "aaa-recent", "-n", "mine", "cat"]),
        Do(&["link-window", "-s", "zzz-old:0", "-t", "aaa-recent"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        Same(&["list-panes", "-a", "-F", PANES]),
        Same(&["list-windows", "-t", "aaa-recent", "-F", WINDOWS]),
        Same(&[
            "display-message",
            "-p",
            "-t",
            "zzz-old:0",
            "#{session_name} #{window_index} #{window_linked_sessions_list}",
        ]),
        SameError(&["link-window", "-s", "zzz-old:0", "-t", "aaa-recent:1"]),
        SameError(&["link-window", "-s", "zzz-old:0", "-t", "aaa-recent:0"]),
        Do(&[
            "link-window",
            "-k",
            "-d",
            "-s",
            "zzz-old:0",
            "-t",
            "aaa-recent:0",
        ]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
    ]);
}

/// `unlink-window` takes one link away; the last link of a window is refused in
/// tmux's words, and a session whose last window is unlinked closes.
#[test]
fn unlinking_leaves_the_other_links_as_tmux() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "-n", "shared", "cat"]),
        Do(&["new-session", "-d", "-s", "b", "-n", "own", "cat"]),
        Do(&["link-window", "-d", "-s", "a:0", "-t", "b:4"]),
        Do(&["unlink-window", "-t", "a:0"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        Same(&["has-session", "-t", "a"]),
        SameError(&["unlink-window", "-t", "b:4"]),
        SameError(&["unlink-window", "-t", "b:0"]),
        Do(&["unlink-window", "-k", "-t", "b:0"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
    ]);
}

/// One window at two indexes of one session: selecting either link makes that
/// index current, and a target naming only the window resolves to the current
/// link, else the first (tmux's cmd_find_best_winlink_with_window).
#[test]
fn a_window_twice_in_one_session_resolves_as_tmux() {
    use Step::*;
    let index = ["display-message", "-p", "-t", "dup:one", "#{window_index}"];
    both(&[
        Do(&["new-session", "-d", "-s", "dup", "-n", "one", "cat"]),
        Do(&["new-window", "-d", "-t", "dup", "-n", "other", "cat"]),
        Do(&["link-window", "-d", "-s", "dup:0", "-t", "dup:5"]),
        Same(&["list-windows", "-t", "dup", "-F", WINDOWS]),
        Do(&["select-window", "-t", "dup:5"]),
        Same(&["list-windows", "-t", "dup", "-F", WINDOWS]),
        Same(&["display-message", "-p", "-t", "dup:5", "#{window_index}"]),
        Do(&["select-window", "-t", "dup:1"]),
        Same(&index),
        Do(&["select-window", "-t", "dup:0"]),
        Same(&index),
        Do(&["kill-window", "-t", "dup:5"]),
        Same(&["list-windows", "-t", "dup", "-F", WINDOWS]),
    ]);
}

/// `new-session -t` groups a session with another: they hold the same windows, a
/// window made or killed in one is made or killed in both, each keeps its own
/// current window, and the group shows in formats and in `list-sessions`' lines.
#[test]
fn grouped_sessions_share_their_windows_as_tmux() {
    use Step::*;
    let sessions = "#{session_name} #{session_grouped} #{session_group} #{session_group_size} #{session_group_list} #{session_windows}";
    both(&[
        Do(&["new-session", "-d", "-s", "origin", "-n", "first", "cat"]),
        Do(&["new-window", "-t", "origin", "-n", "second", "cat"]),
        Do(&["new-session", "-d", "-t", "origin", "-s", "grouped"]),
        Do(&["new-session", "-d", "-s", "alone", "-n", "x", "cat"]),
        Same(&["list-sessions", "-F", sessions]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        Do(&["new-window", "-d", "-t", "grouped", "-n", "late", "cat"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        Do(&["kill-window", "-t", "origin:1"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        SameError(&["unlink-window", "-t", "grouped:0"]),
        Do(&["kill-session", "-t", "origin"]),
        Same(&["list-sessions", "-F", sessions]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
    ]);
}

/// Without tmux installed the scenarios above are skipped; this one checks fugue
/// alone: a grouped session shows `(group NAME)` in tmux's list-sessions line, a
/// pane's program outlives the session it was made in while another links its
/// window, and killing the window ends it.
#[test]
fn a_linked_window_outlives_its_first_session() {
    let w = World::new();
    w.ok(&[
        "tmux",
        "new-session",
        "-d",
        "-s",
        "a",
        "-n",
        "shared",
        "cat",
    ]);
    w.ok(&["tmux", "new-session", "-d", "-t", "a", "-s", "g"]);
    let lines = w.ok(&["tmux", "list-sessions"]);
    assert!(lines.lines().all(|l| l.contains("(group a)")), "{lines}");
    w.ok(&["tmux", "new-session", "-d", "-s", "b", "-n", "own", "cat"]);
    w.ok(&["tmux", "link-window", "-d", "-s", "a:0", "-t", "b:7"]);
    w.ok(&["tmux", "kill-session", "-t", "a"]);
    w.ok(&["tmux", "kill-session", "-t", "g"]);
    let pid = w.ok(&["tmux", "display-message", "-p", "-t", "b:7", "#{pane_pid}"]);
    let alive = |pid: &str| std::path::Path::new(&format!("/proc/{}", pid.trim())).exists();
    assert!(
        alive(&pid),
        "the linked window's program ended with its first session"
    );
    assert_eq!(
        w.ok(&[
            "tmux",
            "list-windows",
            "-t",
            "b",
            "-F",
            "#{window_index} #{window_name}"
        ]),
        "0 own\n7 shared\n"
    );
    w.ok(&["tmux", "kill-window", "-t", "b:7"]);
    super::harness::eventually("the killed window's program to end", || {
        (!alive(&pid)).then_some(())
    });
}

/// Links are kept in index order and a move finds its source by place: `-b` moving
/// the windows up, or `-k` taking one out before the source, must not move another.
#[test]
fn moves_that_renumber_around_the_source_move_it_as_tmux() {
    use Step::*;
    let list = ["list-windows", "-t", "m", "-F", WINDOWS];
    both(&[
        Do(&["new-session", "-d", "-s", "m", "-n", "a", "cat"]),
        Do(&["new-window", "-d", "-t", "m", "-n", "b", "cat"]),
        Do(&["new-window", "-d", "-t", "m", "-n", "c", "cat"]),
        Do(&["new-window", "-d", "-t", "m", "-n", "d", "cat"]),
        Do(&["move-window", "-k", "-s", "m:3", "-t", "m:1"]),
        Same(&list),
        Do(&["move-window", "-d", "-b", "-s", "m:2", "-t", "m:0"]),
        Same(&list),
        Do(&["link-window", "-d", "-a", "-s", "m:0", "-t", "m:1"]),
        Same(&list),
    ]);
}

/// What a review found in grouped sessions: a window killed, replaced or swapped in
/// one member is so in all, and its programs end (none left running unseen).
#[test]
fn changes_in_one_grouped_session_reach_the_group_as_tmux() {
    use Step::*;
    let panes = [
        "list-panes",
        "-a",
        "-F",
        "#{session_name}:#{window_index}.#{pane_index}",
    ];
    both(&[
        Do(&["new-session", "-d", "-s", "a", "-n", "zero", "cat"]),
        Do(&["new-window", "-d", "-t", "a", "-n", "one", "cat"]),
        Do(&["new-window", "-d", "-t", "a", "-n", "two", "cat"]),
        Do(&["new-session", "-d", "-t", "a", "-s", "b"]),
        Do(&["unlink-window", "-k", "-t", "a:1"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        Same(&panes),
        Do(&["new-window", "-d", "-k", "-t", "b:2", "-n", "again", "cat"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
        Same(&panes),
        SameError(&["swap-window", "-s", "a:0", "-t", "b:2"]),
        SameError(&["move-window", "-s", "a:0", "-t", "b:5"]),
        Same(&["list-windows", "-a", "-F", WINDOWS]),
    ]);
}

/// Fugue alone: the programs of windows a group lost end, and no pane is left in no
/// window (every pane the server has is listed).
#[test]
fn a_window_a_group_lost_leaves_no_program_running() {
    let w = World::new();
    w.ok(&["tmux", "new-session", "-d", "-s", "a", "cat"]);
    w.ok(&["tmux", "new-window", "-d", "-t", "a", "cat"]);
    w.ok(&["tmux", "new-session", "-d", "-t", "a", "-s", "b"]);
    let pid = w.ok(&["tmux", "display-message", "-p", "-t", "a:1", "#{pane_pid}"]);
    let alive = |pid: &str| std::path::Path::new(&format!("/proc/{}", pid.trim())).exists();
    assert!(alive(&pid));
    w.ok(&["tmux", "unlink-window", "-k", "-t", "a:1"]);
    super::harness::eventually("the unlinked window's program to end", || {
        (!alive(&pid)).then_some(())
    });
    let pid = w.ok(&["tmux", "display-message", "-p", "-t", "b:0", "#{pane_pid}"]);
    w.ok(&["tmux", "new-window", "-d", "-k", "-t", "b:0", "cat"]);
    super::harness::eventually("the replaced window's program to end", || {
        (!alive(&pid)).then_some(())
    });
    assert_eq!(
        w.ok(&[
            "tmux",
            "list-panes",
            "-a",
            "-F",
            "#{session_name}:#{window_index}"
        ]),
        "a:0\nb:0\n"
    );
}

/// A detached session grouped with an attached one does not resize the windows the
/// attached client shows (they are laid out for the session a client shows).
#[test]
fn a_detached_grouped_session_leaves_the_shown_windows_their_size() {
    let w = World::new();
    let t = w.tui(&["new-session", "-s", "big"], 120, 40);
    t.wait_text("[big]");
    let width = || {
        w.ok(&[
            "display-message",
            "-p",
            "-t",
            "big",
            "#{pane_width}x#{pane_height}",
        ])
    };
    let before = width();
    assert!(before.starts_with("118x"), "{before}");
    w.ok(&[
        "new-session",
        "-d",
        "-x",
        "80",
        "-y",
        "24",
        "-t",
        "big",
        "-s",
        "small",
    ]);
    assert_eq!(width(), before);
    let shown = w.ok(&["display-message", "-p", "-t", "small", "#{pane_width}"]);
    assert_eq!(shown.trim(), "118", "the window is one window, at one size");
}

/// When the program of a window two sessions hold (and nothing else) exits, both
/// sessions close, and each runs its `session-closed` hook, as tmux's do.
#[test]
fn a_linked_window_closing_closes_each_session_it_was_the_last_of() {
    let w = World::new();
    w.ok(&["tmux", "new-session", "-d", "-s", "keep", "cat"]);
    w.ok(&[
        "tmux",
        "set-hook",
        "-g",
        "session-closed",
        "set -gaF @closed '#{hook_session_name} '",
    ]);
    w.ok(&["tmux", "new-session", "-d", "-s", "a", "sleep 1"]);
    w.ok(&["tmux", "new-session", "-d", "-s", "b", "cat"]);
    w.ok(&["tmux", "link-window", "-d", "-s", "a:0", "-t", "b:1"]);
    w.ok(&["tmux", "kill-window", "-t", "b:0"]);
    let closed = super::harness::eventually("both sessions to close", || {
        let out = w.run(&["tmux", "show-options", "-gv", "@closed"]);
        let v = String::from_utf8_lossy(&out.stdout).into_owned();
        (v.split_whitespace().count() >= 2).then_some(v)
    });
    let mut names: Vec<&str> = closed.split_whitespace().collect();
    names.sort();
    assert_eq!(names, ["a", "b"], "{closed:?}");
    assert_eq!(
        w.ok(&["tmux", "list-sessions", "-F", "#{session_name}"]),
        "keep\n"
    );
}

/// A bell in a window linked into two sessions is an alert in each: both flag it and
/// the `alert-bell` hook runs once per session, as tmux's alerts go to every winlink.
#[test]
fn a_bell_in_a_linked_window_alerts_every_session_holding_it_as_tmux() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a"]),
        Do(&["new-session", "-d", "-s", "b"]),
        Do(&["set-hook", "-g", "alert-bell", "set -ga @bell b"]),
        Do(&[
            "new-window",
            "-d",
            "-t",
            "a:1",
            "sh -c 'sleep 0.5; printf \"\\a\"; exec sleep 100'",
        ]),
        Do(&["link-window", "-d", "-s", "a:1", "-t", "b:1"]),
        Do(&["run-shell", "sleep 1.5"]),
        Same(&["show-options", "-gv", "@bell"]),
        Same(&[
            "list-windows",
            "-a",
            "-F",
            "#{session_name}:#{window_index} #{window_bell_flag}",
        ]),
    ]);
}
