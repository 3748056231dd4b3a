//! `command-prompt` as configurations and libtmux use it (issue 16): a template's
//! questions on a terminal client's status line (beside tmux's), the CLI asking a
//! named client, `send-keys -K` pressing keys at a terminal client, and a control
//! client's questions answered by `send-keys -K`, as libtmux drives them.

use super::control_mode::Ctl;
use super::harness::{TestTmux, World, eventually, status_line};

fn option(w: &World, name: &str) -> String {
    let out = w.run(&["show", "-gv", name]);
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

#[test]
fn a_bound_template_prompt_asks_each_question_and_runs_the_filled_line() {
    const BIND: [&str; 8] = [
        "bind",
        "S",
        "command-prompt",
        "-p",
        "first,second",
        "-I",
        "pre",
        "set -g @tp '%1-%2'",
    ];
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "tp"]);
    w.ok(&BIND);
    let mut t = w.tui(&["attach", "-t", "tp"], 80, 24);
    t.wait_text("[tp]");
    t.prefix(b"S");
    t.wait("the first question", |s| {
        status_line(s).starts_with("first pre")
    });
    let mine = t.screen(status_line);
    t.send(b"\x7f\x7f\x7fa\r");
    t.wait("the second question", |s| {
        status_line(s).starts_with("second ")
    });
    t.send(b"b\r");
    eventually("the filled line ran", || {
        (option(&w, "@tp") == "a-b").then_some(())
    });
    // Escape leaves it unanswered.
    t.prefix(b"S");
    t.wait("asked again", |s| status_line(s).starts_with("first pre"));
    t.send(b"\x1b");
    t.wait("closed", |s| !status_line(s).starts_with("first"));

    // tmux 3.3a draws the first question the same.
    if super::twins::Tmux::available().is_some() {
        let tmux = TestTmux::new(&w, "");
        let mut tt = w.sh(&tmux.script("new-session -s q"), 80, 24);
        eventually("tmux up", || {
            tmux.run(&["has-session", "-t", "q"])
                .status
                .success()
                .then_some(())
        });
        tmux.ok(&BIND);
        tt.send(b"\x02S");
        tt.wait("tmux asks", |s| status_line(s).starts_with("first"));
        assert_eq!(tt.screen(status_line).trim_end(), mine.trim_end());
    }
}

#[test]
fn the_cli_asks_a_named_client_and_send_keys_k_types_at_it() {
    let w = World::new();
    let t = w.tui(&["new-session", "-s", "k"], 80, 24);
    t.wait_text("[k]");
    let name = w.ok(&["list-clients", "-F", "#{client_name}"]);
    let name = name.trim();
    w.ok(&[
        "command-prompt",
        "-t",
        name,
        "-p",
        "value:",
        "set -g @cli '%%'",
    ]);
    t.wait("the question", |s| status_line(s).starts_with("value: "));
    // The keys arrive as if typed there: into the prompt, then Enter.
    w.ok(&["send-keys", "-K", "-c", name, "h", "i", "Enter"]);
    eventually("answered", || (option(&w, "@cli") == "hi").then_some(()));
    // The prefix and a binding, pressed from outside.
    w.ok(&["send-keys", "-K", "-c", name, "C-b", "c"]);
    t.wait("a new window", |s| status_line(s).contains("1:sh"));
    let bad = w.run(&["send-keys", "-K", "-c", "/dev/nowhere", "x"]);
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn a_control_clients_questions_are_answered_by_send_keys_k_as_libtmux_does() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "c"]);
    let mut c = Ctl::fugue(&w, &["attach-session", "-t", "c"]);
    c.wait("%session-changed", |l| l.starts_with("%session-changed $"));
    let name = eventually("the control client listed", || {
        let out = w.ok(&["list-clients", "-F", "#{client_name}"]);
        (!out.trim().is_empty()).then(|| out.trim().to_string())
    });
    // libtmux's command_prompt(): -b, -t CLIENT, a template; then one key at a time.
    w.ok(&["command-prompt", "-b", "-t", &name, "set -g @cp '%1'"]);
    for key in ["h", "e", "l", "l", "o", "Enter"] {
        w.ok(&["send-keys", "-K", "-c", &name, key]);
    }
    assert_eq!(option(&w, "@cp"), "hello");
    // -I fills the answer; Enter alone takes it.
    w.ok(&[
        "command-prompt",
        "-b",
        "-I",
        "prefilled",
        "-t",
        &name,
        "set -g @pre '%1'",
    ]);
    w.ok(&["send-keys", "-K", "-c", &name, "Enter"]);
    assert_eq!(option(&w, "@pre"), "prefilled");
    // confirm-before: y runs it; -y makes Enter run it; anything else declines.
    w.ok(&["confirm-before", "-b", "-t", &name, "set -g @y yes"]);
    w.ok(&["send-keys", "-K", "-c", &name, "y"]);
    assert_eq!(option(&w, "@y"), "yes");
    w.ok(&["confirm-before", "-b", "-y", "-t", &name, "set -g @e yes"]);
    w.ok(&["send-keys", "-K", "-c", &name, "Enter"]);
    assert_eq!(option(&w, "@e"), "yes");
    w.ok(&["confirm-before", "-b", "-t", &name, "set -g @n yes"]);
    w.ok(&["send-keys", "-K", "-c", &name, "n"]);
    assert_eq!(option(&w, "@n"), "");
    w.ok(&[
        "confirm-before",
        "-b",
        "-c",
        "Z",
        "-t",
        &name,
        "set -g @z yes",
    ]);
    w.ok(&["send-keys", "-K", "-c", &name, "Z"]);
    assert_eq!(option(&w, "@z"), "yes");
    // With no terminal client on the session the control client is the current one:
    // a question without -t CLIENT waits for it, and display-panes (numbers it never
    // draws) is done, as tmux's (libtmux's display_panes() under control mode).
    w.ok(&["confirm-before", "-b", "-t", "c", "set -g @s yes"]);
    w.ok(&["send-keys", "-K", "-c", &name, "y"]);
    assert_eq!(option(&w, "@s"), "yes");
    w.ok(&["display-panes", "-t", "c"]);
    c.detach();
    let none = w.run(&["display-panes", "-t", "c"]);
    assert_eq!(none.status.code(), Some(1), "no client at all: {none:?}");
}
