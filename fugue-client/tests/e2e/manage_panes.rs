//! Issue 16, management verbs for panes: the same command lines against fugue and
//! against tmux (when installed), comparing what `list-panes`/`list-windows` print and
//! the exit codes.

use super::harness::{TestTmux, World, eventually};

use std::process::Output;
pub use twins_impl::Twins;

mod twins_impl {
    use super::*;

    /// One world with a fugue server and, when tmux is installed, a tmux server, both with
    /// session `s` of 80x24 holding panes titled a, b, c (a left; b above c on the right).
    pub struct Twins {
        // Fields drop in order: tmux first, while its socket's folder (the world's)
        // still exists for kill-server to find.
        pub t: Option<TestTmux>,
        pub w: World,
    }

    impl Twins {
        /// Both servers, nothing in them.
        pub fn empty() -> Twins {
            let w = World::new();
            let t = super::super::twins::Tmux::available().map(|_| TestTmux::new(&w, ""));
            Twins { t, w }
        }

        pub fn new() -> Twins {
            let tw = Twins::empty();
            tw.both(&["new-session", "-d", "-s", "s", "-x", "80", "-y", "24"]);
            tw.both(&["split-window", "-h", "-t", "s:0.0"]);
            tw.both(&["split-window", "-v", "-t", "s:0.1"]);
            for (i, title) in ["a", "b", "c"].iter().enumerate() {
                tw.both(&["select-pane", "-T", title, "-t", &format!("s:0.{i}")]);
            }
            // Tests type shell lines into these panes: wait until each shell reads.
            // (Keys that reach an interactive shell before it has set up the terminal
            // are echoed by the kernel, and, by bash's readline, again.)
            for i in 0..3 {
                tw.wait_prompt(&format!("s:0.{i}"));
            }
            tw
        }

        /// Waits until the shells in pane `target` on both sides have printed a prompt.
        pub fn wait_prompt(&self, target: &str) {
            let shown = |out: String| (!out.trim().is_empty()).then_some(());
            eventually(&format!("fugue's shell prompt in {target}"), || {
                shown(self.w.ok(&["capture-pane", "-p", "-t", target]))
            });
            if let Some(t) = &self.t {
                eventually(&format!("tmux's shell prompt in {target}"), || {
                    shown(t.ok(&["capture-pane", "-p", "-t", target]))
                });
            }
        }

        /// Runs a command line on both; both must succeed.
        pub fn both(&self, args: &[&str]) {
            self.w.ok(args);
            if let Some(t) = &self.t {
                t.ok(args);
            }
        }

        /// Runs a command line on both; fugue's output and tmux's (if any).
        pub fn run(&self, args: &[&str]) -> (Output, Option<Output>) {
            (self.w.run(args), self.t.as_ref().map(|t| t.run(args)))
        }

        /// What both print for `args`, which must be the same; fugue's.
        pub fn same(&self, args: &[&str]) -> String {
            let mine = self.w.ok(args);
            if let Some(t) = &self.t {
                assert_eq!(mine, t.ok(args), "fugue and tmux differ on {args:?}");
            }
            mine
        }

        pub fn panes(&self) -> String {
            self.same(&[
                "list-panes",
                "-t",
                "s:0",
                "-F",
                "#{pane_title}:#{pane_active}",
            ])
        }
    }
}

pub fn code(o: &Output) -> Option<i32> {
    o.status.code()
}

#[test]
fn swap_pane_rotate_window_and_last_pane_move_panes_as_tmux_does() {
    let tw = Twins::new();
    assert_eq!(tw.panes(), "a:0\nb:0\nc:1\n");
    let steps: &[(&[&str], &str)] = &[
        (
            &["swap-pane", "-s", "s:0.0", "-t", "s:0.2"],
            "c:1\nb:0\na:0\n",
        ),
        (&["swap-pane", "-D", "-t", "s:0.0"], "b:0\nc:1\na:0\n"),
        (&["swap-pane", "-U", "-d", "-t", "s:0.1"], "c:0\nb:1\na:0\n"),
        (&["rotate-window", "-t", "s:0"], "b:0\na:1\nc:0\n"),
        (&["rotate-window", "-D", "-t", "s:0"], "c:0\nb:1\na:0\n"),
        (&["select-pane", "-t", "s:0.2"], "c:0\nb:0\na:1\n"),
        (&["last-pane", "-t", "s:0"], "c:0\nb:1\na:0\n"),
    ];
    for (args, want) in steps {
        tw.both(args);
        assert_eq!(tw.panes(), *want, "after {args:?}");
    }
}

