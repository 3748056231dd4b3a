//! Session sizes follow the clients attached, and panes are never resized on the way.

use super::harness::{World, eventually};

/// `fugue ls` shows `[WxH]` of the session's window area.
fn session_size(w: &World, name: &str) -> Option<String> {
    w.ok(&[
        "list-sessions",
        "-F",
        "#{session_name} #{session_width}x#{session_height}",
    ])
    .lines()
    .find_map(|l| l.strip_prefix(&format!("{name} ")).map(str::to_string))
}

fn status_on_last_row(s: &vt100::Screen, name: &str) -> bool {
    let (rows, cols) = s.size();
    s.rows(0, cols.get())
        .nth(usize::from(rows.get()) - 1)
        .is_some_and(|l| l.contains(&format!("[{name}]")))
}

/// Acceptance test A: the small client detached cleanly and the big one stayed at its size.
#[test]
fn a_clean_detach_gives_the_session_back_to_the_clients_left() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "sz"]);
    let a = w.tui(&["attach", "-t", "sz"], 160, 48);
    a.wait("the big client's status bar at the bottom", |s| {
        status_on_last_row(s, "sz")
    });
    let mut b = w.tui(&["attach", "-t", "sz"], 100, 30);
    b.wait_text("[sz]");
    eventually("the session at the small client's size", || {
        (session_size(&w, "sz").as_deref() == Some("100x29")).then_some(())
    });
    b.prefix(b"d");
    assert_eq!(b.wait_exit(), 0);
    eventually("the session back at the big client's size", || {
        (session_size(&w, "sz").as_deref() == Some("160x47")).then_some(())
    });
    a.wait("a full-size frame on the big client", |s| {
        status_on_last_row(s, "sz") && s.cell(0, 159).is_some_and(|c| c.contents() == "┐")
    });
}

/// A client that switches to another session no longer holds the first one small.
#[test]
fn switching_sessions_gives_the_old_one_back_to_the_clients_left() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "big"]);
    let a = w.tui(&["attach", "-t", "big"], 160, 48);
    a.wait_text("[big]");
    let mut b = w.tui(&["attach", "-t", "big"], 100, 30);
    b.wait_text("[big]");
    eventually("the session at the small client's size", || {
        (session_size(&w, "big").as_deref() == Some("100x29")).then_some(())
    });
    // C-b C-c: a new session, and the client moves to it.
    b.prefix(b"\x03");
    b.wait("the small client on another session", |s| {
        !s.contents().contains("[big]")
    });
    eventually("the old session back at the big client's size", || {
        (session_size(&w, "big").as_deref() == Some("160x47")).then_some(())
    });
}

/// Acceptance test B: attaching to a zoomed window blanked the zoomed pane's top rows.
#[test]
fn attaching_to_a_zoomed_pane_keeps_its_rows() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "rz7",
        "-x",
        "160",
        "-y",
        "47",
        "--",
        "sh",
        "-c",
        "seq 1 12; exec cat",
    ]);
    eventually("the program's output", || {
        w.ok(&["capture-pane", "-p", "-t", "rz7:0.0"])
            .contains("12")
            .then_some(())
    });
    w.ok(&["split-window", "-t", "rz7", "-v", "-d"]);
    w.ok(&["resize-pane", "-t", "rz7:0.0", "-Z"]);
    let t = w.tui(&["attach", "-t", "rz7"], 90, 20);
    t.wait_text("[rz7]");
    eventually("the zoomed pane at the client's size", || {
        w.panes()
            .iter()
            .any(|p| p["index"] == 0 && p["width"] == 88 && p["height"] == 17)
            .then_some(())
    });
    let captured = w.ok(&["capture-pane", "-p", "-t", "rz7:0.0"]);
    let lines: Vec<&str> = captured.lines().take(12).collect();
    let want: Vec<String> = (1..=12).map(|i| i.to_string()).collect();
    assert_eq!(lines, want, "the pane's screen was:\n{captured}");
}

/// Issue 12: a client's resize goes through the dispatcher like any command, so it is
/// in the audit log (tmux's name for it: `refresh-client -C`).
#[test]
fn a_resize_is_a_command_in_the_audit_log() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "rs"], 80, 24);
    t.wait_text("[rs]");
    t.resize(100, 30);
    eventually("the resize in the audit log", || {
        let audit =
            std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap_or_default();
        audit
            .lines()
            .any(|l| l.contains("\"refresh-client -C\"") && l.contains("100x30"))
            .then_some(())
    });
    eventually("the window to follow", || {
        let out = w.ok(&[
            "list-panes",
            "-t",
            "rs",
            "-F",
            "#{pane_width}x#{pane_height}",
        ]);
        (out.trim() == "98x27").then_some(())
    });
}
