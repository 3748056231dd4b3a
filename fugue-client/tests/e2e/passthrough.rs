//! Issue 13, passthrough to the person's terminal: what a program in a pane asks of
//! its terminal reaches the terminal the client runs in (cursor look, clipboard,
//! title, bell), and screens travel as synchronized updates. Each test reads the bytes
//! the real client writes to its PTY, and where tmux defines the behaviour, tmux 3.3a
//! is run beside it and must do the same.

use super::harness::{Tui, World, write_config};
use portable_pty::CommandBuilder;
use std::io::Write;
use std::time::{Duration, Instant};

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn has(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

/// A world with `config`, a detached session `x`, and a client attached to it.
fn attached(config: &str) -> (World, Tui) {
    let w = World::new();
    write_config(&w, config);
    w.ok(&["new-session", "-d", "-s", "x"]);
    let t = w.tui(&["attach", "-t", "x"], 80, 24);
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    (w, t)
}

/// Types a shell command line into `target`.
fn type_line(w: &World, target: &str, line: &str) {
    w.ok(&["send-keys", "-t", target, line, "Enter"]);
}

/// tmux 3.3a in a PTY of its own (own socket folder, no config but `options`), with a
/// session `x` running /bin/sh, as the reference for what tmux does.
struct Tmux {
    tui: Tui,
    dir: tempfile::TempDir,
}

impl Tmux {
    fn start(options: &[&str]) -> Tmux {
        let dir = tempfile::tempdir().expect("temp dir");
        let conf = dir.path().join("tmux.conf");
        std::fs::write(&conf, options.join("\n") + "\n").unwrap();
        let mut cmd = CommandBuilder::new("tmux");
        cmd.args(["-f", &conf.to_string_lossy(), "new-session", "-s", "x"]);
        cmd.arg("/bin/sh");
        for (k, v) in Self::envs(&dir) {
            cmd.env(k, v);
        }
        cmd.env_remove("TMUX");
        let tui = Tui::spawn(cmd, 80, 24);
        tui.wait("tmux's status bar", |s| s.contents().contains("[x]"));
        Tmux { tui, dir }
    }

    fn envs(dir: &tempfile::TempDir) -> Vec<(&'static str, String)> {
        vec![
            ("TMUX_TMPDIR", dir.path().to_string_lossy().into_owned()),
            ("TERM", "xterm-256color".into()),
            ("SHELL", "/bin/sh".into()),
            ("PS1", "$ ".into()),
            ("ENV", String::new()),
        ]
    }

    fn run(&self, args: &[&str]) {
        let out = std::process::Command::new("tmux")
            .args(args)
            .envs(Self::envs(&self.dir))
            .env_remove("TMUX")
            .output()
            .expect("run tmux");
        assert!(out.status.success(), "tmux {args:?}: {out:?}");
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = std::process::Command::new("tmux")
            .arg("kill-server")
            .envs(Self::envs(&self.dir))
            .output();
        super::harness::stop_servers(self.dir.path());
    }
}

const SET_LOOK: &str = "printf '\\033[5 q\\033]12;#ff0000\\007'";

/// Item 1: the terminal's cursor takes the active pane's DECSCUSR style and OSC 12
/// colour, goes back to the terminal's own for a pane that set none, and is put back
/// when the client detaches. (Before issue 13 the client never wrote either.)
#[test]
fn issue_13_the_terminal_cursor_follows_the_active_pane_and_is_put_back() {
    let (w, mut t) = attached("");
    let first = w.ok(&["display-message", "-p", "-t", "x", "#{pane_id}"]);
    let first = first.trim();
    type_line(&w, "x", SET_LOOK);
    t.wait_raw("a blinking bar, red", |r| {
        has(r, b"\x1b[5 q") && has(r, b"\x1b]12;#ff0000\x07")
    });

    let mark = t.raw().len();
    w.ok(&["split-window", "-t", "x"]);
    t.wait_raw("the terminal's own cursor in the new pane", |r| {
        has(&r[mark..], b"\x1b[0 q") && has(&r[mark..], b"\x1b]112\x07")
    });

    let mark = t.raw().len();
    w.ok(&["select-pane", "-t", first]);
    t.wait_raw("the bar again in the first pane", |r| {
        has(&r[mark..], b"\x1b[5 q") && has(&r[mark..], b"\x1b]12;#ff0000\x07")
    });

    let mark = t.raw().len();
    t.prefix(b"d");
    assert_eq!(t.wait_exit(), 0);
    let tail = &t.raw()[mark..];
    assert!(
        has(tail, b"\x1b[0 q") && has(tail, b"\x1b]112\x07"),
        "the cursor is put back on detach: {:?}",
        String::from_utf8_lossy(tail)
    );

    // tmux: the same style and colour (as rgb:), and both reset for the new pane.
    let tm = Tmux::start(&[]);
    tm.run(&["send-keys", "-t", "x", SET_LOOK, "Enter"]);
    tm.tui.wait_raw("tmux's bar, red", |r| {
        has(r, b"\x1b[5 q") && has(r, b"\x1b]12;rgb:ff/00/00\x07")
    });
    let mark = tm.tui.raw().len();
    tm.run(&["split-window", "-t", "x"]);
    tm.tui.wait_raw("tmux's reset for the new pane", |r| {
        has(&r[mark..], b"\x1b[2 q") && has(&r[mark..], b"\x1b]112\x07")
    });
}

/// The typed line shows `aGVs''bG8=`: only the copy itself has `aGVsbG8=`.
const COPY: &str = "printf '\\033]52;c;%s\\007' aGVs''bG8=; echo copied-$((40+2))";

/// Item 2: a program's OSC 52 copy reaches the terminal with `set_clipboard = "on"`
/// only; "external" (the default) and "off" keep programs off the person's clipboard,
/// as tmux's options of the same names do.
#[test]
fn issue_13_clipboard_copies_reach_the_terminal_only_when_set_clipboard_is_on() {
    for (setting, passes) in [("on", true), ("external", false), ("off", false)] {
        let (w, t) = attached(&format!("[passthrough]\nset_clipboard = \"{setting}\"\n"));
        type_line(&w, "x", COPY);
        t.wait_text("copied-42");
        if passes {
            t.wait_raw("the copy on the terminal", |r| {
                has(r, b"\x1b]52;c;aGVsbG8=\x07")
            });
        } else {
            // The copy was read before the echo, and may reach the client in a frame
            // of its own after it: a later line's output on screen means that frame
            // has come.
            type_line(&w, "x", "echo mark-$((8*8))");
            t.wait_text("mark-64");
            assert!(
                !has(&t.raw(), b"aGVsbG8="),
                "{setting}: the copy got through: {}",
                String::from_utf8_lossy(&t.raw()).escape_debug()
            );
        }

        let tm = Tmux::start(&[&format!("set -g set-clipboard {setting}")]);
        tm.run(&["send-keys", "-t", "x", COPY, "Enter"]);
        tm.tui.wait_text("copied-42");
        if passes {
            tm.tui.wait_raw("tmux's copy", |r| {
                has(r, b"\x1b]52;") && has(r, b";aGVsbG8=\x07")
            });
        } else {
            tm.run(&["send-keys", "-t", "x", "echo mark-$((8*8))", "Enter"]);
            tm.tui.wait_text("mark-64");
            assert!(!has(&tm.tui.raw(), b"aGVsbG8="), "tmux {setting} passed it");
        }
    }
}

/// Reads the answer to a clipboard question within 2 s and shows it (ESC as `E`).
const ASK: &str = "stty -echo -icanon min 0 time 20; printf '\\033]52;c;?\\007'; \
                   a=$(dd bs=1 count=17 2>/dev/null | tr '\\033' E); stty sane; echo \"got:$a:\"";

/// Item 2: a program reads the clipboard (`OSC 52 ; c ; ?`) only when
/// `get_clipboard = "buffer"`, and gets the server's clipboard, the last copy a
/// program made; by default the question goes unanswered. The copy is kept with no
/// client attached.
#[test]
fn issue_13_clipboard_reads_are_refused_unless_allowed() {
    for (get, answer) in [("off", "got::"), ("buffer", "got:E]52;c;aGVsbG8=E\\:")] {
        let w = World::new();
        write_config(
            &w,
            &format!("[passthrough]\nset_clipboard = \"on\"\nget_clipboard = \"{get}\"\n"),
        );
        w.ok(&["new-session", "-d", "-s", "x"]);
        type_line(&w, "x", COPY);
        super::harness::eventually("the copy", || {
            w.ok(&["capture-pane", "-p", "-t", "x"])
                .contains("copied-42")
                .then_some(())
        });
        type_line(&w, "x", ASK);
        super::harness::eventually(&format!("the answer with get_clipboard = {get}"), || {
            w.ok(&["capture-pane", "-p", "-t", "x"])
                .lines()
                .any(|l| l.starts_with("got:"))
                .then_some(())
        });
        let screen = w.ok(&["capture-pane", "-p", "-t", "x"]);
        assert!(
            screen.lines().any(|l| l == answer),
            "get_clipboard = {get}: {screen}"
        );
    }
}

/// Issue 14: with `set_clipboard = "on"` a program's copy becomes a paste buffer, as
/// tmux's `set-clipboard on`; with "external" (the default, as tmux's) it does not.
#[test]
fn issue_14_a_programs_copy_is_a_buffer_only_with_set_clipboard_on() {
    for (set, buffer) in [("on", Some("hello")), ("external", None)] {
        let w = World::new();
        write_config(&w, &format!("[passthrough]\nset_clipboard = \"{set}\"\n"));
        w.ok(&["new-session", "-d", "-s", "x"]);
        type_line(&w, "x", COPY);
        super::harness::eventually("the copy", || {
            w.ok(&["capture-pane", "-p", "-t", "x"])
                .contains("copied-42")
                .then_some(())
        });
        let shown = w.run(&["show-buffer"]);
        match buffer {
            Some(text) => assert_eq!(
                String::from_utf8_lossy(&shown.stdout),
                text,
                "set_clipboard = {set}"
            ),
            None => assert!(!shown.status.success(), "set_clipboard = {set}: {shown:?}"),
        }
    }
}

/// Item 3: with `set_titles`, the terminal's title follows `set_titles_string` (tmux's
/// `#S`, `#I`, `#W`, `#T`), after the terminal's own title was pushed, and that title
/// is popped on detach; without it the title is left alone, as in tmux.
#[test]
fn issue_13_the_title_follows_the_format_when_set_titles_is_on() {
    let format = "#S:#I:#W - #T";
    let (w, mut t) = attached(&format!(
        "[passthrough]\nset_titles = true\nset_titles_string = \"{format}\"\n"
    ));
    type_line(&w, "x", "printf '\\033]2;my-title\\007'");
    t.wait_raw("the title with the pane's title", |r| {
        has(r, b"\x1b[22;0t") && has(r, b"\x1b]0;x:0:") && has(r, b" - my-title\x07")
    });
    let raw = t.raw();
    assert!(
        find(&raw, b"\x1b[22;0t") < find(&raw, b"\x1b]0;"),
        "pushed first"
    );
    let mark = raw.len();
    t.prefix(b"d");
    assert_eq!(t.wait_exit(), 0);
    assert!(has(&t.raw()[mark..], b"\x1b[23;0t"), "popped on detach");

    let (w, t) = attached("");
    type_line(&w, "x", "printf '\\033]2;my-title\\007'; echo titled");
    t.wait_text("titled");
    // A title would reach the terminal before a later line's output.
    type_line(&w, "x", "echo mark-$((8*8))");
    t.wait_text("mark-64");
    assert!(!has(&t.raw(), b"\x1b]0;"), "set_titles is off by default");

    let tm = Tmux::start(&[
        "set -g set-titles on",
        &format!("set -g set-titles-string '{format}'"),
    ]);
    tm.run(&[
        "send-keys",
        "-t",
        "x",
        "printf '\\033]2;my-title\\007'",
        "Enter",
    ]);
    tm.tui.wait_raw("tmux's title", |r| {
        has(r, b"\x1b]0;x:0:") && has(r, b" - my-title\x07")
    });
}

/// The status line's window list, as drawn.
fn status(t: &Tui) -> String {
    t.screen(|s| s.contents().lines().last().unwrap_or_default().to_string())
}

/// Item 3: a bell in a window that is not shown flags it (`!`) until it is shown,
/// and rings the terminal as `bell_action` says (tmux's default `any`; `none`,
/// `current`, `other`).
#[test]
fn issue_13_a_bell_flags_its_window_and_rings_as_bell_action_says() {
    let (w, t) = attached("");
    w.ok(&["new-window", "-t", "x"]);
    t.wait("window 1 current", |s| s.contents().contains("1:sh*"));
    let bells = |t: &Tui| t.raw().iter().filter(|b| **b == 0x07).count();
    let before = bells(&t);
    type_line(&w, "x:0", "printf '\\007'");
    t.wait("window 0 flagged", |s| s.contents().contains("0:sh!-"));
    t.wait_raw("the terminal rung", |r| {
        r.iter().filter(|b| **b == 0x07).count() > before
    });
    w.ok(&["select-window", "-t", "x:0"]);
    t.wait("the flag gone once shown", |s| {
        s.contents().contains("0:sh* ")
    });
    assert!(!status(&t).contains('!'), "{}", status(&t));

    // tmux: the same flag on the same window, and a ring.
    let tm = Tmux::start(&[]);
    tm.run(&["new-window", "-t", "x"]);
    tm.tui
        .wait("tmux's window 1", |s| s.contents().contains("1:sh*"));
    let before = bells(&tm.tui);
    tm.run(&["send-keys", "-t", "x:0", "printf '\\007'", "Enter"]);
    tm.tui
        .wait("tmux's flag", |s| s.contents().contains("0:sh!-"));
    tm.tui.wait_raw("tmux rings", |r| {
        r.iter().filter(|b| **b == 0x07).count() > before
    });

    // Who hears which bell: (action, rings for a bell in another window, in the
    // current one).
    let mut marks = 0;
    for (action, other, current) in [
        ("none", false, false),
        ("current", false, true),
        ("other", true, false),
    ] {
        let (w, t) = attached(&format!("[passthrough]\nbell_action = \"{action}\"\n"));
        w.ok(&["new-window", "-t", "x"]);
        t.wait("window 1 current", |s| s.contents().contains("1:sh*"));
        for (target, rings) in [("x:0", other), ("x:1", current)] {
            let before = bells(&t);
            type_line(&w, target, "printf '\\007'; echo rang-$((1+1))");
            if target == "x:1" {
                t.wait_text("rang-2");
            } else {
                t.wait("window 0 flagged", |s| s.contents().contains("0:sh!-"));
            }
            if rings {
                t.wait_raw(&format!("{action}: a ring for {target}"), |r| {
                    r.iter().filter(|b| **b == 0x07).count() > before
                });
            } else {
                // A bell would reach the terminal before a later line's output in the
                // window shown.
                marks += 1;
                type_line(&w, "x:1", &format!("echo mark-$((1000+{marks}))"));
                t.wait_text(&format!("mark-{}", 1000 + marks));
                assert_eq!(bells(&t), before, "{action}: {target} rang");
            }
        }
        // A bell in the window shown is heard there: no flag.
        assert!(status(&t).contains("1:sh*"), "{}", status(&t));
    }
}

/// Item 4: output inside a synchronized update (mode 2026) reaches the client whole
/// when the update ends; an update that never ends is shown after its timeout.
#[test]
fn issue_13_a_synchronized_update_is_shown_whole() {
    let (w, t) = attached("");
    // The halves go through `cat` from a FIFO this test writes, so the gap between
    // them is the test's 30 ms and not the time a loaded machine takes to start a
    // `sleep` (which once passed the 150 ms timeout in CI and showed half).
    let fifo = w.path("halves");
    let c = std::ffi::CString::new(fifo.to_string_lossy().as_bytes()).expect("path");
    // SAFETY: a valid NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo");
    type_line(&w, "x", &format!("cat {}", fifo.display()));
    // Opening for writing waits for `cat` to open it for reading.
    let mut halves = std::fs::OpenOptions::new()
        .write(true)
        .open(&fifo)
        .expect("the FIFO");
    halves.write_all(b"\x1b[?2026hON=E").expect("first half");
    std::thread::sleep(Duration::from_millis(30));
    halves.write_all(b"TW=O\x1b[?2026l\n").expect("second half");
    drop(halves);
    // `=` is in no temporary folder's name, so only the output shows these.
    t.wait("the first half", |s| s.contents().contains("ON=E"));
    assert!(
        t.contents().contains("ON=ETW=O"),
        "half an update was shown:\n{}",
        t.contents()
    );

    let started = Instant::now();
    type_line(
        &w,
        "x",
        "printf '\\033[?2026hSTU''CK'; sleep 5; printf '\\033[?2026l'",
    );
    t.wait_text("STUCK");
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "an unfinished update was held until it ended"
    );
}

