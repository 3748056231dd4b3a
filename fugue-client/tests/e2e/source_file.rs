//! `source-file` (issue 15): the realistic tmux.conf committed in tests/data loads:
//! its options and bindings apply at once, what fugue cannot run is reported per line
//! as tmux reports it (`FILE:LINE: message`) without stopping the rest, and an
//! attached client's new prefix works.

use super::harness::{TestTmux, World, eventually};

fn conf() -> String {
    format!("{}/tests/data/tmux.conf", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_tmux_conf_loads_and_applies() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "src"]);
    let out = w.run(&["source-file", &conf()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // tmux's exit status when a line failed.
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr
            .trim()
            .starts_with(&format!("{}:35: invalid option: status-positon (", conf())),
        "{stderr}"
    );
    assert_eq!(stdout.trim(), "from-run-shell");

    let keys = w.ok(&["list-keys", "-T", "prefix"]);
    for line in [
        "bind-key    -T prefix C-a     send-prefix",
        "bind-key    -T prefix |       split-window -h",
        "bind-key    -T prefix -       split-window -v",
        "bind-key -r -T prefix H       resize-pane -L 5",
    ] {
        assert!(keys.lines().any(|l| l == line), "{line} in\n{keys}");
    }
    assert!(!keys.contains("prefix '\"'"), "unbind '\"'\n{keys}");
    assert!(!keys.contains("prefix \\\""), "unbind '\"'\n{keys}");
    // if-shell's condition held: its branch ran.
    assert!(
        keys.lines()
            .any(|l| l == "bind-key    -T prefix F6      new-window"),
        "{keys}"
    );
    assert_eq!(w.ok(&["show", "-g", "mouse"]).trim(), "mouse on");
    assert_eq!(
        w.ok(&["show", "-g", "history-limit"]).trim(),
        "history-limit 50000"
    );
    assert_eq!(w.ok(&["show", "-g", "base-index"]).trim(), "base-index 1");
    assert_eq!(
        w.ok(&["show", "-g", "status-right"]).trim(),
        "status-right \"%H:%M\""
    );
    assert_eq!(w.ok(&["show", "-g", "mode-keys"]).trim(), "mode-keys vi");
    let copy = w.ok(&["list-keys", "-T", "copy-mode-vi"]);
    assert!(
        copy.lines()
            .any(|l| l.ends_with("y      send-keys -X copy-selection-and-cancel")),
        "{copy}"
    );
    assert_eq!(
        w.ok(&["show-hooks", "-g", "after-new-window"]).trim(),
        "after-new-window[0] select-layout even-horizontal"
    );
    assert_eq!(
        w.ok(&["show", "-gw", "monitor-activity"]).trim(),
        "monitor-activity on"
    );

    // -n parses only: nothing runs (run-shell prints nothing), and the typo, an
    // error only when `set` runs, is none.
    let out = w.run(&["source-file", "-n", &conf()]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    // A command that does not exist is an error of the parse: -n finds it, in
    // tmux 3.3a's words.
    let bad = w.path("bad.conf");
    std::fs::write(&bad, "bind x split-window\nnosuch-command\n").unwrap();
    let out = w.run(&["source-file", "-n", &bad.display().to_string()]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        format!("{}:2: unknown command: nosuch-command", bad.display())
    );
    // -q: a missing file is no error; without it, tmux's message.
    assert!(
        w.run(&["source-file", "-q", "/nonexistent/x.conf"])
            .status
            .success()
    );
    let out = w.run(&["source", "/nonexistent/x.conf"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "/nonexistent/x.conf: No such file or directory"
    );

    // An attached client uses the new prefix and bindings at once.
    let mut t = w.tui(&["attach", "-t", "src"], 100, 30);
    t.wait_text("[src]");
    t.send(b"\x01|");
    eventually("C-a | split", || (w.panes().len() == 2).then_some(()));
}

/// `C-b :` runs source-file too.
#[test]
fn the_prompt_sources_a_file() {
    let w = World::new();
    let f = w.path("small.conf");
    std::fs::write(&f, "bind | split-window -h\nset -g history-limit 1234\n").unwrap();
    let mut t = w.tui(&["new-session", "-s", "sp"], 100, 30);
    t.wait_text("[sp]");
    t.prefix(b":");
    t.send(format!("source-file {}\r", f.display()).as_bytes());
    eventually("the option", || {
        (w.ok(&["show", "-g", "history-limit"]).trim() == "history-limit 1234").then_some(())
    });
    t.prefix(b"|");
    eventually("C-b | split", || (w.panes().len() == 2).then_some(()));
}

/// tmux's `-f FILE` is read when the server starts, not by every command that names
/// it (libtmux passes `-f` on every call when a test gives it a config): a command
/// line that starts the server reads it first; later ones, with the server up, do
/// not run its lines again (its `new-session` would be a duplicate each time).
#[test]
fn tmux_f_is_read_once_when_the_server_starts() {
    let w = World::new();
    let conf = "set -g base-index 1\nnew-session -d -s fromconf\n";
    let t = TestTmux::new(&w, conf);
    let path = w.path("tmux.conf");
    let fugue = |args: &[&str]| {
        let mut all = vec!["tmux", "-f", path.to_str().unwrap_or_default()];
        all.extend_from_slice(args);
        w.run(&all)
    };
    let sessions = |o: std::process::Output| String::from_utf8_lossy(&o.stdout).into_owned();
    for (name, run) in [
        ("fugue", &fugue as &dyn Fn(&[&str]) -> std::process::Output),
        ("tmux", &|a: &[&str]| t.run(a)),
    ] {
        let first = run(&["new-session", "-d", "-s", "a"]);
        assert!(first.status.success(), "{name}: {first:?}");
        let again = run(&["new-session", "-d", "-s", "b"]);
        assert!(again.status.success(), "{name}: {again:?}");
        assert!(again.stderr.is_empty(), "{name}: {again:?}");
        assert_eq!(
            sessions(run(&["list-sessions", "-F", "#{session_name}"])),
            "a\nb\nfromconf\n",
            "{name}"
        );
        // The config's base-index applied to the sessions made after it.
        assert_eq!(
            sessions(run(&["list-windows", "-t", "b", "-F", "#{window_index}"])),
            "1\n",
            "{name}"
        );
    }
}
