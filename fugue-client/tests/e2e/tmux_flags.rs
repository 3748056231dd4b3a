//! tmux flags libtmux passes that fugue used to refuse (`list-* -f`, `kill-window -a`,
//! `kill-session -a`, `new-window -k/-S`, `select-pane -d/-e/-m/-M`, `run-shell -c`,
//! `split-window -Z`, `new-session -f`): each scenario runs the same command lines
//! against fugue's `tmux` and the real tmux (each with its own socket) and compares
//! what they print. Without tmux the comparison is skipped with a message.

use super::harness::{TestTmux, World};
use super::twins::Tmux;
use std::process::Output;

/// One step of a scenario: a command line, and whether its standard output (and exit
/// status) must be the same on both sides, or only its success.
pub enum Step<'a> {
    /// Must succeed on both sides; what it prints is not compared.
    Do(&'a [&'a str]),
    /// Standard output and exit status the same on both sides.
    Same(&'a [&'a str]),
    /// Fails on both sides with the same first line on standard error (tmux's words,
    /// which tools match; fugue's suggestion may follow on the next line).
    SameError(&'a [&'a str]),
    /// Run on each side until its standard output is this text (a state that comes
    /// from a program's output, such as a bell's flag), with the harness's timeout.
    Await(&'a [&'a str], &'a str),
}

/// Runs `steps` against fugue's `tmux` and the real tmux, each in a fresh server, and
/// reports every difference at once. False when tmux is not installed.
pub fn both(steps: &[Step]) -> bool {
    let Some(_) = Tmux::available() else {
        eprintln!("tmux is not installed: the comparison is skipped");
        return false;
    };
    let w = World::new();
    let t = TestTmux::new(&w, "");
    let fugue = |args: &[&str]| {
        let mut words = vec!["tmux"];
        words.extend_from_slice(args);
        w.run(&words)
    };
    let tmux = |args: &[&str]| t.run(args);
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let mut problems = Vec::new();
    for step in steps {
        let (args, compare) = match step {
            Step::Do(a) => (a, false),
            Step::Same(a) | Step::SameError(a) => (a, true),
            Step::Await(a, want) => {
                for (name, run) in [
                    ("fugue", &fugue as &dyn Fn(&[&str]) -> Output),
                    ("tmux", &tmux),
                ] {
                    super::harness::eventually(&format!("{name} {a:?} to print {want:?}"), || {
                        (text(&run(a)) == *want).then_some(())
                    });
                }
                continue;
            }
        };
        let (f, t) = (fugue(args), tmux(args));
        let first = |o: &Output| {
            let e = String::from_utf8_lossy(&o.stderr).into_owned();
            e.lines().next().unwrap_or("").to_string()
        };
        if let Step::SameError(_) = step {
            if f.status.success() || t.status.success() || first(&f) != first(&t) {
                problems.push(format!(
                    "{args:?} errors differ\n  fugue: {f:?}\n  tmux:  {t:?}"
                ));
            }
        } else if !compare {
            for (name, o) in [("fugue", &f), ("tmux", &t)] {
                if !o.status.success() {
                    problems.push(format!("{name} {args:?} failed: {o:?}"));
                }
            }
        } else if f.status.code() != t.status.code() || text(&f) != text(&t) {
            problems.push(format!(
                "{args:?} differ\n  fugue: {:?} {:?} {:?}\n  tmux:  {:?} {:?} {:?}",
                f.status.code(),
                text(&f),
                String::from_utf8_lossy(&f.stderr),
                t.status.code(),
                text(&t),
                String::from_utf8_lossy(&t.stderr),
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} differences:\n{}",
        problems.len(),
        problems.join("\n")
    );
    true
}

/// `-f FILTER` on the listings: only the items the format is true for (not empty, not
/// `0`), expanded in the same scope as `-F`.
#[test]
fn list_filters_keep_the_items_the_format_is_true_for() {
    use Step::*;
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-s",
            "a",
            "-n",
            "one",
            "-x",
            "80",
            "-y",
            "24",
            "cat",
        ]),
        Do(&["new-session", "-d", "-s", "b", "-n", "uno", "cat"]),
        Do(&["new-window", "-d", "-t", "a", "-n", "two", "cat"]),
        Do(&["split-window", "-d", "-t", "a:two", "cat"]),
        Do(&["set-buffer", "-b", "x", "hello"]),
        Do(&["set-buffer", "-b", "y", "world"]),
        Same(&[
            "list-sessions",
            "-f",
            "#{==:#{session_name},b}",
            "-F",
            "#{session_name}",
        ]),
        Same(&[
            "list-sessions",
            "-f",
            "#{session_name}",
            "-F",
            "#{session_name}",
        ]),
        Same(&["list-sessions", "-f", "0", "-F", "#{session_name}"]),
        // A session's line sees its active window.
        Same(&[
            "list-sessions",
            "-f",
            "#{==:#{window_name},uno}",
            "-F",
            "#{session_name}",
        ]),
        Same(&[
            "list-windows",
            "-t",
            "a",
            "-f",
            "#{==:#{window_name},two}",
            "-F",
            "#{window_index}:#{window_name}",
        ]),
        Same(&[
            "list-windows",
            "-a",
            "-f",
            "#{==:#{session_name},b}",
            "-F",
            "#{session_name}:#{window_index}",
        ]),
        Same(&[
            "list-windows",
            "-t",
            "a",
            "-f",
            "#{!=:#{window_panes},1}",
            "-F",
            "#{window_name}",
        ]),
        Same(&[
            "list-panes",
            "-s",
            "-t",
            "a",
            "-f",
            "#{pane_index}",
            "-F",
            "#{window_name}.#{pane_index}",
        ]),
        Same(&[
            "list-panes",
            "-a",
            "-f",
            "#{==:#{session_name},b}",
            "-F",
            "#{session_name}:#{window_name}.#{pane_index}",
        ]),
        Same(&[
            "list-buffers",
            "-f",
            "#{==:#{buffer_name},y}",
            "-F",
            "#{buffer_name}:#{buffer_sample}",
        ]),
        Same(&["list-buffers", "-f", "#{m:x*,#{buffer_name}}"]),
    ]);
}

