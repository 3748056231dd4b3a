//! The format engine against real tmux: the same formats through `display-message -p`
//! and `list-panes -F` on a tmux session shaped like a fugue session (same names,
//! sizes, splits), compared in the same run.

use super::harness::{World, eventually};

/// Formats over variables both know, and every construct of the language.
const FORMATS: &[&str] = &[
    "#{session_name}:#{window_index}.#{pane_index} #S:#I.#P #W",
    "#{pane_dead}#{pane_in_mode}#{alternate_on} [#{no_such_variable}]",
    "#{window_zoomed_flag} #{window_flags} #F",
    "#{?pane_active,active,inactive} #{?#{==:#{session_name},fmt},yes,no}",
    "#{?window_zoomed_flag,Z,} #{?1,a,b} #{?,a,b} #{?#{pane_index},x#,y,z}",
    "#{==:#{window_name},work}#{!=:a,b}#{<:a,b}#{>:a,b}#{<=:b,b}#{>=:a,b}",
    "#{||:#{pane_active},0}#{&&:#{pane_active},0}#{m:f*,#{session_name}}",
    "#{m/r:^f.t$,#{session_name}}#{m/ri:^FMT,#{session_name}}#{m:x*,fmt}",
    "#{=2:window_name}|#{=-2:window_name}|#{=/2/...:window_name}|#{=|3|~:session_name}",
    "#{p7:window_name}|#{p-7:window_name}|#{=2;p4:window_name}|",
    "#{s/o/0/:window_name} #{s/(w)(o)/\\2\\1/:window_name} #{s/W/_/i:window_name}",
    "#{n:window_name} #{w:window_name} #{n;=2:window_name}",
    "#{l:#{session_name}} #{a:65} #{E:#{l:#S}} ##,#},#x",
    "#{q:#{l:x}} #{b:#{l:/a/b}}",
    "#{window_active} #{pane_active} #{window_width}x#{window_height} #{pane_top}",
    "#{e|+|:#{window_width},#{window_height}} #{e|*|:#{pane_index},3} #{e|/|f|3:#{window_width},7}",
    "#{e|m|:#{window_width},7} #{e|-|:#{pane_top},5} #{e|>=|:#{window_width},40}",
    "#{pane_at_left}#{pane_at_right}#{pane_at_top}#{pane_at_bottom} #{window_activity_flag}#{window_silence_flag}#{window_bell_flag}",
];

/// Formats that need the whole session: `display-message -p` reads back only its
/// pane, so these are compared through `list-panes -s` (which lists them all). Pane
/// sizes are left out: fugue's panes have borders of their own, so a split of 80
/// columns is 38+38 inside boxes where tmux's is 40+39 with one separator.
const SESSION_FORMATS: &[&str] = &[
    "#{session_windows} #{window_panes}",
    "#{W:#I:#W ,[#I:#W] } #{S:<#S>} #{P:#P,(#P)}",
    "#{W:#{window_panes}.#{P:#{pane_index}#{pane_active}}|}",
];

