//! Bindings changed at runtime (issue 15) reach an attached client without a restart;
//! `list-keys` prints bindings as tmux 3.3a does.

use super::harness::{Tui, World, eventually};
use super::twins::Tmux;

/// The tables reach an attached client as a push after a bind's answer. To know the
/// client has every binding made so far (no guess at how long a push takes), bind a
/// marker key (the tables go whole, so it comes with every earlier binding) and press
/// it until its message shows: before the push the client has no such key and drops
/// it.
fn synced(t: &mut Tui, w: &World, n: u32) {
    let marker = format!("synced-{n}");
    w.ok(&["bind-key", "F12", "display-message", &marker]);
    eventually("the client has the new table", || {
        if t.contents().contains(&marker) {
            return Some(());
        }
        t.prefix(b"\x1b[24~");
        None
    });
    w.ok(&["unbind-key", "F12"]);
}

#[test]
fn a_binding_added_at_runtime_works_at_once() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "rb"], 100, 30);
    t.wait_text("[rb]");
    w.ok(&["bind-key", "-n", "F5", "split-window", "-v"]);
    synced(&mut t, &w, 1);
    // F5 as terminals send it.
    t.send(b"\x1b[15~");
    eventually("F5 split", || (w.panes().len() == 2).then_some(()));

    // -r: two presses after one prefix.
    w.ok(&["bind", "-r", "N", "split-window", "-h"]);
    synced(&mut t, &w, 2);
    t.send(b"\x02NN");
    eventually("two splits", || (w.panes().len() == 4).then_some(()));

    // unbind: F5 goes to the pane again.
    w.ok(&["unbind", "-n", "F5"]);
    synced(&mut t, &w, 3);
    t.send(b"\x1b[15~");
    t.typed_through();
    assert_eq!(w.panes().len(), 4);
    // As tmux 3.3a: a table with nothing bound does not exist, unless -q.
    let gone = w.run(&["unbind-key", "-T", "nothere", "x"]);
    assert!(!gone.status.success());
    assert!(String::from_utf8_lossy(&gone.stderr).contains("table nothere doesn't exist"));
    w.ok(&["unbind-key", "-q", "-T", "nothere", "x"]);
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

/// tmux's key tables: `switch-client -T NAME` makes the next key one of table NAME's;
/// a key the table does not bind is dropped, and the key after goes to the pane again.
#[test]
fn switch_client_t_chooses_the_table_of_the_next_key() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "kt"], 100, 30);
    t.wait_text("[kt]");
    w.ok(&["bind-key", "-T", "mine", "x", "split-window", "-h"]);
    w.ok(&["bind-key", "-n", "F6", "switch-client", "-T", "mine"]);
    synced(&mut t, &w, 1);
    t.send(b"\x1b[17~x");
    eventually("x in the table split", || {
        (w.panes().len() == 2).then_some(())
    });
    // Back in the root table: x is typed into the pane.
    t.send(b"x");
    eventually("x typed", || {
        w.ok(&["capture-pane", "-p"]).contains('x').then_some(())
    });
    // A key the table does not bind is dropped.
    t.send(b"\x1b[17~y");
    t.send(b"z");
    eventually("z typed", || {
        w.ok(&["capture-pane", "-p"]).contains('z').then_some(())
    });
    assert!(
        !w.ok(&["capture-pane", "-p"]).contains('y'),
        "y went to the pane"
    );
    assert_eq!(w.panes().len(), 2);
}

/// `if-shell` and `run-shell` bound to keys, as tmux configs bind them
/// (vim-tmux-navigator): `-F` judges a format, a shell condition picks a branch when it
/// has run, and run-shell's output shows on the status line.
#[test]
fn if_shell_and_run_shell_work_from_a_key() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "sh"], 100, 30);
    t.wait_text("[sh]");
    w.ok(&[
        "bind-key",
        "-n",
        "F10",
        "if-shell",
        "-F",
        "#{==:#{session_name},sh}",
        "split-window -h",
        "new-window",
    ]);
    w.ok(&[
        "bind-key",
        "-n",
        "F11",
        "if-shell",
        "false",
        "kill-server",
        "new-window",
    ]);
    w.ok(&[
        "bind-key",
        "-n",
        "F12",
        "run-shell",
        "echo hi-from-$((40+2))",
    ]);
    synced(&mut t, &w, 1);
    t.send(b"\x1b[21~");
    eventually("F10 split", || (w.panes().len() == 2).then_some(()));
    t.send(b"\x1b[23~");
    eventually("F11's else branch", || {
        (w.ok(&["list-windows", "-t", "sh"]).lines().count() == 2).then_some(())
    });
    t.send(b"\x1b[24~");
    t.wait_text("hi-from-42");
}

