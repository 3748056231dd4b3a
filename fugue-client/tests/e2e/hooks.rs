//! Hooks (issue 15): `set-hook` / `show-hooks` print and fail as tmux 3.3a does
//! (compared with a real tmux when one is installed), each hook runs once per event
//! with its object as the default target, and hooks that set each other off stop.

use super::harness::{World, eventually};
use super::twins::Tmux;

/// A user option's value, or None while it is unset.
fn user_option(run: impl Fn(&[&str]) -> std::process::Output, name: &str) -> Option<String> {
    let out = run(&["show", "-gv", name]);
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

#[test]
fn set_hook_and_show_hooks_behave_as_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "o"]);
    let tmux = Tmux::start(w.dir.path(), 80, 24, "exec cat");
    let steps: &[&[&str]] = &[
        &["set-hook", "-g", "after-new-window", "display hi"],
        &["set-hook", "-ga", "after-new-window", "run true"],
        &["show-hooks", "-g", "after-new-window"],
        &["set-hook", "-gu", "after-new-window"],
        &["show-hooks", "-g", "after-new-window"],
        &["set-hook", "-g", "after-new-window[3]", "run x"],
        &["set-hook", "-ga", "after-new-window", "run y"],
        &["show-hooks", "-g", "after-new-window"],
        &["set-hook", "-gu", "after-new-window[3]"],
        &["show-hooks", "-g", "after-new-window"],
        &["show-hooks", "-g", "after-new-window[4]"],
        // A window hook set with -g lands in the global window table.
        &["set-hook", "-g", "pane-exited", "run true"],
        &["show-hooks", "-gw"],
        &["show-hooks", "-g", "pane-exited"],
        &["set-hook", "after-split-window", "run z ; display x"],
        &["show-hooks"],
        &["set-hook", "-w", "pane-died", "run w"],
        &["show-hooks", "-w"],
        &["set-hook", "-g", "session-created", "run c ; run d"],
        &["show-hooks", "-g", "session-created"],
    ];
    let mut ours = String::new();
    for s in steps {
        ours.push_str(&format!("$ {}\n{}", s.join(" "), w.ok(s)));
    }
    // The whole global list is tmux's, plus fugue's own agent hooks.
    let all = w.ok(&["show-hooks", "-g"]);
    assert!(
        all.contains("agent-state-changed\n") && all.contains("alert-bell\n"),
        "{all}"
    );
    for (args, tmux_says) in [
        (
            &["set-hook", "-g", "bogus-hook", "run x"][..],
            "invalid option: bogus-hook",
        ),
        (
            &["set-hook", "-g", "after-new-window", "frob"],
            "unknown command: frob",
        ),
        (
            &["set-hook", "-g", "after-frob", "run x"],
            "invalid option: after-frob",
        ),
    ] {
        let out = w.run(args);
        assert!(!out.status.success(), "fugue {args:?} succeeded");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("fugue: {tmux_says}")),
            "{args:?}: {err}"
        );
        if let Some(t) = &tmux {
            let out = t.run(args);
            assert!(!out.status.success(), "tmux {args:?}");
            assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), tmux_says);
        }
    }
    // Better than tmux: an unknown hook's error names the ones it could be.
    let err = String::from_utf8_lossy(&w.run(&["set-hook", "-g", "pane-exit", "run x"]).stderr)
        .into_owned();
    assert!(err.contains("pane-exited"), "{err}");
    let Some(tmux) = tmux else { return };
    let tmux_all = tmux.ok(&["show-hooks", "-g"]);
    let ours_all: String = all
        .lines()
        .filter(|l| !l.starts_with("agent-"))
        .map(|l| format!("{l}\n"))
        .collect();
    // tmux's list, before this test's own hooks differ: compare the names only.
    let names = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.split(['[', ' ']).next().unwrap_or("").to_string())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .collect()
    };
    let mut theirs = String::new();
    for s in steps {
        theirs.push_str(&format!("$ {}\n{}", s.join(" "), tmux.ok(s)));
    }
    assert_eq!(ours, theirs);
    assert_eq!(names(&ours_all), names(&tmux_all));
}