/// Item 4: the client asks the terminal whether it knows synchronized output
/// (DECRQM), never waits for the answer, and wraps its frames in `CSI ? 2026 h` /
/// `CSI ? 2026 l` only when the terminal said yes.
#[test]
fn issue_13_the_client_wraps_its_frames_when_the_terminal_knows_how() {
    for (answer, wraps) in [
        (None, false),
        (Some(&b"\x1b[?2026;0$y"[..]), false),
        (Some(&b"\x1b[?2026;2$y"[..]), true),
    ] {
        let (w, mut t) = attached("");
        assert!(has(&t.raw(), b"\x1b[?2026$p"), "asked at start");
        if let Some(a) = answer {
            t.send(a);
        }
        // Typed after the answer, so read after it: the client reads input in order.
        let mark = t.raw().len();
        t.send(b"echo mark-$((2+3))\r");
        t.wait_text("mark-5");
        if wraps {
            // The frame's end may come in the terminal's next read.
            t.wait_raw("the end of the frame", |r| {
                let after = &r[mark..];
                find(after, b"mark-5").is_some_and(|at| has(&after[at..], b"\x1b[?2026l"))
            });
        }
        let raw = t.raw();
        let after = &raw[mark..];
        let at = find(after, b"mark-5").expect("drawn");
        let begin = after[..at].windows(8).rposition(|x| x == b"\x1b[?2026h");
        let end = find(&after[at..], b"\x1b[?2026l");
        assert_eq!(
            begin.is_some() && end.is_some(),
            wraps,
            "answer {answer:?}: {:?}",
            String::from_utf8_lossy(after)
        );
        if !wraps {
            assert!(!has(after, b"\x1b[?2026h"));
        }
        drop(w);
    }
}
