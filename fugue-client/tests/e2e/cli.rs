//! CLI verbs against a real server.

use super::harness::{World, eventually};

fn capture(w: &World, target: &str) -> String {
    w.ok(&["capture-pane", "-p", "-t", target])
}

fn wait_capture(w: &World, target: &str, text: &str) -> String {
    eventually(&format!("`{text}` in {target}"), || {
        let c = capture(w, target);
        c.contains(text).then_some(c)
    })
}

#[test]
fn detached_session_capture_with_escapes_split_and_list() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "w",
        "-x",
        "120",
        "-y",
        "40",
        "--",
        "sh",
        "-c",
        "printf '\\033[31mred\\033[0m\\n'; exec cat",
    ]);
    let esc = eventually("red text", || {
        let c = w.ok(&["capture-pane", "-p", "-e", "-t", "w"]);
        c.contains("red").then_some(c)
    });
    assert!(esc.contains("\x1b[31mred\n"), "{esc:?}");
    let id = w.ok(&["split-window", "-t", "w", "-h", "-P", "-F", "#{pane_id}"]);
    assert!(
        id.trim().starts_with('%') && id.trim()[1..].parse::<u32>().is_ok(),
        "{id:?}"
    );
    let panes: Vec<serde_json::Value> =
        serde_json::from_str(&w.ok(&["list-panes", "-t", "w", "--json"])).expect("json");
    assert_eq!(panes.len(), 2);
    // 120 columns split in two boxes of 60: 58 columns inside each.
    assert_eq!(panes[0]["width"], 58);
    assert_eq!(
        panes[1]["id"].as_str().map(String::from),
        Some(id.trim().to_string())
    );
    // -P alone prints tmux's `session:window.pane`, as tmux (new-session: `session:`).
    assert_eq!(w.ok(&["split-window", "-t", "w", "-d", "-P"]), "w:0.2\n");
    assert_eq!(w.ok(&["new-window", "-t", "w", "-d", "-P"]), "w:1.0\n");
    assert_eq!(w.ok(&["new-session", "-d", "-s", "v", "-P"]), "v:\n");
}

#[test]
fn unknown_target_fails_and_names_what_exists() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "w"]);
    let out = w.run(&["capture-pane", "-p", "-t", "nosuch"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nosuch") && err.contains("sessions: w"),
        "{err}"
    );
    let out = w.run(&["kill-pane", "-t", "%99"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("%99") && err.contains("%1 (w:0.0)"),
        "{err}"
    );
    let out = w.run(&["send-keys", "-t", "w:5", "x"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && err.contains("no window 5"),
        "{err}"
    );
}

#[test]
fn send_keys_types_text_and_key_names() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "k"]);
    w.ok(&["send-keys", "-t", "k", "sleep 100", "Enter"]);
    eventually("sleep to run", || {
        w.ok(&["list-panes", "-t", "k", "-F", "#{pane_current_command}"])
            .contains("sleep")
            .then_some(())
    });
    w.ok(&["send-keys", "-t", "k", "C-c"]);
    w.ok(&["send-keys", "-t", "k", "-l", "echo lit-$((2+3)) Enter"]);
    w.ok(&["send-keys", "-t", "k", "Enter"]);
    wait_capture(&w, "k", "lit-5 Enter");
}

/// Issue 18: `send-keys` then `wait-for --text` raced (output that came before the
/// wait began was missed); `send-keys -P` prints the cursor to wait after.
#[test]
fn send_keys_prints_a_cursor_that_wait_for_waits_after() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "p"]);
    let cursor = w.ok(&[
        "send-keys",
        "-P",
        "-t",
        "p",
        "echo printed-$((3*3))",
        "Enter",
    ]);
    let cursor = cursor.trim();
    assert!(
        cursor.starts_with('%') && cursor.contains('@'),
        "{cursor:?}"
    );
    // The output is there before the wait starts.
    wait_capture(&w, "p", "printed-9\n");
    let line = w.ok(&[
        "wait-for",
        "-t",
        "p",
        "--text",
        "^printed-9$",
        "--after",
        cursor,
        "--timeout",
        "3000",
    ]);
    assert_eq!(line.trim(), "printed-9");
    // Without -P nothing is printed, as tmux.
    assert_eq!(w.ok(&["send-keys", "-t", "p", "true", "Enter"]), "");
}