fn tmux(w: &World, args: &[&str]) -> String {
    let out = std::process::Command::new("tmux")
        .env("TMUX_TMPDIR", w.dir.path())
        .env_remove("TMUX")
        .args(["-L", "fmt", "-f", "/dev/null"])
        .args(args)
        .output()
        .expect("tmux");
    assert!(out.status.success(), "tmux {args:?}: {out:?}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn have_tmux() -> bool {
    std::process::Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn formats_match_tmux() {
    if !have_tmux() {
        eprintln!("tmux is not installed: nothing to compare with");
        return;
    }
    let w = World::new();
    // Session fmt: window 0 "work" split left/right, window 1 "other"; the same in
    // both, window 0 and its left pane current.
    w.ok(&["new-session", "-d", "-s", "fmt", "-x", "80", "-y", "24"]);
    w.ok(&["rename-window", "-t", "fmt:0", "work"]);
    w.ok(&["split-window", "-h", "-t", "fmt:0"]);
    w.ok(&["new-window", "-t", "fmt", "-n", "other"]);
    w.ok(&["select-window", "-t", "fmt:0"]);
    w.ok(&["select-pane", "-t", "fmt:0.0"]);
    tmux(
        &w,
        &["new-session", "-d", "-s", "fmt", "-x", "80", "-y", "24"],
    );
    tmux(&w, &["set", "-g", "automatic-rename", "off"]);
    tmux(&w, &["rename-window", "-t", "fmt:0", "work"]);
    tmux(&w, &["split-window", "-h", "-t", "fmt:0"]);
    tmux(&w, &["new-window", "-t", "fmt", "-n", "other"]);
    tmux(&w, &["select-window", "-t", "fmt:0"]);
    tmux(&w, &["select-pane", "-t", "fmt:0.0"]);

    let mut diffs = Vec::new();
    for f in FORMATS {
        for target in ["fmt:0.0", "fmt:0.1", "fmt:1.0"] {
            let ours = w.ok(&["display-message", "-p", "-t", target, f]);
            let theirs = tmux(&w, &["display-message", "-p", "-t", target, f]);
            if ours != theirs {
                diffs.push(format!(
                    "{target} {f}\n  fugue: {ours:?}\n  tmux:  {theirs:?}"
                ));
            }
        }
        let ours = w.ok(&["list-panes", "-s", "-t", "fmt", "-F", f]);
        let theirs = tmux(&w, &["list-panes", "-s", "-t", "fmt", "-F", f]);
        if ours != theirs {
            diffs.push(format!(
                "list-panes {f}\n  fugue: {ours:?}\n  tmux:  {theirs:?}"
            ));
        }
    }
    for f in SESSION_FORMATS {
        let ours = w.ok(&["list-panes", "-s", "-t", "fmt", "-F", f]);
        let theirs = tmux(&w, &["list-panes", "-s", "-t", "fmt", "-F", f]);
        if ours != theirs {
            diffs.push(format!(
                "list-panes {f}\n  fugue: {ours:?}\n  tmux:  {theirs:?}"
            ));
        }
    }
    let _ = std::process::Command::new("tmux")
        .env("TMUX_TMPDIR", w.dir.path())
        .args(["-L", "fmt", "kill-server"])
        .output();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// The formats tmux reads from a pane's terminal (libtmux asks for every one of them)
/// have tmux's values, side by side with tmux: modes a program set, the cursor
/// `?1049h` saved (tmux's UINT_MAX before any), tab stops, and the pane's own flags.
#[test]
fn a_panes_terminal_modes_read_as_in_tmux() {
    use super::manage_panes::Twins;
    const FMT: &str = "#{alternate_saved_x}|#{alternate_saved_y}|#{cursor_flag}|#{insert_flag}|#{keypad_cursor_flag}|#{keypad_flag}|#{mouse_all_flag}|#{mouse_any_flag}|#{mouse_button_flag}|#{mouse_sgr_flag}|#{mouse_standard_flag}|#{mouse_utf8_flag}|#{origin_flag}|#{wrap_flag}|#{scroll_region_upper}|#{scroll_region_lower}|#{pane_tabs}|#{pane_fg}|#{pane_bg}";
    let programs = [
        // Everything on, the cursor at row 1 column 4 when ?1049h saves it.
        "printf 'abc\\n  de\\033[?1049h\\033[5;10r\\033[?1h\\033=\\033[?1002h\\033[?1006h\\033[4h\\033[?7l\\033[?6h\\033[?25l\\033[3g\\033[1;20H\\033H'; exec cat",
        "printf '\\033[?1000h\\033[?1005h\\033[2;6r'; exec cat",
        "printf '\\033[?1003h\\033[?1049h\\033[?1049l\\033[1;20r'; exec cat",
    ];
    for (n, program) in programs.iter().enumerate() {
        let tw = Twins::empty();
        let name = format!("m{n}");
        tw.both(&[
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "80",
            "-y",
            "24",
            program,
        ]);
        let read = |t: &dyn Fn(&[&str]) -> String| {
            eventually("the program's modes", || {
                let out = t(&["display-message", "-p", "-t", &name, FMT]);
                // The last sequence printed has taken effect.
                (!out.starts_with("4294967295|4294967295|1|0|0|0|0|0")).then_some(out)
            })
        };
        let mine = read(&|a| tw.w.ok(a));
        if let Some(t) = &tw.t {
            assert_eq!(mine, read(&|a| t.ok(a)), "program {n}: fugue, then tmux");
        }
        assert_eq!(
            mine,
            tw.w.ok(&["list-panes", "-t", &name, "-F", FMT]),
            "display -p and list-panes -F agree"
        );
    }
    // The pane's own flags.
    let tw = Twins::empty();
    tw.both(&[
        "new-session",
        "-d",
        "-s",
        "f",
        "-x",
        "80",
        "-y",
        "24",
        "-c",
        "/tmp",
        "cat",
    ]);
    tw.both(&["split-window", "-t", "f", "-c", "/", "cat"]);
    tw.both(&["set-option", "-w", "-t", "f", "synchronize-panes", "on"]);
    tw.both(&["pipe-pane", "-t", "f:0.0", "cat > /dev/null"]);
    let flags = "#{pane_index}:#{pane_last}:#{pane_synchronized}:#{pane_pipe}:#{pane_start_path}";
    assert_eq!(
        tw.same(&["list-panes", "-t", "f", "-F", flags]),
        "0:1:1:1:/tmp\n1:0:1:0:/\n"
    );
    let tty =
        tw.w.ok(&["display-message", "-p", "-t", "f", "#{pane_tty}"]);
    assert!(tty.starts_with("/dev/pts/"), "{tty}");
}

/// `display-message -a` lists the variables with their values as tmux's does
/// (`name=value`, sorted), and `-v` shows the expansion before its result.
#[test]
fn display_message_a_and_v_as_in_tmux() {
    use super::manage_panes::Twins;
    let tw = Twins::empty();
    tw.both(&[
        "new-session",
        "-d",
        "-s",
        "dm",
        "-n",
        "w",
        "-x",
        "80",
        "-y",
        "24",
    ]);
    let check = |out: &str, who: &str| {
        let lines: Vec<&str> = out.lines().collect();
        if who == "fugue" {
            // (tmux's values may span lines.)
            let mut sorted = lines.clone();
            sorted.sort_unstable();
            assert_eq!(lines, sorted, "{who}: sorted");
        }
        for want in [
            "session_name=dm",
            "window_name=w",
            "pane_index=0",
            "window_width=80",
        ] {
            assert!(lines.contains(&want), "{who}: {want} in {out}");
        }
    };
    check(
        &tw.w.ok(&["display-message", "-p", "-a", "-t", "dm"]),
        "fugue",
    );
    if let Some(t) = &tw.t {
        check(&t.ok(&["display-message", "-p", "-a", "-t", "dm"]), "tmux");
    }
    let verbose = |out: String| -> (String, String) {
        let lines: Vec<&str> = out.lines().collect();
        (
            lines.first().copied().unwrap_or_default().to_string(),
            lines.last().copied().unwrap_or_default().to_string(),
        )
    };
    let mine = verbose(tw.w.ok(&["display-message", "-p", "-v", "-t", "dm", "#{session_name}"]));
    assert_eq!(
        mine,
        ("# expanding format: #{session_name}".into(), "dm".into())
    );
    if let Some(t) = &tw.t {
        assert_eq!(
            mine,
            verbose(t.ok(&["display-message", "-p", "-v", "-t", "dm", "#{session_name}"]))
        );
    }
}

/// `capture-pane -e` writes colours as tmux does, side by side: a change of colour
/// alone (`\e[31m`, back with `\e[39m`), 256 and RGB colours, no reset at the end
/// of a line (libtmux looks for `\e[31m` in what it captures). Only changes that
/// tmux 3.3a and 3.5 write alike; the reset cases are in fugue-protocol's tests.
#[test]
fn capture_e_writes_colours_as_tmux() {
    use super::manage_panes::Twins;
    let tw = Twins::empty();
    let program = "printf '\\033[31mRED\\033[0m plain \\033[32mG\\033[38;5;100mX\\033[48;2;1;2;3mY\\nnext'; exec cat";
    tw.both(&[
        "new-session",
        "-d",
        "-s",
        "ce",
        "-x",
        "40",
        "-y",
        "5",
        program,
    ]);
    let capture = |t: &dyn Fn(&[&str]) -> String| {
        eventually("the program's output", || {
            // The first two lines (fugue's pane is shorter by its borders).
            let out = t(&["capture-pane", "-p", "-e", "-t", "ce", "-E", "1"]);
            out.contains("next").then_some(out)
        })
    };
    let mine = capture(&|a| tw.w.ok(a));
    assert!(
        mine.starts_with("\x1b[31mRED\x1b[39m plain \x1b[32mG\x1b[38;5;100mX\x1b[48;2;1;2;3mY\n"),
        "{mine:?}"
    );
    if let Some(t) = &tw.t {
        assert_eq!(mine, capture(&|a| t.ok(a)));
    }
}
