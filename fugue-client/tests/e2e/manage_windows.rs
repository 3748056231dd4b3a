//! Issue 16, management verbs for windows and sessions, side by side with tmux:
//! names, `new-window -t s:N` / `-a` / `-b`, `base-index`, `renumber-windows`,
//! `move-window`, `swap-window`.

use super::manage_panes::{Twins, code};

/// `#{window_index}:#{window_name}:#{window_active}` for each window of `session`.
fn windows(tw: &Twins, session: &str) -> String {
    tw.same(&[
        "list-windows",
        "-t",
        session,
        "-F",
        "#{window_index}:#{window_name}:#{window_active}",
    ])
}

/// Both fail with exit status 1.
fn both_fail(tw: &Twins, args: &[&str]) {
    let (mine, theirs) = tw.run(args);
    assert_eq!(code(&mine), Some(1), "fugue {args:?}: {mine:?}");
    if let Some(t) = theirs {
        assert_eq!(code(&t), Some(1), "tmux {args:?}: {t:?}");
    }
}

#[test]
fn names_with_dots_and_colons_are_taken_as_tmux_takes_them() {
    let tw = Twins::empty();
    // A session's `.` and `:` become `_`; a window's name keeps them.
    tw.both(&["new-session", "-d", "-s", "a.b:c", "-n", "w.x:y"]);
    assert_eq!(
        tw.same(&["list-sessions", "-F", "#{session_name}"]),
        "a_b_c\n"
    );
    assert_eq!(windows(&tw, "a_b_c"), "0:w.x:y:1\n");
    tw.both(&["rename-window", "-t", "a_b_c:0", "q.r"]);
    tw.both(&["rename-session", "-t", "a_b_c", "x.y"]);
    assert_eq!(
        tw.same(&["list-sessions", "-F", "#{session_name}"]),
        "x_y\n"
    );
    assert_eq!(windows(&tw, "x_y"), "0:q.r:1\n");
    // A renamed window's and a session's backslash is doubled, as tmux stores them
    // (libtmux reads `hello \\ wazzup 0` back); a new window's name is kept.
    tw.both(&["rename-window", "-t", "x_y:0", "hello \\ wazzup 0"]);
    assert_eq!(windows(&tw, "x_y"), "0:hello \\\\ wazzup 0:1\n");
    tw.both(&["new-window", "-d", "-t", "x_y:1", "-n", "p\\q"]);
    assert_eq!(windows(&tw, "x_y"), "0:hello \\\\ wazzup 0:1\n1:p\\q:0\n");
    tw.both(&["rename-session", "-t", "x_y", "s\\t"]);
    assert_eq!(
        tw.same(&["list-sessions", "-F", "#{session_name}"]),
        "s\\\\t\n"
    );
}

#[test]
fn new_window_honours_the_index_and_a_b() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s", "-n", "zero"]);
    tw.both(&["new-window", "-d", "-t", "s:7", "-n", "seven"]);
    assert_eq!(windows(&tw, "s"), "0:zero:1\n7:seven:0\n");
    // Taken: an error, as in tmux.
    both_fail(&tw, &["new-window", "-d", "-t", "s:7"]);
    // `-t s:` is the session (a bare `s` could be a window's name to tmux).
    tw.both(&["new-window", "-d", "-n", "one", "-t", "s:"]);
    tw.both(&["new-window", "-d", "-a", "-t", "s:0", "-n", "after0"]);
    tw.both(&["new-window", "-d", "-b", "-t", "s:0", "-n", "before0"]);
    assert_eq!(
        windows(&tw, "s"),
        "0:before0:0\n1:zero:1\n2:after0:0\n3:one:0\n7:seven:0\n"
    );
}