#[test]
fn capture_ranges_reach_into_history_and_join_wrapped_lines() {
    let w = World::new();
    w.ok(&[
        "new",
        "-d",
        "-s",
        "h",
        "-x",
        "40",
        "-y",
        "12",
        "--",
        "sh",
        "-c",
        "seq 1 100; exec cat",
    ]);
    wait_capture(&w, "h", "100");
    let all = w.ok(&["capture-pane", "-p", "-t", "h", "-S", "-", "-E", "-"]);
    let lines: Vec<&str> = all.lines().filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.first(), Some(&"1"));
    assert!(lines.contains(&"100"));
    let some = w.ok(&["capture-pane", "-p", "-t", "h", "-S", "-3", "-E", "-1"]);
    assert_eq!(some.lines().count(), 3, "{some:?}");

    w.ok(&[
        "new",
        "-d",
        "-s",
        "j",
        "-x",
        "12",
        "-y",
        "8",
        "--",
        "sh",
        "-c",
        "echo abcdefghijklmnop; exec cat",
    ]);
    wait_capture(&w, "j", "abcdefghij");
    let joined = w.ok(&["capture-pane", "-p", "-J", "-t", "j"]);
    assert!(joined.contains("abcdefghijklmnop"), "{joined:?}");
    let plain = w.ok(&["capture-pane", "-p", "-t", "j"]);
    assert!(!plain.contains("abcdefghijklmnop"), "{plain:?}");
}

#[test]
fn windows_layouts_and_renames() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "lay", "-x", "100", "-y", "30"]);
    w.ok(&["split-window", "-t", "lay", "-h"]);
    w.ok(&["split-window", "-t", "lay", "-v"]);
    w.ok(&["select-layout", "-t", "lay", "even-horizontal"]);
    let widths = w.ok(&[
        "list-panes",
        "-t",
        "lay",
        "-F",
        "#{pane_width}x#{pane_height}",
    ]);
    assert_eq!(
        widths.lines().collect::<Vec<_>>(),
        vec!["32x28", "31x28", "31x28"],
        "{widths}"
    );
    w.ok(&["select-layout", "-t", "lay", "even-vertical"]);
    let heights = w.ok(&["list-panes", "-t", "lay", "-F", "#{pane_height}"]);
    assert_eq!(heights.lines().collect::<Vec<_>>(), vec!["8", "8", "8"]);
    w.ok(&["select-layout", "-t", "lay", "tiled"]);
    // Cycling the presets (the active pane is the last one) never reorders the panes:
    // the main pane of main-* is the first, as in tmux.
    let order = |w: &World| w.ok(&["list-panes", "-t", "lay", "-F", "#{pane_id}"]);
    let before = order(&w);
    for _ in 0..5 {
        w.ok(&["select-layout", "-t", "lay", "-n"]);
        assert_eq!(order(&w), before);
    }
    w.ok(&["select-layout", "-t", "lay", "main-vertical"]);
    w.ok(&["resize-pane", "-t", "lay:0.0", "-R", "5"]);
    w.ok(&["resize-pane", "-t", "lay:0.0", "-Z"]);
    let zoomed = w.ok(&[
        "list-panes",
        "-t",
        "lay",
        "-F",
        "#{pane_index} #{pane_width}",
    ]);
    assert!(
        zoomed.lines().next().is_some_and(|l| l == "0 98"),
        "{zoomed}"
    );

    w.ok(&["new-window", "-t", "lay", "-n", "second"]);
    w.ok(&["rename-window", "-t", "lay:1", "renamed"]);
    w.ok(&["rename-session", "-t", "lay", "lay2"]);
    let names = w.ok(&[
        "list-panes",
        "-s",
        "-t",
        "lay2",
        "-F",
        "#{session_name}:#{window_index}:#{window_name}",
    ]);
    assert!(names.contains("lay2:1:renamed"), "{names}");
    w.ok(&["select-window", "-t", "lay2:0"]);
    w.ok(&["next-window", "-t", "lay2"]);
    let active = w.ok(&[
        "list-panes",
        "-s",
        "-t",
        "lay2",
        "-F",
        "#{window_index}#{window_active}",
    ]);
    assert!(active.contains("11"), "{active}");
    w.ok(&["kill-window", "-t", "lay2:1"]);
    assert_eq!(w.panes().len(), 3);
    // An unknown variable is empty, as in tmux (fugue used to refuse it).
    let out = w.ok(&["list-panes", "-F", "[#{nope}]"]);
    assert!(out.lines().all(|l| l == "[]"), "{out}");
}