/// The same hooks on the same commands count the same events in fugue and tmux: each
/// hook once per event, `#{hook_*}` naming the object.
#[test]
fn hooks_run_once_per_event_as_in_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "o"]);
    let tmux = Tmux::start(w.dir.path(), 80, 24, "exec cat");
    let setup: &[&[&str]] = &[
        &["set-hook", "-g", "after-new-window", "set -ga @nw w"],
        &["set-hook", "-g", "after-split-window", "set -ga @sp s"],
        &["set-hook", "-g", "window-linked", "set -ga @wl l"],
        &["set-hook", "-g", "session-created", "set -ga @sc c"],
        &["set-hook", "-g", "session-closed", "set -ga @cl k"],
        &["set-hook", "-g", "pane-exited", "set -ga @px x"],
        &[
            "set-hook",
            "-g",
            "after-rename-window",
            "set -gF @rn '#{hook}:#{window_name}'",
        ],
    ];
    let acts: &[&[&str]] = &[
        &["split-window", "-d", "sh -c 'exit 0'"],
        &["new-window", "-d"],
        &["new-window", "-d"],
        &["split-window", "-d"],
        &["new-session", "-d", "-s", "second"],
        &["kill-session", "-t", "second"],
        &["rename-window", "-t", ":0", "renamed"],
    ];
    // (option, value once everything ran)
    let want: &[(&str, &str)] = &[
        ("@nw", "ww"),
        ("@sp", "ss"),
        ("@px", "x"),
        ("@wl", "lll"),
        ("@sc", "c"),
        ("@cl", "k"),
        // An `after-` hook's commands run on the command's target.
        ("@rn", "after-rename-window:renamed"),
    ];
    for s in setup {
        w.ok(s);
    }
    for a in acts {
        w.ok(a);
    }
    for (name, value) in want {
        eventually(&format!("fugue {name} = {value}"), || {
            (user_option(|a| w.run(a), name).as_deref() == Some(*value)).then_some(())
        });
    }
    // Once means once: nothing more arrives later. (A hook run twice would set its
    // option again on the server's own time: no event to wait for.)
    super::harness::settle_for_negative_check();
    for (name, value) in want {
        assert_eq!(
            user_option(|a| w.run(a), name).as_deref(),
            Some(*value),
            "{name}"
        );
    }
    let Some(t) = tmux else { return };
    for s in setup {
        t.ok(s);
    }
    for a in acts {
        t.ok(a);
    }
    for (name, value) in want {
        eventually(&format!("tmux {name} = {value}"), || {
            (user_option(|a| t.run(a), name).as_deref() == Some(*value)).then_some(())
        });
    }
}

/// Hooks whose commands set each other off stop (tmux's would run until the server
/// ran out of windows), the server stays up, and the log says why.
#[test]
fn hooks_that_set_each_other_off_stop() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "o"]);
    w.ok(&["set-hook", "-g", "window-linked", "new-window -d"]);
    w.ok(&["new-window", "-d"]);
    let count = || w.ok(&["list-windows", "-t", "o"]).lines().count();
    // The first window, the one made here, and one per level of hooks.
    eventually("the chain to stop", || (count() == 6).then_some(()));
    // The log line is written where the chain is cut, its last link: no window
    // comes after it.
    eventually("the log to say why", || {
        w.log().contains("hooks set each other off").then_some(())
    });
    assert_eq!(count(), 6);
}

/// `set-hook -R` runs the hook now; commands run as `hook NAME` in the audit log.
#[test]
fn set_hook_r_runs_it_now_and_the_audit_log_names_the_hook() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "o"]);
    w.ok(&["set-hook", "-g", "session-renamed", "set -g @r yes"]);
    w.ok(&["set-hook", "-R", "session-renamed"]);
    eventually("the hook to run", || {
        (user_option(|a| w.run(a), "@r").as_deref() == Some("yes")).then_some(())
    });
    let audit = std::fs::read_to_string(w.state_dir().join("audit-test.jsonl")).unwrap_or_default();
    assert!(
        audit.contains("\"origin\":\"hook session-renamed\""),
        "{audit}"
    );
}