#[test]
fn base_index_and_renumber_windows() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "keep"]);
    tw.both(&["set-option", "-g", "base-index", "1"]);
    tw.both(&["new-session", "-d", "-s", "b", "-n", "one"]);
    tw.both(&["new-window", "-d", "-t", "b", "-n", "two"]);
    tw.both(&["new-window", "-d", "-t", "b", "-n", "three"]);
    assert_eq!(windows(&tw, "b"), "1:one:1\n2:two:0\n3:three:0\n");
    tw.both(&["kill-window", "-t", "b:2"]);
    assert_eq!(windows(&tw, "b"), "1:one:1\n3:three:0\n");
    tw.both(&["set-option", "-t", "b", "renumber-windows", "on"]);
    tw.both(&["new-window", "-d", "-t", "b:9", "-n", "nine"]);
    // The current window goes: the one before it (wrapping round) becomes current.
    tw.both(&["kill-window", "-t", "b:1"]);
    assert_eq!(windows(&tw, "b"), "1:three:0\n2:nine:1\n");
}

#[test]
fn move_window_and_swap_window() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "m", "-n", "a"]);
    tw.both(&["new-window", "-d", "-t", "m", "-n", "b"]);
    tw.both(&["new-window", "-d", "-t", "m", "-n", "c"]);
    tw.both(&["move-window", "-s", "m:1", "-t", "m:5"]);
    assert_eq!(windows(&tw, "m"), "0:a:0\n2:c:0\n5:b:1\n");
    both_fail(&tw, &["move-window", "-s", "m:0", "-t", "m:2"]);
    tw.both(&["move-window", "-r", "-t", "m"]);
    assert_eq!(windows(&tw, "m"), "0:a:0\n1:c:0\n2:b:1\n");
    tw.both(&["move-window", "-d", "-b", "-s", "m:2", "-t", "m:0"]);
    // The current window moved away with -d: the last used one is current.
    assert_eq!(windows(&tw, "m"), "0:b:0\n1:a:1\n2:c:0\n");
    // The current index stays current (so its window changes); -d selects the target.
    tw.both(&["swap-window", "-s", "m:0", "-t", "m:2"]);
    assert_eq!(windows(&tw, "m"), "0:c:0\n1:a:1\n2:b:0\n");
    tw.both(&["swap-window", "-d", "-s", "m:0", "-t", "m:1"]);
    assert_eq!(windows(&tw, "m"), "0:a:0\n1:c:1\n2:b:0\n");
    // Into another session; -k replaces a window at the index.
    tw.both(&["new-session", "-d", "-s", "n", "-n", "x"]);
    tw.both(&["move-window", "-s", "m:1", "-t", "n:0", "-k"]);
    assert_eq!(windows(&tw, "n"), "0:c:1\n");
    windows(&tw, "m");
}

/// `new-session -A`: an existing session of that name is the answer (tmux attaches to
/// it; with -d fugue leaves it at that, where tmux fails for want of a terminal).
#[test]
fn new_session_a_uses_the_existing_session() {
    let tw = Twins::empty();
    let w = &tw.w;
    let first = w.ok(&[
        "new-session",
        "-A",
        "-d",
        "-s",
        "x",
        "-P",
        "-F",
        "#{pane_id}",
    ]);
    let again = w.ok(&[
        "new-session",
        "-A",
        "-d",
        "-s",
        "x",
        "-P",
        "-F",
        "#{pane_id}",
    ]);
    assert_eq!(first, again);
    assert_eq!(w.ok(&["list-sessions", "-F", "#{session_name}"]), "x\n");
    // Without -A it is still an error.
    assert_eq!(code(&w.run(&["new-session", "-d", "-s", "x"])), Some(1));
}

