//! tmux habits from the command line: formats, has-session, display -p, capture ranges,
//! and a session whose program exits at once.

use super::harness::{World, eventually};

/// Acceptance test C: `-F` failed on `#{pane_index}` after the pane was made.
#[test]
fn split_and_new_window_print_any_list_panes_variable() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "fmt"]);
    let out = w.ok(&[
        "split-window",
        "-t",
        "fmt",
        "-d",
        "-P",
        "-F",
        "#{pane_index} #{session_name}:#{window_index} #{pane_width}",
    ]);
    let pane = w
        .panes()
        .into_iter()
        .find(|p| p["index"] == 1)
        .expect("pane 1");
    assert_eq!(
        out.trim(),
        format!("1 fmt:0 {}", pane["width"]),
        "split-window -P -F"
    );
    let out = w.ok(&[
        "new-window",
        "-t",
        "fmt",
        "-d",
        "-P",
        "-F",
        "#{window_index}.#{pane_index}",
    ]);
    assert_eq!(out.trim(), "1.0");
    let out = w.ok(&[
        "new-session",
        "-d",
        "-s",
        "fmt2",
        "-P",
        "-F",
        "#{session_name} #{pane_active}",
    ]);
    assert_eq!(out.trim(), "fmt2 1");
}

/// An unknown variable in `-P -F` is empty, as in tmux (fugue used to refuse the
/// format); the pane is made and the rest of the format printed.
#[test]
fn an_unknown_format_variable_is_empty() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "bad"]);
    let out = w.ok(&[
        "split-window",
        "-t",
        "bad",
        "-P",
        "-F",
        "[#{no_such_thing}]#{session_name}",
    ]);
    assert_eq!(out.trim(), "[]bad");
    assert_eq!(w.panes().len(), 2);
}

/// Acceptance test D: a session whose program exits at once, attached to.
#[test]
fn new_session_whose_program_exits_at_once_prints_exited() {
    let w = World::new();
    // Another session keeps the server up, as in the report.
    w.ok(&["new-session", "-d", "-s", "keep"]);
    let mut t = w.tui(&["new-session", "-s", "quick", "--", "true"], 80, 24);
    assert_eq!(t.wait_exit(), 0, "screen:\n{}", t.contents());
    t.wait_text("[exited]");
    assert!(!t.contents().contains("unknown target"), "{}", t.contents());
}

/// Acceptance test G: has-session, for `has-session -t x || new -d -s x`.
#[test]
fn has_session_answers_with_its_exit_status_only() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "here"]);
    let yes = w.run(&["has-session", "-t", "here"]);
    assert_eq!(yes.status.code(), Some(0));
    let no = w.run(&["has-session", "-t", "gone"]);
    assert_eq!(no.status.code(), Some(1));
    assert!(yes.stdout.is_empty() && no.stdout.is_empty() && no.stderr.is_empty());
}

/// Acceptance test G: display-message -p prints a format for the target pane.
#[test]
fn display_message_p_prints_the_format_for_the_target() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "disp", "-n", "ed"]);
    w.ok(&["split-window", "-t", "disp", "-d"]);
    let out = w.ok(&[
        "display-message",
        "-p",
        "-t",
        "disp:0.1",
        "#{session_name}/#{window_name}/#{pane_index}",
    ]);
    assert_eq!(out.trim(), "disp/ed/1");
    // A window target names its active pane.
    let out = w.ok(&[
        "display",
        "-p",
        "-t",
        "disp",
        "#{pane_index} #{pane_active}",
    ]);
    assert_eq!(out.trim(), "0 1");
    // An unknown variable is empty, as in tmux (which prints an empty line).
    let unknown = w.ok(&["display", "-p", "-t", "disp", "x#{nope}y"]);
    assert_eq!(unknown.trim(), "xy");
}

/// A config script probes `#{version}` before the first session (issue 28, item 11):
/// with a server and no session, display -p expands in no session's scope, as tmux
/// 3.3a does after `start-server`; with a target it still needs one.
#[test]
fn display_message_p_works_before_the_first_session() {
    use super::manage_panes::Twins;
    let tw = Twins::empty();
    let (mine, theirs) = tw.run(&[
        "start-server",
        ";",
        "display-message",
        "-p",
        "[#{session_name}] #{@none}x",
    ]);
    assert_eq!(String::from_utf8_lossy(&mine.stdout), "[] x\n", "{mine:?}");
    if let Some(t) = theirs {
        assert_eq!(t.stdout, mine.stdout);
    }
    let version = tw.w.ok(&["display-message", "-p", "#{version}"]);
    assert!(!version.trim().is_empty());
    let refused = tw.w.run(&["display-message", "-p", "-t", "nosuch", "x"]);
    assert_eq!(refused.status.code(), Some(1));
}

