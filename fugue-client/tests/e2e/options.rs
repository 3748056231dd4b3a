//! Options (issue 15): `set-option` / `show-options` print and fail as tmux 3.3a does
//! (compared with a real tmux when one is installed), and a change reaches what fugue
//! does at once: an attached client's mouse and status bar, new panes' history,
//! remain-on-exit, the prefix.

use super::harness::{World, eventually};
use super::twins::Tmux;
use std::collections::BTreeMap;

fn write_config(w: &World, text: &str) {
    let dir = w.path("config/fugue");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

/// stderr of a call that must fail.
fn fails(w: &World, args: &[&str]) -> String {
    let out = w.run(args);
    assert!(!out.status.success(), "fugue {args:?} succeeded");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// `show` lines by option name (the part before the first space; `name[0]` apart).
fn by_name(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .map(|l| match l.split_once(' ') {
            Some((n, _)) => (n.to_string(), l.to_string()),
            None => (l.to_string(), l.to_string()),
        })
        .collect()
}

/// Options whose default fugue sets differently on purpose (docs/options.md), or which
/// tmux takes from the environment of whoever started it.
const DIFFERENT_DEFAULTS: &[&str] = &[
    "focus-events",
    "history-limit",
    "mouse",
    "mode-keys",
    "default-terminal",
    "set-titles-string",
    "default-shell",
    "editor",
];

fn comparable(name: &str) -> bool {
    let base = name.split('[').next().unwrap_or(name);
    !DIFFERENT_DEFAULTS.contains(&base) && !base.starts_with("status-format")
}

/// `show -g`, `show -s`, `show -gw`: every option both have prints the same line, in
/// the same order; fugue has every option tmux lists.
#[test]
fn show_options_prints_what_tmux_prints() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "o"]);
    let Some(tmux) = Tmux::start(w.dir.path(), 80, 24, "exec cat") else {
        return;
    };
    for flags in [&["-g"][..], &["-s"], &["-gw"]] {
        let mut args = vec!["show-options"];
        args.extend_from_slice(flags);
        let theirs = tmux.ok(&args);
        let ours = w.ok(&args);
        let (t, f) = (by_name(&theirs), by_name(&ours));
        for (name, line) in &t {
            if !comparable(name) {
                continue;
            }
            assert_eq!(f.get(name), Some(line), "show {flags:?}: {name}");
        }
        // The same order: tmux's table order, not alphabetical.
        let order = |text: &str| -> Vec<String> {
            text.lines()
                .map(|l| l.split([' ', '[']).next().unwrap_or(l).to_string())
                .filter(|n| t.keys().any(|k| k.split('[').next() == Some(n.as_str())))
                .fold(Vec::new(), |mut v, n| {
                    if v.last() != Some(&n) {
                        v.push(n);
                    }
                    v
                })
        };
        assert_eq!(order(&ours), order(&theirs), "show {flags:?}: order");
    }
}