/// tmux's `wait-for` channels: a signal wakes a waiter (or is kept for the next
/// wait), a lock is taken in turn, and unlocking a free lock is an error.
#[test]
fn wait_for_channels_as_tmux() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "c"]);
    both_fail(&tw, &["wait-for", "-U", "free"]);
    // Signalled with nobody waiting: the next wait returns at once.
    tw.both(&["wait-for", "-S", "early"]);
    tw.both(&["wait-for", "early"]);
    let w = &tw.w;
    // A waiter that has not returned says nothing when: the server does not show its
    // waiters, so no event proves the wait was seen and is being held.
    let running = |child: &mut std::process::Child| {
        super::harness::settle_for_negative_check();
        child.try_wait().unwrap().is_none()
    };
    let mut waiter = w.cmd(&["wait-for", "go"]).spawn().unwrap();
    assert!(running(&mut waiter), "wait-for returned before the signal");
    w.ok(&["wait-for", "-S", "go"]);
    assert!(waiter.wait().unwrap().success());
    w.ok(&["wait-for", "-L", "l"]);
    let mut second = w.cmd(&["wait-for", "-L", "l"]).spawn().unwrap();
    assert!(running(&mut second), "the lock was taken twice");
    w.ok(&["wait-for", "-U", "l"]);
    assert!(second.wait().unwrap().success());
    w.ok(&["wait-for", "-U", "l"]);
    assert_eq!(code(&w.run(&["wait-for", "-U", "l"])), Some(1));
    // fugue's own waits keep their flags.
    let out = w.run(&["wait-for", "-t", "c", "--idle", "50"]);
    assert_eq!(code(&out), Some(0), "{out:?}");
}

/// set-environment / show-environment as tmux, and new programs get the result.
#[test]
fn set_and_show_environment_as_tmux() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "e"]);
    tw.both(&["set-environment", "-g", "FUGUE_T_FOO", "bar"]);
    assert_eq!(
        tw.same(&["show-environment", "-g", "FUGUE_T_FOO"]),
        "FUGUE_T_FOO=bar\n"
    );
    // new-session -e puts the variable in the session's environment too.
    tw.both(&["new-session", "-d", "-s", "e2", "-e", "FUGUE_T_NEW=hi"]);
    assert_eq!(
        tw.same(&["show-environment", "-t", "e2", "FUGUE_T_NEW"]),
        "FUGUE_T_NEW=hi\n"
    );
    tw.both(&["set-environment", "-t", "e", "FUGUE_T_BAR", "b a$z"]);
    assert_eq!(
        tw.same(&["show-environment", "-t", "e", "FUGUE_T_BAR"]),
        "FUGUE_T_BAR=b a$z\n"
    );
    tw.same(&["show-environment", "-s", "-t", "e", "FUGUE_T_BAR"]);
    tw.both(&["set-environment", "-r", "-t", "e", "FUGUE_T_FOO"]);
    assert_eq!(
        tw.same(&["show-environment", "-t", "e", "FUGUE_T_FOO"]),
        "-FUGUE_T_FOO\n"
    );
    // With update-environment's variables, copied from the client that made the
    // session (set, or `-NAME` for those it lacks), as tmux lists them.
    let all = tw.same(&["show-environment", "-t", "e"]);
    assert!(
        all.contains("FUGUE_T_BAR=b a$z\n-FUGUE_T_FOO\n") && all.contains("KRB5CCNAME"),
        "{all}"
    );
    both_fail(&tw, &["show-environment", "-t", "e", "FUGUE_T_NOPE"]);
    both_fail(&tw, &["set-environment", "-t", "e", "FUGUE_T_NOVALUE"]);
    // New programs: the session's value, and the removed one gone.
    let script = "echo \"[$FUGUE_T_BAR][${FUGUE_T_FOO-gone}]\"; exec cat";
    tw.both(&["new-window", "-t", "e:", "--", "sh", "-c", script]);
    let want = "[b a$z][gone]";
    super::harness::eventually("fugue's program sees it", || {
        tw.w.ok(&["capture-pane", "-p", "-t", "e:1"])
            .contains(want)
            .then_some(())
    });
    if let Some(t) = &tw.t {
        super::harness::eventually("tmux's program sees it", || {
            t.ok(&["capture-pane", "-p", "-t", "e:1"])
                .contains(want)
                .then_some(())
        });
    }
    // -u: the session's own value goes; the global one shows through again.
    tw.both(&["set-environment", "-u", "-t", "e", "FUGUE_T_FOO"]);
    both_fail(&tw, &["show-environment", "-t", "e", "FUGUE_T_FOO"]);
}

