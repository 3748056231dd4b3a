//! `C-b :` (issue 15): tmux's command prompt in a real client in a PTY. A line runs
//! through the tmux parser and the CLI's verb table; errors show on the status line.

use super::harness::{World, eventually, status_line};

#[test]
fn the_prompt_runs_a_command_line() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "cp"], 100, 30);
    t.wait_text("[cp]");
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"split-window -h\r");
    eventually("two panes", || (w.panes().len() == 2).then_some(()));

    // An unknown command names itself, as tmux says it; nothing of the line runs.
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"split-window -v ; frobnicate -x\r");
    t.wait("the error", |s| {
        status_line(s).contains("unknown command: frobnicate")
    });
    assert_eq!(w.panes().len(), 2);

    // A sequence runs in order and stops at its first error: the select fails, so
    // the split after it does not run.
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"rename-window one ; select-window -t :=7 ; split-window\r");
    t.wait("the server's error", |s| {
        status_line(s).contains("select-window")
    });
    t.wait("renamed", |s| status_line(s).contains("0:one"));
    t.typed_through();
    assert_eq!(w.panes().len(), 2, "the sequence stopped at the error");

    // Up recalls the last line (edited here), Escape cancels.
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"\x1b[A");
    t.wait("the last line", |s| {
        status_line(s).contains(":rename-window one ;")
    });
    t.send(b"\x15rename-window two\r");
    t.wait("renamed again", |s| status_line(s).contains("0:two"));
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"kill-server\x1b");
    t.wait("cancelled", |s| !status_line(s).starts_with(':'));
    assert_eq!(w.panes().len(), 2);
}

/// A command typed at `C-b :` that prints (list-windows, show-options,
/// show-messages) shows its output over the panes, as tmux's view mode does; q
/// leaves it. Before, the output was dropped.
#[test]
fn a_command_that_prints_shows_its_output_until_q() {
    let w = World::new();
    let mut t = w.tui(&["new-session", "-s", "vw"], 80, 24);
    t.wait_text("[vw]");
    w.ok(&["rename-window", "-t", "vw:0", "first"]);
    t.prefix(b":");
    t.wait("the prompt", |s| status_line(s).starts_with(':'));
    t.send(b"list-windows\r");
    t.wait("the output", |s| {
        s.contents().contains("list-windows (q leaves") && s.contents().contains("0: first*")
    });
    t.send(b"q");
    t.wait("left", |s| !s.contents().contains("list-windows (q leaves"));
    // tmux's C-b ~: the message log.
    t.prefix(b"~");
    t.wait("the log", |s| {
        s.contents().contains("show-messages (q leaves")
            && s.contents().contains("command: rename-window")
    });
    // The history the prompt fetched as it opened is the client's bookkeeping.
    assert!(!t.screen(|s| s.contents().contains("show-prompt-history")));
    t.send(b"q");
    t.wait("left", |s| {
        !s.contents().contains("show-messages (q leaves")
    });
}