/// The same commands give the same output and the same errors (fugue's errors go on
/// to say what the option takes).
#[test]
fn set_and_show_behave_as_tmux() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "o"]);
    let tmux = Tmux::start(w.dir.path(), 80, 24, "exec cat");
    let steps: &[&[&str]] = &[
        &["set", "-g", "status-left", "a b"],
        &["set", "-ga", "status-left", "c"],
        &["show", "-g", "status-left"],
        &["show", "-gv", "status-left"],
        &["set", "-gu", "status-left"],
        &["show", "-g", "status-left"],
        &["set", "-g", "mouse", "on"],
        &["set", "-g", "mouse"],
        &["show", "-g", "mouse"],
        &["set", "-g", "status", "off"],
        &["set", "-g", "status"],
        &["show", "-g", "status"],
        &["set", "renumber-windows", "on"],
        &["show", "renumber-windows"],
        &["show", "-A", "base-index"],
        &["set", "-g", "history-limit", "100"],
        &["show", "-gv", "history-limit"],
        &["setw", "mode-keys", "vi"],
        &["showw"],
        &["show", "-w", "mode-keys"],
        &["showw", "-g", "wrap-search"],
        &["set", "-p", "remain-on-exit", "failed"],
        &["show", "-p"],
        &["show", "-pA", "remain-on-exit"],
        &["set", "-g", "@my", "hello world"],
        &["show", "-g", "@my"],
        &["show", "-gv", "@my"],
        &["set", "-g", "update-environment", "FOO"],
        &["set", "-ga", "update-environment", "BAR"],
        &["show", "-g", "update-environment"],
        &["set", "-q", "no-such-option", "x"],
        &["show", "-gq", "no-such-option"],
        &["set", "-g", "main-pane-width", "50%"],
        &["show", "-gw", "main-pane-width"],
        &["set", "-g", "prefix2", "C-a"],
        &["show", "-g", "prefix2"],
        // A control letter has no case (tmux shows C-q).
        &["set", "-g", "prefix", "C-Q"],
        &["show", "-g", "prefix"],
        &["set", "-g", "prefix", "C-b"],
        &["set", "-gF", "@f", "#{e|+|:1,2}-#{==:a,a}"],
        &["show", "-gv", "@f"],
    ];
    let mut ours = String::new();
    for s in steps {
        ours.push_str(&format!("$ {}\n{}", s.join(" "), w.ok(s)));
    }
    for (args, tmux_says) in [
        (&["set", "-g", "foo", "bar"][..], "invalid option: foo"),
        (&["show", "-g", "foo"], "invalid option: foo"),
        (&["show", "-gv", "@never-set"], "invalid option: @never-set"),
        (&["set", "-g", "mouse", "maybe"], "bad value: maybe"),
        (
            &["set", "-g", "history-limit", "abc"],
            "value is invalid: abc",
        ),
        (
            &["set", "-g", "history-limit", "-5"],
            "value is too small: -5",
        ),
        (
            &["set", "-g", "status-position", "middle"],
            "unknown value: middle",
        ),
        (&["set", "-g", "hist", "5"], "ambiguous option: hist"),
        (&["set", "-g", "base-index"], "empty value"),
        (
            &["set", "-go", "status-left", "x"],
            "already set: status-left",
        ),
        (&["set", "-g", "prefix", "xyz"], "bad key: xyz"),
        (
            &["set", "-g", "status-style", "fg=nonsense"],
            "invalid style: fg=nonsense",
        ),
    ] {
        let err = fails(&w, args);
        assert!(
            err.contains(&format!("fugue: {tmux_says}")),
            "{args:?}: {err}"
        );
        if let Some(t) = &tmux {
            let out = t.run(args);
            assert!(!out.status.success(), "tmux {args:?}");
            let theirs = String::from_utf8_lossy(&out.stderr);
            assert_eq!(theirs.trim(), tmux_says, "tmux {args:?}");
        }
    }
    // Better than tmux: the error says what would have been right.
    let err = fails(&w, &["set", "-g", "status-position", "middle"]);
    assert!(err.contains("top, bottom"), "{err}");
    let err = fails(&w, &["set", "-g", "history-limit", "-5"]);
    assert!(err.contains("0 to 1000000"), "{err}");
    let err = fails(&w, &["set", "-g", "hist", "5"]);
    assert!(err.contains("history-file, history-limit"), "{err}");
    let Some(tmux) = tmux else { return };
    let mut theirs = String::new();
    for s in steps {
        theirs.push_str(&format!("$ {}\n{}", s.join(" "), tmux.ok(s)));
    }
    assert_eq!(ours, theirs);
}

/// A person's terminal: `set -g mouse off` makes the attached client give the mouse
/// back (it writes the disable sequences), and `on` takes it again, without
/// reattaching.
#[test]
fn mouse_off_reaches_an_attached_client() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "m",
        "--",
        "sh",
        "-c",
        "printf READY; exec cat",
    ]);
    let t = w.tui(&["attach", "-t", "m"], 80, 24);
    t.wait_text("READY");
    t.wait_raw("the mouse asked for", |raw| {
        find(raw, b"\x1b[?1002h").is_some()
    });
    let before = t.raw().len();
    w.ok(&["set", "-g", "mouse", "off"]);
    t.wait_raw("the mouse given back", |raw| {
        find(&raw[before.min(raw.len())..], b"\x1b[?1002l").is_some()
    });
    let before = t.raw().len();
    w.ok(&["set", "-g", "mouse", "on"]);
    t.wait_raw("the mouse asked for again", |raw| {
        find(&raw[before.min(raw.len())..], b"\x1b[?1002h").is_some()
    });
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn pane_height(w: &World) -> u64 {
    w.panes()[0]["height"].as_u64().expect("height")
}