/// display -p without a target describes the pane the caller runs in.
#[test]
fn display_message_p_defaults_to_the_callers_pane() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "me"]);
    w.ok(&["split-window", "-t", "me", "-d"]);
    let fugue = super::harness::fugue_bin();
    let socket = w.socket.to_string_lossy().into_owned();
    // The pane that is not active runs display -p; it must name itself.
    w.ok(&[
        "send-keys",
        "-t",
        "me:0.1",
        &format!(
            "{} -S {socket} display -p 'me=#{{pane_index}}'",
            fugue.display()
        ),
        "Enter",
    ]);
    eventually("display -p's output in pane 1", || {
        w.ok(&["capture-pane", "-p", "-t", "me:0.1"])
            .lines()
            .any(|l| l.trim() == "me=1")
            .then_some(())
    });
}

/// Acceptance test H: a reversed range is swapped, as tmux does.
#[test]
fn capture_pane_swaps_a_reversed_range() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "cap",
        "--",
        "sh",
        "-c",
        "seq 1 9; exec cat",
    ]);
    eventually("the output", || {
        w.ok(&["capture-pane", "-p", "-t", "cap"])
            .contains('9')
            .then_some(())
    });
    let out = w.ok(&["capture-pane", "-p", "-t", "cap", "-S", "5", "-E", "2"]);
    assert_eq!(out.lines().collect::<Vec<_>>(), vec!["3", "4", "5", "6"]);
}

/// `list-windows` (`lsw`): a session's windows with their pane counts, `-a` for every
/// session, `-F` with window variables, `--json`.
#[test]
fn list_windows_shows_each_window_once() {
    let w = World::new();
    w.ok(&["new", "-d", "-s", "a"]);
    w.ok(&["new-window", "-t", "a", "-n", "second"]);
    w.ok(&["split-window", "-t", "a:1"]);
    w.ok(&["new", "-d", "-s", "b"]);
    let lines = w.ok(&[
        "lsw",
        "-t",
        "a",
        "-F",
        "#{window_index}:#{window_name}:#{window_panes}:#{window_active}",
    ]);
    let rows: Vec<&str> = lines.lines().collect();
    assert_eq!(rows.len(), 2, "{lines}");
    // The first window is named after its program, whatever the shell is.
    assert!(
        rows[0].starts_with("0:") && rows[0].ends_with(":1:0"),
        "{lines}"
    );
    assert_eq!(rows[1], "1:second:2:1");
    let all = w.ok(&["list-windows", "-a"]);
    assert_eq!(all.lines().count(), 3, "{all}");
    assert!(all.lines().any(|l| l.starts_with("b:0: ")), "{all}");
    let json: serde_json::Value =
        serde_json::from_str(&w.ok(&["lsw", "-t", "a", "--json"])).unwrap();
    assert_eq!(json[1]["panes"], 2);
    // An unknown variable is empty, as in tmux (fugue used to refuse it).
    let bad = w.ok(&["lsw", "-t", "a", "-F", "<#{pane_nope}>"]);
    assert_eq!(bad, "<>\n<>\n");
}

/// tmux's `-c` is a format: `split-window -c '#{pane_current_path}'` (in nearly every
/// tmux.conf) starts the new pane in the directory of the pane it splits.
#[test]
fn split_window_c_takes_a_format() {
    let w = World::new();
    let dir = w.path("work-dir");
    std::fs::create_dir_all(&dir).expect("dir");
    let dir = dir.canonicalize().expect("canonical").display().to_string();
    w.ok(&["new-session", "-d", "-s", "cf", "-c", &dir]);
    w.ok(&["split-window", "-t", "cf", "-c", "#{pane_current_path}"]);
    let paths = w.ok(&["list-panes", "-t", "cf", "-F", "#{pane_current_path}"]);
    assert_eq!(paths.lines().collect::<Vec<_>>(), [&dir, &dir], "{paths}");
}

/// display-message's text is a format, as tmux's: the attached client shows it
/// expanded.
#[test]
fn display_message_expands_its_format() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "dm"]);
    let t = w.tui(&["attach", "-t", "dm"], 80, 24);
    t.wait_text("[dm]");
    w.ok(&["display-message", "-t", "dm", "hello #S-#{window_index}"]);
    t.wait_text("hello dm-0");
}