#[test]
fn programs_get_answers_from_the_terminal_with_no_client() {
    let w = World::new();
    // The program asks for the cursor position and prints what it got back.
    w.ok(&[
        "new", "-d", "-s", "dsr", "--", "sh", "-c",
        "stty -icanon -echo; printf 'ab\\033[6n'; r=$(dd bs=1 count=6 2>/dev/null | od -An -c | tr -d ' '); echo; echo \"got:$r\"; exec cat",
    ]);
    let c = wait_capture(&w, "dsr", "got:");
    assert!(c.contains("got:033[1;3R"), "{c}");
}

#[test]
fn panes_know_where_they_are() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "env"]);
    w.ok(&[
        "send-keys",
        "-t",
        "env",
        "echo \"id=$FUGUE_PANE_ID sock=$FUGUE_SOCKET term=$TERM\"",
        "Enter",
    ]);
    let c = wait_capture(&w, "env", "id=%1");
    assert!(c.contains(&format!("sock={}", w.socket.display())), "{c}");
    assert!(c.contains("term=xterm-256color"), "{c}");
    // Inside a pane, a CLI call with no target means that pane.
    let inner = format!(
        "{} list-panes -F inner=#{{pane_id}}",
        super::harness::fugue_bin().display()
    );
    w.ok(&["send-keys", "-t", "env", &inner, "Enter"]);
    wait_capture(&w, "env", "inner=%1");
}

/// The server takes the caller's pane from the process tree, not from `FUGUE_PANE_ID`:
/// a program that unsets or fakes it still calls from its own pane (an agent must not
/// pass for a person, or for another agent).
#[test]
fn the_caller_pane_comes_from_the_process_tree_not_the_environment() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "who"]);
    // The most recent session, which an unplaced call would otherwise default to.
    w.ok(&["new", "-d", "-s", "other"]);
    let fugue = super::harness::fugue_bin();
    let line = format!(
        "env -u FUGUE_PANE_ID {f} list-panes -F unset=#{{pane_id}}; FUGUE_PANE_ID=%2 {f} list-panes -F faked=#{{pane_id}}",
        f = fugue.display()
    );
    w.ok(&["send-keys", "-t", "who", &line, "Enter"]);
    let c = wait_capture(&w, "who", "faked=%");
    assert!(c.contains("\nunset=%1\n"), "{c}");
    assert!(c.contains("\nfaked=%1\n"), "{c}");
}

/// `split-window -l N` gives the new pane N cells of its own, as in tmux (its border is
/// not counted), and a size that cannot be gets a hint about sizes, not about room.
#[test]
fn split_sizes_are_the_new_panes_own() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "sz", "-x", "100", "-y", "30"]);
    let id = w.ok(&[
        "split-window",
        "-t",
        "sz",
        "-h",
        "-l",
        "20",
        "-P",
        "-F",
        "#{pane_id}",
    ]);
    let widths = w.ok(&["list-panes", "-t", "sz", "-F", "#{pane_id} #{pane_width}"]);
    assert!(
        widths.lines().any(|l| l == format!("{} 20", id.trim())),
        "{widths}"
    );
    let bad = w.run(&["split-window", "-t", "sz", "-h", "-l", "200%"]);
    assert!(!bad.status.success());
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("1% to 99%"), "{err}");
    assert!(!err.contains("make the window larger"), "{err}");
}
