//! What libtmux's own test suite found different from tmux (run against fugue's
//! `tmux`): each scenario runs the same command lines against fugue's `tmux` and the
//! real tmux and compares them (`tmux_flags::both`). Without tmux the comparison is
//! skipped with a message.

use super::tmux_flags::{Step, both};

/// `last-window` with no last window fails with tmux's exact line, which libtmux
/// turns into its exception text.
#[test]
fn last_window_without_one_fails_in_tmuxs_words() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        SameError(&["last-window", "-t", "a"]),
        Do(&["new-window", "-d", "-t", "a", "cat"]),
        SameError(&["last-window", "-t", "a"]),
        Do(&["select-window", "-t", "a:1"]),
        Do(&["last-window", "-t", "a"]),
        Same(&["display-message", "-p", "-t", "a", "#{window_index}"]),
    ]);
}

/// With no `-f`, the command that starts the server reads tmux's own files
/// (`~/.tmux.conf`, ...) as tmux does: libtmux's fixture writes `set -g base-index 1`
/// there and counts windows from 1 (its new-window -a/-b tests among them).
#[test]
fn without_f_the_server_reads_the_users_tmux_conf() {
    use super::harness::World;
    use super::twins::Tmux;
    use std::process::Command;
    let w = World::new();
    std::fs::write(
        w.path("home/.tmux.conf"),
        "set -g base-index 1\nset -g @from-conf yes\n",
    )
    .expect("write ~/.tmux.conf");
    let steps: &[&[&str]] = &[
        &["new-session", "-d", "-s", "m", "-n", "one", "cat"],
        &["new-window", "-d", "-t", "m", "-n", "two", "cat"],
        &["new-window", "-d", "-b", "-t", "m:2", "-n", "before", "cat"],
        &["new-window", "-d", "-a", "-t", "m:2", "-n", "after", "cat"],
        &[
            "list-windows",
            "-t",
            "m",
            "-F",
            "#{window_index}:#{window_name}",
        ],
        &["show-options", "-gv", "@from-conf"],
        &["display-message", "-p", "-t", "m", "#{window_index}"],
    ];
    let fugue = |args: &[&str]| {
        let mut words = vec!["tmux"];
        words.extend_from_slice(args);
        w.ok(&words)
    };
    let ours: Vec<String> = steps.iter().map(|s| fugue(s)).collect();
    assert_eq!(ours[4], "1:one\n2:before\n3:after\n4:two\n", "{ours:?}");
    assert_eq!(ours[5], "yes\n");
    let Some(_) = Tmux::available() else { return };
    let tmux = |args: &[&str]| {
        let out = Command::new("tmux")
            .env("TMUX_TMPDIR", w.dir.path())
            .env("HOME", w.path("home"))
            .env_remove("TMUX")
            .env_remove("XDG_CONFIG_HOME")
            .args(["-L", "conf"])
            .args(args)
            .output()
            .expect("run tmux");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let theirs: Vec<String> = steps.iter().map(|s| tmux(s)).collect();
    let _ = tmux(&["kill-server"]);
    assert_eq!(ours, theirs);
}

/// A session hook lives in its session whatever `-w`/`-p` say (tmux's
/// options_scope_from_name), so `show-hooks NAME` with no flag shows what
/// `set-hook -w` set; an object's unset hook prints nothing (a global one its name).
#[test]
fn session_hooks_live_in_the_session_whatever_the_flags() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Same(&["show-hooks", "-t", "a", "session-renamed[0]"]),
        Same(&["show-hooks", "-t", "a", "session-renamed"]),
        Same(&["show-hooks", "-g", "session-renamed[0]"]),
        Same(&["show-hooks", "-g", "session-renamed"]),
        Do(&[
            "set-hook",
            "-w",
            "-t",
            "a",
            "session-renamed[0]",
            "set -g status-left-style bg=red",
        ]),
        Same(&["show-hooks", "-t", "a", "session-renamed[0]"]),
        Same(&["show-hooks", "-w", "-t", "a", "session-renamed"]),
        Same(&["show-hooks", "-t", "a", "session-renamed"]),
        Same(&["show-hooks", "-t", "a"]),
        Same(&["show-hooks", "-w", "-t", "a"]),
        Do(&["set-hook", "-p", "-t", "a", "pane-exited", "display hi"]),
        Same(&["show-hooks", "-t", "a", "pane-exited"]),
        Same(&["show-hooks", "-p", "-t", "a", "pane-exited"]),
        Same(&["show-hooks", "-p", "-t", "a", "pane-exited[1]"]),
        Same(&["show-hooks", "-w", "-t", "a", "pane-exited"]),
        Same(&["show-hooks", "-gw", "pane-exited[1]"]),
        // Its last element unset, the hook is still there: the element shows empty.
        Do(&["set-hook", "-u", "-t", "a", "session-renamed[0]"]),
        Same(&["show-hooks", "-t", "a", "session-renamed[0]"]),
        Same(&["show-hooks", "-t", "a", "session-renamed"]),
        Do(&["set-hook", "-u", "-t", "a", "session-renamed"]),
        Same(&["show-hooks", "-t", "a", "session-renamed[0]"]),
    ]);
}