/// `set -g status off` takes the status bar off the drawn screen and gives its row
/// to the panes; `on` brings it back.
#[test]
fn status_off_removes_the_status_bar() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "st",
        "--",
        "sh",
        "-c",
        "printf READY; exec cat",
    ]);
    let t = w.tui(&["attach", "-t", "st"], 80, 24);
    t.wait_text("READY");
    let last_row = |s: &vt100::Screen| s.contents_between(23, 0, 23, 80);
    t.wait("the status bar", |s| last_row(s).contains("[st]"));
    let tall = pane_height(&w);
    w.ok(&["set", "-g", "status", "off"]);
    t.wait("no status bar", |s| !s.contents().contains("[st]"));
    eventually("the pane takes the row", || {
        (pane_height(&w) == tall + 1).then_some(())
    });
    w.ok(&["set", "-g", "status", "on"]);
    t.wait("the status bar again", |s| last_row(s).contains("[st]"));
    eventually("the row given back", || {
        (pane_height(&w) == tall).then_some(())
    });
}

/// Lines of history a pane kept: `capture-pane -S -` less its screen.
fn history_lines(w: &World, pane: &str) -> usize {
    let all = w.ok(&["capture-pane", "-p", "-t", pane, "-S", "-"]);
    let screen = w.ok(&["capture-pane", "-p", "-t", pane]);
    all.lines().count() - screen.lines().count()
}

/// `set -g history-limit 100`: a new pane keeps 100 lines; a pane made before keeps
/// its limit, as in tmux (the limit is a pane's from its start).
#[test]
fn history_limit_applies_to_new_panes() {
    let w = World::new();
    let script = "seq 1 500; printf DONE; exec cat";
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "h",
        "-x",
        "80",
        "-y",
        "24",
        "--",
        "sh",
        "-c",
        script,
    ]);
    w.ok(&["set", "-g", "history-limit", "100"]);
    let out = w.ok(&[
        "new-window",
        "-t",
        "h",
        "-P",
        "-F",
        "#{pane_id}",
        "--",
        "sh",
        "-c",
        script,
    ]);
    let new = out.trim().to_string();
    let old = w.panes()[0]["id"].as_str().expect("id").to_string();
    for p in [&old, &new] {
        eventually("the output", || {
            w.ok(&["capture-pane", "-p", "-t", p])
                .contains("DONE")
                .then_some(())
        });
    }
    assert_eq!(history_lines(&w, &new), 100);
    assert!(
        history_lines(&w, &old) > 400,
        "the older pane kept its limit"
    );
    // A session's own value wins over the global one for its new panes.
    w.ok(&["set", "-t", "h", "history-limit", "50"]);
    let out = w.ok(&[
        "new-window",
        "-t",
        "h",
        "-P",
        "-F",
        "#{pane_id}",
        "--",
        "sh",
        "-c",
        script,
    ]);
    let own = out.trim().to_string();
    eventually("the output", || {
        w.ok(&["capture-pane", "-p", "-t", &own])
            .contains("DONE")
            .then_some(())
    });
    assert_eq!(history_lines(&w, &own), 50);
}