/// window-size: the latest client (tmux 3.3's default) sizes the windows, or the
/// largest or smallest one; fugue used the smallest always.
#[test]
fn window_size_follows_the_latest_client_or_the_option() {
    let w = super::harness::World::new();
    w.ok(&["new-session", "-d", "-s", "ws", "-x", "60", "-y", "20"]);
    let width = || {
        w.ok(&["display-message", "-p", "-t", "ws", "#{window_width}"])
            .trim()
            .parse::<u32>()
            .unwrap()
    };
    let until = |want: u32| {
        super::harness::eventually(&format!("window width {want}"), || {
            (width() == want).then_some(())
        })
    };
    let _big = w.tui(&["attach", "-t", "ws"], 100, 30);
    until(100);
    let mut small = w.tui(&["attach", "-t", "ws"], 70, 20);
    until(70);
    w.ok(&["set-option", "-g", "-w", "window-size", "largest"]);
    until(100);
    w.ok(&["set-option", "-g", "-w", "window-size", "smallest"]);
    until(70);
    w.ok(&["set-option", "-g", "-w", "window-size", "latest"]);
    small.resize(72, 20);
    until(72);
}

/// pane-base-index numbers panes from it, in #{pane_index} and in targets.
#[test]
fn pane_base_index_numbers_panes_as_tmux() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "keep"]);
    tw.both(&["set-option", "-g", "base-index", "1"]);
    tw.both(&["set-option", "-g", "-w", "pane-base-index", "1"]);
    tw.both(&["new-session", "-d", "-s", "pb"]);
    tw.both(&["split-window", "-t", "pb"]);
    assert_eq!(
        tw.same(&[
            "list-panes",
            "-t",
            "pb",
            "-F",
            "#{window_index}.#{pane_index}"
        ]),
        "1.1\n1.2\n"
    );
    tw.both(&["select-pane", "-t", "pb:1.2", "-T", "second"]);
    assert_eq!(
        tw.same(&["display-message", "-p", "-t", "pb:1.2", "#{pane_title}"]),
        "second\n"
    );
    // (tmux 3.3a takes `pb:1.0`, below the base, as the active pane; fugue refuses it.)
    assert_eq!(
        code(
            &tw.w
                .run(&["display-message", "-p", "-t", "pb:1.0", "#{pane_id}"])
        ),
        Some(1)
    );
}

