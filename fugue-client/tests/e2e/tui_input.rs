//! Keyboard, mouse and focus through a real client in a PTY (issues 12 and 13): what
//! the outer terminal sends reaches a pane's program as the program asked for it.

use super::harness::{Answers, Tui, World, eventually};

/// Starts a session whose program sets the kitty keyboard flags `kitty` (none if 0)
/// and `modes` (other sequences), then records every byte it reads into `file`.
pub fn recorder(w: &World, session: &str, setup: &str, file: &str) {
    let path = w.path(file);
    let script = format!(
        "printf '{setup}'; stty raw -echo; printf READY; exec cat > '{}'",
        path.display()
    );
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        session,
        "--",
        "sh",
        "-c",
        &script,
    ]);
}

/// Waits until the recorder's file holds exactly `want`.
pub fn recorded(w: &World, file: &str, want: &[u8]) {
    let path = w.path(file);
    let mut last = Vec::new();
    let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        eventually(
            &format!("the pane to read {:?}", String::from_utf8_lossy(want)),
            || {
                last = std::fs::read(&path).unwrap_or_default();
                (last == want).then_some(())
            },
        )
    }));
    if got.is_err() {
        panic!(
            "the pane read {:?}, not {:?}",
            String::from_utf8_lossy(&std::fs::read(&path).unwrap_or_default()),
            String::from_utf8_lossy(want)
        );
    }
}

fn attach(w: &World, answers: Answers, session: &str) -> Tui {
    let t = w.tui_in(answers, &["attach", "-t", session], 80, 24);
    t.wait_text("READY");
    t
}

/// What a kitty terminal with flags 3 (disambiguate, event types) sends for: Tab, C-i
/// and its release, Escape and its release, M-[, S-Enter, Enter, `a` and its release.
const KITTY_TYPED: &[u8] =
    b"\t\x1b[105;5u\x1b[105;5:3u\x1b[27u\x1b[27;1:3u\x1b[91;3u\x1b[13;2u\ra\x1b[97;1:3u";

/// Issue 13: with the kitty protocol on the outer terminal, keys legacy encoding
/// merges arrive distinct in a pane that asked for disambiguation, and a pane that
/// did not ask gets the legacy bytes (and no releases).
#[test]
fn kitty_keys_arrive_distinct_in_a_pane_that_asked() {
    let w = World::new();
    recorder(&w, "kitty", "\\033[>1u", "kitty.bin");
    let mut t = attach(&w, Answers::Kitty, "kitty");
    eventually("the client to switch the protocol on", || {
        (t.kitty_stack() == [3]).then_some(())
    });
    t.send(KITTY_TYPED);
    recorded(
        &w,
        "kitty.bin",
        b"\t\x1b[105;5u\x1b[27u\x1b[91;3u\x1b[13;2u\ra",
    );

    recorder(&w, "legacy", "", "legacy.bin");
    let mut t = attach(&w, Answers::Kitty, "legacy");
    eventually("the protocol on", || (t.kitty_stack() == [3]).then_some(()));
    t.send(KITTY_TYPED);
    recorded(&w, "legacy.bin", b"\t\t\x1b\x1b[\r\ra");
}

/// A pane that asked for event types gets releases (of keys it got the press of).
#[test]
fn releases_reach_a_pane_that_asked_for_event_types() {
    let w = World::new();
    recorder(&w, "ev", "\\033[>3u", "ev.bin");
    let mut t = attach(&w, Answers::Kitty, "ev");
    eventually("the protocol on", || (t.kitty_stack() == [3]).then_some(()));
    t.send(b"a\x1b[97;1:3u\x1b[1;1:2A\x1b[1;1:3A\x1b[99;5u\x1b[99;5:3u");
    recorded(
        &w,
        "ev.bin",
        b"a\x1b[97;1:3u\x1b[1;1:2A\x1b[1;1:3A\x1b[99;5u\x1b[99;5:3u",
    );
}

/// The client asks the terminal, switches the protocol on only if it answers, and
/// switches it off (pops) when it gives the terminal back: on suspend and on detach.
#[test]
fn the_client_switches_the_protocol_on_only_where_it_is_spoken() {
    let w = World::new();
    recorder(&w, "p", "\\033[>1u", "p.bin");
    // A terminal that answers device attributes only: no kitty protocol.
    let mut t = attach(&w, Answers::Plain, "p");
    // Keys typed at once still arrive, as legacy bytes.
    t.send(b"x\x1b[27u");
    recorded(&w, "p.bin", b"x\x1b[27u");
    let written = t.written();
    assert!(
        written.windows(4).any(|s| s == b"\x1b[?u"),
        "the client did not ask"
    );
    assert!(
        !written.windows(5).any(|s| s == b"\x1b[>3u"),
        "the client pushed kitty flags on a terminal without the protocol"
    );
    drop(t);

    let mut t = attach(&w, Answers::Kitty, "p");
    eventually("the protocol on", || (t.kitty_stack() == [3]).then_some(()));
    let pid = t.pid().expect("client pid") as i32;
    // SAFETY: signals to the client process this test started.
    unsafe { libc::kill(pid, libc::SIGTSTP) };
    eventually("the protocol off while suspended", || {
        t.kitty_stack().is_empty().then_some(())
    });
    // SAFETY: as above.
    unsafe { libc::kill(pid, libc::SIGCONT) };
    eventually("the protocol on again", || {
        (t.kitty_stack() == [3]).then_some(())
    });
    t.send(b"\x02d");
    t.wait_exit();
    assert!(t.kitty_stack().is_empty(), "left on: {:?}", t.kitty_stack());
}