/// `remain-on-exit failed` (tmux 3.3): a pane whose program failed stays with its
/// status; one that succeeded closes. Per pane (`-p`) it overrides the global value.
#[test]
fn remain_on_exit_failed_keeps_only_failures() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "r", "--", "sh", "-c", "exec cat"]);
    w.ok(&["set", "-g", "remain-on-exit", "failed"]);
    w.ok(&[
        "new-window",
        "-d",
        "-t",
        "r",
        "--",
        "sh",
        "-c",
        "sleep 0.3; exit 3",
    ]);
    w.ok(&[
        "new-window",
        "-d",
        "-t",
        "r",
        "--",
        "sh",
        "-c",
        "sleep 0.3; exit 0",
    ]);
    eventually("the failed pane dead, the other gone", || {
        let panes = w.panes();
        let dead = panes.iter().filter(|p| p["exit_status"] == 3).count();
        (panes.len() == 2 && dead == 1).then_some(())
    });
    // A pane's own value wins over the global one.
    let out = w.ok(&[
        "split-window",
        "-d",
        "-t",
        "r:0",
        "-P",
        "-F",
        "#{pane_id}",
        "--",
        "sh",
        "-c",
        "read x; exit 0",
    ]);
    let pane = out.trim();
    w.ok(&["set", "-p", "-t", pane, "remain-on-exit", "on"]);
    w.ok(&["send-keys", "-t", pane, "Enter"]);
    eventually("the pane kept though it succeeded", || {
        w.panes()
            .iter()
            .any(|p| p["id"] == pane && p["exit_status"] == 0)
            .then_some(())
    });
}

/// `set -g prefix C-a`: an attached client takes C-a as the prefix at once.
#[test]
fn a_new_prefix_works_without_reattaching() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "p",
        "--",
        "sh",
        "-c",
        "printf READY; exec cat",
    ]);
    let mut t = w.tui(&["attach", "-t", "p"], 80, 24);
    t.wait_text("READY");
    w.ok(&["set", "-g", "prefix", "C-a"]);
    // The client has the new table once the option message arrived; C-a c then
    // makes a window. (Sent until it does: the message may still be on its way.)
    eventually("C-a c makes a window", || {
        t.send(b"\x01c");
        std::thread::sleep(std::time::Duration::from_millis(100));
        let windows: std::collections::HashSet<_> = w
            .panes()
            .iter()
            .map(|p| p["window_index"].as_u64())
            .collect();
        (windows.len() >= 2).then_some(())
    });
}

/// The configuration file sets initial values: its own keys and `[options]` by tmux
/// name (underscores allowed); `show` prints them and an unknown one is refused.
#[test]
fn the_configuration_file_sets_options() {
    let w = World::new();
    write_config(
        &w,
        "[server]\nhistory_limit = 1234\n[options]\nstatus_left = \"<#S>\"\nrenumber-windows = true\n",
    );
    w.ok(&["new-session", "-d", "-s", "c"]);
    assert_eq!(w.ok(&["show", "-gv", "history-limit"]), "1234\n");
    assert_eq!(
        w.ok(&["show", "-g", "status-left"]),
        "status-left \"<#S>\"\n"
    );
    assert_eq!(
        w.ok(&["show", "-g", "renumber-windows"]),
        "renumber-windows on\n"
    );
}

/// `set -g set-titles on` and a new `set-titles-string`: the attached client starts
/// setting its terminal's title (OSC 0) without reattaching.
#[test]
fn set_titles_reaches_an_attached_client() {
    let w = World::new();
    w.ok(&[
        "new-session",
        "-d",
        "-s",
        "ti",
        "--",
        "sh",
        "-c",
        "printf READY; exec cat",
    ]);
    let t = w.tui(&["attach", "-t", "ti"], 80, 24);
    t.wait_text("READY");
    assert!(
        find(&t.raw(), b"\x1b]0;").is_none(),
        "a title before set-titles"
    );
    w.ok(&["set", "-g", "set-titles-string", "fugue #S"]);
    w.ok(&["set", "-g", "set-titles", "on"]);
    t.wait_raw("the title", |raw| {
        find(raw, b"\x1b]0;fugue ti\x07").is_some()
    });
}

/// `set -g buffer-limit 2`: the next copies keep two automatic buffers.
#[test]
fn buffer_limit_applies_to_the_next_buffer() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "b"]);
    w.ok(&["set", "-g", "buffer-limit", "2"]);
    for text in ["one", "two", "three"] {
        w.ok(&["set-buffer", text]);
    }
    let list = w.ok(&["list-buffers"]);
    assert_eq!(list.lines().count(), 2, "{list}");
    assert!(!list.contains("one"), "{list}");
}