/// `resize-window` gives a window its own size (tmux's `window-size manual`): `-x/-y`,
/// then `-L/-R/-U/-D` by an adjustment, `-a` with no client takes `default-size`;
/// other windows keep following the session, and `window-size` back off manual
/// returns the window to it (fugue alone: tmux keeps the size while no client is
/// there to size it).
#[test]
fn resize_window_gives_a_window_its_own_size() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "rw", "-x", "80", "-y", "24"]);
    tw.both(&["split-window", "-h", "-t", "rw"]);
    let size = |target: &str| {
        tw.same(&[
            "display-message",
            "-p",
            "-t",
            target,
            "#{window_width}x#{window_height}",
        ])
    };
    tw.both(&["resize-window", "-t", "rw", "-x", "100", "-y", "40"]);
    assert_eq!(size("rw:0"), "100x40\n");
    // The panes share the new width.
    let widths: u32 =
        tw.w.ok(&["list-panes", "-t", "rw:0", "-F", "#{pane_width}"])
            .lines()
            .map(|l| l.parse::<u32>().expect("width"))
            .sum();
    assert!(widths > 90, "{widths}");
    tw.both(&["resize-window", "-t", "rw", "-L", "10"]);
    tw.both(&["resize-window", "-t", "rw", "-U", "5"]);
    tw.both(&["resize-window", "-t", "rw", "-R"]);
    tw.both(&["resize-window", "-t", "rw", "-D", "2"]);
    assert_eq!(size("rw:0"), "91x37\n");
    // Shrinking by more than there is changes nothing.
    tw.both(&["resize-window", "-t", "rw", "-L", "500"]);
    assert_eq!(size("rw:0"), "91x37\n");
    assert_eq!(
        tw.same(&["show-options", "-w", "-t", "rw:0", "window-size"]),
        "window-size manual\n"
    );
    // A new window follows the session, not the resized one.
    tw.both(&["new-window", "-d", "-t", "rw:1"]);
    assert_eq!(size("rw:1"), "80x24\n");
    tw.both(&["resize-window", "-t", "rw:0", "-a"]);
    assert_eq!(size("rw:0"), "80x24\n");
    tw.both(&["resize-window", "-t", "rw:0", "-x", "120"]);
    assert_eq!(size("rw:0"), "120x24\n");
    for bad in [["-x", "0"], ["-y", "0"]] {
        both_fail(&tw, &["resize-window", "-t", "rw:0", bad[0], bad[1]]);
    }
    both_fail(&tw, &["resize-window", "-t", "rw:9", "-x", "50"]);
    // Off manual, the window takes the session's size again.
    tw.w.ok(&["set-option", "-w", "-t", "rw:0", "window-size", "latest"]);
    assert_eq!(
        tw.w.ok(&[
            "display-message",
            "-p",
            "-t",
            "rw:0",
            "#{window_width}x#{window_height}"
        ]),
        "80x24\n"
    );
}

/// `previous-layout` / `select-layout -p` step back through the presets, a bare
/// `select-layout` applies the last preset again, and `-E` evens out the target's
/// split (or, when it is even, the split above): the panes end up where tmux puts
/// them (which edges each pane touches), side by side.
#[test]
fn previous_layout_again_and_spread_as_tmux() {
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "l", "-x", "80", "-y", "24"]);
    tw.both(&["split-window", "-h", "-t", "l"]);
    tw.both(&["split-window", "-v", "-t", "l"]);
    let edges = || {
        tw.same(&[
            "list-panes",
            "-t",
            "l",
            "-F",
            "#{pane_index}:#{pane_at_left}#{pane_at_top}#{pane_at_right}#{pane_at_bottom}",
        ])
    };
    tw.both(&["select-layout", "-t", "l", "even-horizontal"]);
    let even = edges();
    tw.both(&["previous-layout", "-t", "l"]);
    let tiled = edges();
    assert_ne!(even, tiled, "previous-layout changed nothing");
    tw.both(&["select-layout", "-t", "l", "-p"]);
    let main_vertical = edges();
    assert_ne!(tiled, main_vertical);
    tw.both(&["select-layout", "-t", "l", "even-vertical"]);
    tw.both(&["resize-pane", "-t", "l:0.0", "-y", "5"]);
    // Again: even-vertical evens the resized panes.
    tw.both(&["select-layout", "-t", "l"]);
    let heights =
        |out: String| -> Vec<i32> { out.lines().map(|h| h.parse().expect("height")).collect() };
    let h = heights(tw.w.ok(&["list-panes", "-t", "l", "-F", "#{pane_height}"]));
    assert!(
        h.iter().max().unwrap_or(&0) - h.iter().min().unwrap_or(&0) <= 1,
        "{h:?}"
    );
    // -E on a pane of an even column evens the split above it.
    tw.both(&["select-layout", "-t", "l", "main-vertical"]);
    tw.both(&["resize-pane", "-t", "l:0.1", "-x", "10"]);
    tw.both(&["select-layout", "-t", "l:0.1", "-E"]);
    let w = heights(tw.w.ok(&["list-panes", "-t", "l", "-F", "#{pane_width}"]));
    assert!((w[0] - w[1]).abs() <= 1, "{w:?}");
    edges();
}
