//! tmux's commands about clients and the server's records (issue 16): lock-server,
//! lock-session, lock-client and lock-after-time in a real client in a PTY,
//! suspend-client stopping the client's process, show-messages, the prompt's history
//! shared through the server, and server-access; tmux's output and exit codes beside
//! fugue's where tmux can run them without a terminal.

use super::harness::{World, eventually, status_line};
use super::manage_panes::{Twins, code};
use std::time::Duration;

/// A lock-command that shows it has the terminal and ends on Enter.
const LOCK: &str = "printf 'LOCKED-HERE\\n'; read x";

#[test]
fn lock_commands_run_lock_command_in_the_terminal_and_draw_again_after() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "lk"], 80, 24);
    t.wait_text("[lk]");
    w.ok(&["set", "-g", "lock-command", LOCK]);
    let lock_and_unlock = |t: &mut super::harness::Tui, args: &[&str]| {
        w.ok(args);
        t.wait(&format!("{args:?} locks"), |s| {
            s.contents().contains("LOCKED-HERE") && !s.contents().contains("[lk]")
        });
        t.send(b"\r");
        t.wait(&format!("{args:?} gives the session back"), |s| {
            s.contents().contains("[lk]") && !s.contents().contains("LOCKED-HERE")
        });
    };
    lock_and_unlock(&mut t, &["lock-server"]);
    lock_and_unlock(&mut t, &["lock-session", "-t", "lk"]);
    let name = w.ok(&["list-clients", "-F", "#{client_name}"]);
    lock_and_unlock(&mut t, &["lock-client", "-t", name.trim()]);
    // The session's own lock-command wins over the global one.
    w.ok(&[
        "set",
        "-t",
        "lk",
        "lock-command",
        "printf 'SESSION-LOCK\\n'; read x",
    ]);
    w.ok(&["lock-session"]);
    t.wait("the session's lock-command", |s| {
        s.contents().contains("SESSION-LOCK")
    });
    t.send(b"\r");
    t.wait_text("[lk]");

    // lock-after-time: locked after a second without a key.
    w.ok(&["set", "-u", "-t", "lk", "lock-command"]);
    w.ok(&["set", "-g", "lock-after-time", "1"]);
    t.wait("locked when idle", |s| s.contents().contains("LOCKED-HERE"));
    w.ok(&["set", "-g", "lock-after-time", "0"]);
    t.send(b"\r");
    t.wait_text("[lk]");

    // A lock-command that fails says so instead of leaving the person guessing.
    w.ok(&["set", "-g", "lock-command", "exit 3"]);
    w.ok(&["lock-server"]);
    t.wait("the failure", |s| {
        status_line(s).contains("lock-command failed")
    });
}

#[test]
fn lock_client_and_suspend_client_without_a_client_fail_as_in_tmux() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s"]);
    for args in [
        &["lock-client"][..],
        &["suspend-client"],
        &["lock-client", "-t", "/dev/nowhere"],
    ] {
        let (mine, theirs) = tw.run(args);
        assert_eq!(code(&mine), Some(1), "{args:?}: {mine:?}");
        if let Some(theirs) = theirs {
            assert_eq!(code(&mine), code(&theirs), "{args:?} as tmux");
        }
    }
    // With no client to lock, the server and a session lock nothing and succeed.
    for args in [&["lock-server"][..], &["lock-session", "-t", "s"]] {
        let (mine, theirs) = tw.run(args);
        assert_eq!(code(&mine), Some(0), "{args:?}: {mine:?}");
        if let Some(theirs) = theirs {
            assert_eq!(code(&theirs), Some(0), "{args:?} in tmux");
        }
    }
}

fn state_of(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The state follows the command's closing parenthesis.
    stat.rsplit_once(") ")?.1.chars().next()
}

#[test]
fn suspend_client_stops_the_client_until_it_is_continued() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "sp"], 80, 24);
    t.wait_text("[sp]");
    let pid = t.pid().expect("the client's pid");
    w.ok(&["suspend-client"]);
    eventually("the client stopped", || {
        (state_of(pid) == Some('T')).then_some(())
    });
    // The terminal was given back before it stopped: the main screen, no status.
    t.wait("the terminal given back", |s| {
        !s.contents().contains("[sp]")
    });
    // SAFETY: sends a signal to the client this test started.
    unsafe { libc::kill(i32::try_from(pid).expect("pid"), libc::SIGCONT) };
    t.wait("drawn again", |s| s.contents().contains("[sp]"));
    assert_ne!(state_of(pid), Some('T'));
    t.send(b"echo still-typing\r");
    t.wait_text("still-typing");
}