/// An option read only at start says so, and a window option set per window is the
/// window's alone (`show -w` on another window inherits).
#[test]
fn startup_options_are_refused_and_window_values_stay_in_their_window() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "s"]);
    w.ok(&["new-window", "-d", "-t", "s"]);
    let err = fails(&w, &["set", "-s", "max-connections", "9"]);
    assert!(err.contains("server.max_connections"), "{err}");
    w.ok(&["setw", "-t", "s:0", "mode-keys", "emacs"]);
    assert_eq!(
        w.ok(&["showw", "-t", "s:0", "mode-keys"]),
        "mode-keys emacs\n"
    );
    assert_eq!(w.ok(&["showw", "-t", "s:1", "mode-keys"]), "");
    assert_eq!(
        w.ok(&["showw", "-A", "-t", "s:1", "mode-keys"]),
        "mode-keys* vi\n"
    );
    w.ok(&["setw", "-u", "-t", "s:0", "mode-keys"]);
    assert_eq!(w.ok(&["showw", "-t", "s:0"]), "");
}

/// Theme packs build styles from chains of options (issue 28, item 4): `set -F` and
/// formats see user options, other options (a flag as 1 or 0) and the environment,
/// and `set -o -q` on an option already set is a quiet no-op; all as tmux 3.3a, with
/// its output beside fugue's.
#[test]
fn formats_see_options_and_the_environment_as_theme_packs_need() {
    use super::manage_panes::{Twins, code};
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s"]);
    tw.both(&["set", "-g", "@a", "Q"]);
    tw.both(&["set", "-gF", "@b", "x#{@a}y"]);
    assert_eq!(tw.same(&["show", "-gv", "@b"]), "xQy\n");
    tw.both(&["set", "-gF", "@c", "#{?synchronize-panes,on,off}-#{@b}"]);
    assert_eq!(tw.same(&["show", "-gv", "@c"]), "off-xQy\n");
    let (mine, theirs) = tw.run(&["set", "-o", "-q", "-g", "@a", "Z"]);
    assert_eq!(code(&mine), Some(0), "{mine:?}");
    if let Some(t) = theirs {
        assert_eq!(code(&t), Some(0));
    }
    assert_eq!(tw.same(&["show", "-gv", "@a"]), "Q\n");
    let (mine, _) = tw.run(&["set", "-o", "-g", "@a", "Z"]);
    assert_eq!(code(&mine), Some(1), "without -q it is still an error");
    tw.both(&["set-environment", "-g", "MYENV", "hello"]);
    assert_eq!(
        tw.same(&["display-message", "-p", "env=#{MYENV}"]),
        "env=hello\n"
    );
    tw.both(&["set", "-gF", "@e", "#{MYENV}-#{@a}"]);
    assert_eq!(tw.same(&["show", "-gv", "@e"]), "hello-Q\n");
    // A config's assignments (item 7): the environment, and the file's later `$NAME`s.
    let conf = tw.w.path("assign.conf");
    std::fs::write(
        &conf,
        "THEME=dark\n%hidden ACCENT=blue\nset -g @t \"$THEME-$ACCENT\"\n",
    )
    .unwrap();
    tw.both(&["source-file", conf.to_str().unwrap()]);
    assert_eq!(tw.same(&["show", "-gv", "@t"]), "dark-blue\n");
    assert_eq!(
        tw.same(&["show-environment", "-g", "THEME"]),
        "THEME=dark\n"
    );
    assert_eq!(
        tw.same(&["show-environment", "-gh", "ACCENT"]),
        "ACCENT=blue\n"
    );
}

