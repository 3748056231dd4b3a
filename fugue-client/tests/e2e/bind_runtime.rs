//! Bindings changed at runtime (issue 15) reach an attached client without a restart;
//! `list-keys` prints bindings as tmux 3.3a does.

use super::harness::{World, eventually};
use super::twins::Tmux;

#[test]
fn a_binding_added_at_runtime_works_at_once() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "rb"], 100, 30);
    t.wait_text("[rb]");
    w.ok(&["bind-key", "-n", "F5", "split-window", "-v"]);
    // The tables reach the client as a push after the bind's answer.
    std::thread::sleep(std::time::Duration::from_millis(300));
    // F5 as terminals send it.
    t.send(b"\x1b[15~");
    eventually("F5 split", || (w.panes().len() == 2).then_some(()));

    // -r: two presses after one prefix.
    w.ok(&["bind", "-r", "N", "split-window", "-h"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    t.send(b"\x02NN");
    eventually("two splits", || (w.panes().len() == 4).then_some(()));

    // unbind: F5 goes to the pane again.
    w.ok(&["unbind", "-n", "F5"]);
    std::thread::sleep(std::time::Duration::from_millis(200));
    t.send(b"\x1b[15~");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(w.panes().len(), 4);
}

#[test]
fn list_keys_prints_what_tmux_prints() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "lk"]);
    let Some(tmux) = Tmux::start(w.dir.path(), 80, 24, "exec cat") else {
        return;
    };
    let binds: &[&[&str]] = &[
        &[
            "bind-key",
            "-r",
            "-T",
            "prefix",
            "H",
            "resize-pane",
            "-L",
            "5",
        ],
        &["bind-key", "-n", "F5", "split-window", "-v"],
        &["bind-key", "-T", "prefix", "|", "split-window", "-h"],
        &["bind-key", "M-x", "new-window", "-d"],
    ];
    for b in binds {
        tmux.ok(b);
        w.ok(b);
    }
    for (table, key) in [
        ("prefix", "H"),
        ("root", "F5"),
        ("prefix", "|"),
        ("prefix", "M-x"),
    ] {
        let line = |text: String| {
            text.lines()
                .find(|l| {
                    l.split_whitespace()
                        .nth(if l.contains(" -r ") { 4 } else { 3 })
                        == Some(key)
                })
                .map(str::to_string)
        };
        let theirs = line(tmux.ok(&["list-keys", "-T", table]));
        let ours = line(w.ok(&["list-keys", "-T", table]));
        assert!(theirs.is_some(), "{table} {key}");
        if table == "root" {
            // tmux's root table holds its default mouse bindings (MouseDown1Pane...),
            // whose long names widen the key column; fugue's mouse is not bound
            // there, so only the words are compared.
            let words =
                |l: Option<String>| l.map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "));
            assert_eq!(words(ours), words(theirs), "{table} {key}");
        } else {
            assert_eq!(ours, theirs, "{table} {key}");
        }
    }
}
