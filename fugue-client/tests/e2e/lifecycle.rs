//! Panes, windows, sessions and the server coming and going.

use super::harness::{World, eventually};

#[test]
fn exited_programs_close_panes_windows_sessions_and_the_server() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "a", "--", "sh", "-c", "read x"]);
    w.ok(&["split-window", "-t", "a", "--", "sh", "-c", "read y"]);
    assert_eq!(w.panes().len(), 2);
    w.ok(&["send-keys", "-t", "a:0.1", "Enter"]);
    eventually("the pane to close", || (w.panes().len() == 1).then_some(()));
    w.ok(&["send-keys", "-t", "a", "Enter"]);
    eventually("the server to exit with its last session", || {
        let out = w.run(&["ls"]);
        (!out.status.success()
            && String::from_utf8_lossy(&out.stderr).contains("no server running"))
        .then_some(())
    });
    assert!(!w.socket.exists(), "the socket is removed on exit");
}

#[test]
fn remain_on_exit_keeps_the_pane_with_its_status() {
    let w = World::new();
    let cfg = w.path("config/remain.toml");
    std::fs::write(&cfg, "[server]\nremain_on_exit = true\n").expect("write config");
    let cfg = cfg.to_string_lossy().into_owned();
    w.ok(&[
        "-f", &cfg, "new", "-d", "-s", "r", "--", "sh", "-c", "exit 7",
    ]);
    let status = eventually("the exit status", || {
        let s = w.ok(&[
            "list-panes",
            "-t",
            "r",
            "-F",
            "#{pane_dead} #{pane_dead_status}",
        ]);
        (s.trim() == "1 7").then_some(s)
    });
    assert_eq!(status.trim(), "1 7");
    let out = w.run(&["send-keys", "-t", "r", "x"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("has exited"));
    let cap = w.ok(&["capture-pane", "-p", "-t", "r"]);
    assert!(cap.contains("Pane is dead (status 7)"), "{cap}");
}

#[test]
fn kill_pane_window_session_and_server() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "one"]);
    w.ok(&["new", "-d", "-s", "two"]);
    w.ok(&["split-window", "-t", "two"]);
    w.ok(&["kill-pane", "-t", "two:0.1"]);
    assert_eq!(w.panes().len(), 2);
    w.ok(&["kill-session", "-t", "one"]);
    let ls = w.ok(&["ls", "-F", "#{session_name}"]);
    assert_eq!(ls.trim(), "two");
    let dir = w.socket.parent().expect("socket folder").to_path_buf();
    let files = |d: &std::path::Path| -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .map(|r| {
                r.filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    assert!(!files(&dir).is_empty());
    w.ok(&["kill-server"]);
    // Nothing is left behind: socket, MCP socket and lock file all go.
    eventually("the server's files to go", || {
        files(&dir).is_empty().then_some(())
    });
    assert!(!w.run(&["ls"]).status.success());
}

#[test]
fn invalid_config_is_refused_with_its_location() {
    let w = World::new();
    let cfg = w.path("config/bad.toml");
    std::fs::write(&cfg, "[server]\nhistory_limit = 10\nprefix = \"C-a\"\n").expect("write");
    let out = w.run(&["-f", &cfg.to_string_lossy(), "new", "-d"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml") && err.contains("line 3") && err.contains("unknown field"),
        "{err}"
    );
}

#[test]
fn the_configured_prefix_is_used() {
    let w = World::new();
    let cfg = w.path("config/prefix.toml");
    std::fs::write(
        &cfg,
        "[keys]\nprefix = \"C-a\"\n[keys.prefix_bindings]\n\"|\" = \"split-right\"\n",
    )
    .expect("write");
    let mut t = w.tui(&["-f", &cfg.to_string_lossy(), "new", "-s", "p"], 100, 30);
    t.wait_text("[p]");
    t.send(b"\x01|");
    t.wait("a split from the configured key", |s| {
        super::harness::count_boxes(s) == 2
    });
}

#[test]
fn audit_log_has_a_line_per_command_and_no_typed_text() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "au"]);
    w.ok(&["send-keys", "-t", "au", "-l", "top-secret-words"]);
    w.ok(&["list-panes", "-t", "au"]);
    let _ = w.run(&["kill-pane", "-t", "%42"]);
    let log = w.state_dir().join("audit-test.jsonl");
    let lines: Vec<serde_json::Value> = eventually("four audit lines", || {
        let text = std::fs::read_to_string(&log).ok()?;
        let lines: Vec<serde_json::Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        (lines.len() >= 4).then_some(lines)
    });
    let text = std::fs::read_to_string(&log).expect("audit log");
    assert!(!text.contains("top-secret-words"));
    let summary: Vec<(String, String)> = lines
        .iter()
        .map(|l| {
            (
                l["command"].as_str().unwrap_or("").into(),
                l["result"].as_str().unwrap_or("").into(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("new-session".into(), "ok".into()),
            ("send-keys".into(), "ok".into()),
            ("list-panes".into(), "ok".into()),
            ("kill-pane".into(), "unknown_target".into()),
        ]
    );
    assert_eq!(lines[1]["detail"]["input_bytes"], 16);
    assert_eq!(lines[1]["target"], "%1");
    assert!(
        lines[0]["origin"]
            .as_str()
            .is_some_and(|o| o.starts_with("cli"))
    );
    assert!(lines[0]["time"].as_str().is_some_and(|t| t.ends_with('Z')));
}

/// Programs that ask the terminal who it is get an answer with no client attached
/// (primary and secondary device attributes), as they would in any terminal.
#[test]
fn device_attribute_queries_are_answered_without_a_client() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "da", "-x", "100", "-y", "20"]);
    w.ok(&[
        "send-keys",
        "-t",
        "da",
        "stty -echo -icanon min 0 time 20; printf '\\033[c'; sleep 0.2; printf '\\033[>c'; sleep 0.2; dd bs=256 count=1 2>/dev/null | od -An -c | tr -d ' \\n'; echo; echo da-done",
        "Enter",
    ]);
    let screen = super::harness::eventually("the answers", || {
        let s = w.ok(&["capture-pane", "-p", "-t", "da"]);
        // The typed line shows it too; the answer is the line that is only that.
        s.lines().any(|l| l.trim() == "da-done").then_some(s)
    });
    assert!(screen.contains("033[?1;2c"), "{screen}");
    assert!(screen.contains("033[>84;0;0c"), "{screen}");
}