/// The copy-mode tables are key tables like the others (issue 15): listed as tmux
/// lists them, and `bind -T copy-mode-vi` / `unbind` change what a key does in copy
/// mode at once, including binding it to a command that is not a copy-mode one.
#[test]
fn copy_mode_tables_list_and_rebind_like_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "cm"]);
    let ours = w.ok(&["list-keys", "-T", "copy-mode-vi"]);
    assert!(
        ours.contains("bind-key -T copy-mode-vi C-b    send-keys -X page-up\n"),
        "{ours}"
    );
    // Every default binding fugue shares with tmux prints the same line, but for the
    // key column's width: tmux's tables also hold its mouse bindings, whose long names
    // (MouseDragEnd1Pane) widen it; fugue's copy mode takes the mouse itself.
    let words = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    if let Some(tmux) = Tmux::start(w.dir.path(), 80, 24, "exec cat") {
        for table in ["copy-mode-vi", "copy-mode"] {
            let theirs = tmux.ok(&["list-keys", "-T", table]);
            let ours = w.ok(&["list-keys", "-T", table]);
            let mut shared = 0;
            for line in ours.lines() {
                let key = line.split_whitespace().nth(3).unwrap_or("");
                let same_key = theirs
                    .lines()
                    .find(|l| l.split_whitespace().nth(3) == Some(key));
                if let Some(t) = same_key
                    && t.split_whitespace().last() == line.split_whitespace().last()
                {
                    assert_eq!(words(line), words(t), "{table} {key}");
                    shared += 1;
                }
            }
            assert!(shared > 30, "{table}: only {shared} bindings like tmux's");
        }
    }
    // Rebinding: q moves up instead of leaving, and Z (no copy-mode command) splits.
    let mut t = w.tui(&["attach", "-t", "cm"], 100, 30);
    t.wait_text("[cm]");
    w.ok(&[
        "bind",
        "-T",
        "copy-mode-vi",
        "q",
        "send-keys",
        "-X",
        "cursor-up",
    ]);
    w.ok(&["bind", "-T", "copy-mode-vi", "Z", "split-window", "-h"]);
    synced(&mut t, &w, 1);
    w.ok(&["set", "-g", "mode-keys", "vi"]);
    t.prefix(b"[");
    t.wait("copy mode", |s| s.contents().contains("[0/"));
    // Z is bound in copy mode only: it splits only if q (now cursor-up) left the pane
    // in copy mode. The split is the marker that q was handled.
    t.send(b"q");
    t.send(b"Z");
    eventually("Z to split (q must not leave copy mode)", || {
        (w.panes().len() == 2).then_some(())
    });
    // Unbound: Escape/C-c still leave (C-c is bound), q now does nothing at all.
    w.ok(&["unbind", "-T", "copy-mode-vi", "q"]);
    t.prefix(b"[");
    t.wait("copy mode again", |s| s.contents().contains("[0/"));
    t.send(b"\x03");
    t.wait("C-c leaves", |s| !s.contents().contains("[0/"));
}

/// `list-keys [-T table] KEY` prints the one binding unpadded, as tmux does, and an
/// unbound key is tmux's error.
#[test]
fn list_keys_of_one_key_is_tmuxs() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "lk1"]);
    w.ok(&["bind", "-T", "prefix", "F5", "display-message", "hi"]);
    let ours = w.ok(&["list-keys", "-T", "prefix", "F5"]);
    assert_eq!(ours, "bind-key -T prefix F5 display-message hi\n");
    assert_eq!(w.ok(&["list-keys", "F5"]), ours);
    let out = w.run(&["tmux", "list-keys", "F12"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("unknown key: F12"));
    if let Some(t) = Tmux::start(w.dir.path(), 80, 24, "exec cat") {
        t.ok(&["bind", "-T", "prefix", "F5", "display-message", "hi"]);
        assert_eq!(t.ok(&["list-keys", "-T", "prefix", "F5"]), ours);
        let theirs = t.run(&["list-keys", "F12"]);
        assert_eq!(theirs.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&theirs.stderr).trim(),
            "unknown key: F12"
        );
    }
}

/// `bind KEY` with no command changes nothing (tmux exits 0), and with `-N` only
/// gives the binding a note.
#[test]
fn bind_without_a_command_sets_only_a_note() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "bn"]);
    let before = w.ok(&["list-keys", "-T", "prefix", "x"]);
    w.ok(&["bind", "x"]);
    assert_eq!(w.ok(&["list-keys", "-T", "prefix", "x"]), before);
    w.ok(&["bind", "-N", "kill it", "x"]);
    assert_eq!(w.ok(&["list-keys", "-N", "x"]), "C-b x kill it\n");
    assert_eq!(w.ok(&["list-keys", "-T", "prefix", "x"]), before);
    if let Some(t) = Tmux::start(w.dir.path(), 80, 24, "exec cat") {
        assert!(t.run(&["bind", "x"]).status.success());
        t.ok(&["bind", "-N", "kill it", "x"]);
        assert_eq!(t.ok(&["list-keys", "-N", "x"]), "C-b x kill it\n");
    }
}