#[test]
fn show_messages_lists_commands_and_messages_newest_first() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "m"]);
    w.ok(&["display-message", "-t", "m", "hello from the log"]);
    w.ok(&["rename-window", "-t", "m:0", "renamed"]);
    let out = w.ok(&["show-messages"]);
    let lines: Vec<&str> = out.lines().collect();
    let at = |needle: &str| {
        lines
            .iter()
            .position(|l| l.contains(needle))
            .unwrap_or_else(|| panic!("{needle:?} in {out}"))
    };
    // Newest first: show-messages itself was logged after the rest.
    assert!(at("command: rename-window") < at("message: hello from the log"));
    assert!(at("message: hello from the log") < at("command: display-message"));
    assert!(at("command: display-message") < at("command: new-session"));
    // tmux's `#{t/p:message_time}: ` in front: HH:MM today.
    let first = lines.first().copied().unwrap_or_default();
    let (time, _) = first.split_once(": ").expect("a time");
    assert!(
        time.len() == 5 && time.as_bytes()[2] == b':',
        "time {time:?} in {first:?}"
    );
    // message-limit bounds it.
    w.ok(&["set", "-s", "message-limit", "2"]);
    w.ok(&["display-message", "-t", "m", "x"]);
    assert_eq!(w.ok(&["show-messages"]).lines().count(), 2);
}

#[test]
fn the_prompt_history_is_the_servers_and_prints_as_tmux_prints_it() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s"]);
    // Empty, every type and one type, byte for byte as tmux.
    tw.same(&["show-prompt-history"]);
    tw.same(&["show-prompt-history", "-T", "command"]);
    let (mine, theirs) = tw.run(&["clear-prompt-history", "-T", "foo"]);
    assert_eq!(code(&mine), Some(1));
    assert!(String::from_utf8_lossy(&mine.stderr).contains("invalid type: foo"));
    if let Some(theirs) = theirs {
        assert_eq!(code(&theirs), Some(1));
    }

    // Lines entered at one client's prompt are the server's, and another client's Up
    // finds them.
    let w = &tw.w;
    let mut a = w.tui(&["attach", "-t", "s"], 80, 24);
    a.wait_text("[s]");
    a.prefix(b":");
    a.wait("the prompt", |s| status_line(s).starts_with(':'));
    a.send(b"set -g @typed one\r");
    eventually("the option set", || {
        let out = w.run(&["show", "-gv", "@typed"]);
        (String::from_utf8_lossy(&out.stdout).trim() == "one").then_some(())
    });
    assert_eq!(
        w.ok(&["show-prompt-history", "-T", "command"]),
        "History for command:\n\n1: set -g @typed one\n\n"
    );
    drop(a);
    let mut b = w.tui(&["attach", "-t", "s"], 80, 24);
    b.wait_text("[s]");
    b.prefix(b":");
    b.wait("the prompt", |s| status_line(s).starts_with(':'));
    // The history is fetched as the prompt opens: Up until it has come (with one
    // line in it, more Ups stay on that line).
    eventually("Up recalls the other client's line", || {
        b.send(b"\x1b[A");
        std::thread::sleep(Duration::from_millis(100));
        b.screen(|s| status_line(s).starts_with(":set -g @typed one"))
            .then_some(())
    });
    b.send(b"\x1b");
    w.ok(&["clear-prompt-history"]);
    assert_eq!(
        w.ok(&["show-prompt-history", "-T", "command"]),
        "History for command:\n\n\n"
    );
}

#[test]
fn server_access_lists_as_tmux_and_refuses_to_add_users() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s"]);
    tw.same(&["server-access", "-l"]);
    let (mine, _) = tw.run(&["server-access", "-a", "nobody"]);
    assert_eq!(code(&mine), Some(1));
    let err = String::from_utf8_lossy(&mine.stderr);
    assert!(err.contains("serves only the user it runs as"), "{err}");
    let (mine, theirs) = tw.run(&["server-access", "-a", "-d", "nobody"]);
    assert_eq!(code(&mine), Some(1));
    if let Some(theirs) = theirs {
        assert_eq!(code(&theirs), Some(1));
    }
}