/// `kill-window -a` closes every window of the target's session but the target;
/// `kill-session -a` every session but the target.
#[test]
fn kill_a_closes_everything_but_the_target() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "-n", "w0", "cat"]),
        Do(&["new-window", "-d", "-t", "a", "-n", "w1", "cat"]),
        Do(&["new-window", "-d", "-t", "a", "-n", "w2", "cat"]),
        Do(&["new-session", "-d", "-s", "b", "cat"]),
        Do(&["new-session", "-d", "-s", "c", "cat"]),
        Do(&["kill-window", "-a", "-t", "a:w1"]),
        Same(&[
            "list-windows",
            "-t",
            "a",
            "-F",
            "#{window_index}:#{window_name}",
        ]),
        Same(&["list-sessions", "-F", "#{session_name}:#{session_windows}"]),
        Do(&["kill-session", "-a", "-t", "b"]),
        Same(&["list-sessions", "-F", "#{session_name}"]),
        // Nothing else to close: no error.
        Same(&["kill-session", "-a", "-t", "b"]),
        Same(&["kill-window", "-a", "-t", "b"]),
        Same(&["list-sessions", "-F", "#{session_name}:#{session_windows}"]),
    ]);
}

/// `select-pane -d` turns a pane's input off (`pane_input_off`): keys sent to it are
/// dropped until `-e`; `-m` marks a pane (`pane_marked`, `window_marked_flag`, the
/// `M` window flag), `-m` on it again or `-M` clears the mark.
#[test]
fn select_pane_input_off_and_the_marked_pane() {
    use Step::*;
    const PANES: &str = "#{pane_index}:#{pane_input_off}:#{pane_marked}:#{pane_marked_set}";
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "80",
            "-y",
            "24",
            "cat",
        ]),
        Do(&["split-window", "-d", "-t", "a", "cat"]),
        Do(&["new-window", "-d", "-t", "a", "cat"]),
        Do(&["select-pane", "-d", "-t", "a:0.1"]),
        Same(&["list-panes", "-t", "a:0", "-F", PANES]),
        Do(&["send-keys", "-t", "a:0.1", "-l", "lost"]),
        Do(&["send-keys", "-t", "a:0.1", "Enter"]),
        Do(&["set-buffer", "-b", "p", "pasted"]),
        Do(&["paste-buffer", "-b", "p", "-t", "a:0.1"]),
        Do(&["select-pane", "-e", "-t", "a:0.1"]),
        Do(&["send-keys", "-t", "a:0.1", "-l", "kept"]),
        Do(&["send-keys", "-t", "a:0.1", "Enter"]),
        Do(&["run-shell", "sleep 0.3"]),
        Same(&["capture-pane", "-p", "-t", "a:0.1", "-E", "2"]),
        Same(&["list-panes", "-t", "a:0", "-F", PANES]),
        // Input off does not select the pane.
        Same(&["display-message", "-p", "-t", "a:0", "#{pane_index}"]),
        Do(&["select-pane", "-m", "-t", "a:0.1"]),
        Same(&["list-panes", "-s", "-t", "a", "-F", PANES]),
        Same(&[
            "list-windows",
            "-t",
            "a",
            "-F",
            "#{window_index}:#{window_marked_flag}:#{window_raw_flags}",
        ]),
        Same(&["list-sessions", "-F", "#{session_name}:#{session_marked}"]),
        // -m on the marked pane clears it; -m elsewhere moves it; -M clears it.
        Do(&["select-pane", "-m", "-t", "a:0.1"]),
        Same(&["list-panes", "-s", "-t", "a", "-F", PANES]),
        Do(&["select-pane", "-m", "-t", "a:0.0"]),
        Do(&["select-pane", "-m", "-t", "a:1.0"]),
        Same(&["list-panes", "-s", "-t", "a", "-F", PANES]),
        Do(&["select-pane", "-M", "-t", "a:1.0"]),
        Same(&["list-panes", "-s", "-t", "a", "-F", PANES]),
    ]);
}