#[test]
fn kill_pane_a_keeps_only_the_target() {
    let tw = Twins::new();
    tw.both(&["kill-pane", "-a", "-t", "s:0.1"]);
    assert_eq!(tw.panes(), "b:1\n");
}

#[test]
fn break_pane_and_join_pane_move_panes_between_windows() {
    let tw = Twins::new();
    let windows = || {
        tw.same(&[
            "list-windows",
            "-t",
            "s",
            "-F",
            "#{window_index}:#{window_panes}:#{window_active}",
        ])
    };
    let printed = tw.same(&["break-pane", "-d", "-P", "-s", "s:0.1", "-n", "bee"]);
    assert_eq!(printed, "s:1.0\n");
    assert_eq!(windows(), "0:2:1\n1:1:0\n");
    assert_eq!(
        tw.same(&["display-message", "-p", "-t", "s:1", "#{window_name}"]),
        "bee\n"
    );
    // -t names a free index.
    tw.both(&["break-pane", "-s", "s:0.0", "-t", "s:5"]);
    assert_eq!(
        windows()
            .lines()
            .map(|l| l.split(':').next().unwrap())
            .collect::<Vec<_>>(),
        ["0", "1", "5"]
    );
    // An index in use is an error, as in tmux.
    let (mine, theirs) = tw.run(&["break-pane", "-s", "s:0.0", "-t", "s:1"]);
    assert_eq!(code(&mine), Some(1));
    if let Some(t) = theirs {
        assert_eq!(code(&t), Some(1));
    }
    // join-pane: b goes back beside c (window 0), window 1 closes with its last pane.
    tw.both(&["join-pane", "-h", "-s", "s:1.0", "-t", "s:0.0"]);
    assert_eq!(
        tw.same(&["list-panes", "-t", "s:0", "-F", "#{pane_title}"]),
        "c\nb\n"
    );
    assert_eq!(windows().lines().count(), 2);
    // Joining a pane to itself is an error.
    let (mine, theirs) = tw.run(&["join-pane", "-s", "s:0.0", "-t", "s:0.0"]);
    assert_eq!(code(&mine), Some(1));
    if let Some(t) = theirs {
        assert_eq!(code(&t), Some(1));
    }
    // move-pane is join-pane; -b puts it before.
    tw.both(&["move-pane", "-b", "-s", "s:5.0", "-t", "s:0.0"]);
    assert_eq!(
        tw.same(&[
            "list-panes",
            "-t",
            "s:0",
            "-F",
            "#{pane_title}:#{pane_active}"
        ]),
        "a:1\nc:0\nb:0\n"
    );
}

#[test]
fn respawn_pane_starts_a_new_program_in_the_same_pane() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "r",
        "-x",
        "80",
        "-y",
        "24",
        "--",
        "cat",
    ]);
    let id = w.ok(&["display-message", "-p", "-t", "r", "#{pane_id}"]);
    let id = id.trim();
    // A live pane needs -k, as in tmux.
    let live = w.run(&[
        "respawn-pane",
        "-t",
        id,
        "--",
        "sh",
        "-c",
        "echo one; exec cat",
    ]);
    assert_eq!(code(&live), Some(1));
    assert!(
        String::from_utf8_lossy(&live.stderr).contains("still active"),
        "{live:?}"
    );
    // Claude Code's sequence: remain-on-exit failed, then respawn -k with a command line.
    w.ok(&["set-option", "-p", "-t", id, "remain-on-exit", "failed"]);
    w.ok(&["respawn-pane", "-k", "-t", id, "echo respawned; exec cat"]);
    eventually("the new program's output", || {
        w.ok(&["capture-pane", "-p", "-t", id])
            .contains("respawned")
            .then_some(())
    });
    // Same pane, alive, and the old program's exit did not close it. (That exit is
    // reaped on the server's own time and shows nowhere when handled right.)
    super::harness::settle_for_negative_check();
    assert_eq!(
        w.ok(&["list-panes", "-t", "r", "-F", "#{pane_id}:#{pane_dead}"]),
        format!("{id}:0\n")
    );
    w.ok(&["send-keys", "-t", id, "typed", "Enter"]);
    eventually("cat echoes", || {
        let c = w.ok(&["capture-pane", "-p", "-t", id]);
        (c.matches("typed").count() >= 2).then_some(())
    });
    // A failing program keeps the pane (remain-on-exit failed); respawn without -k
    // works on a dead pane and reruns the last program when given none.
    let runs = w.path("runs");
    let line = format!("echo run >> '{}'; exit 3", runs.display());
    w.ok(&["respawn-pane", "-k", "-t", id, "--", "sh", "-c", &line]);
    let dead = || {
        let dead = w.ok(&["display-message", "-p", "-t", id, "#{pane_dead}"]);
        (dead.trim() == "1").then_some(())
    };
    eventually("the pane is dead", dead);
    w.ok(&["respawn-pane", "-t", id]);
    eventually("the same program ran again", || {
        let n = std::fs::read_to_string(&runs).unwrap_or_default();
        (n.lines().count() == 2).then_some(())
    });
    eventually("dead again", dead);
}

