//! Command sequences on the command line (`fugue a \; b`), `run-shell` and `if-shell`
//! (issue 15), against tmux's output and exit codes for the same words.

use super::harness::World;
use super::twins::Tmux;

/// Each case: the words after `fugue`/`tmux`, and the same in both.
const CASES: &[&[&str]] = &[
    &["display", "-p", "one", ";", "display", "-p", "two"],
    &["display", "-p", "one;", "display", "-p", "two"],
    &["display", "-p", "x\\;", ";", "display", "-p", "two"],
    // A bad command anywhere: nothing runs, exit 1.
    &[
        "display", "-p", "one", ";", "frob", ";", "display", "-p", "three",
    ],
    &["frob"],
    &["run-shell", "exit 3"],
    &["if-shell", "true", "display -p yes", "display -p no"],
    &["if-shell", "false", "display -p yes", "display -p no"],
    &[
        "if-shell",
        "-F",
        "#{==:#{session_name},sq}",
        "display -p yes",
        "display -p no",
    ],
    &[
        "if",
        "-F",
        "#{session_windows}",
        "display -p some ; display -p more",
    ],
    &["set", "-g", "@a", "1", ";", "show", "-gv", "@a"],
];

#[test]
fn sequences_run_shell_and_if_shell_behave_as_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "sq"]);
    let tmux = Tmux::start(w.dir.path(), 80, 24, "exec cat");
    if let Some(t) = &tmux {
        t.ok(&["rename-session", "sq"]);
    }
    for case in CASES {
        let ours = w.run(case);
        let Some(t) = &tmux else {
            continue;
        };
        let theirs = t.run(case);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{case:?}: exit codes (fugue stderr: {})",
            String::from_utf8_lossy(&ours.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&theirs.stdout),
            "{case:?}"
        );
    }
    // Better than tmux: run-shell's output reaches the caller (tmux shows it in a
    // pane's view mode, and prints nothing when run from a shell).
    let out = w.run(&["run-shell", "echo #{session_name}-out"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "sq-out\n");
    // A bad command is named.
    let err = w.run(&["display", "-p", "x", ";", "frob"]);
    assert!(String::from_utf8_lossy(&err.stderr).contains("unknown command: frob"));
}