/// With no `-s`, `join-pane` and `swap-pane` move the marked pane (tmux's
/// CMD_FIND_DEFAULT_MARKED), not the current one.
#[test]
fn join_and_swap_pane_default_to_the_marked_pane() {
    use Step::*;
    const PANES: &str = "#{window_index}.#{pane_index}:#{pane_title}";
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "80",
            "-y",
            "24",
            "cat",
        ]),
        Do(&["select-pane", "-t", "a:0.0", "-T", "p0"]),
        Do(&["split-window", "-d", "-t", "a:0", "cat"]),
        Do(&["select-pane", "-t", "a:0.1", "-T", "p1"]),
        Do(&["new-window", "-d", "-t", "a:1", "cat"]),
        Do(&["select-pane", "-t", "a:1.0", "-T", "w1"]),
        Do(&["new-window", "-d", "-t", "a:2", "cat"]),
        Do(&["select-pane", "-t", "a:2.0", "-T", "w2"]),
        Do(&["select-pane", "-m", "-t", "a:1.0"]),
        Do(&["join-pane", "-d", "-t", "a:0.0"]),
        Same(&["list-panes", "-s", "-t", "a", "-F", PANES]),
        Do(&["select-pane", "-m", "-t", "a:2.0"]),
        Do(&["swap-pane", "-d", "-t", "a:0.0"]),
        Same(&["list-panes", "-s", "-t", "a", "-F", PANES]),
    ]);
}