#[test]
fn respawn_window_keeps_its_first_pane() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "rw", "--", "cat"]);
    w.ok(&["split-window", "-t", "rw", "--", "cat"]);
    let first = w.ok(&["display-message", "-p", "-t", "rw:0.0", "#{pane_id}"]);
    let out = w.run(&["respawn-window", "-t", "rw:0"]);
    assert_eq!(code(&out), Some(1), "{out:?}");
    w.ok(&["respawn-window", "-k", "-t", "rw:0", "echo again; exec cat"]);
    assert_eq!(
        w.ok(&["list-panes", "-t", "rw:0", "-F", "#{pane_id}"]),
        first
    );
    eventually("the new program's output", || {
        w.ok(&["capture-pane", "-p", "-t", "rw:0"])
            .contains("again")
            .then_some(())
    });
}

#[test]
fn resize_pane_takes_a_percentage_of_the_window() {
    let tw = Twins::new();
    // tmux's panes share dividers, fugue's draw their own borders: compare what each
    // makes of the window, not the cells.
    tw.both(&["resize-pane", "-t", "s:0.0", "-x", "30%"]);
    let width = |t: &str| -> u32 { t.trim().parse().unwrap() };
    let mine = width(
        &tw.w
            .ok(&["display-message", "-p", "-t", "s:0.0", "#{pane_width}"]),
    );
    assert!((22..=25).contains(&mine), "fugue: {mine}");
    if let Some(t) = &tw.t {
        let theirs = width(&t.ok(&["display-message", "-p", "-t", "s:0.0", "#{pane_width}"]));
        assert_eq!(theirs, 24, "tmux");
    }
    tw.both(&["resize-pane", "-t", "s:0.1", "-y", "75%"]);
    let mine = width(
        &tw.w
            .ok(&["display-message", "-p", "-t", "s:0.1", "#{pane_height}"]),
    );
    assert!((15..=18).contains(&mine), "fugue: {mine}");
    let (bad, theirs) = tw.run(&["resize-pane", "-t", "s:0.1", "-y", "x%"]);
    assert_eq!(code(&bad), Some(1));
    if let Some(t) = theirs {
        assert_eq!(code(&t), Some(1));
    }
}

#[test]
fn clear_history_and_capture_pane_into_a_buffer() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "h",
        "-x",
        "40",
        "-y",
        "5",
        "--",
        "sh",
        "-c",
        "seq 1 30; exec cat",
    ]);
    eventually("history", || {
        w.ok(&["capture-pane", "-p", "-t", "h", "-S", "-"])
            .lines()
            .any(|l| l == "1")
            .then_some(())
    });
    w.ok(&["capture-pane", "-b", "cap", "-t", "h", "-S", "-", "-E", "-"]);
    assert!(w.ok(&["show-buffer", "-b", "cap"]).starts_with("1\n2\n"));
    w.ok(&["clear-history", "-t", "h"]);
    let after = w.ok(&["capture-pane", "-p", "-t", "h", "-S", "-"]);
    assert!(
        !after.lines().any(|l| l == "1") && after.contains("30"),
        "{after}"
    );
    // The verb is the command's declaration (fugue_protocol::DECLARED_CLI): tmux's
    // alias and 3.4's -H reach the server too, and a wrong flag is clap's error.
    w.ok(&["clearhist", "-H", "-t", "h"]);
    let bad = w.run(&["clear-history", "-x"]);
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("-x"),
        "{bad:?}"
    );
}