/// As `tmux`, `show-hooks -g` lists tmux's hooks only while fugue's own are unset
/// (libtmux reads the list into a record of tmux's names); one that is set shows.
#[test]
fn tmux_show_hooks_leaves_out_fugues_own_unset_hooks() {
    let w = super::harness::World::new();
    w.ok(&["tmux", "new-session", "-d", "-s", "a", "cat"]);
    let all = w.ok(&["tmux", "show-hooks", "-g"]);
    assert!(all.contains("alert-bell\n"), "{all}");
    assert!(!all.contains("agent-"), "{all}");
    // fugue's own command line still lists them.
    assert!(w.ok(&["show-hooks", "-g"]).contains("agent-reported\n"));
    w.ok(&["tmux", "set-hook", "-g", "agent-reported", "display x"]);
    let all = w.ok(&["tmux", "show-hooks", "-g"]);
    assert!(
        all.contains("agent-reported[0] display-message x\n"),
        "{all}"
    );
    assert!(!all.contains("agent-state-changed"), "{all}");
}

/// `show-options NAME[N]` shows one element of an array option (an empty one when
/// there is none), and `status-format` holds tmux's two default lines.
#[test]
fn show_options_of_one_array_element_and_status_formats_default() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "cat"]),
        Same(&["show-options", "-g", "status-format"]),
        Same(&["show-options", "-g", "status-format[0]"]),
        Same(&["show-options", "-gv", "status-format[1]"]),
        Same(&["show-options", "-g", "status-format[5]"]),
        Same(&["show-options", "-g", "status-fo[1]"]),
        Same(&["show-options", "-s", "terminal-features[0]"]),
        Do(&["set-option", "-g", "status-format[1]", "#S"]),
        Same(&["show-options", "-g", "status-format[1]"]),
        Same(&["show-options", "-gqv", "nonesuch[0]"]),
        SameError(&["show-options", "-g", "@user[0]"]),
    ]);
}

/// tmux 3.5's defaults and values the installed 3.3a predates: `terminal-features`
/// gains `rxvt*:ignorefkeys`, and `allow-passthrough` is a choice of off, on and all
/// (tmux 3.5's options-table.c).
#[test]
fn tmux_35_option_values() {
    let w = super::harness::World::new();
    let tmux = |args: &[&str]| {
        let mut words = vec!["tmux"];
        words.extend_from_slice(args);
        w.ok(&words)
    };
    tmux(&["new-session", "-d", "-s", "a", "cat"]);
    assert_eq!(
        tmux(&["show-options", "-s", "terminal-features"]),
        "terminal-features[0] xterm*:clipboard:ccolour:cstyle:focus:title\n\
         terminal-features[1] screen*:title\n\
         terminal-features[2] rxvt*:ignorefkeys\n"
    );
    for value in ["all", "on", "off"] {
        tmux(&["set-option", "-p", "-t", "a", "allow-passthrough", value]);
        assert_eq!(
            tmux(&["show-options", "-pv", "-t", "a", "allow-passthrough"]),
            format!("{value}\n")
        );
    }
    let out = w.run(&[
        "tmux",
        "set-option",
        "-p",
        "-t",
        "a",
        "allow-passthrough",
        "most",
    ]);
    assert!(!out.status.success());
}

/// `set-environment -F` expands the value as a format for the target (its session,
/// window and pane), with `-g` too.
#[test]
fn set_environment_f_expands_the_value() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "a", "-n", "one", "cat"]),
        Do(&["new-session", "-d", "-s", "b", "cat"]),
        Do(&[
            "set-environment",
            "-t",
            "a",
            "-F",
            "WHERE",
            "#{session_name}:#{window_name}",
        ]),
        Same(&["show-environment", "-t", "a", "WHERE"]),
        Do(&[
            "set-environment",
            "-g",
            "-t",
            "a",
            "-F",
            "GWHERE",
            "#{session_name}",
        ]),
        Same(&["show-environment", "-g", "GWHERE"]),
        Do(&["set-environment", "-t", "b", "PLAIN", "#{session_name}"]),
        Same(&["show-environment", "-t", "b", "PLAIN"]),
    ]);
}

