//! The client and the outer terminal: drawing everything again when asked or when
//! continued after a stop, and leaving the terminal sane after a client that died.

use super::harness::{Tui, World, eventually};

const GARBAGE: &[u8] = b"\x1b[2J\x1b[HGARBAGE-OVER-THE-SCREEN";

/// Attaches to a new session `x` and waits for its status bar.
fn attached(w: &World) -> Tui {
    w.ok(&["new-session", "-d", "-s", "x"]);
    let t = w.tui(&["attach", "-t", "x"], 80, 24);
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    t
}

/// Scribbles over the test's copy of the terminal and checks that it is there.
fn corrupt(t: &Tui) {
    t.feed(GARBAGE);
    assert!(t.contents().contains("GARBAGE"));
    assert!(!t.contents().contains("[x]"));
}

fn redrawn(t: &Tui, what: &str) {
    t.wait(what, |s| {
        let c = s.contents();
        c.contains("[x]") && !c.contains("GARBAGE") && s.alternate_screen()
    });
}

#[test]
fn a_client_continued_after_a_stop_draws_everything_again() {
    let w = World::new();
    let t = attached(&w);
    let pid = t.pid().expect("pid") as i32;
    // SAFETY: signals to the client this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGSTOP) }, 0);
    // What the shell does while the client is stopped: main screen, anything written.
    t.feed(b"\x1b[?1049l");
    corrupt(&t);
    assert_eq!(unsafe { libc::kill(pid, libc::SIGCONT) }, 0);
    redrawn(&t, "the screen drawn again after SIGCONT");
}

#[test]
fn prefix_r_draws_everything_again() {
    let w = World::new();
    let mut t = attached(&w);
    corrupt(&t);
    t.prefix(b"r");
    redrawn(&t, "the screen drawn again after C-b r");
}

#[test]
fn refresh_client_from_the_cli_redraws_the_sessions_clients() {
    let w = World::new();
    let t = attached(&w);
    corrupt(&t);
    w.ok(&["refresh-client", "-t", "x"]);
    redrawn(&t, "the screen drawn again after refresh-client -t x");
    let out = w.run(&["refresh-client", "-t", "nosuch"]);
    assert!(!out.status.success());
}

fn sane(t: &Tui, what: &str) {
    t.screen(|s| {
        assert!(
            !s.alternate_screen(),
            "{what}: still on the alternate screen"
        );
        assert!(!s.hide_cursor(), "{what}: cursor hidden");
        assert!(!s.bracketed_paste(), "{what}: bracketed paste on");
        assert_eq!(
            s.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "{what}: mouse reporting on"
        );
    });
}

#[test]
fn attach_switches_off_modes_an_earlier_program_left_on() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x"]);
    // Mouse reporting and focus events, as a client killed with -9 may leave them.
    let mut t = w.sh(
        r#"printf '\033[?1000h\033[?1006h\033[?1004h'; $FUGUE attach -t x; echo AFTER-ATTACH"#,
        80,
        24,
    );
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    t.prefix(b"d");
    t.wait_text("AFTER-ATTACH");
    sane(&t, "after attach and detach");
}

#[test]
fn reset_terminal_repairs_what_a_killed_client_left() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "x"]);
    let pidfile = w.path("client.pid");
    let script = format!(
        r#"printf '\033[?1000h\033[?1004h'; sh -c 'echo $$ > {pid}; exec $FUGUE attach -t x'; $FUGUE reset-terminal; echo RESET-DONE; stty -a; echo STTY-DONE"#,
        pid = pidfile.display()
    );
    let t = w.sh(&script, 200, 40);
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    let pid: i32 = eventually("the client's pid", || {
        std::fs::read_to_string(&pidfile).ok()?.trim().parse().ok()
    });
    // SAFETY: the client this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0);
    t.wait_text("STTY-DONE");
    sane(&t, "after reset-terminal");
    let settings = t.contents();
    let words: Vec<&str> = settings.split_whitespace().collect();
    for flag in ["icanon", "echo", "isig", "icrnl", "opost", "onlcr"] {
        assert!(
            words.contains(&flag) && !words.contains(&format!("-{flag}").as_str()),
            "{flag} is not on:\n{settings}"
        );
    }
}