/// How a plugin manager works (issue 28, items 2 and 3): a config sets the plugin's
/// options, then `run`s it; the job's `tmux` calls reach the server that runs it and
/// see the lines above. `if-shell` jobs have `TMUX`. The same file in tmux 3.3a gives
/// the same.
#[test]
fn jobs_reach_their_server_and_see_the_lines_above_them() {
    use super::manage_panes::Twins;
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s"]);
    let conf = tw.w.path("plugins.conf");
    let out = |side: &str| tw.w.path(&format!("out-{side}"));
    for side in ["fugue", "tmux"] {
        std::fs::write(
            &conf,
            format!(
                "set -g @plugin-opt line1\nrun \"tmux show-options -gqv @plugin-opt > {}\"\nif-shell '[ -n \"$TMUX\" ]' 'set -g @in-tmux yes' 'set -g @in-tmux no'\n",
                out(side).display()
            ),
        )
        .unwrap();
        match side {
            "fugue" => {
                tw.w.ok(&["source-file", conf.to_str().unwrap()]);
            }
            _ => match &tw.t {
                Some(t) => {
                    t.ok(&["source-file", conf.to_str().unwrap()]);
                }
                None => continue,
            },
        }
        assert_eq!(
            std::fs::read_to_string(out(side)).unwrap(),
            "line1\n",
            "{side}"
        );
    }
    assert_eq!(tw.same(&["show", "-gv", "@in-tmux"]), "yes\n");
    // A job run from the CLI reaches this server, not the default one.
    tw.both(&["run-shell", "tmux set -g @from-job ok"]);
    assert_eq!(tw.same(&["show", "-gv", "@from-job"]), "ok\n");
}

/// Session managers and theme packs read options and the environment through
/// `list-windows -F` and `list-panes -F`, and a window given its name has
/// `automatic-rename off` of its own (issue 28, item 6): compared with tmux 3.3a.
#[test]
fn listings_see_options_and_a_named_window_keeps_its_name() {
    use super::manage_panes::Twins;
    let tw = Twins::empty();
    tw.both(&["new-session", "-d", "-s", "s", "-n", "main"]);
    tw.both(&["set", "-g", "@theme", "blue"]);
    tw.both(&["set-environment", "-g", "MYENV", "hello"]);
    tw.both(&["new-window", "-d", "-t", "s:1"]);
    tw.both(&["new-window", "-d", "-n", "named", "-t", "s:2"]);
    assert_eq!(
        tw.same(&["show", "-wv", "-t", "s:named", "automatic-rename"]),
        "off\n"
    );
    let listing = "#{window_index} #{automatic-rename} #{?automatic-rename,auto,fixed} #{@theme} #{MYENV} #{synchronize-panes}";
    assert_eq!(
        tw.same(&["list-windows", "-t", "s", "-F", listing]),
        "0 0 fixed blue hello 0\n1 1 auto blue hello 0\n2 0 fixed blue hello 0\n"
    );
    assert_eq!(
        tw.same(&[
            "list-windows",
            "-t",
            "s",
            "-f",
            "#{automatic-rename}",
            "-F",
            "#{window_index}"
        ]),
        "1\n",
        "a filter sees the options too"
    );
    tw.both(&["set", "-w", "-t", "s:2", "synchronize-panes", "on"]);
    assert_eq!(
        tw.same(&[
            "list-panes",
            "-s",
            "-t",
            "s",
            "-F",
            "#{window_index} #{synchronize-panes} #{@theme}"
        ]),
        "0 0 blue\n1 0 blue\n2 1 blue\n"
    );
    tw.both(&["set", "-w", "-t", "s:2", "automatic-rename", "on"]);
    tw.both(&["set", "-g", "automatic-rename", "off"]);
    tw.both(&["new-window", "-d", "-t", "s:3"]);
    assert_eq!(
        tw.same(&["list-windows", "-t", "s", "-F", "#{automatic-rename}"]),
        "0\n0\n1\n0\n"
    );
}

/// fugue passes focus events to every program that asks, so `focus-events` says `on`:
/// Claude Code reads it and otherwise tells the person to set it (issue 27, item 6).
#[test]
fn focus_events_says_what_fugue_does() {
    let w = World::new();
    w.ok(&["new-session", "-d", "-s", "f"]);
    assert_eq!(w.ok(&["show-options", "-gv", "focus-events"]), "on\n");
    assert_eq!(w.ok(&["display-message", "-p", "#{focus-events}"]), "1\n");
}