/// `send-keys -R` alone resets the pane's screen (it was dropped when no key
/// followed it), and with `clear-history` after it leaves neither screen nor history
/// (libtmux's `Pane.reset()`).
#[test]
fn send_keys_r_alone_resets_the_screen() {
    use Step::*;
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "40",
            "-y",
            "10",
            "printf 'm1\\nm2\\n'; exec cat",
        ]),
        Do(&["run-shell", "sleep 0.3"]),
        Same(&["capture-pane", "-p", "-t", "a", "-E", "2"]),
        Do(&["send-keys", "-t", "a", "-R"]),
        Same(&["capture-pane", "-p", "-t", "a", "-E", "2"]),
        Do(&["send-keys", "-t", "a", "-l", "again"]),
        Do(&[
            "send-keys",
            "-t",
            "a",
            "-R",
            ";",
            "clear-history",
            "-t",
            "a",
        ]),
        Same(&["capture-pane", "-p", "-t", "a", "-S", "-100", "-E", "2"]),
        Same(&["display-message", "-p", "-t", "a", "#{history_size}"]),
    ]);
}

/// Clearing the screen (`clear -x`: CSI H CSI 2 J) scrolls what it held into history,
/// as tmux's scroll-on-clear (on by default): `capture-pane -S -N` reads it back.
#[test]
fn a_cleared_screen_scrolls_into_history() {
    use Step::*;
    both(&[
        Do(&[
            "new-session",
            "-d",
            "-s",
            "a",
            "-x",
            "40",
            "-y",
            "10",
            "printf 'm1\\nm2\\nm3\\n\\033[H\\033[2Jafter'; exec cat",
        ]),
        Do(&["run-shell", "sleep 0.3"]),
        Same(&["display-message", "-p", "-t", "a", "#{history_size}"]),
        Same(&["capture-pane", "-p", "-t", "a", "-S", "-3", "-E", "0"]),
    ]);
}

/// A fresh server numbers its sessions from `$0`, as tmux does: libtmux's fixture
/// makes a session, then the test's, and its plugin's own test expects `$1`.
#[test]
fn sessions_are_numbered_from_zero() {
    use Step::*;
    both(&[
        Do(&["new-session", "-d", "-s", "first", "cat"]),
        Do(&["new-session", "-d", "-s", "second", "cat"]),
        Same(&["list-sessions", "-F", "#{session_id} #{session_name}"]),
        Do(&["kill-session", "-t", "first"]),
        Do(&["new-session", "-d", "-s", "third", "cat"]),
        Same(&["list-sessions", "-F", "#{session_id} #{session_name}"]),
        Same(&["display-message", "-p", "-t", "$1", "#{session_name}"]),
    ]);
}

/// `tmux -L NAME` answers at tmux's own path for NAME, `$TMUX_TMPDIR/tmux-UID/NAME`
/// (libtmux's fixtures check the file there and remove it): fugue links it to its
/// socket, `tmux -S` on that path reaches the server, and `kill-server` removes it.
/// The real tmux's socket is there while it runs too.
#[test]
fn tmux_l_name_is_found_at_tmuxs_socket_path() {
    let w = super::harness::World::new();
    // SAFETY: getuid cannot fail.
    let uid = unsafe { libc::getuid() };
    let alias = w.path(&format!("run/tmux-{uid}/lt"));
    let tmux = |args: &[&str]| {
        let mut words = vec!["tmux"];
        words.extend_from_slice(args);
        w.cmd_unaddressed(&words).output().expect("run fugue")
    };
    assert!(
        tmux(&["-L", "lt", "new-session", "-d", "-s", "s"])
            .status
            .success()
    );
    assert!(alias.exists(), "{} missing", alias.display());
    let out = tmux(&[
        "-S",
        &alias.display().to_string(),
        "list-sessions",
        "-F",
        "#S",
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "s\n", "{out:?}");
    assert!(tmux(&["-L", "lt", "kill-server"]).status.success());
    // The default name is a real tmux's: never linked.
    assert!(
        tmux(&["-L", "default", "new-session", "-d", "-s", "d"])
            .status
            .success()
    );
    assert!(!w.path(&format!("run/tmux-{uid}/default")).exists());
    assert!(tmux(&["-L", "default", "kill-server"]).status.success());
    super::harness::eventually("the link removed", || {
        std::fs::symlink_metadata(&alias).is_err().then_some(())
    });

    let Some(_) = super::twins::Tmux::available() else {
        return;
    };
    let real = |args: &[&str]| {
        std::process::Command::new("tmux")
            .env("TMUX_TMPDIR", w.dir.path())
            .env_remove("TMUX")
            .args(["-L", "lt", "-f", "/dev/null"])
            .args(args)
            .output()
            .expect("run tmux")
    };
    let theirs = w.dir.path().join(format!("tmux-{uid}/lt"));
    assert!(real(&["new-session", "-d", "-s", "s"]).status.success());
    assert!(theirs.exists());
    assert!(real(&["kill-server"]).status.success());
    // tmux 3.3a leaves its socket file after kill-server (libtmux's reaper unlinks it
    // for that reason, its issue #660); fugue removes its link.
}