#[test]
fn reset_terminal_writes_every_disable_sequence() {
    let w = World::new();
    let out = w.run(&["reset-terminal"]);
    assert!(out.status.success());
    let bytes = String::from_utf8_lossy(&out.stdout);
    for seq in [
        "\x1b[?1049l",
        "\x1b[?25h",
        "\x1b[?2004l",
        "\x1b[?1000l",
        "\x1b[?1002l",
        "\x1b[?1003l",
        "\x1b[?1006l",
        "\x1b[?1004l",
        "\x1b[<999u",
        "\x1b[0m",
    ] {
        assert!(bytes.contains(seq), "missing {seq:?} in {bytes:?}");
    }
    assert!(
        !w.socket.exists(),
        "reset-terminal started a server, it needs none"
    );
}

/// A program that hides its cursor and parks it where it draws its own caret (Claude
/// Code does) has the terminal's cursor there, hidden, as tmux puts it: IME windows
/// and screen magnifiers follow the terminal's cursor. fugue used to leave it where it
/// last drew. Moving the parked cursor alone moves the terminal's.
#[test]
fn a_hidden_cursor_is_parked_where_the_program_left_it() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "x",
        "--",
        "sh",
        "-c",
        r"printf '\033[?25l\033[3;5Hcaret-one'; read a; printf '\033[6;9Hcaret-two'; read b",
    ]);
    let t = w.tui(&["attach", "-t", "x"], 60, 20);
    let parked_after = |text: &str| {
        t.wait(&format!("the hidden cursor just after {text}"), |s| {
            s.hide_cursor() && end_of(s, text) == Some(s.cursor_position())
        });
    };
    parked_after("caret-one");
    w.ok(&["send-keys", "-t", "x", "Enter"]);
    parked_after("caret-two");
}

/// The cell just after `text` on the screen (row, column).
pub fn end_of(s: &vt100::Screen, text: &str) -> Option<(u16, u16)> {
    let (rows, cols) = s.size();
    (0..u16::from(rows)).find_map(|r| {
        let line: String = (0..u16::from(cols))
            .map(|c| s.cell(r, c).map(|c| c.contents().to_string()))
            .map(|t| t.filter(|t| !t.is_empty()).unwrap_or_else(|| " ".into()))
            .collect();
        let at = line.find(text)?;
        let col = line[..at].chars().count() + text.chars().count();
        u16::try_from(col).ok().map(|c| (r, c))
    })
}

/// Issue 29, item 2: a program's colour queries (OSC 10/11) are answered with the
/// person's terminal's colours, which the client asks at attach (here a light theme),
/// not fugue's white on black; before any client answered, with the defaults.
#[test]
fn colour_queries_are_answered_with_the_terminals_colours() {
    use super::harness::{Answers, LIGHT_BG};
    let w = World::new();
    // The program asks for the background in raw mode and writes what comes back.
    let out = w.path("answer");
    let script = w.path("ask.sh");
    std::fs::write(
        &script,
        format!(
            "stty raw -echo; printf '\\033]11;?\\033\\\\'; head -c 25 > '{}.part'; mv '{0}.part' '{0}'; exec sleep 100\n",
            out.display()
        ),
    )
    .unwrap();
    let ask = format!("sh {}", script.display());
    let answer = || {
        let _ = std::fs::remove_file(&out);
        w.ok(&["respawn-pane", "-k", "-t", "x:0.0", &ask]);
        eventually("the program's answer", || {
            std::fs::read_to_string(&out).ok()
        })
    };
    w.ok(&["new-session", "-d", "-s", "x", &ask]);
    assert!(
        eventually("the default answer", || std::fs::read_to_string(&out).ok())
            .contains("rgb:0000/0000/0000")
    );
    let t = w.tui_in(Answers::Light, &["attach", "-t", "x"], 80, 24);
    t.wait("the status bar", |s| s.contents().contains("[x]"));
    // The client's report and the next query race; the query is asked again until the
    // report has landed (each ask is a fresh program, answered at once).
    eventually("the terminal's background", || {
        answer().contains(LIGHT_BG).then_some(())
    });
}