/// `new-window -k` replaces the window at the target index (without it, the taken
/// index is an error); `-S -n NAME` selects the window of that name instead of
/// making another, and makes one when there is none.
#[test]
fn new_window_k_replaces_and_s_selects_an_existing_window() {
    use Step::*;
    const WINDOWS: &str = "#{window_index}:#{window_name}:#{window_active}:#{window_panes}";
    both(&[
        Do(&["new-session", "-d", "-s", "a", "-n", "zero", "cat"]),
        Do(&["new-window", "-d", "-t", "a:1", "-n", "one", "cat"]),
        Do(&["split-window", "-d", "-t", "a:1", "cat"]),
        Same(&["new-window", "-d", "-t", "a:1", "-n", "taken", "cat"]),
        Do(&["new-window", "-d", "-k", "-t", "a:1", "-n", "again", "cat"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        // Replacing the current window makes the new one current.
        Do(&["new-window", "-d", "-k", "-t", "a:0", "-n", "fresh", "cat"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        Do(&["new-window", "-S", "-n", "again", "-t", "a:", "cat"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        Same(&[
            "new-window",
            "-d",
            "-S",
            "-n",
            "fresh",
            "-t",
            "a:",
            "-P",
            "cat",
        ]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        Do(&["new-window", "-d", "-S", "-n", "third", "-t", "a:", "cat"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
        Do(&["rename-window", "-t", "a:0", "third"]),
        Same(&["new-window", "-S", "-n", "third", "-t", "a:", "cat"]),
        Same(&["list-windows", "-t", "a", "-F", WINDOWS]),
    ]);
}

/// `run-shell -c DIR` starts the shell command in DIR (with PWD set to it); a DIR that
/// is not a directory falls back to the home directory, as tmux's job.c does. tmux
/// 3.4 added `-c`: the installed 3.3a refuses it, so this checks fugue alone.
#[test]
fn run_shell_c_starts_in_the_directory() {
    let w = World::new();
    w.ok(&["tmux", "new-session", "-d", "-s", "a", "cat"]);
    assert_eq!(w.ok(&["tmux", "run-shell", "-c", "/usr", "pwd"]), "/usr\n");
    assert_eq!(
        w.ok(&["tmux", "run-shell", "-c", "/usr/bin", "echo $PWD"]),
        "/usr/bin\n"
    );
    let home = w.path("home").canonicalize().unwrap();
    assert_eq!(
        w.ok(&["tmux", "run-shell", "-c", "/no/such/dir", "pwd -P"]),
        format!("{}\n", home.display())
    );
    // The status is the command's.
    let out = w.run(&["tmux", "run-shell", "-c", "/", "pwd; exit 3"]);
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(3), &b"/\n"[..])
    );
}

/// A `-c` directory that does not exist starts the program in the home directory, as
/// tmux's spawn does (libtmux's suite passes such paths and expects a pane), and the
/// message log says so; tmux exits 0 on the same command lines.
#[test]
fn a_missing_start_directory_starts_in_home_as_tmux() {
    let w = World::new();
    let home = w.path("home").canonicalize().unwrap();
    let lines: [&[&str]; 3] = [
        &["new-session", "-d", "-s", "a", "-c", "/no/such/dir"],
        &["new-window", "-t", "a", "-c", "/no/such/dir"],
        &["split-window", "-t", "a", "-c", "/no/such/dir"],
    ];
    for args in lines {
        let out = w.run(args);
        assert!(out.status.success(), "{args:?}: {out:?}");
    }
    for p in w
        .ok(&["list-panes", "-s", "-t", "a", "-F", "#{pane_current_path}"])
        .lines()
    {
        assert_eq!(std::path::Path::new(p), home, "started in home");
    }
    assert!(
        w.ok(&["show-messages"])
            .contains("-c /no/such/dir: not a directory; started in"),
        "logged"
    );
    if Tmux::available().is_some() {
        let t = TestTmux::new(&w, "");
        for args in lines {
            assert!(t.run(args).status.success(), "tmux {args:?}");
        }
    }
}

/// `split-window -Z` leaves the window zoomed on its active pane (the new one, or
/// with `-d` the one that was active); `new-session -f FLAGS` is accepted.
#[test]
fn split_window_z_zooms_and_new_session_takes_client_flags() {
    use Step::*;
    const PANES: &str = "#{pane_index}:#{pane_active}:#{window_zoomed_flag}";
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-f",
            "no-output,ignore-size",
            "-s",
            "a",
            "cat",
        ]),
        Do(&["split-window", "-Z", "-t", "a", "cat"]),
        Same(&["list-panes", "-t", "a", "-F", PANES]),
        Do(&["split-window", "-d", "-Z", "-t", "a:0.0", "cat"]),
        Same(&["list-panes", "-t", "a", "-F", PANES]),
        Do(&["split-window", "-t", "a", "cat"]),
        Same(&["list-panes", "-t", "a", "-F", PANES]),
    ]);
}