/// Events with no command behind them: a client attaching and detaching, a pane
/// gaining focus, a window linked by name, an agent reporting and changing state.
/// `#{hook_*}` names the object.
#[test]
fn client_focus_and_agent_events_run_their_hooks() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "ev"]);
    w.ok(&[
        "set-hook",
        "-g",
        "client-attached",
        "set -gF @att '#{hook_session_name}'",
    ]);
    w.ok(&["set-hook", "-g", "client-detached", "set -ga @det d"]);
    w.ok(&[
        "set-hook",
        "-g",
        "pane-focus-in",
        "set -gF @focus '#{hook_pane}'",
    ]);
    w.ok(&[
        "set-hook",
        "-g",
        "window-linked",
        "set -gF @wn '#{hook_window_name}'",
    ]);
    w.ok(&[
        "set-hook",
        "-g",
        "agent-reported",
        "set -gF @rep '#{hook_pane}'",
    ]);
    w.ok(&["set-hook", "-g", "agent-state-changed", "set -ga @st s"]);
    let opt = |name: &str| user_option(|a| w.run(a), name);
    let mut t = w.tui(&["attach", "-t", "ev"], 100, 30);
    t.wait_text("[ev]");
    eventually("client-attached", || {
        (opt("@att").as_deref() == Some("ev")).then_some(())
    });
    let first = w.ok(&["display-message", "-p", "-t", "ev", "#{pane_id}"]);
    eventually("pane-focus-in", || {
        (opt("@focus").as_deref() == Some(first.trim())).then_some(())
    });
    w.ok(&["new-window", "-d", "-n", "named", "-t", "ev"]);
    eventually("window-linked", || {
        (opt("@wn").as_deref() == Some("named")).then_some(())
    });
    // A split the client shows takes the focus.
    let second = w.ok(&["split-window", "-P", "-F", "#{pane_id}", "-t", "ev"]);
    eventually("focus moved", || {
        (opt("@focus").as_deref() == Some(second.trim())).then_some(())
    });
    w.ok(&["report", "-t", second.trim(), "--state", "busy"]);
    eventually("agent-reported", || {
        (opt("@rep").as_deref() == Some(second.trim())).then_some(())
    });
    eventually("agent-state-changed", || {
        opt("@st").filter(|s| !s.is_empty())
    });
    t.prefix(b"d");
    eventually("client-detached", || {
        (opt("@det").as_deref() == Some("d")).then_some(())
    });
}

/// `monitor-activity`, `monitor-bell` and `monitor-silence` flag windows (`#`, `!`,
/// `~`) and run `alert-*` hooks, in fugue as in tmux, for the same commands.
#[test]
fn alerts_flag_windows_and_run_their_hooks_as_in_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "al", "cat"]);
    let tmux = Tmux::start(w.dir.path(), 80, 24, "exec cat");
    let steps: &[&[&str]] = &[
        &["set", "-g", "monitor-activity", "on"],
        &["set-hook", "-g", "alert-activity", "set -ga @act a"],
        &["set-hook", "-g", "alert-bell", "set -ga @bell b"],
        &["set-hook", "-g", "alert-silence", "set -ga @sil s"],
        &[
            "new-window",
            "-d",
            "sh -c 'sleep 1; echo x; exec sleep 100'",
        ],
        &[
            "new-window",
            "-d",
            "sh -c 'sleep 1; printf \"\\a\"; exec sleep 100'",
        ],
        &["new-window", "-d", "sh -c 'exec sleep 100'"],
        &["set", "-w", "-t", ":3", "monitor-silence", "1"],
    ];
    // (window, activity, bell, silence) once the programs have run.
    let want = "1 1 0 0\n2 1 1 0\n3 - 0 1\n";
    let flags = |out: String| -> String {
        out.lines()
            .filter(|l| !l.starts_with("0 "))
            .map(|l| {
                // Window 3 printed nothing: tmux flags it for activity all the same
                // (its new pane), fugue does not.
                if l.starts_with("3 ") {
                    let f: Vec<&str> = l.split(' ').collect();
                    format!("3 - {} {}\n", f[2], f[3])
                } else {
                    format!("{l}\n")
                }
            })
            .collect()
    };
    let list = [
        "list-windows",
        "-F",
        "#{window_index} #{window_activity_flag} #{window_bell_flag} #{window_silence_flag}",
    ];
    for s in steps {
        w.ok(s);
    }
    let ours = eventually("fugue's flags", || {
        let f = flags(w.ok(&list));
        (f == want).then_some(f)
    });
    assert_eq!(ours, want);
    for (name, value) in [("@act", "aa"), ("@bell", "b"), ("@sil", "s")] {
        eventually(&format!("fugue {name}"), || {
            user_option(|a| w.run(a), name)
                .filter(|v| v.starts_with(value))
                .map(|_| ())
        });
    }
    let flags_line = w.ok(&["list-windows", "-F", "#{window_index}:#{window_flags}"]);
    // `#` doubled, as tmux's window_flags has it (a `#` in a format's output).
    assert!(
        flags_line.contains("1:##\n") && flags_line.contains("2:##!\n"),
        "{flags_line}"
    );
    assert!(flags_line.contains("3:~\n"), "{flags_line}");
    let Some(t) = tmux else { return };
    for s in steps {
        t.ok(s);
    }
    eventually("tmux's flags", || {
        (flags(t.ok(&list)) == want).then_some(())
    });
}