/// A layout string tmux wrote restores in fugue, and the string fugue writes for it
/// restores the same layout in tmux.
#[test]
fn select_layout_takes_tmux_layout_strings_both_ways() {
    let tw = Twins::new();
    tw.both(&["resize-pane", "-t", "s:0.0", "-x", "30"]);
    let layout = |w: &World| w.ok(&["display-message", "-p", "-t", "s", "#{window_layout}"]);
    let before = layout(&tw.w);
    tw.both(&["select-layout", "-t", "s", "tiled"]);
    tw.w.ok(&["select-layout", "-t", "s", before.trim()]);
    assert_eq!(layout(&tw.w), before, "fugue's own string restores");
    if let Some(t) = &tw.t {
        let theirs = t.ok(&["display-message", "-p", "-t", "s", "#{window_layout}"]);
        t.ok(&["select-layout", "-t", "s", "even-vertical"]);
        t.ok(&["select-layout", "-t", "s", "tiled"]);
        // tmux's string in fugue, then fugue's string back in tmux.
        let tiled = t.ok(&["display-message", "-p", "-t", "s", "#{window_layout}"]);
        tw.w.ok(&["select-layout", "-t", "s", tiled.trim()]);
        let mine = layout(&tw.w);
        t.ok(&["select-layout", "-t", "s", "even-horizontal"]);
        t.ok(&["select-layout", "-t", "s", mine.trim()]);
        assert_eq!(
            t.ok(&["display-message", "-p", "-t", "s", "#{window_layout}"]),
            tiled
        );
        drop(theirs);
    }
    // A wrong checksum, or another number of panes, is an error in both.
    for bad in ["ffff,80x24,0,0,1", "b25d,80x24,0,0,0"] {
        let (mine, theirs) = tw.run(&["select-layout", "-t", "s", bad]);
        assert_eq!(code(&mine), Some(1), "{bad}: {mine:?}");
        if let Some(t) = theirs {
            assert_eq!(code(&t), Some(1), "tmux {bad}");
        }
    }
}

/// main-vertical sizes the main pane by main-pane-width, cells or a percentage.
#[test]
fn main_layouts_honour_main_pane_width_and_height() {
    let tw = Twins::new();
    let width = |w: &str| -> u32 { w.trim().parse().unwrap() };
    tw.both(&["set-option", "-w", "-t", "s", "main-pane-width", "50%"]);
    tw.both(&["select-layout", "-t", "s", "main-vertical"]);
    let mine = width(
        &tw.w
            .ok(&["display-message", "-p", "-t", "s:0.0", "#{pane_width}"]),
    );
    assert!((37..=40).contains(&mine), "fugue: {mine}");
    if let Some(t) = &tw.t {
        let theirs = width(&t.ok(&["display-message", "-p", "-t", "s:0.0", "#{pane_width}"]));
        assert!((39..=40).contains(&theirs), "tmux: {theirs}");
    }
    tw.both(&["set-option", "-w", "-t", "s", "main-pane-height", "10"]);
    tw.both(&["select-layout", "-t", "s", "main-horizontal"]);
    let mine = width(
        &tw.w
            .ok(&["display-message", "-p", "-t", "s:0.0", "#{pane_height}"]),
    );
    assert_eq!(mine, 10);
    if let Some(t) = &tw.t {
        let theirs = width(&t.ok(&["display-message", "-p", "-t", "s:0.0", "#{pane_height}"]));
        assert_eq!(theirs, 10);
    }
}

