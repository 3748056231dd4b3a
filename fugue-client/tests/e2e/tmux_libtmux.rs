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
        &["list-windows", "-t", "m", "-F", "#{window_index}:#{window_name}"],
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