/// synchronize-panes: what is typed into one pane goes to every pane of the window.
/// (The typed line is compared, joined with -J: a prompt naming the working directory
/// made it wrap in a 39-column pane when tmux's panes ran the machine's shell.)
#[test]
fn synchronize_panes_types_into_every_pane_of_the_window() {
    let tw = Twins::new();
    tw.both(&["set-option", "-w", "-t", "s:0", "synchronize-panes", "on"]);
    tw.both(&["send-keys", "-t", "s:0.1", "echo sync-$((6*7))", "Enter"]);
    for i in 0..3 {
        let pane = format!("s:0.{i}");
        eventually("the line in every fugue pane", || {
            tw.w.ok(&["capture-pane", "-p", "-J", "-t", &pane])
                .contains("echo sync-$((6*7))")
                .then_some(())
        });
        if let Some(t) = &tw.t {
            eventually("the line in every tmux pane", || {
                t.ok(&["capture-pane", "-p", "-J", "-t", &pane])
                    .contains("echo sync-$((6*7))")
                    .then_some(())
            });
        }
    }
    eventually("fugue's shells ran it", || {
        tw.w.ok(&["capture-pane", "-p", "-J", "-t", "s:0.0"])
            .contains("sync-42")
            .then_some(())
    });
    // Off for one pane: it no longer hears the others.
    tw.both(&[
        "set-option",
        "-p",
        "-t",
        "s:0.2",
        "synchronize-panes",
        "off",
    ]);
    tw.both(&["send-keys", "-t", "s:0.0", "echo only-$((7*7))", "Enter"]);
    eventually("the line in pane 1", || {
        tw.w.ok(&["capture-pane", "-p", "-J", "-t", "s:0.1"])
            .contains("only-49")
            .then_some(())
    });
    // A line typed into pane 2 afterwards: once its output shows, anything the
    // server had passed on to pane 2 before it would show too (the shell reads in
    // order).
    tw.both(&["send-keys", "-t", "s:0.2", "echo mark-$((8*8))", "Enter"]);
    let marked = |out: String| out.contains("mark-64").then_some(out);
    let mine = eventually("the marker in fugue's pane 2", || {
        marked(tw.w.ok(&["capture-pane", "-p", "-J", "-t", "s:0.2"]))
    });
    assert!(!mine.contains("only"), "{mine}");
    if let Some(t) = &tw.t {
        let theirs = eventually("the marker in tmux's pane 2", || {
            marked(t.ok(&["capture-pane", "-p", "-J", "-t", "s:0.2"]))
        });
        assert!(!theirs.contains("only"), "{theirs}");
    }
}

/// `send-prefix` types the session's prefix key into the pane, `-2` the second one
/// (`prefix2`), nothing when that is None: what the pane's program reads is the same
/// as under tmux.
#[test]
fn send_prefix_types_the_prefix_as_tmux() {
    let tw = Twins::empty();
    let mut files = Vec::new();
    for (side, name) in [("f", "fugue"), ("t", "tmux")] {
        let file = tw.w.path(&format!("{name}.bin"));
        let program = format!(
            "stty raw -echo; printf READY; exec cat > '{}'",
            file.display()
        );
        files.push((side, file, program));
    }
    let run = |side: &str, args: &[&str]| match side {
        "f" => {
            tw.w.ok(args);
        }
        _ => {
            if let Some(t) = &tw.t {
                t.ok(args);
            }
        }
    };
    for (side, file, program) in &files {
        if *side == "t" && tw.t.is_none() {
            continue;
        }
        run(side, &["new-session", "-d", "-s", "sp", program]);
        eventually("the program ready", || {
            let out = match *side {
                "f" => tw.w.ok(&["capture-pane", "-p", "-t", "sp"]),
                _ => {
                    tw.t.as_ref()
                        .map(|t| t.ok(&["capture-pane", "-p", "-t", "sp"]))?
                }
            };
            out.contains("READY").then_some(())
        });
        run(side, &["send-prefix", "-t", "sp"]);
        run(side, &["send-prefix", "-2", "-t", "sp"]);
        run(side, &["set-option", "-g", "prefix", "C-a"]);
        run(side, &["set-option", "-g", "prefix2", "C-x"]);
        run(side, &["send-prefix", "-t", "sp"]);
        run(side, &["send-prefix", "-2", "-t", "sp"]);
        run(side, &["send-keys", "-t", "sp", "z"]);
        eventually("what the program read", || {
            std::fs::read(file)
                .ok()
                .filter(|b| b.ends_with(b"z"))
                .map(|b| assert_eq!(b, b"\x02\x01\x18z", "{side}"))
        });
    }
}
